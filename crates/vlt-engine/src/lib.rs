//! The computer opponent of Vai Lung Thlan: search, evaluation, levels and analysis.
//!
//! Depends only on `vlt-core`; knows nothing of terminals, HTTP or the text protocol.
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

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use vlt_core::{Game, Move, Position};

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
}

/// A player's clock (time management).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// Engine settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig { hash_mb: 64, threads: 1 }
    }
}

/// A playing level, 1 (beginner) to 10 (strongest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
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
    /// Every legal move with its score for the player to move, best first (for analysis).
    pub moves: Vec<(Move, i32)>,
}

/// The engine: owns its transposition table between searches.
#[derive(Debug)]
pub struct Engine {
    config: EngineConfig,
}

impl Engine {
    /// A new engine.
    #[must_use]
    pub fn new(config: EngineConfig) -> Engine {
        Engine { config }
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> EngineConfig {
        self.config
    }

    /// Searches the current position of `game` (its history matters for R7) within `limits`,
    /// calling `on_info` after each iteration. Returns `None` only when the game is over.
    ///
    /// PLACEHOLDER: one-ply greedy until the real search lands (issue 3).
    pub fn search(
        &mut self,
        game: &Game,
        _limits: &Limits,
        _stop: &Stop,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<SearchResult> {
        let pos = game.position();
        if game.is_over() || pos.legal_moves().is_empty() {
            return None;
        }
        let mover = pos.to_move();
        let mut moves: Vec<(Move, i32)> = pos
            .legal_moves()
            .map(|m| {
                let after: Position = pos.play_unchecked(m);
                (m, after.capture_diff(mover) - pos.capture_diff(mover))
            })
            .collect();
        moves.sort_by_key(|&(_, s)| -s);
        let info = SearchInfo {
            depth: 1,
            score: moves[0].1,
            exact: false,
            nodes: moves.len() as u64,
            nps: 0,
            elapsed: Duration::ZERO,
            pv: vec![moves[0].0],
        };
        on_info(&info);
        Some(SearchResult { best: moves[0].0, info, moves })
    }

    /// The move a player of `level` makes here; `seed` makes its choices reproducible.
    ///
    /// # Panics
    /// When the game is over.
    pub fn play_level(&mut self, game: &Game, level: Level, seed: u64) -> Move {
        let _ = (level, seed);
        self.search(game, &Limits::default(), &Stop::new(), &mut |_| {}).expect("game not over").best
    }
}
