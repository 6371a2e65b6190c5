//! The store a test runs on: SQLite always, PostgreSQL as well when `VLT_TEST_POSTGRES` names a
//! database (`postgres://user@host:port/db`; scripts/test.sh starts a throwaway cluster and sets
//! it). Each PostgreSQL test gets a database of its own, created for it.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use vlt_server::store::Database;
use vlt_server::{Hub, Store};

/// Serves `hub`'s routes on a free loopback port: its address and the server's task.
pub async fn serve(hub: Arc<Hub>) -> (SocketAddr, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        axum::serve(listener, vlt_server::router(hub)).await.unwrap();
    });
    (addr, task)
}

/// A database for one test.
pub enum TestDb {
    /// A SQLite file in a temporary folder.
    Sqlite(tempfile::TempDir, PathBuf),
    /// A fresh PostgreSQL database.
    Postgres(Database),
}

impl TestDb {
    /// A SQLite file of its own.
    pub fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.db");
        TestDb::Sqlite(dir, path)
    }

    /// A PostgreSQL database of its own, or `None` (with a line saying why the test is skipped)
    /// when `VLT_TEST_POSTGRES` is not set.
    pub async fn postgres() -> Option<TestDb> {
        let Ok(url) = std::env::var("VLT_TEST_POSTGRES") else {
            eprintln!("skipped on PostgreSQL: VLT_TEST_POSTGRES is not set (scripts/test.sh sets it)");
            return None;
        };
        Some(TestDb::Postgres(fresh_database(&url).await))
    }

    /// Opens the store (again).
    pub fn open(&self) -> Store {
        match self {
            TestDb::Sqlite(_, path) => Store::open(path).unwrap(),
            TestDb::Postgres(db) => Store::connect(db).unwrap(),
        }
    }

    /// The `--db` value for a `vlt serve` on this database.
    pub fn arg(&self) -> String {
        match self {
            TestDb::Sqlite(_, path) => path.display().to_string(),
            TestDb::Postgres(Database::Postgres(url)) => url.as_str().to_string(),
            TestDb::Postgres(Database::Sqlite(_)) => unreachable!("a PostgreSQL test database"),
        }
    }
}

/// Creates a database named at random on the server `url` names, and answers its URL.
pub async fn fresh_database(url: &str) -> Database {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap_or_else(|e| panic!("VLT_TEST_POSTGRES={url}: {e}"));
    let driver = tokio::spawn(conn);
    let mut bytes = [0u8; 8];
    getrandom::getrandom(&mut bytes).unwrap();
    let name: String =
        std::iter::once("vlt_test_".to_string()).chain(bytes.iter().map(|b| format!("{b:02x}"))).collect();
    client.batch_execute(&format!("CREATE DATABASE {name}")).await.unwrap();
    drop(client);
    let _ = driver.await;
    let (base, query) = url.split_once('?').map_or((url, None), |(b, q)| (b, Some(q)));
    let server = match base.split_once("://").map(|(_, rest)| rest.contains('/')) {
        Some(true) => base.rsplit_once('/').map_or(base, |(s, _)| s),
        _ => base,
    };
    let fresh = match query {
        Some(q) => format!("{server}/{name}?{q}"),
        None => format!("{server}/{name}"),
    };
    fresh.parse().unwrap()
}

/// Runs a test on both stores: `sqlite` always, `postgres` when `VLT_TEST_POSTGRES` is set. The
/// test names its database, e.g. `async fn plays(db) { let store = db.open(); … }`.
#[macro_export]
macro_rules! on_both_stores {
    ($($(#[$attr:meta])* async fn $name:ident($db:ident) $body:block)*) => {
        $(
            mod $name {
                #[allow(unused_imports)]
                use super::*;

                $(#[$attr])*
                async fn sqlite() {
                    let $db = $crate::common::TestDb::sqlite();
                    $body
                }

                $(#[$attr])*
                async fn postgres() {
                    let Some($db) = $crate::common::TestDb::postgres().await else { return };
                    $body
                }
            }
        )*
    };
}
