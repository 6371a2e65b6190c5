//! The PostgreSQL store, for several servers sharing one database: a pool of connections
//! (deadpool-postgres over tokio-postgres) whose tasks run on the server's runtime
//! ([`PgStore::connect_on`]) or on a runtime of the store's own ([`PgStore::connect`]). Its
//! writes to games answer futures, which the server's tasks await (see `pg_games`); its other
//! operations, and the blocking form of the writes, keep the same interface as SQLite's, for a
//! thread that may block. Every write is committed (PostgreSQL's `synchronous_commit` is on by
//! default) before the caller is answered, then followed by a notification of the game it changed
//! (see `pg_listen`). Clock leases say which server acts on a game's clock (see `lease_clocks`).

use super::pg_batch::{Batcher, WRITERS, writer};
use super::pg_listen::{Change, listen};
use super::pg_migrations::migrate;
use super::{PostgresUrl, StoreError};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;
use tokio_postgres::NoTls;

/// Connections kept open to the database by one server.
const POOL_SIZE: usize = 16;

/// How long a connection attempt may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// The channel of game changes (`NOTIFY vlt_games, '<server> <game>'`).
pub(crate) const CHANNEL: &str = "vlt_games";

/// The PostgreSQL store.
pub struct PgStore {
    pub(crate) pool: Pool,
    handle: tokio::runtime::Handle,
    /// The store's own runtime, when it was not given one.
    runtime: Option<tokio::runtime::Runtime>,
    /// The listener, stopped with the store (the writers stop once the queue is empty).
    listener: Option<tokio::task::AbortHandle>,
    /// This server's random name: in its notifications (so it ignores its own) and its leases.
    pub(crate) instance: Arc<str>,
    changes: broadcast::Sender<Change>,
    /// The writes to games waiting to be committed together (see `pg_batch`).
    pub(crate) batch: Arc<Batcher>,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore").field("instance", &self.instance).finish_non_exhaustive()
    }
}

impl Drop for PgStore {
    fn drop(&mut self) {
        self.batch.close();
        if let Some(listener) = &self.listener {
            listener.abort();
        }
        // Without waiting: the store may be dropped on an async thread, where blocking is refused.
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

/// A connection from the pool.
pub(crate) async fn client(pool: &Pool) -> Result<deadpool_postgres::Object, StoreError> {
    pool.get().await.map_err(|e| match e {
        deadpool_postgres::PoolError::Backend(e) => StoreError::Postgres(e),
        e => StoreError::Commit(super::causes(&e)),
    })
}

impl PgStore {
    /// Connects to the database at `url` on a runtime of the store's own, migrates its schema and
    /// listens for the other servers' changes (returning once it does). Any thread may call it,
    /// and the store's blocking operations, async or not.
    ///
    /// # Errors
    /// [`StoreError`] when the database cannot be reached, refuses us, or is from a newer build.
    pub fn connect(url: &PostgresUrl) -> Result<PgStore, StoreError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("vlt-postgres")
            .enable_all()
            .build()
            .map_err(|e| StoreError::Commit(format!("runtime: {e}")))?;
        let handle = runtime.handle().clone();
        PgStore::start(url, handle, Some(runtime))
    }

    /// [`PgStore::connect`] with the store's connections, writers and listener on `runtime` (the
    /// server's: a write awaited by one of its tasks then crosses no other thread). This call and
    /// the store's blocking operations wait for tasks of `runtime`, so they must come from a
    /// thread that may block, not one of its async workers (the hub's are on blocking threads).
    ///
    /// # Errors
    /// As [`PgStore::connect`].
    pub fn connect_on(url: &PostgresUrl, runtime: tokio::runtime::Handle) -> Result<PgStore, StoreError> {
        PgStore::start(url, runtime, None)
    }

    fn start(
        url: &PostgresUrl,
        handle: tokio::runtime::Handle,
        runtime: Option<tokio::runtime::Runtime>,
    ) -> Result<PgStore, StoreError> {
        let mut config = url.config().clone();
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig { recycling_method: RecyclingMethod::Fast },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .wait_timeout(Some(Duration::from_secs(30)))
            .create_timeout(Some(CONNECT_TIMEOUT))
            .build()
            .map_err(|e| StoreError::Commit(format!("pool: {e}")))?;
        let instance: Arc<str> =
            Arc::from(crate::hub::random_hex(8).map_err(|e| StoreError::Commit(e.to_string()))?);
        let changes = broadcast::channel(1024).0;
        let mut store =
            PgStore { pool, handle, runtime, listener: None, instance, changes, batch: Arc::default() };
        let pool = store.pool.clone();
        store.run(async move {
            let mut c = client(&pool).await?;
            migrate(&mut c).await
        })?;
        // Serving starts only once the other servers' changes are heard: a change committed between
        // this store's first read and a later LISTEN would otherwise go unheard. Should listening
        // lag, the listener goes on trying and its first Resync makes up for what was missed.
        let (ready, listening) = std::sync::mpsc::sync_channel(1);
        let listener =
            store.handle.spawn(listen(config, Arc::clone(&store.instance), store.changes.clone(), ready));
        store.listener = Some(listener.abort_handle());
        let _ = listening.recv_timeout(CONNECT_TIMEOUT);
        for _ in 0..WRITERS {
            store.handle.spawn(writer(
                Arc::clone(&store.batch),
                store.pool.clone(),
                Arc::clone(&store.instance),
            ));
        }
        Ok(store)
    }

    /// Runs `fut` on the store's runtime and waits for it: callable from any thread on a runtime
    /// of the store's own, from any but the given runtime's async workers otherwise (the hub calls
    /// the store from blocking threads, as SQLite needs).
    pub(crate) fn run<T: Send + 'static>(
        &self,
        fut: impl Future<Output = Result<T, StoreError>> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.handle.spawn(async move {
            let _ = tx.send(fut.await);
        });
        rx.recv().unwrap_or_else(|_| Err(StoreError::Commit("the database task failed".into())))
    }

    /// Receives the games other servers changed.
    pub(crate) fn changes(&self) -> broadcast::Receiver<Change> {
        self.changes.subscribe()
    }

    /// Renews this server's clock leases and takes those of unfinished clocked games whose lease
    /// is missing or expired (its server stopped renewing: it died or lost the database), each
    /// until `lease_ms` from now by the database's clock; answers the games newly taken. Leases of
    /// finished games are dropped.
    ///
    /// # Errors
    /// [`StoreError`] if the database fails.
    pub fn lease_clocks(&self, lease_ms: i64) -> Result<Vec<String>, StoreError> {
        let (pool, me) = (self.pool.clone(), self.instance.to_string());
        self.run(async move {
            let mut c = client(&pool).await?;
            let tx = c.transaction().await?;
            let now = "(extract(epoch FROM clock_timestamp()) * 1000)::BIGINT";
            tx.execute(
                "DELETE FROM clock_leases l USING games g WHERE l.game_id = g.id AND g.finished",
                &[],
            )
            .await?;
            tx.execute(&format!("UPDATE clock_leases SET expires = {now} + $2 WHERE owner = $1"), &[&me, &lease_ms])
                .await?;
            let rows = tx
                .query(
                    &format!(
                        "INSERT INTO clock_leases (game_id, owner, expires)
                         SELECT id, $1, {now} + $2 FROM games WHERE NOT finished AND clock IS NOT NULL
                         ON CONFLICT (game_id) DO UPDATE SET owner = EXCLUDED.owner, expires = EXCLUDED.expires
                         WHERE clock_leases.expires < {now}
                         RETURNING game_id"
                    ),
                    &[&me, &lease_ms],
                )
                .await?;
            tx.commit().await?;
            rows.iter().map(|r| r.try_get::<_, String>(0).map_err(StoreError::from)).collect()
        })
    }

    /// Whether this server holds the unexpired clock lease of game `id`.
    ///
    /// # Errors
    /// [`StoreError`] if the database fails.
    pub fn owns_clock(&self, id: &str) -> Result<bool, StoreError> {
        let (pool, me, id) = (self.pool.clone(), self.instance.to_string(), id.to_string());
        self.run(async move {
            let c = client(&pool).await?;
            let st = c
                .prepare_cached(
                    "SELECT 1 FROM clock_leases WHERE game_id = $1 AND owner = $2
                     AND expires > (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT",
                )
                .await?;
            Ok(c.query_opt(&st, &[&id, &me]).await?.is_some())
        })
    }
}
