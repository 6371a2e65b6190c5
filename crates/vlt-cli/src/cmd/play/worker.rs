//! The engine on a background thread, so the screen keeps drawing while the computer thinks.
//! Requests carry an id; the UI ignores a reply whose id it no longer waits for (after an undo,
//! a new game or a load), which is simpler and safer than interrupting the search.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::Duration;
use vlt_core::{Game, Move};
use vlt_engine::{Engine, EngineConfig, Level, Limits, Stop};
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

/// The engine thread and its two channels.
pub struct Worker {
    tx: Option<Sender<Request>>,
    rx: Receiver<Reply>,
    handle: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the engine thread; with `tablebase`, the engine values positions within it exactly.
    pub fn spawn(tablebase: Option<Arc<Tablebase>>) -> Worker {
        let (tx, requests) = channel::<Request>();
        let (replies, rx) = channel::<Reply>();
        let handle = std::thread::spawn(move || {
            let mut engine = Engine::new(EngineConfig { hash_mb: 16, ..EngineConfig::default() });
            engine.set_tablebase(tablebase);
            for r in requests {
                let reply = answer(&mut engine, &r);
                if replies.send(reply).is_err() {
                    break;
                }
            }
        });
        Worker { tx: Some(tx), rx, handle: Some(handle) }
    }

    /// Queues a request.
    pub fn send(&self, r: Request) {
        if let Some(tx) = &self.tx {
            // A send fails only when the thread died; the UI then simply gets no reply.
            let _ = tx.send(r);
        }
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

impl Drop for Worker {
    fn drop(&mut self) {
        // Closing the channel ends the thread's loop after its current search (at most about a
        // second, level 10's move time); joining keeps the exit orderly.
        self.tx = None;
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// Runs one request on the engine.
pub fn answer(engine: &mut Engine, r: &Request) -> Reply {
    let mut reply = Reply { id: r.id, job: r.job, mv: None, score: None, depth: 0 };
    if r.game.is_over() {
        return reply;
    }
    match r.job {
        Job::Play(level, seed) => reply.mv = Some(engine.play_level(&r.game, level, seed)),
        Job::Hint | Job::Eval => {
            let limits = Limits { movetime: Some(ANALYSIS_TIME), ..Limits::default() };
            if let Some(res) = engine.search(&r.game, &limits, &Stop::new(), &mut |_| {}) {
                reply.mv = Some(res.best);
                reply.score = Some(res.info.score);
                reply.depth = res.info.depth;
            }
        }
    }
    reply
}
