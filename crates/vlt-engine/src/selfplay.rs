//! Engine-versus-engine games for tuning and quick matches inside the crate: balanced random
//! openings, each played both ways round, results from the game's end (R6, R7).

use crate::{Engine, Level, Limits, Stop};
use vlt_core::playout::SplitMix64;
use vlt_core::{Game, Player, Position};

/// The most moves a self-play game may last before it is scored as it stands (R7 ends every
/// endless game much earlier in practice; this only bounds pathological ones).
pub const MAX_GAME_MOVES: usize = 600;

/// How a side chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chooser {
    /// A search within these limits.
    Search(Limits),
    /// [`Engine::play_level`].
    Level(Level),
}

/// A random opening: `plies` uniformly random moves from the start, kept only if a shallow search
/// scores it within `max_abs` stones for the player to move, and no capture happened (so both
/// sides start level). Deterministic in `seed`.
#[must_use]
pub fn random_opening(seed: u64, plies: u32, max_abs: i32) -> Position {
    let mut rng = SplitMix64(seed);
    let mut probe = Engine::new(crate::EngineConfig { hash_mb: 1, ..crate::EngineConfig::default() });
    loop {
        let mut p = Position::START;
        for _ in 0..plies {
            let m = p.legal_moves();
            let mv = m.nth_move(rng.below(m.len() as u32) as usize).expect("moves");
            p = p.play_unchecked(mv);
        }
        if p.captured(Player::B) + p.captured(Player::A) > 0 || p.is_game_over() {
            continue;
        }
        let lim = Limits { depth: Some(8), ..Limits::default() };
        let r = probe.search(&Game::new(p), &lim, &Stop::new(), &mut |_| {}).expect("moves");
        if r.info.score.abs() <= max_abs {
            return p;
        }
    }
}

/// Plays one game from `start`, `engines[0]` moving for B and `engines[1]` for A.
pub fn play_game(engines: [&mut Engine; 2], choosers: [Chooser; 2], start: Position, seed: u64) -> Game {
    let mut game = Game::new(start);
    let mut rng = SplitMix64(seed);
    while !game.is_over() && game.moves().len() < MAX_GAME_MOVES {
        let side = game.position().to_move().index();
        let mv = match choosers[side] {
            Chooser::Search(l) => {
                engines[side].search(&game, &l, &Stop::new(), &mut |_| {}).expect("not over").best
            }
            Chooser::Level(lv) => engines[side].play_level(&game, lv, rng.next_u64()),
        };
        game.play(mv).expect("engines play legal moves");
    }
    game
}

/// Score of a game for the B side: 1, ½ or 0 (more captures wins, R6/R7).
#[must_use]
pub fn score_for_b(game: &Game) -> f64 {
    let p = game.position();
    match p.captured(Player::B).cmp(&p.captured(Player::A)) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Less => 0.0,
        std::cmp::Ordering::Equal => 0.5,
    }
}

/// A match's tally from the first player's side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games won by the first player.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games lost by the first player.
    pub losses: u32,
}

impl Tally {
    /// Games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
    /// The first player's score, 0..1.
    #[must_use]
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games().max(1))
    }
    /// The Elo difference the score implies (clamped at ±800).
    #[must_use]
    pub fn elo(&self) -> f64 {
        let s = self.score().clamp(0.001, 0.999);
        (-400.0 * (1.0 / s - 1.0).log10()).clamp(-800.0, 800.0)
    }
}

/// Plays `pairs` openings, each both ways round, first against second; returns the first's tally.
/// Engine tables are cleared before each game so games are independent and reproducible.
pub fn play_match(
    first: &mut Engine,
    second: &mut Engine,
    choosers: [Chooser; 2],
    pairs: u32,
    seed: u64,
    mut on_game: impl FnMut(u32, &Game, &Tally),
) -> Tally {
    let mut t = Tally::default();
    for i in 0..pairs {
        let opening = random_opening(seed.wrapping_add(u64::from(i)), 4, 1);
        for first_is_b in [true, false] {
            first.clear();
            second.clear();
            let g = if first_is_b {
                play_game([&mut *first, &mut *second], choosers, opening, seed ^ u64::from(i))
            } else {
                play_game(
                    [&mut *second, &mut *first],
                    [choosers[1], choosers[0]],
                    opening,
                    seed ^ u64::from(i),
                )
            };
            let s = if first_is_b { score_for_b(&g) } else { 1.0 - score_for_b(&g) };
            if s > 0.75 {
                t.wins += 1;
            } else if s < 0.25 {
                t.losses += 1;
            } else {
                t.draws += 1;
            }
            on_game(2 * i + u32::from(!first_is_b), &g, &t);
        }
    }
    t
}
