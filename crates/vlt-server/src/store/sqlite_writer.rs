//! SQLite's group commit: one thread takes every write queued so far and commits them in one
//! transaction, each inside its own savepoint (so one failing write fails alone), with one fsync
//! for the lot. A writer is answered only after the commit that holds its write, on a oneshot
//! channel that an async caller awaits (no blocking thread held per write) and a blocking caller
//! waits on.

use super::StoreError;
use rusqlite::Connection;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, mpsc};
use std::task::{Context, Poll, Wake, Waker};
use tokio::sync::oneshot;

/// A write waiting for its turn: runs inside the batch's transaction and answers with the number
/// of rows it changed.
type Op = Box<dyn FnOnce(&Connection) -> rusqlite::Result<usize> + Send>;

struct Pending {
    op: Op,
    reply: oneshot::Sender<Result<usize, StoreError>>,
}

/// The most writes one transaction holds, so that one commit's wait stays short under a flood.
const MAX_BATCH: usize = 512;

/// Locks the connection. A panic while holding the lock cannot leave SQLite half-written
/// (transactions roll back), so a poisoned lock is safe to reuse.
pub(super) fn lock(conn: &Mutex<Connection>) -> MutexGuard<'_, Connection> {
    conn.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The thread that commits writes, and the queue that feeds it. Dropping it lets the thread
/// commit what is queued, then waits for it to end.
pub(super) struct Writer {
    queue: Option<mpsc::Sender<Pending>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Writer {
    /// Starts the thread on `conn`, locked for each batch (an in-memory database shares it with
    /// the readers).
    pub(super) fn start(conn: Arc<Mutex<Connection>>) -> std::io::Result<Writer> {
        let (queue, queued) = mpsc::channel::<Pending>();
        let thread = std::thread::Builder::new().name("sqlite-writer".into()).spawn(move || {
            while let Ok(first) = queued.recv() {
                let mut batch = vec![first];
                while batch.len() < MAX_BATCH {
                    match queued.try_recv() {
                        Ok(p) => batch.push(p),
                        Err(_) => break,
                    }
                }
                run_batch(&lock(&conn), batch);
            }
        })?;
        Ok(Writer { queue: Some(queue), thread: Some(thread) })
    }

    /// Queues `op`; the answer maps the rows it changed with `map` once its batch is committed.
    pub(super) fn submit<T>(
        &self,
        op: impl FnOnce(&Connection) -> rusqlite::Result<usize> + Send + 'static,
        map: fn(usize) -> T,
    ) -> Written<T> {
        let (reply, answer) = oneshot::channel();
        if let Some(queue) = &self.queue {
            // A send fails only when the thread is gone; the dropped reply then answers the error.
            let _ = queue.send(Pending { op: Box::new(op), reply });
        }
        Written { answer, map }
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        drop(self.queue.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A queued write's answer: `.await` it, or [`Written::wait`] on a thread that may block.
#[must_use = "a write is answered only once its commit is waited for"]
pub struct Written<T> {
    answer: oneshot::Receiver<Result<usize, StoreError>>,
    map: fn(usize) -> T,
}

fn dropped() -> StoreError {
    StoreError::Commit("the write was dropped".into())
}

impl<T> Written<T> {
    /// Blocks this thread until the write is committed (on an async task, `.await` it instead).
    /// Parks the thread rather than entering a runtime, so that it works from any thread, as the
    /// store's other blocking calls do.
    ///
    /// # Errors
    /// The write's error, or the commit's.
    pub fn wait(mut self) -> Result<T, StoreError> {
        let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
        let mut cx = Context::from_waker(&waker);
        loop {
            if let Poll::Ready(r) = Pin::new(&mut self).poll(&mut cx) {
                return r;
            }
            std::thread::park();
        }
    }
}

/// Wakes a thread parked in [`Written::wait`].
struct Unpark(std::thread::Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }
}

impl<T> Future for Written<T> {
    type Output = Result<T, StoreError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let map = self.map;
        Pin::new(&mut self.answer).poll(cx).map(|r| r.unwrap_or_else(|_| Err(dropped())).map(map))
    }
}

/// Runs a cached statement that changes rows (transaction control among them).
fn exec(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(sql)?.execute([]).map(|_| ())
}

/// Commits `batch` in one transaction, each op in its own savepoint, then answers every op:
/// its own result if the commit succeeded, the commit's error otherwise.
fn run_batch(conn: &Connection, batch: Vec<Pending>) {
    if let Err(e) = exec(conn, "BEGIN IMMEDIATE") {
        let msg = e.to_string();
        for p in batch {
            let _ = p.reply.send(Err(StoreError::Commit(msg.clone())));
        }
        return;
    }
    let mut answers = Vec::with_capacity(batch.len());
    for p in batch {
        let r = exec(conn, "SAVEPOINT op").map_err(StoreError::from).and_then(|()| {
            // A panicking op fails alone: the thread goes on committing everyone else's.
            match std::panic::catch_unwind(AssertUnwindSafe(|| (p.op)(conn))) {
                Ok(r) => r.map_err(StoreError::from),
                Err(_) => Err(StoreError::Commit("the write failed (a bug: it panicked)".into())),
            }
        });
        let r = match r {
            Ok(n) => exec(conn, "RELEASE op").map(|()| n).map_err(StoreError::from),
            Err(e) => {
                // Undo this op alone; the others in the batch stand.
                let _ = exec(conn, "ROLLBACK TO op").and_then(|()| exec(conn, "RELEASE op"));
                Err(e)
            }
        };
        answers.push((p.reply, r));
    }
    let commit = exec(conn, "COMMIT");
    if commit.is_err() {
        let _ = exec(conn, "ROLLBACK");
    }
    for (reply, r) in answers {
        let r = match &commit {
            Ok(()) => r,
            Err(e) => Err(StoreError::Commit(format!("commit: {e}"))),
        };
        let _ = reply.send(r);
    }
}
