//! Game review: every move of a game judged against the engine's (or the tables') best.
//!
//! Each position of the game is analysed with [`Engine::analyse`] (every legal move valued; the
//! endgame tables answer exactly where they reach). A move's *loss* is the best move's value minus
//! the played move's value, in stones of future capture difference for the mover (the unit of all
//! engine scores: giving one stone to the opponent instead of taking it costs 2). The loss gives
//! the move its [`Class`]; the classes give each player a summary and an accuracy. See
//! `docs/review.md`.

use crate::{Engine, Limits, SearchInfo, Stop};
use vlt_core::{ByPlayer, Game, Move, Player};

/// Highest loss (stones) of a [`Class::Good`] move: one stone given away.
pub const GOOD_MAX_LOSS: i32 = 2;
/// Highest loss of a [`Class::Inaccuracy`]: two stones given away.
pub const INACCURACY_MAX_LOSS: i32 = 4;
/// Highest loss of a [`Class::Mistake`]; anything more is a [`Class::Blunder`].
pub const MISTAKE_MAX_LOSS: i32 = 8;
/// The loss (stones) that halves a move's accuracy score: `100 * 2^(-loss / ACCURACY_HALF_LOSS)`.
pub const ACCURACY_HALF_LOSS: f64 = 4.0;

/// How good a move was, by the stones it gave away against the best move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[repr(u8)]
pub enum Class {
    /// As good as the best move (loss 0).
    Best = 0,
    /// Loss 1–2 ([`GOOD_MAX_LOSS`]).
    Good = 1,
    /// Loss 3–4 ([`INACCURACY_MAX_LOSS`]).
    Inaccuracy = 2,
    /// Loss 5–8 ([`MISTAKE_MAX_LOSS`]).
    Mistake = 3,
    /// Loss 9 or more.
    Blunder = 4,
}

impl Class {
    /// Every class, best first.
    pub const ALL: [Class; 5] = [Class::Best, Class::Good, Class::Inaccuracy, Class::Mistake, Class::Blunder];

    /// The class of a move that gave away `loss` stones.
    #[must_use]
    pub fn of_loss(loss: i32) -> Class {
        match loss {
            i32::MIN..=0 => Class::Best,
            1..=GOOD_MAX_LOSS => Class::Good,
            _ if loss <= INACCURACY_MAX_LOSS => Class::Inaccuracy,
            _ if loss <= MISTAKE_MAX_LOSS => Class::Mistake,
            _ => Class::Blunder,
        }
    }

    /// The lowercase name (as in JSON).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Best => "best",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }
}

impl std::fmt::Display for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One move judged.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoveReview {
    /// The move's number in the game, from 1 (plies: passes, R5, let a player move twice).
    pub ply: usize,
    /// Who played it.
    #[cfg_attr(feature = "serde", serde(with = "player_letter"))]
    pub player: Player,
    /// The move played.
    #[cfg_attr(feature = "serde", serde(rename = "move", with = "move_name"))]
    pub mv: Move,
    /// The best move (the tables' or the engine's choice; the played one when it is as good).
    #[cfg_attr(feature = "serde", serde(with = "move_name"))]
    pub best: Move,
    /// The played move's value for its player: stones of capture difference from here to the end.
    pub played_value: i32,
    /// The best move's value, in the same unit.
    pub best_value: i32,
    /// `best_value - played_value`: the stones given away (never negative).
    pub loss: i32,
    /// True when both values are proven: from the tables, or a search that reached the end (R6,
    /// R7) on every line.
    pub exact: bool,
    /// The class of the loss.
    pub class: Class,
    /// How many legal moves there were (1: a forced move, which is never held against a player).
    pub choices: usize,
    /// The predicted final capture difference B − A after this move: the captures so far plus
    /// the played move's value (as B sees it). Before the first move see [`Review::start_eval`].
    pub eval_after: i32,
    /// The best line from the position before the move, best move first.
    #[cfg_attr(feature = "serde", serde(with = "move_names"))]
    pub pv: Vec<Move>,
}

/// One player's summary.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PlayerSummary {
    /// Moves played.
    pub moves: usize,
    /// Moves with a choice (more than one legal move): the ones accuracy counts.
    pub choices: usize,
    /// Mean of `100 * 2^(-loss / 4)` over the moves with a choice (100 when there was none), one
    /// decimal.
    pub accuracy: f64,
    /// Stones given away in all, over every move.
    pub total_loss: i32,
    /// Moves of each class.
    pub counts: ClassCounts,
    /// Moves whose values are exact.
    pub exact: usize,
}

/// How many moves fell in each class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[allow(missing_docs)] // One field a class, named as the class.
pub struct ClassCounts {
    pub best: usize,
    pub good: usize,
    pub inaccuracy: usize,
    pub mistake: usize,
    pub blunder: usize,
}

impl ClassCounts {
    /// The count of `class`.
    #[must_use]
    pub fn get(&self, class: Class) -> usize {
        match class {
            Class::Best => self.best,
            Class::Good => self.good,
            Class::Inaccuracy => self.inaccuracy,
            Class::Mistake => self.mistake,
            Class::Blunder => self.blunder,
        }
    }

    fn add(&mut self, class: Class) {
        let c = match class {
            Class::Best => &mut self.best,
            Class::Good => &mut self.good,
            Class::Inaccuracy => &mut self.inaccuracy,
            Class::Mistake => &mut self.mistake,
            Class::Blunder => &mut self.blunder,
        };
        *c += 1;
    }

    /// All moves counted.
    #[must_use]
    pub fn total(&self) -> usize {
        Class::ALL.iter().map(|&c| self.get(c)).sum()
    }
}

/// A whole game reviewed.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Review {
    /// The predicted final capture difference B − A at the start (the best value of the first
    /// position, as B sees it, plus the captures it starts with); 0 when no move was played.
    pub start_eval: i32,
    /// Every move, in order.
    pub moves: Vec<MoveReview>,
    /// Each player's summary (in JSON an object with keys `B` and `A`).
    #[cfg_attr(feature = "serde", serde(with = "by_player"))]
    pub summary: ByPlayer<PlayerSummary>,
    /// False when the review was stopped before its end (then `moves` holds the moves judged).
    pub complete: bool,
}

/// What a review searches for each position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReviewLimits {
    /// The limits of each position's analysis (positions inside the tables take no search).
    pub per_move: Limits,
}

/// Reviews `game` with `engine` (set its tables with [`Engine::set_tablebase`] for exact
/// endgames). `progress(done, total)` is called before the first position and after each one.
/// Setting `stop` ends the review early: the moves judged so far are returned with
/// `complete: false`.
pub fn review_game(
    engine: &mut Engine,
    game: &Game,
    limits: &ReviewLimits,
    stop: &Stop,
    progress: &mut dyn FnMut(usize, usize),
) -> Review {
    let total = game.moves().len();
    let mut replay = Game::new(game.start());
    let mut moves = Vec::with_capacity(total);
    let mut start_eval = 0;
    progress(0, total);
    let mut complete = true;
    for (i, &mv) in game.moves().iter().enumerate() {
        if stop.is_stopped() {
            complete = false;
            break;
        }
        let pos = replay.position();
        let r = engine.analyse(&replay, &limits.per_move, stop, &mut |_: &SearchInfo| {});
        if stop.is_stopped() {
            // The search was cut short: its values are not what the limits asked for.
            complete = false;
            break;
        }
        let Some(r) = r else { break };
        let me = pos.to_move();
        let value_of = |m: Move| r.moves.iter().find(|&&(x, _)| x == m).map(|&(_, v)| v);
        let best_value = value_of(r.best).unwrap_or(r.info.score);
        // A move the analysis did not list cannot be legal; the game checked it, so it is there.
        let played_value = value_of(mv).unwrap_or(best_value);
        let loss = (best_value - played_value).max(0);
        // Predicted final difference for B: the captures so far plus the value from here on.
        let so_far = pos.capture_diff(Player::B);
        let as_b = |v: i32| if me == Player::B { v } else { -v };
        if i == 0 {
            start_eval = so_far + as_b(best_value);
        }
        moves.push(MoveReview {
            ply: i + 1,
            player: me,
            mv,
            best: if loss == 0 { mv } else { r.best },
            played_value,
            best_value,
            loss,
            exact: r.info.exact,
            class: Class::of_loss(loss),
            choices: r.moves.len(),
            eval_after: so_far + as_b(played_value),
            pv: r.info.pv.clone(),
        });
        if replay.play(mv).is_err() {
            break;
        }
        progress(i + 1, total);
    }
    let summary = ByPlayer::new(summarise(&moves, Player::B), summarise(&moves, Player::A));
    Review { start_eval, moves, summary, complete }
}

/// The summary of `player`'s moves.
#[must_use]
pub fn summarise(moves: &[MoveReview], player: Player) -> PlayerSummary {
    let mut s = PlayerSummary::default();
    let mut score = 0.0;
    for m in moves.iter().filter(|m| m.player == player) {
        s.moves += 1;
        s.total_loss += m.loss;
        s.counts.add(m.class);
        s.exact += usize::from(m.exact);
        if m.choices > 1 {
            s.choices += 1;
            score += move_accuracy(m.loss);
        }
    }
    let acc = if s.choices == 0 { 100.0 } else { score / s.choices as f64 };
    s.accuracy = (acc * 10.0).round() / 10.0;
    s
}

/// One move's accuracy score, 0–100: 100 for the best move, halved every
/// [`ACCURACY_HALF_LOSS`] stones given away.
#[must_use]
pub fn move_accuracy(loss: i32) -> f64 {
    100.0 * (-f64::from(loss.max(0)) / ACCURACY_HALF_LOSS).exp2()
}

#[cfg(feature = "serde")]
mod player_letter {
    use vlt_core::Player;

    pub fn serialize<S: serde::Serializer>(p: &Player, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(p)
    }
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Player, D::Error> {
        let t: String = serde::Deserialize::deserialize(d)?;
        t.parse().map_err(|_| serde::de::Error::custom(format!("not a player: {t:?}")))
    }
}

#[cfg(feature = "serde")]
mod move_name {
    use vlt_core::Move;

    pub fn serialize<S: serde::Serializer>(m: &Move, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(m)
    }
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        let t: String = serde::Deserialize::deserialize(d)?;
        t.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(feature = "serde")]
mod by_player {
    use super::PlayerSummary;
    use vlt_core::ByPlayer;

    #[derive(serde::Serialize, serde::Deserialize)]
    struct Pair<T> {
        #[serde(rename = "B")]
        b: T,
        #[serde(rename = "A")]
        a: T,
    }

    pub fn serialize<S: serde::Serializer>(v: &ByPlayer<PlayerSummary>, s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&Pair { b: &v.b, a: &v.a }, s)
    }
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<ByPlayer<PlayerSummary>, D::Error> {
        let p: Pair<PlayerSummary> = serde::Deserialize::deserialize(d)?;
        Ok(ByPlayer::new(p.b, p.a))
    }
}

#[cfg(feature = "serde")]
mod move_names {
    use vlt_core::Move;

    pub fn serialize<S: serde::Serializer>(m: &[Move], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(m.iter().map(ToString::to_string))
    }
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Move>, D::Error> {
        let t: Vec<String> = serde::Deserialize::deserialize(d)?;
        t.iter().map(|m| m.parse().map_err(serde::de::Error::custom)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_the_thresholds() {
        let got: Vec<Class> = (0..=10).map(Class::of_loss).collect();
        use Class::*;
        assert_eq!(
            got,
            [Best, Good, Good, Inaccuracy, Inaccuracy, Mistake, Mistake, Mistake, Mistake, Blunder, Blunder]
        );
        assert_eq!(Class::of_loss(-3), Best);
    }

    #[test]
    fn accuracy_halves_every_four_stones() {
        assert!((move_accuracy(0) - 100.0).abs() < 1e-9);
        assert!((move_accuracy(4) - 50.0).abs() < 1e-9);
        assert!((move_accuracy(8) - 25.0).abs() < 1e-9);
    }
}
