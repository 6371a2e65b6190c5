//! Game reviews in the background: one worker thread with its own engine (and the endgame tables)
//! reviews finished games one at a time ([`vlt_engine::review_game`]), reports its progress, and
//! stores each review ([`store`]) so that it is never computed twice for the same moves.

pub mod routes;
mod store;

use crate::error::ApiError;
use crate::store::Store;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use vlt_core::Game;
use vlt_engine::{Engine, EngineConfig, Limits, ReviewLimits, Stop, review_game};
use vlt_tablebase::Tablebase;

/// Reviews waiting for the worker at most; more are refused with 503.
pub const MAX_QUEUED: usize = 32;
/// The review engine's transposition table, MiB.
const REVIEW_HASH_MB: usize = 16;

/// Where a game's review stands.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(tag = "state", rename_all = "lowercase")]
pub enum ReviewState {
    /// Not reviewed (or reviewed for other moves).
    None,
    /// Waiting for the worker.
    Queued {
        /// Moves to review.
        total: usize,
    },
    /// Being reviewed.
    Running {
        /// Moves judged so far.
        done: usize,
        /// Moves to review.
        total: usize,
    },
    /// Reviewed: the review (`vlt_engine::Review` as JSON).
    Done {
        /// The review.
        review: serde_json::Value,
    },
    /// The review could not be made or stored.
    Failed {
        /// Why.
        error: String,
    },
}

struct Job {
    id: String,
    key: String,
    game: Game,
}

/// The jobs not yet stored, by game, with the moves they review.
type Jobs = HashMap<String, (String, ReviewState)>;

/// The review worker and what it is doing.
pub struct Reviewer {
    jobs: Arc<Mutex<Jobs>>,
    tx: SyncSender<Job>,
    store: Arc<Store>,
    stop: Stop,
}

impl std::fmt::Debug for Reviewer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reviewer").finish_non_exhaustive()
    }
}

/// The key a review is stored under: the start and the moves, so a changed game is new.
#[must_use]
pub fn moves_key(game: &Game) -> String {
    let moves: Vec<String> = game.moves().iter().map(ToString::to_string).collect();
    format!("{} | {}", game.start(), moves.join(" "))
}

fn lock(jobs: &Mutex<Jobs>) -> std::sync::MutexGuard<'_, Jobs> {
    jobs.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Reviewer {
    /// A reviewer storing into `store`, searching `review_ms` a position, exact within `tablebase`.
    #[must_use]
    pub fn new(store: Arc<Store>, tablebase: Option<Arc<Tablebase>>, review_ms: u64) -> Reviewer {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Job>(MAX_QUEUED);
        let jobs: Arc<Mutex<Jobs>> = Arc::default();
        let stop = Stop::new();
        let mut engine = Engine::new(EngineConfig { hash_mb: REVIEW_HASH_MB, ..EngineConfig::default() });
        engine.set_tablebase(tablebase);
        let limits = ReviewLimits {
            per_move: Limits { movetime: Some(Duration::from_millis(review_ms.max(1))), ..Limits::default() },
        };
        let (j, s, st) = (Arc::clone(&jobs), Arc::clone(&store), stop.clone());
        // Detached: when the reviewer goes, `stop` ends the review under way and the closed
        // channel ends the loop.
        let _ = std::thread::Builder::new()
            .name("vlt-review".into())
            .spawn(move || work(&rx, &mut engine, &limits, &j, &s, &st));
        Reviewer { jobs, tx, store, stop }
    }

    /// Where the review of `game` (game `id`) stands: under way, stored, or none.
    ///
    /// # Errors
    /// [`ApiError::Internal`] if the store fails.
    pub fn state(&self, id: &str, game: &Game) -> Result<ReviewState, ApiError> {
        let key = moves_key(game);
        if let Some((k, st)) = lock(&self.jobs).get(id)
            && *k == key
        {
            return Ok(st.clone());
        }
        match self.store.load_review(id, &key)? {
            Some(body) => serde_json::from_str(&body)
                .map(|review| ReviewState::Done { review })
                .map_err(|e| ApiError::Internal(format!("stored review of {id}: {e}"))),
            None => Ok(ReviewState::None),
        }
    }

    /// Starts the review of `game` unless it is under way or stored; answers where it stands.
    ///
    /// # Errors
    /// [`ApiError::Busy`] when [`MAX_QUEUED`] reviews are waiting; [`ApiError::Internal`].
    pub fn start(&self, id: &str, game: &Game) -> Result<ReviewState, ApiError> {
        match self.state(id, game)? {
            ReviewState::None | ReviewState::Failed { .. } => {}
            st => return Ok(st),
        }
        let key = moves_key(game);
        let total = game.moves().len();
        let mut jobs = lock(&self.jobs);
        let job = Job { id: id.to_string(), key: key.clone(), game: game.clone() };
        match self.tx.try_send(job) {
            Ok(()) => {
                let st = ReviewState::Queued { total };
                jobs.insert(id.to_string(), (key, st.clone()));
                Ok(st)
            }
            Err(TrySendError::Full(_)) => {
                Err(ApiError::Busy("too many reviews are waiting; try again".into()))
            }
            Err(TrySendError::Disconnected(_)) => {
                Err(ApiError::Internal("the review worker has stopped".into()))
            }
        }
    }
}

impl Drop for Reviewer {
    fn drop(&mut self) {
        self.stop.stop();
    }
}

fn work(
    rx: &Receiver<Job>,
    engine: &mut Engine,
    limits: &ReviewLimits,
    jobs: &Mutex<Jobs>,
    store: &Store,
    stop: &Stop,
) {
    while let Ok(job) = rx.recv() {
        if stop.is_stopped() {
            return;
        }
        // The job was inserted under the lock before it could be received (see `start`).
        let set = |st: ReviewState| {
            // Only this job's entry: a newer job for changed moves may have replaced it.
            if let Some(e) = lock(jobs).get_mut(&job.id)
                && e.0 == job.key
            {
                e.1 = st;
            }
        };
        // A fresh table: the review depends only on the game and the limits.
        engine.clear();
        let review = review_game(engine, &job.game, limits, stop, &mut |done, total| {
            set(ReviewState::Running { done, total });
        });
        if !review.complete {
            // Stopped: the server is going; nothing half-done is stored.
            return;
        }
        let stored = serde_json::to_string(&review)
            .map_err(|e| e.to_string())
            .and_then(|body| store.save_review(&job.id, &job.key, &body).map_err(|e| e.to_string()));
        match stored {
            Ok(()) => {
                let mut j = lock(jobs);
                if j.get(&job.id).is_some_and(|e| e.0 == job.key) {
                    j.remove(&job.id);
                }
            }
            Err(e) => set(ReviewState::Failed { error: format!("the review could not be stored: {e}") }),
        }
    }
}
