//! The computer opponent of Vai Lung Thlan: search, evaluation, levels and analysis.
//!
//! Depends on `vlt-core` (the rules) and `vlt-tablebase` (optional endgame tables); knows nothing
//! of terminals, HTTP or the text protocol. Inside: the alpha-beta search (R5/R6/R7 scoring) and
//! its Lazy SMP driver, the shared transposition table, the evaluation (features and tuned
//! weights), Monte Carlo tree search, levels 1–10, time budgets, the deterministic benchmark and
//! the engine's own thread ([`EngineThread`]); everything a user needs is at the crate root, except
//! the [`arena`] (matches between contestants: openings, games, statistics). See `docs/engine.md`.
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

pub mod arena;
mod bench;
mod config;
mod engine;
mod eval;
mod level;
mod limits;
mod mcts;
mod report;
mod search;
mod smp;
mod thread;
mod time;
mod tt;

pub use bench::{BENCH_DEPTH, BENCH_POSITIONS, BenchResult, bench};
pub use config::{Algorithm, EngineConfig};
pub use engine::Engine;
pub use eval::{FEATURE_NAMES, N_FEATURES, STONE, Weights, evaluate, features};
pub use level::{Level, LevelSettings};
pub use limits::{Clock, Limits, Stop};
pub use mcts::{MctsConfig, Playout};
pub use report::{SearchInfo, SearchResult, to_stones};
pub use thread::{EngineThread, Finished, Task};
pub use time::TimeBudget;

pub(crate) use engine::has_moves;
