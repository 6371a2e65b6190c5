//! The computer opponent of Vai Lung Thlan: search, evaluation, levels and analysis.
//!
//! Depends on `vlt-core` (the rules) and `vlt-tablebase` (optional endgame tables); knows nothing
//! of terminals, HTTP or the text protocol. Inside: the alpha-beta search (R5/R6/R7 scoring) and
//! its Lazy SMP driver, the shared transposition table, the evaluation (features and tuned
//! weights), Monte Carlo tree search, levels 1–10, time budgets, the deterministic benchmark and
//! the engine's own thread ([`EngineThread`]), game review ([`review_game`]) and the tables' line to
//! the end ([`perfect_line`]); everything a user needs is at the crate root, except
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
mod endgame;
mod engine;
mod eval;
mod level;
mod limits;
mod mcts;
mod report;
mod review;
mod search;
mod smp;
mod thread;
mod time;
mod tt;

pub use bench::{BENCH_DEPTH, BENCH_POSITIONS, BenchResult, bench};
pub use config::{Algorithm, EngineConfig};
pub use endgame::{LineEnd, MAX_LINE, PerfectLine, perfect_line};
pub use engine::Engine;
pub use eval::{
    EvalKind, FEATURE_NAMES, LEARNED_MAX_STONES, N_FEATURES, STONE, Weights, evaluate, evaluate_with,
    features,
};
pub use level::{Level, LevelSettings};
pub use limits::{Clock, Limits, Stop};
pub use mcts::{MctsConfig, Playout};
pub use report::{SearchInfo, SearchResult, to_stones};
pub use review::{
    ACCURACY_HALF_LOSS, Class, ClassCounts, GOOD_MAX_LOSS, INACCURACY_MAX_LOSS, MISTAKE_MAX_LOSS, MoveReview,
    PlayerSummary, Review, ReviewLimits, move_accuracy, review_game, summarise,
};
pub use thread::{EngineThread, Finished, Task};
pub use time::TimeBudget;

pub(crate) use engine::has_moves;
