//! Which threshold tests a solve runs: a shallow search guesses the value, tests step away from the
//! guess with a doubling step until one holds and one fails, then bisect.

use super::{SolveError, Solver};
use crate::value::move_value;
use vlt_core::{Move, Position};

/// Depth of the shallow search that guesses a value to start the threshold tests from.
const GUESS_DEPTH: u32 = 3;

/// What the threshold tests of a solve have answered so far.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Seen {
    Nothing,
    /// Only tests that held.
    OnlyHeld,
    /// Only tests that failed.
    OnlyFailed,
    /// Both: the value is bracketed, so bisect.
    Both,
}

impl Solver<'_> {
    /// The exact value of `pos` for the player to move (as [`Tablebase::probe`] defines it).
    ///
    /// [`Tablebase::probe`]: crate::Tablebase::probe
    ///
    /// # Errors
    /// [`SolveError::NodeLimit`] when the work exceeds the limit.
    pub fn value(&mut self, pos: Position) -> Result<i32, SolveError> {
        if let Some(v) = self.tb.probe(pos) {
            self.stats.probes += 1;
            return Ok(v);
        }
        let n = pos.stones_on_board() as i8;
        let (mut lo, mut hi) = self.bounds_of(pos);
        // Tests far from the value are the costly ones (refuting an extreme threshold explores
        // everything the tester might try), so start from a shallow search's guess and step
        // away from it, doubling the step, before bisecting.
        let mut guess = self.guess(pos, GUESS_DEPTH);
        let mut step: i8 = 1;
        let mut seen = Seen::Nothing;
        while lo < hi {
            let t = match seen {
                Seen::Both => lo + (hi - lo + 1) / 2,
                _ => guess.clamp(lo + 1, hi),
            };
            if self.at_least(pos, t)? {
                lo = t;
                seen =
                    if matches!(seen, Seen::OnlyFailed | Seen::Both) { Seen::Both } else { Seen::OnlyHeld };
                guess = t.saturating_add(step);
            } else {
                hi = t - 1;
                seen =
                    if matches!(seen, Seen::OnlyHeld | Seen::Both) { Seen::Both } else { Seen::OnlyFailed };
                guess = t.saturating_sub(step);
            }
            if seen != Seen::Both && step < 64 {
                step *= 2;
            }
            let (l, h) = self.bounds_of(pos);
            lo = lo.max(l);
            hi = hi.min(h);
        }
        debug_assert!(lo.abs() <= n);
        Ok(i32::from(lo))
    }

    /// Whether the player to move in `pos` can force a future capture difference of at least `t`
    /// (as [`Tablebase::probe`] counts it): one threshold test, usually much cheaper than the exact
    /// [`Solver::value`], which needs two or more. `t = 1` asks whether the mover wins, `t = 0`
    /// whether it does not lose.
    ///
    /// [`Tablebase::probe`]: crate::Tablebase::probe
    ///
    /// # Errors
    /// [`SolveError::NodeLimit`] when the work exceeds the limit.
    pub fn can_force(&mut self, pos: Position, t: i32) -> Result<bool, SolveError> {
        let n = pos.stones_on_board() as i32;
        // Every value lies within ±stones on the board: such thresholds need no search.
        if t > n || t <= -n {
            return Ok(t <= -n);
        }
        self.at_least(pos, t as i8)
    }

    /// Every legal move of `pos` with its exact value for the mover (R4, R5).
    ///
    /// # Errors
    /// [`SolveError::NodeLimit`] when the work exceeds the limit.
    pub fn move_values(&mut self, pos: Position) -> Result<Vec<(Move, i32)>, SolveError> {
        let mover = pos.to_move();
        let mut out = Vec::new();
        for m in pos.legal_moves() {
            let (child, k) = pos.play_counting(m);
            let cv = if child.is_game_over() { 0 } else { self.value(child)? };
            out.push((m, i32::from(move_value(mover, k, child, cv as i8))));
        }
        Ok(out)
    }

    /// Whether the value of `pos` for its mover is at least `t`: the end of the game, the tables
    /// or the proved bounds when they settle it, else one proof-number search.
    pub(super) fn at_least(&mut self, pos: Position, t: i8) -> Result<bool, SolveError> {
        if pos.is_game_over() {
            return Ok(0 >= t);
        }
        if let Some(v) = self.tb.probe(pos) {
            self.stats.probes += 1;
            return Ok(v >= i32::from(t));
        }
        let (lo, hi) = self.bounds_of(pos);
        if lo >= t {
            return Ok(true);
        }
        if hi < t {
            return Ok(false);
        }
        self.pns(pos, t)
    }

    /// A cheap estimate of `pos`'s value: the best capture difference over the next `depth` moves
    /// (tables where they reach), for choosing the first threshold tests.
    fn guess(&mut self, pos: Position, depth: u32) -> i8 {
        let n = pos.stones_on_board() as i8;
        self.guess_ab(pos, depth, -n - 1, n + 1)
    }

    /// Alpha-beta (fail-soft) over capture differences to `depth` moves, the tables at its leaves.
    fn guess_ab(&mut self, pos: Position, depth: u32, mut alpha: i8, beta: i8) -> i8 {
        if let Some(v) = self.tb.probe(pos) {
            return v as i8;
        }
        if pos.is_game_over() {
            return 0;
        }
        if depth == 0 {
            return self.estimator.map_or(0, |e| e.estimate(pos) as i8);
        }
        self.stats.guess_nodes += 1;
        let mover = pos.to_move();
        let mut moves: Vec<(Position, u8)> = pos.legal_moves().map(|m| pos.play_counting(m)).collect();
        // Captures first, biggest first: the likeliest best moves, for early cut-offs.
        moves.sort_by_key(|&(_, k)| std::cmp::Reverse(k));
        let mut best = i8::MIN;
        for (child, k) in moves {
            let k = k as i8;
            let v = if child.is_game_over() {
                k
            } else if child.to_move() == mover {
                // R5: the mover moves again, the move is worth k + the child's value.
                k + self.guess_ab(child, depth - 1, alpha - k, beta - k)
            } else {
                k - self.guess_ab(child, depth - 1, k - beta, k - alpha)
            };
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}
