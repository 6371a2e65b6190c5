//! The engine pool: one [`EngineThread`] for each slot, under a semaphore and a time bound, never
//! on the async runtime's threads; the computer's moves and the advice (hint, analysis) it gives.

use crate::error::ApiError;
use crate::kinds::Side;
use serde::Serialize;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;
use vlt_core::{Game, Move};
use vlt_engine::{Engine, EngineConfig, EngineThread, Finished, Level, Limits, Task};

/// Extra time allowed past the engine's own time limit before its answer is given up on.
const ENGINE_GRACE: Duration = Duration::from_secs(5);
/// The longest a request waits for an engine slot before it is refused with 503.
const ENGINE_QUEUE_WAIT: Duration = Duration::from_secs(10);
/// Transposition table for each server-side search: small, since searches are short and many.
const ENGINE_HASH_MB: usize = 8;

/// The engine's advice.
#[derive(Clone, Debug, Serialize)]
pub struct Advice {
    /// The best move found.
    pub best: String,
    /// Its value for the player to move, in stones of future capture difference.
    pub score: i32,
    /// The player the score is for.
    pub for_player: Side,
    /// Depth reached.
    pub depth: u32,
    /// True when `score` and every move's score are proven (the search reached the end of the game,
    /// an R7 repetition or the endgame tables on every line).
    pub exact: bool,
    /// The principal variation.
    pub pv: Vec<String>,
    /// Every legal move with its value, best first.
    pub moves: Vec<MoveScore>,
}

/// One move's value.
#[derive(Clone, Debug, Serialize)]
pub struct MoveScore {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value for the player to move, in stones.
    pub score: i32,
}

/// The engines and the slots that bound how many search at once.
#[derive(Debug)]
pub struct EnginePool {
    slots: Arc<Semaphore>,
    /// One engine for each slot, each on its own thread.
    engines: Vec<EngineThread>,
    /// Held while a task picks its engine.
    pick: Mutex<()>,
    /// The engine's own time for one search.
    engine_ms: u64,
}

pub(crate) fn game_over() -> ApiError {
    ApiError::Conflict("the game is over: there is nothing to search".into())
}

impl EnginePool {
    /// `slots` engines (at least one) thinking `engine_ms` a search, valuing positions within
    /// `tablebase` exactly.
    #[must_use]
    pub fn new(slots: usize, engine_ms: u64, tablebase: Option<Arc<vlt_tablebase::Tablebase>>) -> EnginePool {
        let slots = slots.max(1);
        let engines = (0..slots)
            .map(|_| {
                let mut e = Engine::new(EngineConfig { hash_mb: ENGINE_HASH_MB, ..EngineConfig::default() });
                e.set_tablebase(tablebase.clone());
                EngineThread::new(e)
            })
            .collect();
        EnginePool { slots: Arc::new(Semaphore::new(slots)), engines, pick: Mutex::new(()), engine_ms }
    }

    /// Runs `task` on an idle engine, under the semaphore and a time bound.
    async fn run(&self, task: Task) -> Result<Finished, ApiError> {
        // Waiting for a slot is bounded too, so a flood of analysis requests is refused rather
        // than queued without end.
        let permit = tokio::time::timeout(ENGINE_QUEUE_WAIT, Arc::clone(&self.slots).acquire_owned())
            .await
            .map_err(|_| ApiError::Busy("the engine is busy; try again".into()))?
            .map_err(|_| ApiError::Internal("engine slots closed".into()))?;
        let (tx, rx) = tokio::sync::oneshot::channel();
        let engine = {
            // A permit is released only once its task has finished, so a permit holder always
            // finds an idle engine; the lock keeps two holders from picking the same one.
            let _pick = self.pick.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let engine = self.engines.iter().find(|e| !e.is_searching()).unwrap_or(&self.engines[0]);
            // A fresh table for every task: answers depend only on the request.
            engine.clear();
            engine.go(
                task,
                |_| {},
                move |f| {
                    let _ = tx.send(f);
                    drop(permit); // held until the search ends, even if nobody waits any more
                },
            );
            engine
        };
        let limit = Duration::from_millis(self.engine_ms) + ENGINE_GRACE;
        match tokio::time::timeout(limit, rx).await {
            Ok(Ok(f)) => Ok(f),
            Ok(Err(_)) => Err(ApiError::Internal("engine: the search was lost".into())),
            Err(_) => {
                // Past its own limit and the grace: tell the search to stop, and give up on it.
                engine.stop();
                Err(ApiError::Busy("the engine took too long".into()))
            }
        }
    }

    /// The computer's move at `level` in `game`; `seed` picks among a low level's choices.
    ///
    /// # Errors
    /// [`ApiError::Busy`] when the engine is busy or slow, [`ApiError::Conflict`] when the game is over.
    pub async fn computer_move(&self, game: Game, level: u8, seed: u64) -> Result<Move, ApiError> {
        let cap = Duration::from_millis(self.engine_ms);
        let level = Level::new(level).ok_or_else(|| ApiError::Internal(format!("stored level {level}")))?;
        let s = level.settings();
        let task = if s.temperature > 0 {
            // The low levels search shallow (a few plies): quick, and their chance matters.
            Task::Level { game, level, seed, clock: None }
        } else {
            let mut limits = s.limits;
            limits.movetime = Some(limits.movetime.map_or(cap, |t| t.min(cap)));
            Task::Search { game, limits, infinite: false }
        };
        self.run(task).await?.best.ok_or_else(game_over)
    }

    /// The engine's advice in `game`'s position, thinking `movetime_ms` (within the bound).
    ///
    /// # Errors
    /// [`ApiError::Busy`], [`ApiError::Conflict`] when the game is over.
    pub async fn advise(&self, game: Game, movetime_ms: u64) -> Result<Advice, ApiError> {
        let limits = Limits {
            movetime: Some(Duration::from_millis(movetime_ms.clamp(10, self.engine_ms))),
            ..Limits::default()
        };
        let for_player = game.position().to_move().into();
        let r = self.run(Task::Analyse { game, limits }).await?.result.ok_or_else(game_over)?;
        Ok(Advice {
            best: r.best.to_string(),
            score: r.info.score,
            for_player,
            depth: r.info.depth,
            exact: r.info.exact,
            pv: r.info.pv.iter().map(ToString::to_string).collect(),
            moves: r.moves.iter().map(|(m, s)| MoveScore { mv: m.to_string(), score: *s }).collect(),
        })
    }
}
