//! Solving positions beyond the tables: exact values by threshold tests ("can the player to move
//! force at least `t`?"), the thresholds chosen from a shallow search's guess, then stepped and
//! bisected until the value is pinned.
//!
//! Each test is, by default ([`Method::ProofNumber`]), one best-first proof-number search over every
//! layer beyond the tables (`pns.rs`: repetitions judged on each node's own path, only
//! path-independent results kept). The earlier method ([`Method::Closure`]) solves a test as a
//! local least fixed point: "the player to move can force at least `t`" for `t ≥ 1` means reaching
//! a capture that secures `t`, since play that goes on for ever scores 0 (R7); that is the least
//! fixed point of: `S` to move and some move secures `t` or leads to a position where `S` can; the
//! opponent to move and every move does. For `t ≤ 0` the question is the negation of the
//! opponent's question with threshold `1 − t`. A test builds the graph of the root's layer
//! outward from the root, deciding positions as soon as their captures (tables, or nested tests
//! within a node budget that grows only when nothing cheaper is left) or their children settle
//! them; when nothing undecided is left to expand, the undecided positions reachable from the root
//! form a closed set that nobody can leave profitably: all of them fail, which is where R7's cycles
//! are decided.
//!
//! Only path-independent facts are kept between tests, with either method: bounds on a position's
//! value, each proved by a complete argument that uses no repetition of a position above it, so
//! the graph-history interaction that spoils transposition tables in cyclic games cannot arise.
//!
//! What the search tries first comes from a learned [`estimate`] of values (fitted to the tables,
//! see that module): the centre of each leaf's initial proof numbers and the leaves of the first
//! guess. It orders the work and never decides anything.

pub mod estimate;
mod pns;

use crate::probe::Tablebase;
use estimate::Estimator;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use vlt_core::{Player, Position};

/// Why a solve stopped without a value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// More positions would have to be expanded than the limit allows.
    #[error("node limit of {0} expanded positions reached")]
    NodeLimit(u64),
}

/// Counters of a solver's work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Positions expanded (their moves generated and examined), over all tests.
    pub nodes: u64,
    /// Threshold tests run (including nested ones for capture children beyond the tables).
    pub tests: u64,
    /// Table probes.
    pub probes: u64,
    /// Positions with a proved bound kept between tests.
    pub known: u64,
    /// Of `nodes`, those expanded inside nested tests (captures into positions beyond the tables).
    pub nested_nodes: u64,
    /// Positions expanded by the shallow searches that choose the first thresholds (not in `nodes`).
    pub guess_nodes: u64,
    /// Distinct positions among the expanded ones (counted only when profiling).
    pub distinct: u64,
    /// Proof-number search, counted only when profiling: the expanded nodes of the proofs and
    /// refutations the threshold tests ended with, summed over the tests (a sub-proof reused
    /// through a proved bound counts with the size it had). `nodes / proof_nodes` is how much the
    /// search explored beyond what its answers needed.
    pub proof_nodes: u64,
    /// Proof-number search: moves that repeat a position of their own path (R7: endless play).
    pub repetitions: u64,
    /// Proof-number search: decided nodes whose argument uses the repetition of a position above
    /// them on their path, so they are kept for that path only (graph-history interaction).
    pub path_dependent: u64,
}

/// How a threshold test is searched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Method {
    /// One best-first proof-number search over all layers beyond the tables (a tree; repetitions
    /// judged on each node's own path, only path-independent results kept).
    #[default]
    ProofNumber,
    /// Local closures: the root's layer solved as a reachability game, each capture beyond the
    /// tables by a nested, budgeted test (the earlier solver).
    Closure,
}

/// A solver over a [`Tablebase`]: exact values of positions with more stones than the tables hold.
pub struct Solver<'a> {
    tb: &'a Tablebase,
    /// Proved bounds `(lo, hi)` on the value for the player to move, by repetition key.
    bounds: KeyMap<u128, (i8, i8)>,
    stats: SolveStats,
    max_nodes: u64,
    progress: Box<dyn FnMut(&SolveStats) + 'a>,
    /// Captures into positions beyond the tables are solved exactly (true) or tested against the
    /// threshold at hand only (false).
    exact_exits: bool,
    /// Nesting depth of the threshold test running now (1 = a test on the root's layer).
    depth: u32,
    /// The node count at which the innermost budgeted test gives up (`u64::MAX`: none).
    budget_end: u64,
    /// The budget of a nested test on its first try.
    first_budget: u64,
    /// Keys of the positions expanded so far, when profiling (see [`Solver::set_profile`]).
    expanded: Option<std::collections::HashSet<u128>>,
    /// When profiling: the size of the proof behind each proved bound, by bounds key.
    proof_sizes: Option<KeyMap<u128, u32>>,
    /// When profiling: expanded positions by stones on the board.
    by_stones: Option<Vec<u64>>,
    method: Method,
    /// Orders the search (initial proof numbers, the first guess); `None`: the middle of the bounds.
    estimator: Option<&'a Estimator>,
    /// The positions given initial numbers, when recording them (for fitting an estimator).
    leaves: Option<Vec<Position>>,
}

const UNKNOWN: u8 = 0;
const TRUE: u8 = 1;
const FALSE: u8 = 2;
/// How often, in expanded positions, progress is reported.
const PROGRESS_EVERY: u64 = 1 << 15;
/// Nodes a nested test (a capture beyond the tables) may expand on its first try. One that needs
/// more is put aside while its siblings are tried, and retried with `BUDGET_GROWTH` (4) times the
/// budget only if nothing cheaper decides its parent: effort goes to the cheapest proof first, as in
/// proof-number search, instead of to whichever capture comes first.
pub const FIRST_BUDGET: u64 = 64;
/// Depth of the shallow search that guesses a value to start the threshold tests from.
const GUESS_DEPTH: u32 = 3;
/// Factor by which the budget of put-aside nested tests grows on each retry.
const BUDGET_GROWTH: u64 = 4;

/// A position of one test's local graph.
struct Node {
    pos: Position,
    /// The tester moves here: true with one good move (OR); else it needs all moves good (AND).
    or: bool,
    status: u8,
    expanded: bool,
    /// Quiet children not yet proved true (AND nodes) or not yet proved false (OR nodes).
    remaining: u32,
    children: Vec<u32>,
    parents: Vec<u32>,
    /// `children[next..]` have not been queued by this node yet (siblings are queued lazily).
    next: u32,
    /// For a capture into a position beyond the tables whose worth is not known yet: the capturing
    /// player and the stones taken (`pos` is then the capture's child, outside this test's layer).
    /// Such a node is settled by a nested test when it is dequeued, so a capture that turns out not
    /// to matter is never searched.
    exit: Option<(Player, u8)>,
    /// A capture node whose nested test ran out of budget; retried when nothing cheaper is left.
    deferred: bool,
}

impl Node {
    fn new(pos: Position, s: Player, exit: Option<(Player, u8)>) -> Node {
        Node {
            pos,
            or: pos.to_move() == s,
            status: UNKNOWN,
            expanded: false,
            remaining: 0,
            children: Vec::new(),
            parents: Vec::new(),
            next: 0,
            exit,
            deferred: false,
        }
    }
}

impl<'a> Solver<'a> {
    /// Counts an expansion of `pos` (`nested`: below the root's layer or test) against the node
    /// limit, and reports progress now and then. Both methods count nodes this one way.
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

    /// A solver probing `tb`, expanding at most `max_nodes` positions in all.
    #[must_use]
    pub fn new(tb: &'a Tablebase, max_nodes: u64) -> Solver<'a> {
        Solver {
            tb,
            bounds: KeyMap::default(),
            stats: SolveStats::default(),
            max_nodes,
            progress: Box::new(|_| {}),
            exact_exits: false,
            depth: 0,
            budget_end: u64::MAX,
            first_budget: FIRST_BUDGET,
            expanded: None,
            proof_sizes: None,
            by_stones: None,
            method: Method::default(),
            estimator: Some(Estimator::builtin()),
            leaves: None,
        }
    }

    /// Chooses the estimate that orders the search (default: [`Estimator::builtin`]); `None` takes
    /// the middle of a position's proved bounds instead, as before version 4. The values found do
    /// not depend on it, only the work.
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

    /// Chooses how threshold tests are searched (default [`Method::ProofNumber`]). The values found
    /// do not depend on it, only the work.
    pub fn set_method(&mut self, method: Method) {
        self.method = method;
    }

    /// Whether captures into positions beyond the tables are solved exactly once, or (the default)
    /// tested against each threshold as it comes. Exact solving cost 3 to 30 times more nodes on
    /// 21- to 23-stone positions over 18-stone tables when measured with the earlier, eager
    /// handling of captures (`examples/solve_ab.rs`); not measured again since.
    pub fn set_exact_exits(&mut self, exact: bool) {
        self.exact_exits = exact;
    }

    /// Sets the node budget a nested test gets on its first try (default [`FIRST_BUDGET`]); a
    /// smaller one puts more captures aside. The values found do not depend on it.
    pub fn set_nested_budget(&mut self, first: u64) {
        self.first_budget = first.max(1);
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

    /// The exact value of `pos` for the player to move (as [`Tablebase::probe`] defines it).
    ///
    /// # Errors
    /// [`SolveError::NodeLimit`] when the work exceeds the limit.
    pub fn value(&mut self, pos: Position) -> Result<i32, SolveError> {
        self.without_budget(|s| s.value_within_budget(pos))
    }

    /// Runs `f` with no nested-test budget (only the node limit), then restores the budget.
    fn without_budget<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<Option<T>, SolveError>,
    ) -> Result<T, SolveError> {
        let saved = std::mem::replace(&mut self.budget_end, u64::MAX);
        let r = f(self);
        self.budget_end = saved;
        // Without a budget a test always finishes.
        r.map(|v| v.expect("no budget"))
    }

    /// [`Solver::value`] within the budget at hand: `None` when it ran out.
    fn value_within_budget(&mut self, pos: Position) -> Result<Option<i32>, SolveError> {
        if let Some(v) = self.tb.probe(pos) {
            self.stats.probes += 1;
            return Ok(Some(v));
        }
        let n = pos.stones_on_board() as i8;
        let (mut lo, mut hi) = self.bounds_of(pos);
        // Tests far from the value are the costly ones (refuting an extreme threshold explores
        // everything the tester might try), so start from a shallow search's guess and step
        // away from it, doubling the step, before bisecting.
        let mut guess = self.guess(pos, GUESS_DEPTH);
        let mut step: i8 = 1;
        // The tests so far: none (0), only true ones (1), only false ones (-1), both (2).
        let mut seen = 0i8;
        while lo < hi {
            let t = match seen {
                2 => lo + (hi - lo + 1) / 2,
                _ => guess.clamp(lo + 1, hi),
            };
            let Some(good) = self.at_least(pos, t)? else { return Ok(None) };
            if good {
                lo = t;
                seen = if seen == -1 || seen == 2 { 2 } else { 1 };
                guess = t.saturating_add(step);
            } else {
                hi = t - 1;
                seen = if seen == 1 || seen == 2 { 2 } else { -1 };
                guess = t.saturating_sub(step);
            }
            if seen != 2 && step < 64 {
                step *= 2;
            }
            let (l, h) = self.bounds_of(pos);
            lo = lo.max(l);
            hi = hi.min(h);
        }
        debug_assert!(lo.abs() <= n);
        Ok(Some(i32::from(lo)))
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

    /// Whether the player to move in `pos` can force a future capture difference of at least `t`
    /// (as [`Tablebase::probe`] counts it): one threshold test, usually much cheaper than the exact
    /// [`Solver::value`], which needs two or more. `t = 1` asks whether the mover wins, `t = 0`
    /// whether it does not lose.
    ///
    /// # Errors
    /// [`SolveError::NodeLimit`] when the work exceeds the limit.
    pub fn can_force(&mut self, pos: Position, t: i32) -> Result<bool, SolveError> {
        let n = pos.stones_on_board() as i32;
        // Every value lies within ±stones on the board: such thresholds need no search.
        if t > n || t <= -n {
            return Ok(t <= -n);
        }
        self.without_budget(|s| s.at_least(pos, t as i8))
    }

    /// Every legal move of `pos` with its exact value for the mover (R4, R5).
    ///
    /// # Errors
    /// [`SolveError::NodeLimit`] when the work exceeds the limit.
    pub fn move_values(&mut self, pos: Position) -> Result<Vec<(vlt_core::Move, i32)>, SolveError> {
        let mover = pos.to_move();
        let mut out = Vec::new();
        for m in pos.legal_moves() {
            let (child, k) = pos.play_counting(m);
            let cv = if child.is_game_over() { 0 } else { self.value(child)? };
            out.push((m, i32::from(crate::build::move_value(mover, k, child, cv as i8))));
        }
        Ok(out)
    }

    /// The bounds on `pos`'s value that this solver has proved so far (`lo ≤ value ≤ hi`; from
    /// `-stones` to `+stones` when it knows nothing, the exact value from the tables): what is left
    /// of a solve that ran out of nodes.
    #[must_use]
    pub fn proved_bounds(&self, pos: Position) -> (i32, i32) {
        if let Some(v) = self.tb.probe(pos) {
            return (v, v);
        }
        let (lo, hi) = self.bounds_of(pos);
        (i32::from(lo), i32::from(hi))
    }

    fn bounds_of(&self, pos: Position) -> (i8, i8) {
        let n = pos.stones_on_board() as i8;
        self.bounds.get(&bounds_key(pos)).copied().unwrap_or((-n, n))
    }

    fn learn(&mut self, pos: Position, lo: i8, hi: i8) {
        let n = pos.stones_on_board() as i8;
        let e = self.bounds.entry(bounds_key(pos)).or_insert((-n, n));
        e.0 = e.0.max(lo);
        e.1 = e.1.min(hi);
        debug_assert!(e.0 <= e.1, "contradictory bounds for {pos}");
    }

    /// Whether the value of `pos` for its mover is at least `t` (`None`: the budget ran out).
    fn at_least(&mut self, pos: Position, t: i8) -> Result<Option<bool>, SolveError> {
        if pos.is_game_over() {
            return Ok(Some(0 >= t));
        }
        if let Some(v) = self.tb.probe(pos) {
            self.stats.probes += 1;
            return Ok(Some(v >= i32::from(t)));
        }
        let (lo, hi) = self.bounds_of(pos);
        if lo >= t {
            return Ok(Some(true));
        }
        if hi < t {
            return Ok(Some(false));
        }
        if self.method == Method::ProofNumber {
            return self.pns(pos, t).map(Some);
        }
        let mover = pos.to_move();
        if t >= 1 {
            self.reach(pos, mover, t)
        } else {
            Ok(self.reach(pos, mover.other(), 1 - t)?.map(|b| !b))
        }
    }

    /// Whether the move value for `mover` (captured `k`, child `child`) is at least `x`.
    fn move_at_least(
        &mut self,
        mover: Player,
        k: u8,
        child: Position,
        x: i8,
    ) -> Result<Option<bool>, SolveError> {
        let k = k as i8;
        if child.is_game_over() {
            Ok(Some(k >= x))
        } else if self.exact_exits {
            // Solve the smaller position once; every later threshold reads its value.
            let v = self.value_within_budget(child)?;
            Ok(v.map(|v| crate::build::move_value(mover, k as u8, child, v as i8) >= x))
        } else if child.to_move() == mover {
            self.at_least(child, x - k) // k + v ≥ x
        } else {
            Ok(self.at_least(child, k - x + 1)?.map(|b| !b)) // k − v ≥ x ⟺ v ≤ k − x
        }
    }

    /// Whether the capture `(k, child)` by the mover of a node secures `t` for `s`.
    fn exit_secures(
        &mut self,
        mover: Player,
        k: u8,
        child: Position,
        s: Player,
        t: i8,
    ) -> Result<Option<bool>, SolveError> {
        if mover == s {
            self.move_at_least(mover, k, child, t)
        } else {
            Ok(self.move_at_least(mover, k, child, 1 - t)?.map(|b| !b))
        }
    }

    /// Records what a decided node proves about its position's value.
    fn learn_status(&mut self, pos: Position, s: Player, t: i8, status: u8) {
        let n = pos.stones_on_board() as i8;
        let own = pos.to_move() == s;
        match (status, own) {
            (TRUE, true) => self.learn(pos, t, n),
            (TRUE, false) => self.learn(pos, -n, -t),
            (FALSE, true) => self.learn(pos, -n, t - 1),
            (FALSE, false) => self.learn(pos, 1 - t, n),
            _ => {}
        }
    }

    /// Whether the capture `(k, child)` by `mover` secures `t` for `s` without a nested test: the
    /// game ends, the tables hold the child, or its known bounds settle it.
    fn exit_cheap(&mut self, mover: Player, k: u8, child: Position, s: Player, t: i8) -> Option<bool> {
        // x: what the move must be worth to `mover`; flip: the answer is for the opponent of `s`.
        let (x, flip) = if mover == s { (t, false) } else { (1 - t, true) };
        let k = k as i8;
        let (lo, hi) = if child.is_game_over() {
            (0, 0)
        } else if let Some(v) = self.tb.probe(child) {
            self.stats.probes += 1;
            (v as i8, v as i8)
        } else {
            self.bounds_of(child)
        };
        // The move is worth k + v (mover again, R5) or k − v.
        let (mlo, mhi) = if child.to_move() == mover && !child.is_game_over() {
            (k + lo, k + hi)
        } else {
            (k - hi, k - lo)
        };
        let at_least = if mlo >= x {
            true
        } else if mhi < x {
            false
        } else {
            return None;
        };
        Some(at_least != flip)
    }

    /// Whether player `s` can force a future capture difference of at least `t ≥ 1` from `root`
    /// (a reachability game: endless play scores 0, R7); `None` when the budget ran out first.
    fn reach(&mut self, root: Position, s: Player, t: i8) -> Result<Option<bool>, SolveError> {
        self.depth += 1;
        let r = self.reach_inner(root, s, t);
        self.depth -= 1;
        r
    }

    fn reach_inner(&mut self, root: Position, s: Player, t: i8) -> Result<Option<bool>, SolveError> {
        self.stats.tests += 1;
        let mut nested_budget = self.first_budget;
        // Captures whose nested test ran out of budget, put aside until nothing cheaper is left.
        let mut deferred: Vec<u32> = Vec::new();
        let mut nodes: Vec<Node> = vec![Node::new(root, s, None)];
        let mut ids: HashMap<u128, u32> = HashMap::new();
        let mut queue: std::collections::VecDeque<u32> = std::collections::VecDeque::new();
        let mut settled: Vec<(u32, u8)> = Vec::new();
        let mut wake: Vec<u32> = Vec::new();
        let mut held_by_opponent = false;
        ids.insert(root.repetition_key(), 0);
        queue.push_back(0);
        loop {
            while let Some(id) = queue.pop_front() {
                if nodes[0].status != UNKNOWN {
                    break;
                }
                for w in wake.drain(..) {
                    advance(&mut nodes, w, &mut queue);
                }
                let node = &nodes[id as usize];
                if node.expanded || node.status != UNKNOWN {
                    continue;
                }
                if id != 0 && node.parents.iter().all(|&p| nodes[p as usize].status != UNKNOWN) {
                    continue; // nothing undecided needs it now; a new parent would queue it again
                }
                let pos = node.pos;
                if let Some((mover, k)) = node.exit {
                    // A capture beyond the tables, needed now: a nested test on the smaller position,
                    // within a budget.
                    let outer = self.budget_end;
                    self.budget_end = outer.min(self.stats.nodes.saturating_add(nested_budget));
                    let good = self.exit_secures(mover, k, pos, s, t);
                    self.budget_end = outer;
                    match good? {
                        Some(good) => {
                            nodes[id as usize].expanded = true;
                            let st = if good { TRUE } else { FALSE };
                            settle(&mut nodes, id, st, &mut settled, &mut wake);
                        }
                        None if self.stats.nodes >= outer => {
                            // This test's own budget is spent too.
                            self.learn_settled(&nodes, &settled, s, t);
                            return Ok(None);
                        }
                        None => {
                            nodes[id as usize].deferred = true;
                            deferred.push(id);
                            // Its siblings get their chance meanwhile.
                            let parent = nodes[id as usize].parents[0];
                            let pn = &nodes[parent as usize];
                            let next_is_exit = pn
                                .children
                                .get(pn.next as usize)
                                .is_some_and(|&c| nodes[c as usize].exit.is_some());
                            if next_is_exit {
                                advance(&mut nodes, parent, &mut queue);
                            }
                        }
                    }
                    continue;
                }
                // Known bounds decide it without expanding.
                let (lo, hi) = self.bounds_of(pos);
                let sview = if pos.to_move() == s { (lo, hi) } else { (-hi, -lo) };
                if sview.0 >= t || sview.1 < t {
                    let st = if sview.0 >= t { TRUE } else { FALSE };
                    nodes[id as usize].expanded = true;
                    settle(&mut nodes, id, st, &mut settled, &mut wake);
                    continue;
                }
                if self.stats.nodes >= self.budget_end {
                    // What was decided so far holds; the rest is for a retry with a bigger budget.
                    self.learn_settled(&nodes, &settled, s, t);
                    return Ok(None);
                }
                self.count_node(pos, self.depth > 1)?;
                let mover = pos.to_move();
                let or = mover == s;
                let mut decided = None;
                let mut quiet = Vec::new();
                let mut pending = Vec::new();
                // Captures the tables or known bounds settle come first (free); the others wait as
                // children of their own, searched only if this node still needs them.
                for m in pos.legal_moves() {
                    let (child, k) = pos.play_counting(m);
                    if k == 0 {
                        quiet.push(child);
                        continue;
                    }
                    match self.exit_cheap(mover, k, child, s, t) {
                        Some(true) if or => {
                            decided = Some(TRUE);
                            break;
                        }
                        Some(false) if !or => {
                            decided = Some(FALSE);
                            break;
                        }
                        Some(_) => {}
                        None => pending.push((child, k)),
                    }
                }
                nodes[id as usize].expanded = true;
                if let Some(st) = decided {
                    settle(&mut nodes, id, st, &mut settled, &mut wake);
                    continue;
                }
                if quiet.is_empty() && pending.is_empty() {
                    // Every move is a capture and none decided it: an OR node failed, an AND node held.
                    settle(&mut nodes, id, if or { FALSE } else { TRUE }, &mut settled, &mut wake);
                    continue;
                }
                nodes[id as usize].remaining = (quiet.len() + pending.len()) as u32;
                // Most promising first: the child whose mover has the fewest moves is the cheapest to
                // prove or refute (as proof numbers start).
                quiet.sort_by_key(|c| c.legal_moves().len());
                let mut decided_children = Vec::new();
                // The biggest capture first: the likeliest to decide the node either way.
                pending.sort_by_key(|&(_, k)| std::cmp::Reverse(k));
                // Captures before quiet moves: a capture settles the question in a smaller layer,
                // quiet moves wander (measured: quiet moves first costs over 100 times more nodes).
                for &(child, k) in &pending {
                    push_exit(&mut nodes, id, child, s, mover, k);
                }
                for child in quiet {
                    let cid = match ids.entry(child.repetition_key()) {
                        Entry::Occupied(e) => *e.get(),
                        Entry::Vacant(e) => {
                            let cid = nodes.len() as u32;
                            e.insert(cid);
                            nodes.push(Node::new(child, s, None));
                            cid
                        }
                    };
                    nodes[id as usize].children.push(cid);
                    nodes[cid as usize].parents.push(id);
                    let c = &nodes[cid as usize];
                    if c.status != UNKNOWN {
                        decided_children.push((cid, c.status));
                    }
                }
                // Children decided before this node knew them count now.
                for (_, st) in decided_children {
                    notify(&mut nodes, id, st, &mut settled, &mut wake);
                }
                // Siblings are queued one at a time: the next only when the previous one went the way
                // that does not decide this node (as alpha-beta takes moves one by one).
                advance(&mut nodes, id, &mut queue);
            }
            if nodes[0].status != UNKNOWN {
                break;
            }
            for w in wake.drain(..) {
                advance(&mut nodes, w, &mut queue);
            }
            if queue.is_empty() {
                // Stuck: first see whether the opponent can already keep play inside what is
                // explored (then the root fails), else explore a little more where it matters.
                let reachable = undecided_from_root(&nodes);
                if let Some(held) = opponent_holds(&nodes, &reachable) {
                    settled.extend(held.into_iter().map(|x| (x, FALSE)));
                    held_by_opponent = true;
                    break;
                }
                if !deferred.is_empty() {
                    // Only captures put aside are left to try (captures come before quiet moves):
                    // retry them with a bigger budget.
                    nested_budget = nested_budget.saturating_mul(BUDGET_GROWTH);
                    for x in deferred.drain(..) {
                        nodes[x as usize].deferred = false;
                        if nodes[x as usize].status == UNKNOWN {
                            queue.push_back(x);
                        }
                    }
                    continue;
                }
                if !targeted_widen(&mut nodes, &reachable, &mut queue) && !widen(&mut nodes, &mut queue) {
                    break;
                }
            }
        }
        let root_status = if held_by_opponent {
            FALSE
        } else if nodes[0].status == UNKNOWN {
            // The queue ran dry: every undecided position reachable from the root through undecided
            // ones is expanded, and none of them can be forced to `t`: they all fail (least fixed
            // point; the cycles among them are held at 0 by R7).
            let mut stack = vec![0u32];
            let mut seen = vec![false; nodes.len()];
            seen[0] = true;
            while let Some(x) = stack.pop() {
                debug_assert!(nodes[x as usize].expanded);
                settled.push((x, FALSE));
                for &c in &nodes[x as usize].children {
                    if !seen[c as usize] && nodes[c as usize].status == UNKNOWN {
                        seen[c as usize] = true;
                        stack.push(c);
                    }
                }
            }
            FALSE
        } else {
            nodes[0].status
        };
        self.learn_settled(&nodes, &settled, s, t);
        Ok(Some(root_status == TRUE))
    }

    /// Keeps what the decided nodes of a test prove (each was decided by a complete argument).
    fn learn_settled(&mut self, nodes: &[Node], settled: &[(u32, u8)], s: Player, t: i8) {
        for &(x, st) in settled {
            // A capture node's status is about the move, not about its (smaller) position.
            if nodes[x as usize].exit.is_none() {
                self.learn_status(nodes[x as usize].pos, s, t, st);
            }
        }
    }
}

/// A hash map keyed by packed positions, with [`KeyHasher`].
type KeyMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<KeyHasher>>;

/// A fast hasher for the solver's keys (positions packed into a `u128`, with a threshold): a
/// SplitMix64 finish over the words. The keys come from the game, not from an adversary, so
/// SipHash's protection buys nothing here; it took a quarter of the solver's time (survey: 9.1–10.2 s
/// of CPU with SipHash, 6.9 s with this).
#[derive(Default, Clone, Copy)]
struct KeyHasher(u64);

/// SplitMix64's finalizer: every input bit affects every output bit.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        mix(self.0)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = mix(self.0 ^ u64::from(b));
        }
    }

    fn write_u128(&mut self, x: u128) {
        self.0 = mix(self.0 ^ x as u64) ^ (x >> 64) as u64;
    }

    fn write_i8(&mut self, x: i8) {
        self.0 = mix(self.0 ^ u64::from(x as u8));
    }
}

/// The key under which a position's bounds are kept: the same for a position and its mirror image
/// (rows swapped, the other player to move), which has the same value since the rules treat both
/// players alike (R3–R7; only the first move, R2, is B's, and a value does not depend on it).
fn bounds_key(pos: Position) -> u128 {
    let b = pos.board();
    let pack = |first: usize| (0..12).fold(0u128, |k, i| k | u128::from(b[(first + i) % 12]) << (8 * i));
    let own = pack(0) | (pos.to_move() as u128) << 96;
    let mirror = pack(6) | (pos.to_move().other() as u128) << 96;
    own.min(mirror)
}

/// Adds a pending capture `(child, k)` by `mover` as a child of node `id`.
fn push_exit(nodes: &mut Vec<Node>, id: u32, child: Position, s: Player, mover: Player, k: u8) {
    let cid = nodes.len() as u32;
    let mut n = Node::new(child, s, Some((mover, k)));
    n.parents.push(id);
    nodes.push(n);
    nodes[id as usize].children.push(cid);
}

/// Decides node `id` and passes the news up to its parents, iteratively.
fn settle(nodes: &mut [Node], id: u32, status: u8, settled: &mut Vec<(u32, u8)>, wake: &mut Vec<u32>) {
    let mut stack = vec![(id, status)];
    while let Some((x, st)) = stack.pop() {
        if nodes[x as usize].status != UNKNOWN {
            continue;
        }
        nodes[x as usize].status = st;
        settled.push((x, st));
        for i in 0..nodes[x as usize].parents.len() {
            let p = nodes[x as usize].parents[i];
            if let Some(pst) = parent_news(nodes, p, st) {
                stack.push((p, pst));
            } else if nodes[p as usize].status == UNKNOWN {
                wake.push(p);
            }
        }
    }
}

/// Node `p` (expanded) learns that one of its children got `status`; returns `p`'s new status if
/// that decides it. An OR node (mover = the player testing) is true with one true child and false
/// when all are false; an AND node the other way round.
fn parent_news(nodes: &mut [Node], p: u32, status: u8) -> Option<u8> {
    let node = &mut nodes[p as usize];
    if node.status != UNKNOWN || !node.expanded || node.children.is_empty() {
        return None;
    }
    // `remaining` counts the children that have not yet gone the way that decides `p` all at once.
    let (one_decides, all_decide) = if node.or { (TRUE, FALSE) } else { (FALSE, TRUE) };
    if status == one_decides {
        return Some(one_decides);
    }
    node.remaining -= 1;
    (node.remaining == 0).then_some(all_decide)
}

fn notify(nodes: &mut [Node], id: u32, st: u8, settled: &mut Vec<(u32, u8)>, wake: &mut Vec<u32>) {
    if let Some(pst) = parent_news(nodes, id, st) {
        settle(nodes, id, pst, settled, wake);
    }
}

/// Queues the next undecided child of `id` not queued yet (if `id` is still undecided).
fn advance(nodes: &mut [Node], id: u32, queue: &mut std::collections::VecDeque<u32>) {
    if nodes[id as usize].status != UNKNOWN {
        return;
    }
    while (nodes[id as usize].next as usize) < nodes[id as usize].children.len() {
        let c = nodes[id as usize].children[nodes[id as usize].next as usize];
        nodes[id as usize].next += 1;
        if nodes[c as usize].status == UNKNOWN {
            if !nodes[c as usize].expanded {
                queue.push_back(c);
            }
            return;
        }
    }
}

/// When lazy queuing is stuck (nothing queued, root undecided), queues every child not yet queued
/// of the undecided positions reachable from the root through undecided ones. False when there was
/// none: then those positions are closed under their moves, which the least fixed point needs.
fn widen(nodes: &mut [Node], queue: &mut std::collections::VecDeque<u32>) -> bool {
    let mut stack = vec![0u32];
    let mut seen = vec![false; nodes.len()];
    seen[0] = true;
    while let Some(x) = stack.pop() {
        if !nodes[x as usize].expanded {
            if !nodes[x as usize].deferred {
                queue.push_back(x);
            }
            continue;
        }
        nodes[x as usize].next = nodes[x as usize].children.len() as u32;
        for i in 0..nodes[x as usize].children.len() {
            let c = nodes[x as usize].children[i];
            if !seen[c as usize] && nodes[c as usize].status == UNKNOWN {
                seen[c as usize] = true;
                stack.push(c);
            }
        }
    }
    !queue.is_empty()
}

/// The undecided positions reachable from the root through undecided ones (the root first).
fn undecided_from_root(nodes: &[Node]) -> Vec<u32> {
    let mut out = vec![0u32];
    let mut seen = vec![false; nodes.len()];
    seen[0] = true;
    let mut i = 0;
    while i < out.len() {
        let x = out[i] as usize;
        i += 1;
        for &c in &nodes[x].children {
            if !seen[c as usize] && nodes[c as usize].status == UNKNOWN {
                seen[c as usize] = true;
                out.push(c);
            }
        }
    }
    out
}

/// A set of explored, undecided positions containing the root in which the opponent of the tester
/// can keep play for ever: at the tester's positions every move stays in the set or goes to a
/// position proved to fail, at the opponent's positions some move does, and no capture secures the
/// threshold (else the position would be decided). Every position of such a set fails: play stays
/// in it for ever (R7: no further captures) or reaches a failed one. `None` when the root is not in
/// the largest such set.
fn opponent_holds(nodes: &[Node], reachable: &[u32]) -> Option<Vec<u32>> {
    let mut in_set = vec![false; nodes.len()];
    for &x in reachable {
        in_set[x as usize] = nodes[x as usize].expanded;
    }
    let stays = |in_set: &[bool], x: usize| -> bool {
        let n = &nodes[x];
        if n.or {
            n.children.iter().all(|&c| nodes[c as usize].status == FALSE || in_set[c as usize])
        } else {
            n.children.iter().any(|&c| nodes[c as usize].status == FALSE || in_set[c as usize])
        }
    };
    let mut work: Vec<u32> = reachable.to_vec();
    while let Some(x) = work.pop() {
        if in_set[x as usize] && !stays(&in_set, x as usize) {
            in_set[x as usize] = false;
            for &p in &nodes[x as usize].parents {
                if in_set[p as usize] {
                    work.push(p);
                }
            }
        }
    }
    in_set[0].then(|| reachable.iter().copied().filter(|&x| in_set[x as usize]).collect())
}

/// Queues, among the undecided reachable positions, every unexplored child of the tester's
/// positions (it needs all of them settled) and the next unexplored child of the opponent's. False
/// when nothing was queued.
fn targeted_widen(
    nodes: &mut [Node],
    reachable: &[u32],
    queue: &mut std::collections::VecDeque<u32>,
) -> bool {
    let before = queue.len();
    for &x in reachable {
        let x = x as usize;
        if !nodes[x].expanded {
            if !nodes[x].deferred {
                queue.push_back(x as u32);
            }
            continue;
        }
        let mut i = nodes[x].next as usize;
        while i < nodes[x].children.len() {
            let c = nodes[x].children[i] as usize;
            i += 1;
            if nodes[c].status == UNKNOWN && !nodes[c].expanded && !nodes[c].deferred {
                queue.push_back(c as u32);
                if !nodes[x].or {
                    break;
                }
            }
        }
        nodes[x].next = i as u32;
    }
    queue.len() > before
}
