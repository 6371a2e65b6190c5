//! The engine on its own thread ([`EngineThread`]), so the screen keeps drawing while the
//! computer thinks. Requests carry an id; the UI ignores a reply whose id it no longer waits for
//! (after an undo, a new game or a load), which is simpler and safer than interrupting the
//! search. Dropping the worker stops what runs.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;
use vlt_core::{Game, Move};
use vlt_engine::{Engine, EngineConfig, EngineThread, Level, Limits, Task};
use vlt_tablebase::Tablebase;

/// How long a hint or an evaluation may search: long enough to be useful at every level, short
/// enough that the player does not wait.
pub const ANALYSIS_TIME: Duration = Duration::from_millis(400);

/// What the engine is asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// The computer's move at a level, with a seed for its choices.
    Play(Level, u64),
    /// The best move for the player to move.
    Hint,
    /// The value of the position, for the evaluation bar.
    Eval,
}

/// A request: a job on a copy of the game.
pub struct Request {
    /// The id the reply will carry.
    pub id: u64,
    /// The job.
    pub job: Job,
    /// The game (its history matters for R7).
    pub game: Game,
}

/// The engine's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The request's id.
    pub id: u64,
    /// The request's job.
    pub job: Job,
    /// The move chosen, if the game was not over.
    pub mv: Option<Move>,
    /// The score for the player to move, in whole stones (Hint and Eval).
    pub score: Option<i32>,
    /// The depth reached (Hint and Eval).
    pub depth: u32,
}

/// The engine thread, and the channel its replies come back on.
pub struct Worker {
    engine: EngineThread,
    tx: Sender<Reply>,
    rx: Receiver<Reply>,
}

/// The transposition table of the game's engine, in MiB.
const HASH_MB: usize = 16;

impl Worker {
    /// Starts the engine thread; with `tablebase`, the engine values positions within it exactly.
    pub fn spawn(tablebase: Option<Arc<Tablebase>>) -> Worker {
        let mut engine = Engine::new(EngineConfig { hash_mb: HASH_MB, ..EngineConfig::default() });
        engine.set_tablebase(tablebase);
        let (tx, rx) = channel::<Reply>();
        Worker { engine: EngineThread::new(engine), tx, rx }
    }

    /// Queues a request.
    pub fn send(&self, r: Request) {
        let (id, job) = (r.id, r.job);
        let task = match job {
            Job::Play(level, seed) => Task::Level { game: r.game, level, seed, clock: None },
            Job::Hint | Job::Eval => Task::Search {
                game: r.game,
                limits: Limits { movetime: Some(ANALYSIS_TIME), ..Limits::default() },
                infinite: false,
            },
        };
        let tx = self.tx.clone();
        self.engine.go(
            task,
            |_| {},
            move |f| {
                let (score, depth) = f.result.map_or((None, 0), |r| (Some(r.info.score), r.info.depth));
                // A send fails only when the UI has gone; nobody waits for the reply then.
                let _ = tx.send(Reply { id, job, mv: f.best, score, depth });
            },
        );
    }

    /// A reply, if one is ready.
    pub fn try_recv(&self) -> Option<Reply> {
        self.rx.try_recv().ok()
    }

    /// Waits up to `timeout` for a reply.
    #[cfg(test)]
    pub fn recv_timeout(&self, timeout: Duration) -> Option<Reply> {
        self.rx.recv_timeout(timeout).ok()
    }
}
