//! The computer opponent of Vai Lung Thlan: search, evaluation, levels and analysis.
//!
//! Depends on `vlt-core` (the rules) and `vlt-tablebase` (optional endgame tables); knows nothing
//! of terminals, HTTP or the text protocol. Modules: [`search`] (alpha-beta, R5/R6/R7 scoring),
//! [`tt`] (the shared table), [`eval`] (features and tuned weights), [`mcts`] (UCT), [`level`]
//! (levels 1–10), [`time`] (budgets), [`bench`] (the deterministic benchmark), [`selfplay`]
//! (engine-versus-engine games for tuning). See `docs/engine.md`.
//!
//! Scores are stones of *future* capture difference for the player to move (R4, R6): its captures
//! from here on minus the opponent's.
//!
//! **API contract used by the front ends** (`vlt play`, `vlt serve`, the protocol): [`Engine`],
//! [`Limits`], [`Level`], [`SearchInfo`], [`SearchResult`], [`Stop`]. Extend it; do not break it.
//!
//! ```
//! use vlt_core::Game;
//! use vlt_engine::{Engine, Level};
//!
//! let game = Game::default();
//! let mut engine = Engine::new(Default::default());
//! let mv = engine.play_level(&game, Level::new(1).unwrap(), 7);
//! assert!(game.position().legal_moves().contains(mv));
//! ```

pub mod bench;
pub mod eval;
pub mod level;
pub mod mcts;
pub mod search;
pub mod selfplay;
mod thread;
pub mod time;
pub mod tt;

pub use eval::{STONE, Weights};
pub use mcts::{MctsConfig, Playout};
pub use thread::{EngineThread, Finished, Task};
pub use time::TimeBudget;

use search::{INF, MAX_PLY, Shared, Thread, aspiration};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tt::Tt;
use vlt_core::{Game, Move};

/// A flag another thread sets to stop a search early; the search then returns its best so far.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// A new, unset flag.
    #[must_use]
    pub fn new() -> Stop {
        Stop::default()
    }
    /// Asks the search to stop.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    /// True once [`Stop::stop`] was called.
    #[must_use]
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// What bounds a search. All `None` means: search until stopped (or a proven result).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in moves.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// Clock: the mover's remaining time and increment; the engine budgets its time from these.
    pub clock: Option<Clock>,
    /// Depth finished whatever the time limits say: time stops only deeper iterations. (Level 10
    /// uses it so that a busy machine never makes it search less than level 9.)
    pub min_depth: Option<u32>,
}

/// A player's clock (time management).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// Which search algorithm the engine runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Algorithm {
    /// Iterative-deepening alpha-beta (negamax, PVS) with a transposition table.
    #[default]
    AlphaBeta,
    /// Monte Carlo tree search (UCT) with random playouts; settings in [`MctsConfig`].
    Mcts,
}

impl Algorithm {
    /// The name used in options and on the command line: `alphabeta`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Mcts => "mcts",
        }
    }
}

impl std::str::FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "alphabeta" | "ab" => Ok(Algorithm::AlphaBeta),
            "mcts" | "uct" => Ok(Algorithm::Mcts),
            _ => Err(format!("unknown algorithm {s:?}: expected alphabeta or mcts")),
        }
    }
}

/// Engine settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads (Lazy SMP: helpers share the table; results are deterministic only with one).
    pub threads: usize,
    /// The search algorithm.
    pub algorithm: Algorithm,
    /// Settings of [`Algorithm::Mcts`].
    pub mcts: MctsConfig,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig { hash_mb: 64, threads: 1, algorithm: Algorithm::AlphaBeta, mcts: MctsConfig::default() }
    }
}

/// A playing level, 1 (beginner) to 10 (strongest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The strongest level.
    pub const MAX: Level = Level(10);
    /// Level `n`, 1..=10.
    #[must_use]
    pub fn new(n: u8) -> Option<Level> {
        (1..=10).contains(&n).then_some(Level(n))
    }
    /// The level's number.
    #[must_use]
    pub fn get(self) -> u8 {
        self.0
    }
}

/// Progress of a running search, reported after each finished iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Depth completed.
    pub depth: u32,
    /// Score in stones for the player to move: its future captures minus the opponent's.
    pub score: i32,
    /// True when the score is proven (finished search or tablebase).
    pub exact: bool,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play.
    pub best: Move,
    /// The final iteration's information (score, depth, nodes, pv).
    pub info: SearchInfo,
    /// Every legal move with its score for the player to move, best first. The best move's score is
    /// exact; with [`Engine::search`] the others are upper bounds (PVS proves only that they are
    /// not better), with [`Engine::analyse`] every score is exact.
    pub moves: Vec<(Move, i32)>,
}

/// Centistones to whole stones, rounded to nearest.
#[must_use]
pub fn to_stones(cs: i32) -> i32 {
    (cs + STONE / 2).div_euclid(STONE)
}

/// The engine: owns its transposition table between searches. `Send`, so front ends run it on a
/// background thread.
#[derive(Debug)]
pub struct Engine {
    config: EngineConfig,
    tt: Arc<Tt>,
    weights: Weights,
    reductions: bool,
    quiescence: bool,
    tablebase: Option<Arc<vlt_tablebase::Tablebase>>,
    /// The last alpha-beta search's root move scores in centistones, in `SearchResult::moves` order.
    last_root_cs: Vec<i32>,
}

impl Engine {
    /// A new engine.
    #[must_use]
    pub fn new(config: EngineConfig) -> Engine {
        Engine {
            config,
            tt: Arc::new(Tt::new(config.hash_mb)),
            weights: Weights::default(),
            reductions: true,
            quiescence: false,
            tablebase: None,
            last_root_cs: Vec::new(),
        }
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> EngineConfig {
        self.config
    }

    /// Changes the settings; a new table size reallocates (and so clears) the table.
    pub fn set_config(&mut self, config: EngineConfig) {
        if config.hash_mb != self.config.hash_mb {
            self.tt = Arc::new(Tt::new(config.hash_mb));
        }
        self.config = config;
    }

    /// The evaluation weights.
    #[must_use]
    pub fn weights(&self) -> Weights {
        self.weights
    }

    /// Sets the evaluation weights (for tuning and tuned-versus-untuned matches).
    pub fn set_weights(&mut self, w: Weights) {
        self.weights = w;
    }

    /// Turns late move reductions on (the default) or off, for measuring what they bring.
    pub fn set_reductions(&mut self, on: bool) {
        self.reductions = on;
    }

    /// Turns the capture quiescence search at the horizon on or off (off by default: it did not
    /// measurably help, see `docs/engine.md`).
    pub fn set_quiescence(&mut self, on: bool) {
        self.quiescence = on;
    }

    /// Sets (or removes) the endgame tables. The search then values every position with at most
    /// [`vlt_tablebase::Tablebase::max_stones`] stones on the board exactly (R7 included), so
    /// searches that reach the tables everywhere report exact scores.
    pub fn set_tablebase(&mut self, tb: Option<Arc<vlt_tablebase::Tablebase>>) {
        let same = match (&self.tablebase, &tb) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        self.tablebase = tb;
        // Table scores differ from searched ones: old entries would mix the two. The same tables
        // again (or none again, as front ends without `--tablebase` set) keep the table.
        if !same {
            self.tt.clear();
        }
    }

    /// The endgame tables in use, if any.
    #[must_use]
    pub fn tablebase(&self) -> Option<&Arc<vlt_tablebase::Tablebase>> {
        self.tablebase.as_ref()
    }

    /// Forgets everything learnt in earlier searches (the transposition table), so the next search
    /// behaves as in a fresh engine.
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Searches the current position of `game` (its history matters for R7) within `limits`,
    /// calling `on_info` after each iteration. Returns `None` only when the game is over.
    /// With one thread the result depends only on the game, the limits (except time) and what the
    /// engine searched before (call [`Engine::clear`] to forget that).
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &Stop,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<SearchResult> {
        if !has_moves(game) {
            return None;
        }
        match self.config.algorithm {
            Algorithm::AlphaBeta => Some(self.alphabeta(game, limits, stop, on_info, false)),
            Algorithm::Mcts => Some(mcts::search(game, limits, stop, &self.config.mcts, on_info)),
        }
    }

    /// Like [`Engine::search`] (alpha-beta), but every legal move gets an exact score (for analysis
    /// and for the lower levels' choice among moves). Costs more than `search`.
    pub fn analyse(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &Stop,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<SearchResult> {
        has_moves(game).then(|| self.alphabeta(game, limits, stop, on_info, true))
    }

    fn alphabeta(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &Stop,
        on_info: &mut dyn FnMut(&SearchInfo),
        all: bool,
    ) -> SearchResult {
        if let Some(r) = self.tablebase.as_deref().and_then(|tb| tablebase_result(tb, game)) {
            on_info(&r.info);
            self.last_root_cs = r.moves.iter().map(|&(_, v)| v * STONE).collect();
            return r;
        }
        self.tt.new_search();
        let threads = self.config.threads.max(1);
        let sh = Shared {
            tt: &self.tt,
            weights: self.weights,
            stop,
            abort: AtomicBool::new(false),
            start: Instant::now(),
            budget: TimeBudget::from_limits(limits),
            node_limit: limits.nodes,
            nodes: AtomicU64::new(0),
            main_depth: AtomicU32::new(1),
            min_depth: limits.min_depth.unwrap_or(0),
            single: threads == 1,
            lmr: self.reductions,
            quiescence: self.quiescence,
            tb: self.tablebase.as_deref(),
            tb_max: self.tablebase.as_ref().map_or(0, |t| t.max_stones()),
        };
        let history = game.since_last_capture();
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1).clamp(1, MAX_PLY as u32 - 1);
        let sh = &sh;
        let result = std::thread::scope(|s| {
            let helpers: Vec<_> = (1..threads)
                .map(|i| s.spawn(move || iterate(sh, history, max_depth, all, i, &mut |_| {})))
                .collect();
            let main = iterate(sh, history, max_depth, all, 0, on_info);
            sh.abort.store(true, Ordering::Relaxed);
            // A helper's iteration deeper than the main thread's last one is the better answer.
            let depth = |r: &Option<(SearchResult, Vec<i32>)>| r.as_ref().map_or(0, |r| r.0.info.depth);
            let mut best = main;
            for h in helpers {
                let r = h.join().unwrap_or(None);
                if depth(&r) > depth(&best) {
                    best = r;
                }
            }
            best
        });
        let (r, cs) = result.unwrap_or_else(|| {
            // Only when stopped before the first iteration ended (threads > 1): any legal move.
            let pos = game.position();
            let best = pos.legal_moves().next().expect("not over");
            let info = SearchInfo {
                depth: 0,
                score: 0,
                exact: false,
                nodes: sh.nodes.load(Ordering::Relaxed),
                nps: 0,
                elapsed: sh.start.elapsed(),
                pv: vec![best],
            };
            let moves: Vec<(Move, i32)> = pos.legal_moves().map(|m| (m, 0)).collect();
            let cs = vec![0; moves.len()];
            (SearchResult { best, info, moves }, cs)
        });
        self.last_root_cs = cs;
        r
    }

    /// The root move scores of the last alpha-beta search in centistones (`1/100` stone), in the
    /// order of its `SearchResult::moves`: finer than the whole stones of the result.
    #[must_use]
    pub fn last_root_centistones(&self) -> &[i32] {
        &self.last_root_cs
    }

    /// The move a player of `level` makes here; `seed` makes its choices reproducible.
    ///
    /// # Panics
    /// When the game is over.
    pub fn play_level(&mut self, game: &Game, level: Level, seed: u64) -> Move {
        level::play(self, game, level, seed, &level.limits())
    }

    /// Like [`Engine::play_level`], for a player on a clock (time left and increment): the level's
    /// depth and choice among moves, the clock's time budget ([`Level::limits_on_clock`]).
    ///
    /// # Panics
    /// When the game is over.
    pub fn play_level_on_clock(&mut self, game: &Game, level: Level, seed: u64, clock: Clock) -> Move {
        level::play(self, game, level, seed, &level.limits_on_clock(clock))
    }
}

/// The result straight from the endgame tables when they cover the current position: every move's
/// exact value, and a principal variation that follows the best moves (until the game ends, a
/// position repeats (R7) or 40 moves).
fn tablebase_result(tb: &vlt_tablebase::Tablebase, game: &Game) -> Option<SearchResult> {
    let start = Instant::now();
    let pos = game.position();
    let mut moves = tb.probe_moves(pos)?;
    // Best first; the stable sort keeps ring order among equals, so `best` is the tables' own
    // choice, the one the PV starts with.
    moves.sort_by_key(|&(_, v)| -v);
    let (best, score) = *moves.first()?;
    let mut pv = Vec::new();
    let mut keys: Vec<u128> = game.since_last_capture().iter().map(|p| p.repetition_key()).collect();
    let mut p = pos;
    while pv.len() < 40 && !p.is_game_over() {
        let Some(m) = tb.best_move(p) else { break };
        pv.push(m.0);
        let (next, k) = p.play_counting(m.0);
        if k > 0 {
            keys.clear();
        } else if keys.contains(&next.repetition_key()) {
            break;
        }
        keys.push(next.repetition_key());
        p = next;
    }
    let elapsed = start.elapsed();
    let nodes = pv.len() as u64 + 1;
    let info = SearchInfo {
        depth: pv.len() as u32,
        score,
        exact: true,
        nodes,
        nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
        elapsed,
        pv,
    };
    Some(SearchResult { best, info, moves })
}

/// Iterative deepening on one thread. Thread 0 (the main one) reports progress. Helpers (Lazy
/// SMP) fill the shared table ahead of it ([`ahead`] plies deeper than the main thread's current
/// iteration), so the main thread finds much of its tree already in the table. The deepest
/// completed iteration of any thread is the search's answer; a helper that completes the depth
/// limit ends the search.
fn iterate(
    sh: &Shared<'_>,
    history: &[vlt_core::Position],
    max_depth: u32,
    all: bool,
    index: usize,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> Option<(SearchResult, Vec<i32>)> {
    let root_pos = *history.last().expect("the root");
    let mut t = Thread::new(sh, history);
    // First iteration order: bigger captures first (stable, so ring order breaks ties).
    t.root.sort_by_key(|r| std::cmp::Reverse(r.captured));
    let mut result: Option<(SearchResult, Vec<i32>)> = None;
    let mut prev = 0;
    let first = 1 + ahead(index);
    let mut depth = first;
    // How long the last two iterations took, to predict the next one.
    let (mut last, mut before) = (Duration::ZERO, Duration::ZERO);
    while depth <= max_depth {
        let elapsed = sh.start.elapsed();
        let timed = depth > sh.min_depth;
        if depth > first
            && (sh.stop.is_stopped()
                || sh.abort.load(Ordering::Relaxed)
                || (timed
                    && (!sh.budget.may_start_iteration(elapsed)
                        || !sh.budget.may_finish_iteration(elapsed, last, before))))
        {
            break;
        }
        let iteration_start = elapsed;
        if index == 0 {
            sh.main_depth.store(depth, Ordering::Relaxed);
        }
        let (mut alpha, mut beta, mut window) = aspiration(depth, prev);
        let score = loop {
            let v = t.search_root(root_pos, depth, alpha, beta, all);
            if t.aborted {
                break v;
            }
            if v <= alpha && alpha > -INF {
                alpha = (alpha - window).max(-INF);
                window *= 2;
            } else if v >= beta && beta < INF {
                beta = (beta + window).min(INF);
                window *= 2;
            } else {
                break v;
            }
        };
        if t.aborted {
            break;
        }
        t.commit_root_scores(all);
        (before, last) = (last, sh.start.elapsed() - iteration_start);
        let pv = t.pv();
        t.sort_root();
        if let Some(i) = t.root.iter().position(|r| {
            Some(Move(vlt_core::Hole::from_index(r.hole as usize).expect("hole"))) == pv.first().copied()
        }) {
            let r = t.root.remove(i);
            t.root.insert(0, r);
        }
        prev = score;
        t.flush_nodes();
        let nodes = sh.nodes.load(Ordering::Relaxed);
        let elapsed = sh.start.elapsed();
        let exact = t.proven();
        let info = SearchInfo {
            depth,
            score: to_stones(score),
            exact,
            nodes,
            nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
            elapsed,
            pv: pv.clone(),
        };
        if index == 0 {
            on_info(&info);
        }
        let moves = t
            .root
            .iter()
            .map(|r| (Move(vlt_core::Hole::from_index(r.hole as usize).expect("hole")), to_stones(r.score)))
            .collect();
        let cs = t.root.iter().map(|r| r.score).collect();
        result = Some((SearchResult { best: pv[0], info, moves }, cs));
        // A forced move on the clock: more depth cannot change it, so keep the time.
        let forced = t.root.len() == 1 && sh.budget.soft.is_some();
        // (When the main thread stops, the search sets `abort` and the helpers stop too.)
        if exact || forced || sh.node_limit.is_some_and(|n| nodes >= n) {
            break;
        }
        if depth >= max_depth && index > 0 {
            // A helper reached the depth limit first: its answer is the search's, stop the rest.
            sh.abort.store(true, Ordering::Relaxed);
            break;
        }
        depth += 1;
        if index > 0 {
            // A helper that fell behind the main thread jumps ahead of it.
            depth = depth.max(sh.main_depth.load(Ordering::Relaxed) + ahead(index));
        }
    }
    t.flush_nodes();
    result
}

/// How many plies Lazy SMP helper `index` keeps ahead of the main thread's iteration (0 for the
/// main thread): two for odd helpers, one for even ones. Measured with the `smp` example on two
/// cores, a helper two plies ahead gave the main thread the most of its next tree (1.4–1.7x time
/// to depth 17–19, against 1.1–1.2x one ply ahead and 0.9x at the same depth).
fn ahead(index: usize) -> u32 {
    match index {
        0 => 0,
        i if i % 2 == 1 => 2,
        _ => 1,
    }
}

/// True when the game goes on and its mover has a move (a search has something to choose).
pub(crate) fn has_moves(game: &Game) -> bool {
    !game.is_over() && !game.position().legal_moves().is_empty()
}
