//! The engine: settings, weights, the shared table and the endgame tables kept between searches,
//! and the searches it runs on them.

use crate::eval::{EvalKind, STONE, Weights};
use crate::search::{MAX_PLY, Shared};
use crate::time::TimeBudget;
use crate::tt::Tt;
use crate::{
    Algorithm, Clock, EngineConfig, Level, Limits, SearchInfo, SearchResult, Stop, level, mcts, smp,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Instant;
use vlt_core::{Game, Move};

/// The engine: owns its transposition table between searches. `Send`, so front ends run it on a
/// background thread.
#[derive(Debug)]
pub struct Engine {
    config: EngineConfig,
    tt: Arc<Tt>,
    weights: Weights,
    eval: EvalKind,
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
            eval: EvalKind::default(),
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

    /// Chooses the evaluation at the search's horizon.
    pub fn set_eval(&mut self, kind: EvalKind) {
        if kind != self.eval {
            // Scores of one evaluation mean nothing to the other.
            self.tt.clear();
        }
        self.eval = kind;
    }

    /// The evaluation at the search's horizon.
    #[must_use]
    pub fn eval(&self) -> EvalKind {
        self.eval
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
            Algorithm::Mcts => {
                Some(mcts::search(game, limits, stop, &self.config.mcts, self.config.hash_mb, on_info))
            }
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
            eval: self.eval,
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
        let result = smp::search(&sh, history, max_depth, all, threads, on_info);
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

/// True when the game goes on and its mover has a move (a search has something to choose).
pub(crate) fn has_moves(game: &Game) -> bool {
    !game.is_over() && !game.position().legal_moves().is_empty()
}
