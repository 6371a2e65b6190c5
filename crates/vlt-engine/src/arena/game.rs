//! One arena game: two contestants from a start position, on an optional clock, until the game
//! ends (R6, R7), a contestant loses on time, the move cap is reached, or (when asked) the winner
//! can no longer change.

use super::ArenaError;
use super::clock::{Clocks, TimeControl};
use super::contestant::Contestant;
use std::cmp::Ordering;
use std::time::{Duration, Instant};
use vlt_core::{ByPlayer, Game, Player, Position};

/// How the games of a match are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRules {
    /// A game still running after this many moves is scored by its captures (R7 ends endless
    /// games long before).
    pub max_moves: usize,
    /// A clock for each player; a move that takes longer than the mover's time left loses.
    pub time_control: Option<TimeControl>,
    /// Stop a game once a player has captured more than half of all the stones ([`decided`]).
    pub adjudicate: bool,
}

impl Default for GameRules {
    fn default() -> Self {
        GameRules { max_moves: 1000, time_control: None, adjudicate: false }
    }
}

/// How a game stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules (R6, R7) or a time forfeit: [`Game::result`] says how.
    Finished,
    /// Adjudicated: this player has captured more than half of the stones.
    Adjudicated(Player),
    /// Stopped at the move cap.
    Capped,
}

/// A game as played, and what each side spent thinking.
#[derive(Clone, Debug)]
pub struct Played {
    /// The game.
    pub game: Game,
    /// How it stopped.
    pub ending: Ending,
    /// Thinking time of each side.
    pub time: ByPlayer<Duration>,
    /// Moves each side chose (a move that came too late counts).
    pub moves: ByPlayer<u32>,
}

/// The player who has captured more than half of all the stones (on the board and captured):
/// whatever happens next, it ends with more captures than the other (R6; R7 gives the board to
/// nobody).
#[must_use]
pub fn decided(p: Position) -> Option<Player> {
    let total = p.stones_on_board() + u32::from(p.captured(Player::B)) + u32::from(p.captured(Player::A));
    [Player::B, Player::A].into_iter().find(|&x| 2 * u32::from(p.captured(x)) > total)
}

/// Plays one game from `start`; `contestants[0]` moves for B, `contestants[1]` for A.
///
/// # Errors
/// [`ArenaError::Contestant`] when a contestant cannot move, [`ArenaError::IllegalMove`] when it
/// answers a move the rules refuse.
pub fn play_game(
    contestants: [&mut dyn Contestant; 2],
    start: Position,
    rules: &GameRules,
) -> Result<Played, ArenaError> {
    let mut game = Game::new(start);
    let mut clocks = rules.time_control.map(Clocks::new);
    let (mut time, mut moves) = (ByPlayer::<Duration>::default(), ByPlayer::<u32>::default());
    let ending = loop {
        if game.is_over() {
            break Ending::Finished;
        }
        if game.moves().len() >= rules.max_moves {
            break Ending::Capped;
        }
        if let Some(w) = decided(game.position()).filter(|_| rules.adjudicate) {
            break Ending::Adjudicated(w);
        }
        let mover = game.position().to_move();
        let side = mover.index();
        let t = Instant::now();
        let mv = contestants[side]
            .choose(&game, clocks.as_ref())
            .map_err(|error| ArenaError::Contestant { side: mover, error })?;
        let used = t.elapsed();
        time[mover] += used;
        moves[mover] += 1;
        if let Some(c) = clocks.as_mut() {
            if !c.charge(mover, used) {
                game.lose_on_time(mover).expect("the game is not over");
                break Ending::Finished;
            }
        }
        game.play(mv).map_err(|error| ArenaError::IllegalMove { side: mover, mv, error })?;
    };
    Ok(Played { game, ending, time, moves })
}

/// The score of `side` in a game: 1, ½ or 0 by the result (R6, R7: the captures; or a time
/// forfeit), or by the captures when the game was stopped unfinished (as R7 would score it now;
/// a decided game will end so).
#[must_use]
pub fn score_for(game: &Game, side: Player) -> f64 {
    let Some(r) = game.result() else {
        let p = game.position();
        return match p.captured(side).cmp(&p.captured(side.other())) {
            Ordering::Greater => 1.0,
            Ordering::Equal => 0.5,
            Ordering::Less => 0.0,
        };
    };
    match r.winner {
        Some(w) if w == side => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::ContestantError;
    use vlt_core::Move;

    /// Plays the first legal move after `delay`.
    struct Slow(Duration);

    impl Contestant for Slow {
        fn choose(&mut self, game: &Game, _: Option<&Clocks>) -> Result<Move, ContestantError> {
            std::thread::sleep(self.0);
            Ok(game.position().legal_moves().nth_move(0).expect("a legal move"))
        }
    }

    /// Always answers hole 1 of B, legal or not.
    struct Stubborn;

    impl Contestant for Stubborn {
        fn choose(&mut self, _: &Game, _: Option<&Clocks>) -> Result<Move, ContestantError> {
            Ok("1B".parse().expect("a move"))
        }
    }

    #[test]
    fn the_slow_player_loses_on_time() {
        let tc = TimeControl { base: Duration::from_millis(100), increment: Duration::ZERO };
        let rules = GameRules { time_control: Some(tc), ..GameRules::default() };
        // A spends 60 ms a move: its second move overdraws its 100 ms.
        let (mut fast, mut slow) = (Slow(Duration::ZERO), Slow(Duration::from_millis(60)));
        let played = play_game([&mut fast, &mut slow], Position::START, &rules).unwrap();
        let r = played.game.result().expect("the game ended");
        assert_eq!(r.termination, vlt_core::Termination::TimeForfeit(Player::A));
        assert_eq!(played.ending, Ending::Finished);
        assert_eq!(
            played.moves,
            ByPlayer::new(2, 2),
            "B moved twice, A once plus the move that came too late"
        );
        assert_eq!(played.game.moves().len(), 3);
        assert_eq!(score_for(&played.game, Player::B), 1.0);
        // Without a clock the same contestants play on, to the move cap.
        let rules = GameRules { max_moves: 6, ..GameRules::default() };
        let played = play_game([&mut fast, &mut slow], Position::START, &rules).unwrap();
        assert_eq!((played.game.moves().len(), played.ending), (6, Ending::Capped));
    }

    #[test]
    fn a_game_is_decided_past_half_the_stones() {
        // 60 stones in all: 31 captured wins whatever the 11 on the board do; 30 does not.
        let p: Position = "1,0,0,0,0,0/0,0,0,0,0,10 B 31 18".parse().unwrap();
        assert_eq!(decided(p), Some(Player::B));
        let p: Position = "2,0,0,0,0,0/0,0,0,0,0,10 A 18 30".parse().unwrap();
        assert_eq!(decided(p), None);
        let p: Position = "2,0,0,0,0,0/0,0,0,0,0,0 A 2 10".parse().unwrap();
        assert_eq!(decided(p), Some(Player::A), "half of 14 is 7");
        // An adjudicated game stops before any move and scores for the player it was decided for.
        let rules = GameRules { adjudicate: true, ..GameRules::default() };
        let (mut x, mut y) = (Slow(Duration::ZERO), Slow(Duration::ZERO));
        let start: Position = "1,0,0,0,0,0/0,0,0,0,0,10 B 31 18".parse().unwrap();
        let played = play_game([&mut x, &mut y], start, &rules).unwrap();
        assert!(played.game.moves().is_empty() && !played.game.is_over());
        assert_eq!(played.ending, Ending::Adjudicated(Player::B));
        assert_eq!(score_for(&played.game, Player::B), 1.0);
    }

    #[test]
    fn an_illegal_answer_is_an_error_naming_the_side() {
        // After B's first move it is A's turn: 1B is not A's to play (R3).
        let (mut x, mut y) = (Slow(Duration::ZERO), Stubborn);
        let e = play_game([&mut x, &mut y], Position::START, &GameRules::default()).unwrap_err();
        assert!(matches!(e, ArenaError::IllegalMove { side: Player::A, .. }), "{e}");
        assert!(e.to_string().starts_with("player A chose 1B: "), "{e}");
    }

    #[test]
    fn a_time_forfeit_loses_whatever_the_captures() {
        let mut g = Game::new("1,0,0,0,0,0/0,0,0,0,0,1 B 40 18".parse().unwrap());
        g.lose_on_time(Player::B).unwrap();
        assert_eq!(score_for(&g, Player::B), 0.0);
        assert_eq!(score_for(&g, Player::A), 1.0);
    }

    #[test]
    fn score_is_by_captures() {
        let g = Game::new("0,0,0,0,0,0/0,0,0,0,0,0 B 31 29".parse().unwrap());
        assert_eq!(score_for(&g, Player::B), 1.0);
        assert_eq!(score_for(&g, Player::A), 0.0);
        let g = Game::new("0,0,0,0,0,0/0,0,0,0,0,0 A 30 30".parse().unwrap());
        assert_eq!(score_for(&g, Player::A), 0.5);
    }
}
