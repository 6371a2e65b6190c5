//! A learned estimate of a position's value, for ordering the solver's search (never for its
//! answers).
//!
//! Proof-number search spends most of its nodes on detours: subtrees it opens because they look
//! cheap and abandons when a sibling proves their parent. How cheap a leaf `(P, t)` looks depends
//! on where its threshold `t` lies against what `P` is probably worth. Knowing nothing, the solver
//! takes the middle of `P`'s proved bounds (usually 0); with a perfect estimate of every leaf (the
//! true values, as an experiment) the earlier, flat initial numbers needed 2.7× fewer nodes on
//! 24-stone positions over 18-stone tables; today's initial numbers with this estimate come within
//! 8–15 % of what the true values give (docs/solver.md). This
//! module gives a cheap estimate that gets much of that: a small neural network (one hidden layer
//! of rectified units) over features of the board, fitted by least squares to exact values that a
//! solver **over the tables it is given** (18 stones and fewer) can know: those of the tables'
//! positions, and those of positions up to four stones above them, found by the solver itself
//! over those tables. See docs/tablebase.md for how it was fitted and what it saves.
//!
//! The estimate only orders the search: the solver's values and bounds never depend on it, so a
//! poor estimate costs nodes, never correctness.

use vlt_core::sowing::capture_of;
use vlt_core::{HOLES, Position, ROW};

/// Number of input features (see [`features`]).
pub const N_FEATURES: usize = 55 + HOLES * ONE_HOT;
/// Counts 0…13 each get their own input per hole (13 and more share one: such a hole never captures, R4).
const ONE_HOT: usize = 14;
/// Most hidden units an estimator may have (their sums live in an array on the stack).
const MAX_HIDDEN: usize = 256;
/// Magic bytes opening a weights file (`estimate.bin`), with the format's version.
const MAGIC: &[u8; 8] = b"VLTEST01";
/// The weights fitted by `fit_estimate` (in `vlt-tools`, which says how this file was made) from the
/// 18-stone tables and solves over them.
const BUILTIN: &[u8] = include_bytes!("estimate.bin");

/// Why a weights file cannot be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum EstimateError {
    /// The file does not start with the format's magic bytes and version.
    #[error("not a vlt estimate file (expected {:?} at the start)", String::from_utf8_lossy(MAGIC))]
    Magic,
    /// The feature count in the file is not the one this build computes.
    #[error("the file is for {found} features, this build computes {expected}")]
    Features {
        /// In the file.
        found: usize,
        /// Computed by [`features`].
        expected: usize,
    },
    /// No hidden units, or more than 256.
    #[error("{0} hidden units: expected 1 to 256")]
    Hidden(usize),
    /// The file is shorter or longer than its header says.
    #[error("the file holds {found} bytes, its header asks for {expected}")]
    Length {
        /// In the file.
        found: usize,
        /// From the header.
        expected: usize,
    },
}

/// Features of `pos` from the side of the player to move: the non-zero ones, as `(index, value)`
/// pairs. The board is read from the mover's hole 1 on, in sowing order (R1), so one weight serves
/// both players (the rules treat them alike, R3–R7).
///
/// Per hole: its stones (up to 13), whether it is empty, whether it holds one stone (a link of an
/// R4 chain), what sowing it now would capture (R4, also for the opponent's holes, as if it moved),
/// and its count one-hot. Then: the best capture of each side, the stones on the board, the mover's
/// best capture times the stones, whether the opponent's row is empty (R5), the rows' difference,
/// and a constant. All are scaled by `stones / 18`, since values grow with the stones at stake.
pub fn features(pos: Position) -> Features {
    let mut out = Features { len: 0, items: [(0, 0.0); MAX_NONZERO] };
    for_each_feature(pos, |i, v| {
        out.items[out.len] = (i as u16, v);
        out.len += 1;
    });
    out
}

/// Calls `f(index, value)` for each non-zero feature of `pos` (see [`features`]), without
/// collecting them.
fn for_each_feature(pos: Position, mut f: impl FnMut(usize, f32)) {
    let n = pos.stones_on_board() as f32;
    let scale = n / 18.0;
    let mut push = |i: usize, v: f32| {
        if v != 0.0 {
            f(i, v * scale);
        }
    };
    let b = movers_board(pos);
    for (i, &s) in b.iter().enumerate() {
        hole_features(i, s, &mut push);
    }
    board_features(&b, n, push);
}

/// The board read from the mover's hole 1 on.
fn movers_board(pos: Position) -> [u8; HOLES] {
    let board = pos.board();
    let me = pos.to_move().index();
    std::array::from_fn(|i| board[(i + me * ROW) % HOLES])
}

/// The features of hole `i` that depend on its own count `s` alone (unscaled): its stones, empty,
/// single, and the count one-hot. The estimator sums each hole's weights for them once, per count.
fn hole_features(i: usize, s: u8, mut f: impl FnMut(usize, f32)) {
    f(i, f32::from(s.min(13)));
    f(12 + i, f32::from(u8::from(s == 0)));
    f(24 + i, f32::from(u8::from(s == 1)));
    f(55 + i * ONE_HOT + usize::from(s.min(13)), 1.0);
}

/// The features that depend on more than one hole (unscaled): each hole's capture, the sides' best
/// captures, the stones `n`, the rows.
fn board_features(b: &[u8; HOLES], n: f32, mut f: impl FnMut(usize, f32)) {
    let mut best = [0u32; 2];
    let mut rows = [0u32; 2];
    for (i, &s) in b.iter().enumerate() {
        let c = capture_of(b, i);
        f(36 + i, c as f32);
        best[i / ROW] = best[i / ROW].max(c);
        rows[i / ROW] += u32::from(s);
    }
    f(48, best[0] as f32);
    f(49, best[1] as f32);
    f(50, n);
    f(51, best[0] as f32 * n / 20.0);
    f(52, f32::from(u8::from(rows[1] == 0)));
    f(53, rows[0] as f32 - rows[1] as f32);
    f(54, 1.0);
}

/// `acc += v · w`, element by element: one input's weights added to the hidden units' sums.
#[inline]
fn add_scaled(acc: &mut [f32], w: &[f32], v: f32) {
    for (a, w) in acc.iter_mut().zip(w) {
        *a += w * v;
    }
}

/// Most non-zero features a position can have: five a hole and seven for the whole board.
const MAX_NONZERO: usize = 5 * HOLES + 7;

/// The non-zero features of a position, as `(index, value)` pairs (see [`features`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features {
    len: usize,
    items: [(u16, f32); MAX_NONZERO],
}

impl Features {
    /// The `(index, value)` pairs.
    #[must_use]
    pub fn as_slice(&self) -> &[(u16, f32)] {
        &self.items[..self.len]
    }
}

/// One hidden layer of rectified units over [`features`]: the estimated value (future capture
/// difference for the player to move) is `b2 + Σ w2ⱼ · max(0, b1ⱼ + Σ w1ᵢⱼ xᵢ)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimator {
    hidden: usize,
    /// Input-major: the weights of input `i` are `w1[i * hidden..(i + 1) * hidden]`.
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
    /// Derived from `w1`: for hole `i` holding `k` stones (13 for 13 or more), the hidden units'
    /// sum of [`hole_features`]' weights at `(i * ONE_HOT + k) * hidden`. A position's estimate
    /// then adds one row a hole instead of four.
    per_count: Vec<f32>,
}

impl Estimator {
    /// An estimator from its weights (`w1` input-major, `N_FEATURES × hidden`), with 1 to 256 hidden
    /// units.
    ///
    /// # Panics
    /// When `hidden` is out of that range or the lengths do not fit it.
    #[must_use]
    pub fn new(hidden: usize, w1: Vec<f32>, b1: Vec<f32>, w2: Vec<f32>, b2: f32) -> Estimator {
        assert!((1..=MAX_HIDDEN).contains(&hidden), "1 to 256 hidden units");
        assert_eq!(w1.len(), N_FEATURES * hidden, "w1 is N_FEATURES × hidden");
        assert_eq!((b1.len(), w2.len()), (hidden, hidden), "b1 and w2 have one weight a hidden unit");
        let mut per_count = vec![0f32; HOLES * ONE_HOT * hidden];
        for i in 0..HOLES {
            for k in 0..ONE_HOT {
                let row = &mut per_count[(i * ONE_HOT + k) * hidden..][..hidden];
                hole_features(i, k as u8, |j, v| add_scaled(row, &w1[j * hidden..][..hidden], v));
            }
        }
        Estimator { hidden, w1, b1, w2, b2, per_count }
    }

    /// The weights shipped with vlt, fitted to the 18-stone tables and to solves over them (parsed
    /// once).
    ///
    /// # Panics
    /// Never in a build that passed its tests (the shipped file is checked by one).
    #[must_use]
    pub fn builtin() -> &'static Estimator {
        static BUILT: std::sync::OnceLock<Estimator> = std::sync::OnceLock::new();
        BUILT.get_or_init(|| Estimator::from_bytes(BUILTIN).expect("the shipped estimate.bin is valid"))
    }

    /// The estimate from features already computed by [`features`], unrounded.
    #[must_use]
    pub fn eval_features(&self, x: &[(u16, f32)]) -> f32 {
        let mut acc = [0f32; MAX_HIDDEN];
        acc[..self.hidden].copy_from_slice(&self.b1);
        for &(i, v) in x {
            self.add_input(&mut acc, usize::from(i), v);
        }
        self.output(&acc)
    }

    /// Adds input `i` of value `v` to the hidden units' sums.
    #[inline]
    fn add_input(&self, acc: &mut [f32; MAX_HIDDEN], i: usize, v: f32) {
        add_scaled(&mut acc[..self.hidden], &self.w1[i * self.hidden..][..self.hidden], v);
    }

    /// The output unit over the hidden units' sums. Eight partial sums, so that the additions
    /// need not wait on each other.
    fn output(&self, acc: &[f32; MAX_HIDDEN]) -> f32 {
        let mut lanes = [0f32; 8];
        let (a, w) = (acc[..self.hidden].chunks_exact(8), self.w2.chunks_exact(8));
        let rest = a.remainder().iter().zip(w.remainder()).map(|(a, w)| a.max(0.0) * w).sum::<f32>();
        for (ac, wc) in a.zip(w) {
            for ((l, a), w) in lanes.iter_mut().zip(ac).zip(wc) {
                *l += a.max(0.0) * w;
            }
        }
        self.b2 + rest + lanes.iter().sum::<f32>()
    }

    /// The estimated value of `pos` for its player to move, rounded, within `±stones` (0 when the
    /// game is over, R6).
    #[must_use]
    pub fn estimate(&self, pos: Position) -> i32 {
        let n = pos.stones_on_board() as i32;
        (self.value(pos).round() as i32).clamp(-n, n)
    }

    /// The same unrounded (0 when the game is over, R6): the solver orders its search by it, and
    /// a fraction of a stone still tells two leaves apart.
    #[must_use]
    pub fn value(&self, pos: Position) -> f32 {
        if pos.is_game_over() {
            return 0.0;
        }
        // Every feature is scaled by the same `stones / 18`: sum them unscaled, scale once.
        let h = self.hidden;
        let n = pos.stones_on_board() as f32;
        let b = movers_board(pos);
        let mut acc = [0f32; MAX_HIDDEN];
        for (i, &s) in b.iter().enumerate() {
            add_scaled(
                &mut acc[..h],
                &self.per_count[(i * ONE_HOT + usize::from(s.min(13))) * h..][..h],
                1.0,
            );
        }
        board_features(&b, n, |i, v| {
            if v != 0.0 {
                self.add_input(&mut acc, i, v);
            }
        });
        let scale = n / 18.0;
        for (a, b) in acc[..h].iter_mut().zip(&self.b1) {
            *a = b + *a * scale;
        }
        self.output(&acc)
    }

    /// The weights file: the magic bytes `VLTEST01`, features and hidden units (u32 little-endian),
    /// then `w1`, `b1`, `w2` and `b2` as f32 little-endian.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend((N_FEATURES as u32).to_le_bytes());
        out.extend((self.hidden as u32).to_le_bytes());
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2).chain([&self.b2]) {
            out.extend(w.to_le_bytes());
        }
        out
    }

    /// Reads a weights file written by [`Estimator::to_bytes`].
    ///
    /// # Errors
    /// A wrong magic or version, another feature count, no hidden units or more than 256, or a
    /// length that does not match.
    pub fn from_bytes(bytes: &[u8]) -> Result<Estimator, EstimateError> {
        let word = |i: usize| bytes.get(i..i + 4).map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")));
        if !bytes.starts_with(MAGIC) {
            return Err(EstimateError::Magic);
        }
        let (Some(features), Some(hidden)) = (word(8), word(12)) else {
            return Err(EstimateError::Length { found: bytes.len(), expected: 16 });
        };
        let (features, hidden) = (features as usize, hidden as usize);
        if features != N_FEATURES {
            return Err(EstimateError::Features { found: features, expected: N_FEATURES });
        }
        if !(1..=MAX_HIDDEN).contains(&hidden) {
            return Err(EstimateError::Hidden(hidden));
        }
        let expected = 16 + 4 * (hidden * (N_FEATURES + 2) + 1);
        if bytes.len() != expected {
            return Err(EstimateError::Length { found: bytes.len(), expected });
        }
        let mut f = bytes[16..].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")));
        let mut take = |n: usize| f.by_ref().take(n).collect::<Vec<f32>>();
        let w1 = take(N_FEATURES * hidden);
        let b1 = take(hidden);
        let w2 = take(hidden);
        let b2 = take(1)[0];
        Ok(Estimator::new(hidden, w1, b1, w2, b2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shipped weights are the file whose making `vlt-tools`' `fit_estimate` pins (commit and
    /// command): same length, same FNV-1a digest. A new file must update the pin there and here.
    #[test]
    fn the_shipped_weights_are_the_pinned_file() {
        let fnv = BUILTIN
            .iter()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
        assert_eq!((BUILTIN.len(), fnv), (57_620, 0xa61b_b68c_b0b5_6254));
    }

    /// The shipped estimate knows something: on positions of 9–12 stones from greedy games its
    /// error is well below that of knowing nothing (estimating 0).
    #[test]
    fn the_builtin_estimate_beats_knowing_nothing() {
        let tb = crate::probe::Tablebase::from_layers(crate::build::build_in_memory(12));
        let e = Estimator::builtin();
        let mut rng = vlt_core::playout::SplitMix64(3);
        let (mut err, mut zero, mut count) = (0.0, 0.0, 0);
        for n in 9..=12 {
            for _ in 0..200 {
                let Some(pos) = vlt_core::playout::greedy_position(n, &mut rng) else { continue };
                let v = f64::from(tb.probe(pos).expect("in the tables"));
                err += (f64::from(e.estimate(pos)) - v).powi(2);
                zero += v * v;
                count += 1;
            }
        }
        assert!(count > 300, "{count}");
        let (rms, rms0) = ((err / f64::from(count)).sqrt(), (zero / f64::from(count)).sqrt());
        assert!(rms < 0.6 * rms0, "rms error {rms:.2}, of estimating 0 {rms0:.2}");
    }

    /// The shipped weights load, and a file survives writing and reading.
    #[test]
    fn weights_round_trip() {
        let e = Estimator::builtin();
        assert_eq!(Estimator::from_bytes(&e.to_bytes()).as_ref(), Ok(e));
        let mut bad = e.to_bytes();
        bad[0] = b'X';
        assert_eq!(Estimator::from_bytes(&bad), Err(EstimateError::Magic));
        let short = &e.to_bytes()[..100];
        assert!(matches!(Estimator::from_bytes(short), Err(EstimateError::Length { .. })));
        let mut other = e.to_bytes();
        other[8] = 1;
        assert!(matches!(Estimator::from_bytes(&other), Err(EstimateError::Features { found: 1, .. })));
        let mut none = e.to_bytes();
        none[12..16].copy_from_slice(&0u32.to_le_bytes());
        assert_eq!(Estimator::from_bytes(&none), Err(EstimateError::Hidden(0)));
    }

    /// Features name the mover's side: the mirror image (rows swapped, the other player to move)
    /// has the same features and so the same estimate.
    #[test]
    fn features_are_the_movers() {
        let a: Position = "0,3,5,1,1,1/1,1,4,4,0,3 A 18 18".parse().unwrap();
        let b: Position = "1,1,4,4,0,3/0,3,5,1,1,1 B 18 18".parse().unwrap();
        assert_eq!(features(a).as_slice(), features(b).as_slice());
        assert!(features(a).as_slice().len() > 20);
        let e = Estimator::builtin();
        assert_eq!(e.estimate(a), e.estimate(b));
        assert_eq!(e.estimate(a), e.eval_features(features(a).as_slice()).round() as i32);
    }

    /// The solver's path (each hole's weights summed per count in advance) and the fitter's
    /// (features first, each weighed on its own) give the same value, up to the rounding of
    /// summing in another order, on positions of 2–30 stones from greedy games.
    #[test]
    fn both_paths_give_the_same_value() {
        let e = Estimator::builtin();
        let mut rng = vlt_core::playout::SplitMix64(7);
        let mut checked = 0;
        for n in 2..=30 {
            for _ in 0..40 {
                let Some(pos) = vlt_core::playout::greedy_position(n, &mut rng) else { continue };
                if pos.is_game_over() {
                    continue;
                }
                let (fast, slow) = (e.value(pos), e.eval_features(features(pos).as_slice()));
                assert!((fast - slow).abs() < 1e-4, "{pos}: {fast} against {slow}");
                checked += 1;
            }
        }
        assert!(checked > 400, "{checked}");
    }
}
