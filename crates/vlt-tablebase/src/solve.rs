//! Solving positions beyond the tables: exact values by threshold tests ("can the player to move
//! force at least `t`?"), the thresholds chosen from a shallow search's guess, then stepped and
//! bisected until the value is pinned (`schedule.rs`).
//!
//! Each test is one best-first proof-number search over every layer beyond the tables (`pns.rs`,
//! on the tree of `tree.rs`): repetitions are judged on each node's own path, and only
//! path-independent results are kept. An earlier method solved each test as a local least fixed
//! point of the root's layer, with nested, budgeted tests for captures; it expanded about 300
//! times more nodes and was dropped (the history of this file keeps it).
//!
//! Only path-independent facts are kept between tests: bounds on a position's value
//! (`bounds.rs`), each proved by a complete argument that uses no repetition of a position above
//! it, so the graph-history interaction that spoils transposition tables in cyclic games cannot
//! arise.
//!
//! What the search tries first comes from a learned [`estimate`] of values (fitted to the tables,
//! see that module): the centre of each leaf's initial proof numbers and the leaves of the first
//! guess. It orders the work and never decides anything.

mod bounds;
mod certify;
pub mod estimate;
mod pns;
mod schedule;
mod tree;

use crate::probe::Tablebase;
use bounds::KeyMap;
use estimate::Estimator;
use vlt_core::Position;

/// Why a solve stopped without a value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// More positions would have to be expanded than the limit allows.
    #[error("node limit of {0} expanded positions reached")]
    NodeLimit(u64),
    /// A certificate would have more nodes than the format allows.
    #[error("the certificate would have more than {0} nodes")]
    CertificateTooLarge(u64),
    /// The board is empty: there is nothing to prove.
    #[error("the game is over: nothing to prove")]
    GameOver,
    /// No proof could be written out although the value was found (a fault of the solver).
    #[error("the solver's value could not be written out as a proof")]
    Unprovable,
}

/// Counters of a solver's work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Positions expanded (their moves generated and examined), over all tests.
    pub nodes: u64,
    /// Threshold tests run.
    pub tests: u64,
    /// Table probes.
    pub probes: u64,
    /// Positions with a proved bound kept between tests.
    pub known: u64,
    /// Of `nodes`, those with fewer stones than the test's root (below a capture).
    pub nested_nodes: u64,
    /// Positions expanded by the shallow searches that choose the first thresholds (not in `nodes`).
    pub guess_nodes: u64,
    /// Distinct positions among the expanded ones (counted only when profiling).
    pub distinct: u64,
    /// Counted only when profiling: the expanded nodes of the proofs and refutations the threshold
    /// tests ended with, summed over the tests (a sub-proof reused through a proved bound counts
    /// with the size it had). `nodes / proof_nodes` is how much the search explored beyond what
    /// its answers needed.
    pub proof_nodes: u64,
    /// Moves that repeat a position of their own path (R7: endless play).
    pub repetitions: u64,
    /// Decided nodes whose argument uses the repetition of a position above them on their path,
    /// so they are kept for that path only (graph-history interaction).
    pub path_dependent: u64,
}

/// A solver over a [`Tablebase`]: exact values of positions with more stones than the tables hold.
pub struct Solver<'a> {
    tb: &'a Tablebase,
    /// Proved bounds `(lo, hi)` on the value for the player to move, by [`bounds::bounds_key`].
    bounds: KeyMap<u128, (i8, i8)>,
    stats: SolveStats,
    max_nodes: u64,
    progress: Box<dyn FnMut(&SolveStats) + 'a>,
    /// Keys of the positions expanded so far, when profiling (see [`Solver::set_profile`]).
    expanded: Option<std::collections::HashSet<u128>>,
    /// When profiling: the size of the proof behind each proved bound, by bounds key.
    proof_sizes: Option<KeyMap<u128, u32>>,
    /// When profiling: expanded positions by stones on the board.
    by_stones: Option<Vec<u64>>,
    /// Orders the search (initial proof numbers, the first guess); `None`: the middle of the bounds.
    estimator: Option<&'a Estimator>,
    /// The positions given initial numbers, when recording them (for fitting an estimator).
    leaves: Option<Vec<Position>>,
}

/// How often, in expanded positions, progress is reported.
const PROGRESS_EVERY: u64 = 1 << 15;

impl<'a> Solver<'a> {
    /// A solver probing `tb`, expanding at most `max_nodes` positions in all.
    #[must_use]
    pub fn new(tb: &'a Tablebase, max_nodes: u64) -> Solver<'a> {
        Solver {
            tb,
            bounds: KeyMap::default(),
            stats: SolveStats::default(),
            max_nodes,
            progress: Box::new(|_| {}),
            expanded: None,
            proof_sizes: None,
            by_stones: None,
            estimator: Some(Estimator::builtin()),
            leaves: None,
        }
    }

    /// Chooses the estimate that orders the search (default: [`Estimator::builtin`]); `None` takes
    /// the middle of a position's proved bounds instead. The values found do not depend on it,
    /// only the work.
    pub fn set_estimator(&mut self, estimator: Option<&'a Estimator>) {
        self.estimator = estimator;
    }

    /// Whether to record every position the search gives initial proof numbers (the leaves an
    /// estimate is asked about), for fitting an estimator; see [`Solver::take_leaves`].
    pub fn record_leaves(&mut self, on: bool) {
        self.leaves = on.then(Vec::new);
    }

    /// The positions recorded since the last call (see [`Solver::record_leaves`]).
    pub fn take_leaves(&mut self) -> Vec<Position> {
        self.leaves.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Whether to count distinct expanded positions, proof sizes and nodes by stone count
    /// ([`SolveStats::distinct`], [`SolveStats::proof_nodes`], [`Solver::nodes_by_stones`]; costs
    /// memory).
    pub fn set_profile(&mut self, on: bool) {
        self.expanded = on.then(std::collections::HashSet::new);
        self.proof_sizes = on.then(KeyMap::default);
        self.by_stones = on.then(|| vec![0; vlt_core::TOTAL_STONES as usize + 1]);
    }

    /// When profiling ([`Solver::set_profile`]): the expanded positions (as counted in
    /// [`SolveStats::nodes`]) by stones on the board, index = stones.
    #[must_use]
    pub fn nodes_by_stones(&self) -> Option<&[u64]> {
        self.by_stones.as_deref()
    }

    /// Calls `f` with the counters every few tens of thousands of expanded positions.
    pub fn on_progress(&mut self, f: impl FnMut(&SolveStats) + 'a) {
        self.progress = Box::new(f);
    }

    /// The counters so far.
    #[must_use]
    pub fn stats(&self) -> SolveStats {
        SolveStats {
            known: self.bounds.len() as u64,
            distinct: self.expanded.as_ref().map_or(0, |e| e.len() as u64),
            ..self.stats
        }
    }

    /// Counts an expansion of `pos` (`nested`: below the test's root layer) against the node
    /// limit, and reports progress now and then.
    fn count_node(&mut self, pos: Position, nested: bool) -> Result<(), SolveError> {
        self.stats.nodes += 1;
        if nested {
            self.stats.nested_nodes += 1;
        }
        if let Some(e) = &mut self.expanded {
            e.insert(pos.repetition_key());
        }
        if let Some(b) = &mut self.by_stones {
            b[pos.stones_on_board() as usize] += 1;
        }
        if self.stats.nodes > self.max_nodes {
            return Err(SolveError::NodeLimit(self.max_nodes));
        }
        if self.stats.nodes % PROGRESS_EVERY == 0 {
            let st = self.stats();
            (self.progress)(&st);
        }
        Ok(())
    }
}
