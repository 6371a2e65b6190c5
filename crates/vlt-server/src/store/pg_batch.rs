//! Group commit on PostgreSQL: every write to a game waits in one queue, and a few writer tasks
//! each take whatever is queued and commit it in one transaction (one round of statements sent
//! together, one commit, one WAL flush), then tell the other servers of every game it changed with
//! one statement. The moves appended by a batch are written by one statement too, whatever the
//! number of games (`pg_games::append_all`). Each write is answered only once the transaction
//! holding it is committed. When
//! one write of a batch fails, the transaction is rolled back and each of its writes is tried again
//! alone, so a failing write fails alone. A write is awaited (its answer comes by a oneshot
//! channel), so the server's tasks wait for their commits without a thread of their own.

use super::pg_games::{Append, Create, append_all, insert_counted};
use super::postgres::{CHANNEL, client};
use super::{StoreError, causes};
use deadpool_postgres::{Pool, Transaction};
use futures_util::future::BoxFuture;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::{Notify, oneshot};

/// One write: run inside the batch's transaction, it answers a number (rows changed, or a yes/no).
pub(crate) type Op =
    Box<dyn for<'a> Fn(&'a Transaction<'a>) -> BoxFuture<'a, Result<u64, StoreError>> + Send + Sync>;

/// When a write runs within its batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Order {
    /// In a transaction of their own, after the others': the batch's games made within the
    /// open-games bound, counted once under the bound's lock, then inserted.
    Counted,
    /// First in the others' transaction, one after another: reads rows it then updates (the players' ratings), which writes
    /// sent together in one transaction would read before each other's updates.
    Serial,
    /// Then, all sent together: writes to one game each, independent of each other.
    Together,
}

/// What a write does in its batch.
pub(crate) enum Job {
    /// Statements of its own, run when its [`Order`] says.
    Op(Order, Op),
    /// Moves appended to a game, with its row's new state: the batch's appends are written
    /// together by one statement, sent with the [`Order::Together`] writes.
    Append(Append),
    /// Games made within the open-games bound: the batch's creates share one count
    /// ([`Order::Counted`]).
    Create(Create),
}

impl Job {
    fn order(&self) -> Order {
        match self {
            Job::Op(order, _) => *order,
            Job::Append(_) => Order::Together,
            Job::Create(_) => Order::Counted,
        }
    }
}

/// The most writes one transaction commits; the rest wait for the next.
const MAX_BATCH: usize = 512;

/// Writer tasks: while one waits for its commit to be flushed, another gathers the next batch.
pub(crate) const WRITERS: usize = 4;

struct Write {
    job: Job,
    /// The game to notify the other servers of, once committed.
    game: Option<String>,
    reply: oneshot::Sender<Result<u64, StoreError>>,
}

/// The queue of writes waiting for a transaction.
#[derive(Default)]
pub(crate) struct Batcher {
    queue: Mutex<Vec<Write>>,
    ready: Notify,
    /// Set when the store is dropped: the writers stop once the queue is empty.
    closed: AtomicBool,
}

impl Batcher {
    /// Queues `job` and waits until the transaction holding it is committed (or failed).
    pub(crate) async fn write(&self, game: Option<String>, job: Job) -> Result<u64, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.queue.lock().unwrap_or_else(PoisonError::into_inner).push(Write { job, game, reply });
        self.ready.notify_one();
        answer.await.unwrap_or_else(|_| Err(StoreError::Commit("the database task failed".into())))
    }

    /// Stops the writers once they have committed what is queued.
    pub(crate) fn close(&self) {
        self.closed.store(true, Ordering::Release);
        self.ready.notify_waiters();
    }

    fn take(&self) -> Vec<Write> {
        let mut q = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
        let n = q.len().min(MAX_BATCH);
        q.drain(..n).collect()
    }
}

/// One writer: commits what is queued, batch after batch, for as long as the store lives.
pub(crate) async fn writer(batcher: Arc<Batcher>, pool: Pool, me: Arc<str>) {
    loop {
        // Registered before the queue is looked at, so a write queued meanwhile is not missed.
        let ready = batcher.ready.notified();
        let batch = batcher.take();
        if batch.is_empty() {
            if batcher.closed.load(Ordering::Acquire) {
                return;
            }
            ready.await;
            continue;
        }
        if !batcher.queue.lock().unwrap_or_else(PoisonError::into_inner).is_empty() {
            // More is waiting than this batch took: another writer may start on it now.
            batcher.ready.notify_one();
        }
        commit(&pool, &me, batch).await;
    }
}

/// Runs `batch` (ordered by [`Order`]) in one transaction and commits it; answers each write's
/// result in order (an append answers 0).
async fn together(c: &mut deadpool_postgres::Client, batch: &[Write]) -> Result<Vec<u64>, StoreError> {
    let tx = c.transaction().await?;
    let mut out = vec![0; batch.len()];
    let mut appends = Vec::new();
    let mut ops = Vec::new();
    // The creates' transaction holds them alone (see `commit`), so the lock is its first statement.
    let creates: Vec<(usize, &Create)> = batch
        .iter()
        .enumerate()
        .filter_map(|(i, w)| if let Job::Create(c) = &w.job { Some((i, c)) } else { None })
        .collect();
    let made = insert_counted(&tx, &creates.iter().map(|c| c.1).collect::<Vec<_>>()).await?;
    for ((i, _), n) in creates.iter().zip(made) {
        out[*i] = n;
    }
    for (i, w) in batch.iter().enumerate() {
        match &w.job {
            Job::Op(Order::Together, op) => ops.push((i, op)),
            Job::Op(_, op) => out[i] = op(&tx).await?,
            Job::Append(a) => appends.push(a),
            Job::Create(_) => {}
        }
    }
    // Sent in one go (tokio-postgres pipelines the statements of futures polled together).
    let appended = async {
        for round in rounds(appends) {
            append_all(&tx, &round).await?;
        }
        Ok::<_, StoreError>(())
    };
    let (appended, rest) = futures_util::future::join(
        appended,
        futures_util::future::join_all(ops.iter().map(|(_, op)| op(&tx))),
    )
    .await;
    appended?;
    for ((i, _), r) in ops.iter().zip(rest) {
        out[*i] = r?;
    }
    // Every statement succeeded (a failed one would have returned above, and the transaction
    // dropped is rolled back), so COMMIT commits them all.
    tx.commit().await?;
    Ok(out)
}

/// `appends` in rounds of distinct games, in order: one statement brings a game's row up to date
/// once, so a second append to the same game goes in the next round (one round unless a game has
/// two writes queued, which its lock in the hub keeps from happening).
fn rounds(appends: Vec<&Append>) -> Vec<Vec<&Append>> {
    let mut rounds: Vec<Vec<&Append>> = Vec::new();
    for a in appends {
        // After the last round holding this game, so its appends keep their order.
        let after = rounds.iter().rposition(|r| r.iter().any(|b| b.id == a.id)).map_or(0, |i| i + 1);
        match rounds.get_mut(after) {
            Some(r) => r.push(a),
            None => rounds.push(vec![a]),
        }
    }
    rounds
}

/// Commits `batch`: its creates within the open-games bound in a transaction of their own, after
/// the other writes' transaction, so that moves never wait for the bound's lock (which serialises
/// the creates of every writer and every server).
async fn commit(pool: &Pool, me: &str, mut batch: Vec<Write>) {
    batch.sort_by_key(|w| w.job.order());
    let rest = batch.split_off(batch.partition_point(|w| w.job.order() == Order::Counted));
    let creates = batch;
    for group in [rest, creates] {
        if !group.is_empty() {
            commit_group(pool, me, group).await;
        }
    }
}

async fn commit_group(pool: &Pool, me: &str, batch: Vec<Write>) {
    let mut c = match client(pool).await {
        Ok(c) => c,
        Err(e) => {
            let msg = causes(&e);
            for w in batch {
                let _ = w.reply.send(Err(StoreError::Commit(msg.clone())));
            }
            return;
        }
    };
    let mut changed = Vec::new();
    match together(&mut c, &batch).await {
        Ok(answers) => {
            for (w, n) in batch.into_iter().zip(answers) {
                changed.extend(w.game);
                let _ = w.reply.send(Ok(n));
            }
        }
        Err(e) if batch.len() == 1 => {
            let _ = batch.into_iter().next().map(|w| w.reply.send(Err(e)));
        }
        Err(_) => {
            // One write failed and took the others' transaction with it: each alone, so that only
            // the failing one fails, with its own error.
            for w in batch {
                let r = together(&mut c, std::slice::from_ref(&w)).await.map(|a| a[0]);
                if r.is_ok() {
                    changed.extend(w.game.clone());
                }
                let _ = w.reply.send(r);
            }
        }
    }
    notify(&c, me, changed).await;
}

/// Tells the other servers that the games `ids` changed (committed already): one notification
/// each, `<server> <game>`, all sent by one statement in a transaction of its own. A
/// notification lost here is as a server dying between its commit and its notification: the
/// other servers read the game again when a move there is refused.
async fn notify(c: &deadpool_postgres::Client, me: &str, mut ids: Vec<String>) {
    if ids.is_empty() {
        return;
    }
    ids.sort_unstable();
    ids.dedup();
    let payloads: Vec<String> = ids.iter().map(|id| format!("{me} {id}")).collect();
    if let Ok(st) = c.prepare_cached("SELECT pg_notify($1, p) FROM unnest($2::TEXT[]) AS p").await {
        let _ = c.execute(&st, &[&CHANNEL, &payloads]).await;
    }
}
