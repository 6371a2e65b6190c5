//! Evaluation: the expected future capture difference for the player to move, in centistones
//! (1 stone = 100), from a handful of board features (R3, R4) weighted by named, tunable weights.
//!
//! The evaluation never counts the captures made so far: search adds captures as they happen, so a
//! position's value depends only on its board and player to move (R4, R6), which is what the
//! transposition table and the R7 repetition rule need.

pub use vlt_core::sowing::capture_of;
use vlt_core::{HOLES, Position, ROW};

/// One stone in the evaluation's unit (centistones).
pub const STONE: i32 = 100;

/// Number of features.
pub const N_FEATURES: usize = 10;

/// The features' names, in the order of [`Weights::as_array`] and [`features`].
pub const FEATURE_NAMES: [&str; N_FEATURES] = [
    "capture_now",
    "capture_threat",
    "row_stones",
    "exposed_singles",
    "holes_of_12",
    "holes_13_plus",
    "empty_reachable",
    "mobility",
    "capture_moves",
    "tempo",
];

/// Evaluation weights, in centistones per unit of each feature. Every feature is "the player to
/// move's count minus the opponent's" unless said otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Stones the player to move captures with its best capture now (R4) — it is its turn.
    pub capture_now: i32,
    /// Stones the opponent would capture with its best capture if it moved now (R4).
    pub capture_threat: i32,
    /// Stones in each row (the player to move's row minus the opponent's).
    pub row_stones: i32,
    /// Holes of exactly one stone in each row: links of R4 capture chains.
    pub exposed_singles: i32,
    /// Holes of exactly 12 stones: such a hole always captures (R4 consequence).
    pub holes_of_12: i32,
    /// Holes of 13 or more: never capture, but feed every hole (R3 laps) — a defence.
    pub holes_13_plus: i32,
    /// Empty holes in the own row that the opponent's moves end in (capture targets against us),
    /// counted as the opponent's targets minus ours.
    pub empty_reachable: i32,
    /// Legal moves (R3).
    pub mobility: i32,
    /// Moves that capture something (R4).
    pub capture_moves: i32,
    /// A constant for the player to move.
    pub tempo: i32,
}

impl Weights {
    /// Hand-set starting weights, before tuning.
    pub const UNTUNED: Weights = Weights {
        capture_now: 80,
        capture_threat: -50,
        row_stones: 3,
        exposed_singles: -10,
        holes_of_12: 100,
        holes_13_plus: 20,
        empty_reachable: 10,
        mobility: 10,
        capture_moves: 10,
        tempo: 0,
    };

    /// Weights fitted by `tune` in `vlt-tools` (see `docs/engine.md`): round 2, fitted to 2000 level-4
    /// self-play games played with the round-1 weights (which were fitted to games played with
    /// [`Weights::UNTUNED`]).
    pub const TUNED: Weights = Weights {
        capture_now: 80,
        capture_threat: -52,
        row_stones: 1,
        exposed_singles: -50,
        holes_of_12: -74,
        holes_13_plus: -81,
        empty_reachable: -32,
        mobility: 205,
        capture_moves: 10,
        tempo: -91,
    };

    /// The weights as an array in [`FEATURE_NAMES`] order.
    #[must_use]
    pub fn as_array(&self) -> [i32; N_FEATURES] {
        [
            self.capture_now,
            self.capture_threat,
            self.row_stones,
            self.exposed_singles,
            self.holes_of_12,
            self.holes_13_plus,
            self.empty_reachable,
            self.mobility,
            self.capture_moves,
            self.tempo,
        ]
    }

    /// Weights from an array in [`FEATURE_NAMES`] order.
    #[must_use]
    pub fn from_array(a: [i32; N_FEATURES]) -> Weights {
        Weights {
            capture_now: a[0],
            capture_threat: a[1],
            row_stones: a[2],
            exposed_singles: a[3],
            holes_of_12: a[4],
            holes_13_plus: a[5],
            empty_reachable: a[6],
            mobility: a[7],
            capture_moves: a[8],
            tempo: a[9],
        }
    }
}

impl Default for Weights {
    fn default() -> Self {
        Weights::TUNED
    }
}

/// Which evaluation the search uses at its horizon.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EvalKind {
    /// The weighted sum of [`FEATURE_NAMES`] with the engine's [`Weights`], at every stone count.
    Linear,
    /// The estimate learned from the endgame tables
    /// ([`vlt_tablebase::solve::estimate::Estimator::builtin`], a small network fitted to exact
    /// values of positions of up to 22 stones) where the board holds at most
    /// [`LEARNED_MAX_STONES`]; the linear evaluation above, where the network was never fitted.
    #[default]
    Learned,
}

/// The most stones on the board for which [`EvalKind::Learned`] asks the network: it was fitted
/// to positions of up to 22 stones and its error was measured up to 24 (docs/tablebase.md).
pub const LEARNED_MAX_STONES: u32 = 24;

impl EvalKind {
    /// The name used in options and on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            EvalKind::Linear => "linear",
            EvalKind::Learned => "learned",
        }
    }
}

impl std::str::FromStr for EvalKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "linear" => Ok(EvalKind::Linear),
            "learned" => Ok(EvalKind::Learned),
            _ => Err(format!("unknown evaluation {s:?}: expected linear or learned")),
        }
    }
}

/// The evaluation of `pos` of kind `kind`, in centistones for the player to move, within ±60 stones
/// (0 when the game is over, R6).
#[inline]
#[must_use]
pub fn evaluate_with(kind: EvalKind, pos: Position, w: &Weights) -> i32 {
    let v = match kind {
        EvalKind::Learned if pos.stones_on_board() <= LEARNED_MAX_STONES => {
            let e = vlt_tablebase::solve::estimate::Estimator::builtin().value(pos);
            (e * STONE as f32).round() as i32
        }
        _ => evaluate(pos, w),
    };
    v.clamp(-60 * STONE, 60 * STONE)
}

/// Per-row counts behind the features.
#[derive(Default, Clone, Copy)]
struct Side {
    best_capture: i32,
    stones: i32,
    singles: i32,
    twelves: i32,
    big: i32,
    /// Empty holes of the *other* row that this side's moves end in.
    targets: i32,
    moves: i32,
    capture_moves: i32,
}

fn side(board: &[u8; HOLES], row: usize) -> Side {
    let mut s = Side::default();
    for h in row * ROW..row * ROW + ROW {
        let n = board[h] as usize;
        s.stones += n as i32;
        match n {
            0 => continue,
            1 => s.singles += 1,
            12 => s.twelves += 1,
            13.. => s.big += 1,
            _ => {}
        }
        s.moves += 1;
        let c = capture_of(board, h) as i32;
        if c > 0 {
            s.capture_moves += 1;
            s.best_capture = s.best_capture.max(c);
            let last = (h + n) % HOLES;
            if last / ROW != row {
                s.targets += 1;
            }
        }
    }
    s
}

/// The feature vector of a position, from the side of the player to move, in [`FEATURE_NAMES`]
/// order. All zero when the game is over.
#[must_use]
pub fn features(pos: Position) -> [i32; N_FEATURES] {
    if pos.is_game_over() {
        return [0; N_FEATURES];
    }
    let board = pos.board();
    let me = pos.to_move().index();
    let (s, o) = (side(&board, me), side(&board, 1 - me));
    [
        s.best_capture,
        o.best_capture,
        s.stones - o.stones,
        s.singles - o.singles,
        s.twelves - o.twelves,
        s.big - o.big,
        o.targets - s.targets,
        s.moves - o.moves,
        s.capture_moves - o.capture_moves,
        1,
    ]
}

/// The evaluation of `pos` with weights `w`: centistones for the player to move (0 when the game is
/// over, R6).
#[inline]
#[must_use]
pub fn evaluate(pos: Position, w: &Weights) -> i32 {
    let f = features(pos);
    let w = w.as_array();
    f.iter().zip(w.iter()).map(|(a, b)| a * b).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The learned evaluation speaks for the player to move: the mirror image (rows swapped, the
    /// other player to move) has the same value; above its stone range it is the linear one.
    #[test]
    fn learned_evaluation_is_the_movers_and_falls_back_above_its_range() {
        let w = Weights::TUNED;
        let a: Position = "0,3,5,1,1,1/1,1,4,4,0,3 A 18 18".parse().unwrap();
        let b: Position = "1,1,4,4,0,3/0,3,5,1,1,1 B 18 18".parse().unwrap();
        assert_eq!(evaluate_with(EvalKind::Learned, a, &w), evaluate_with(EvalKind::Learned, b, &w));
        assert_ne!(evaluate_with(EvalKind::Learned, a, &w), evaluate_with(EvalKind::Linear, a, &w));
        let over: Position = "0,0,0,0,0,0/0,0,0,0,0,0 B 30 30".parse().unwrap();
        assert_eq!(evaluate_with(EvalKind::Learned, over, &w), 0);
        assert_eq!(evaluate_with(EvalKind::Learned, Position::START, &w), evaluate(Position::START, &w));
        assert_eq!("LEARNED".parse::<EvalKind>(), Ok(EvalKind::Learned));
        assert!("cubic".parse::<EvalKind>().unwrap_err().contains("linear or learned"));
    }

    #[test]
    fn symmetric_start_is_balanced() {
        let f = features(Position::START);
        assert_eq!(&f[..9], &[0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(evaluate(vlt_core::Position::START, &Weights { tempo: 0, ..Weights::UNTUNED }), 0);
    }
}
