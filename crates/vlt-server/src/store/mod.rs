//! The store: games, their moves, players and reviews, in SQLite (embedded, the default) or in
//! PostgreSQL (shared by several servers). Both keep the same schema ideas, migrate forward on
//! open and commit every write before it is acknowledged; [`Store`] gives the hub one interface
//! over either.

mod pg_batch;
mod pg_games;
mod pg_listen;
mod pg_migrations;
mod pg_players;
mod pg_types;
pub mod postgres;
pub mod sqlite;
mod sqlite_migrations;
mod sqlite_players;
mod sqlite_writer;
pub use sqlite_writer::Written;

use crate::accounts::{PlayedGame, PlayerRow, RatingPoint, Taken};
use crate::clock::Clock;
use crate::kinds::{Forfeit, Mode, Side, StoredResult};
use crate::view::ResultView;
pub use pg_listen::Change;
pub use pg_migrations::PG_SCHEMA_VERSION;
pub use postgres::PgStore;
pub use sqlite::SqliteStore;
pub use sqlite_migrations::SCHEMA_VERSION;
use std::path::{Path, PathBuf};
use vlt_core::GameResult;

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// SQLite failed.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL failed.
    #[error("database: {}", causes(.0))]
    Postgres(#[from] tokio_postgres::Error),
    /// The group transaction holding this write could not start or commit.
    #[error("database: {0}")]
    Commit(String),
    /// The file was written by a newer build.
    #[error("database schema version {found} is newer than this program's {supported}")]
    TooNew {
        /// The file's version.
        found: usize,
        /// Ours.
        supported: usize,
    },
}

/// An error and its causes, as one line (PostgreSQL's errors keep the server's message in a cause).
pub(crate) fn causes(e: &dyn std::error::Error) -> String {
    let mut line = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        line.push_str(": ");
        line.push_str(&s.to_string());
        source = s.source();
    }
    line
}

impl StoreError {
    /// Whether the write was refused because its row already exists (a ply already stored: the
    /// game changed meanwhile, on another server or in a race).
    #[must_use]
    pub fn is_conflict(&self) -> bool {
        match self {
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => {
                e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
                    || e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
            }
            StoreError::Postgres(e) => e.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION),
            _ => false,
        }
    }
}

/// A game's row: everything but the moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Random identifier, used in URLs.
    pub id: String,
    /// How the game is played.
    pub mode: Mode,
    /// The start position (N2).
    pub start: String,
    /// The computer's level (computer games).
    pub level: Option<u8>,
    /// The computer's seat (computer games).
    pub computer: Option<Side>,
    /// The hash of the token holding seat B, if taken by token.
    pub token_b: Option<String>,
    /// The hash of the token holding seat A, if taken by token.
    pub token_a: Option<String>,
    /// The player sitting at B, if known.
    pub player_b: Option<String>,
    /// The player sitting at A, if known.
    pub player_a: Option<String>,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// The clock, for a game with a time control.
    pub clock: Option<Clock>,
    /// Whether the game was aborted (no first move in time): over, without a result.
    pub aborted: bool,
    /// The seat that resigned or ran out of time, if any.
    pub resigned: Option<Forfeit>,
    /// Whether the game has ended.
    pub finished: bool,
    /// The result, once finished.
    pub result: Option<StoredResult>,
    /// Creation time, seconds since the Unix epoch.
    pub created: i64,
    /// Last change, seconds since the Unix epoch.
    pub updated: i64,
    /// Record tags kept from an import (JSON array of pairs).
    pub tags: String,
}

#[cfg(any(test, feature = "test-support"))]
impl GameRow {
    /// A new untimed online game from the usual start, seat B taken by the token hash `tb`, made
    /// and changed at time 1: the row the store's tests begin from (a test changes what it needs,
    /// `GameRow { clock, ..GameRow::sample(id) }`).
    pub fn sample(id: &str) -> GameRow {
        GameRow {
            id: id.into(),
            mode: Mode::Online,
            start: "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0".into(),
            level: None,
            computer: None,
            token_b: Some("tb".into()),
            token_a: None,
            resigned: None,
            finished: false,
            result: None,
            created: 1,
            updated: 1,
            tags: "[]".into(),
            player_b: None,
            player_a: None,
            rated: false,
            clock: None,
            aborted: false,
        }
    }
}

/// A finished game in the archive list.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Summary {
    /// The game's id.
    pub id: String,
    /// How it was played.
    pub mode: Mode,
    /// Its result in parts, for a page to say in its own language.
    pub outcome: Option<ResultView>,
    /// Number of moves.
    pub moves: i64,
    /// Last change, seconds since the Unix epoch.
    pub updated: i64,
}

/// What a move or an ending writes besides the moves and result.
#[derive(Clone, Debug, Default)]
pub struct Extra {
    /// The clock after the change.
    pub clock: Option<Clock>,
    /// For a rated game: its players, B then A, whose ratings the result changes.
    pub rated: Option<[String; 2]>,
}

/// Seconds since the Unix epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

/// A PostgreSQL address, `postgres://user:password@host:port/database` (or `postgresql://`),
/// checked when read. Shown without its password.
#[derive(Clone)]
pub struct PostgresUrl {
    url: String,
    config: Box<tokio_postgres::Config>,
}

impl PostgresUrl {
    /// The connection settings.
    #[must_use]
    pub fn config(&self) -> &tokio_postgres::Config {
        &self.config
    }

    /// The address as given, password included (to pass on to another program).
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.url
    }
}

impl std::fmt::Display for PostgresUrl {
    /// The address with its password, if any, replaced by `***`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Some((scheme, rest)) = self.url.split_once("://") else { return f.write_str("postgres://") };
        match rest.split_once('@') {
            Some((user, host)) if user.contains(':') => {
                let name = user.split(':').next().unwrap_or_default();
                write!(f, "{scheme}://{name}:***@{host}")
            }
            _ => f.write_str(&self.url),
        }
    }
}

impl std::fmt::Debug for PostgresUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PostgresUrl({self})")
    }
}

/// Where a server keeps its games: a SQLite file (a path) or a PostgreSQL database (a URL).
#[derive(Clone, Debug)]
pub enum Database {
    /// The SQLite file at this path.
    Sqlite(PathBuf),
    /// The PostgreSQL database at this address.
    Postgres(PostgresUrl),
}

/// Why a `--db` value was refused.
#[derive(Debug, thiserror::Error)]
pub enum DatabaseError {
    /// A PostgreSQL URL that does not parse.
    #[error("not a PostgreSQL URL ({0}); expected postgres://user:password@host:port/database")]
    BadUrl(String),
    /// A URL of another kind.
    #[error("{0}: unknown database kind; give a file path (SQLite) or postgres://… (PostgreSQL)")]
    UnknownScheme(String),
    /// Nothing.
    #[error("empty database path")]
    Empty,
}

impl std::str::FromStr for Database {
    type Err = DatabaseError;

    fn from_str(s: &str) -> Result<Database, DatabaseError> {
        if s.is_empty() {
            return Err(DatabaseError::Empty);
        }
        match s.split_once("://") {
            Some(("postgres" | "postgresql", _)) => {
                let config =
                    s.parse::<tokio_postgres::Config>().map_err(|e| DatabaseError::BadUrl(e.to_string()))?;
                Ok(Database::Postgres(PostgresUrl { url: s.to_string(), config: Box::new(config) }))
            }
            Some((scheme, _))
                if !scheme.is_empty() && scheme.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'+') =>
            {
                Err(DatabaseError::UnknownScheme(format!("{scheme}://")))
            }
            _ => Ok(Database::Sqlite(PathBuf::from(s))),
        }
    }
}

impl std::fmt::Display for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Database::Sqlite(p) => write!(f, "{}", p.display()),
            Database::Postgres(u) => write!(f, "{u}"),
        }
    }
}

/// The database a server keeps its games in.
#[derive(Debug)]
#[non_exhaustive]
pub enum Store {
    /// One SQLite file, for one server.
    Sqlite(SqliteStore),
    /// One PostgreSQL database, shared by any number of servers.
    Postgres(PgStore),
}

impl Store {
    /// Opens (creating if needed) the SQLite database at `path` and migrates it.
    ///
    /// # Errors
    /// [`StoreError`] when the file cannot be opened, is not a database, or is from a newer build.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        SqliteStore::open(path).map(Store::Sqlite)
    }

    /// Opens `db`: the SQLite file, or a connection pool to the PostgreSQL database; either is
    /// migrated to this build's schema.
    ///
    /// # Errors
    /// [`StoreError`] when the database cannot be opened or reached, or is from a newer build.
    pub fn connect(db: &Database) -> Result<Store, StoreError> {
        match db {
            Database::Sqlite(path) => Store::open(path),
            Database::Postgres(url) => PgStore::connect(url).map(Store::Postgres),
        }
    }

    /// [`Store::connect`], PostgreSQL's tasks running on `runtime` (the server's; see
    /// [`PgStore::connect_on`]: then call the store's blocking operations only from threads that
    /// may block).
    ///
    /// # Errors
    /// As [`Store::connect`].
    pub fn connect_on(db: &Database, runtime: tokio::runtime::Handle) -> Result<Store, StoreError> {
        match db {
            Database::Sqlite(path) => Store::open(path),
            Database::Postgres(url) => PgStore::connect_on(url, runtime).map(Store::Postgres),
        }
    }

    /// An in-memory SQLite database (for tests).
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn in_memory() -> Result<Store, StoreError> {
        SqliteStore::in_memory().map(Store::Sqlite)
    }

    /// Whether other servers may share this database (PostgreSQL): their changes are then heard
    /// through [`Store::changes`], and clocks are run under leases.
    #[must_use]
    pub fn shared(&self) -> bool {
        matches!(self, Store::Postgres(_))
    }

    /// The games other servers change, for a shared database.
    #[must_use]
    pub fn changes(&self) -> Option<tokio::sync::broadcast::Receiver<Change>> {
        match self {
            Store::Sqlite(_) => None,
            Store::Postgres(p) => Some(p.changes()),
        }
    }

    /// Renews this server's clock leases and takes the expired ones (a shared database); answers
    /// the games whose clocks this server now runs that it did not before. One server alone owns
    /// every clock, so SQLite answers none.
    ///
    /// # Errors
    /// [`StoreError`] if the database fails.
    pub fn lease_clocks(&self, lease_ms: i64) -> Result<Vec<String>, StoreError> {
        match self {
            Store::Sqlite(_) => Ok(Vec::new()),
            Store::Postgres(p) => p.lease_clocks(lease_ms),
        }
    }

    /// Whether this server acts on game `id`'s clock now: it holds its lease (always, alone).
    ///
    /// # Errors
    /// [`StoreError`] if the database fails.
    pub fn owns_clock(&self, id: &str) -> Result<bool, StoreError> {
        match self {
            Store::Sqlite(_) => Ok(true),
            Store::Postgres(p) => p.owns_clock(id),
        }
    }
}

impl Store {
    /// Appends moves at plies `first..` and records whether the game is now over, atomically.
    /// A ply already stored is refused, so a race cannot fork a game.
    ///
    /// # Errors
    /// [`StoreError`] if the database fails.
    pub fn append_moves(
        &self,
        id: &str,
        first: usize,
        moves: &[String],
        result: Option<GameResult>,
    ) -> Result<(), StoreError> {
        self.append_moves_with(id, first, moves, result, &Extra::default())
    }
}

/// Gives [`Store`] each write to a game, forwarded to the backend in use. Both answer a future of
/// their group commit (PostgreSQL's `pg_batch`, SQLite's `sqlite_writer`), waited for here; the
/// hub awaits that future itself (`hub::game_write!`).
macro_rules! dispatch_writes {
    ($($(#[$doc:meta])* fn $name:ident(&self $(, $arg:ident: $ty:ty)*) -> $ret:ty;)*) => {
        impl Store {
            $(
                $(#[$doc])*
                ///
                /// # Errors
                /// [`StoreError`] if the database fails.
                pub fn $name(&self $(, $arg: $ty)*) -> Result<$ret, StoreError> {
                    match self {
                        Store::Sqlite(s) => s.$name($($arg),*).wait(),
                        Store::Postgres(p) => p.run(p.$name($($arg),*)),
                    }
                }
            )*
        }
    };
}

dispatch_writes! {
    /// Inserts a new game with its moves (imports bring moves), in one transaction.
    fn insert_game(&self, g: &GameRow, moves: &[String]) -> ();
    /// Inserts games with their moves, all or none, in one transaction. With `bound` =
    /// `(max_open, since)`, only if the unfinished games changed since `since` and the unfinished
    /// ones inserted stay within `max_open`, counted and inserted atomically (racing creators
    /// cannot overshoot it). False when the bound refused them.
    fn insert_games(&self, games: Vec<(GameRow, Vec<String>)>, bound: Option<(usize, i64)>) -> bool;
    /// [`Store::append_moves`], also writing the clock and, when the game ends rated, both
    /// players' new ratings, in the same transaction.
    fn append_moves_with(
        &self,
        id: &str,
        first: usize,
        moves: &[String],
        result: Option<GameResult>,
        extra: &Extra
    ) -> ();
    /// Keeps only the first `len` moves (undo), and marks the game unfinished.
    fn truncate_moves(&self, id: &str, len: usize, clock: Option<Clock>) -> ();
    /// Gives a free seat to `token_hash`; false when the seat was already taken (checked in the
    /// same statement, so two friends racing for one seat cannot both get it).
    fn take_seat(
        &self,
        id: &str,
        seat: Side,
        token_hash: &str,
        player: Option<&str>,
        clock: Option<Clock>
    ) -> bool;
    /// Records a resignation or a loss on time, and the result.
    fn forfeit(&self, id: &str, forfeit: Forfeit, result: GameResult, extra: &Extra) -> ();
    /// Ends a game without a result: nobody made the first move in time.
    fn abort(&self, id: &str, clock: Option<Clock>) -> ();
}

/// Gives [`Store`] each operation, forwarded to the backend in use.
macro_rules! dispatch {
    ($($(#[$doc:meta])* fn $name:ident(&self $(, $arg:ident: $ty:ty)*) -> $ret:ty;)*) => {
        impl Store {
            $(
                $(#[$doc])*
                ///
                /// # Errors
                /// [`StoreError`] if the database fails.
                pub fn $name(&self $(, $arg: $ty)*) -> Result<$ret, StoreError> {
                    match self {
                        Store::Sqlite(s) => s.$name($($arg),*),
                        Store::Postgres(p) => p.$name($($arg),*),
                    }
                }
            )*
        }
    };
}

dispatch! {
    /// The schema version of the open database.
    fn schema_version(&self) -> usize;
    /// Unfinished games with a clock (their timers are armed again after a restart).
    fn clocked_unfinished(&self) -> Vec<String>;
    /// A game's row and its moves in order, or `None` when there is no such game.
    fn load(&self, id: &str) -> Option<(GameRow, Vec<String>)>;
    /// Finished games, newest first.
    fn finished(&self, limit: usize, offset: usize) -> Vec<Summary>;
    /// How many games are not finished.
    fn open_games(&self) -> usize;
    /// How many unfinished games changed at or after `since` (seconds since the epoch): games
    /// abandoned before then stay playable but no longer count against the bound.
    fn open_games_since(&self, since: i64) -> usize;
    /// Creates a player named `name` known by the token with hash `token_hash`.
    fn create_player(&self, id: &str, name: &str, token_hash: &str) -> ();
    /// The player a token (by its hash) belongs to.
    fn player_by_token(&self, token_hash: &str) -> Option<PlayerRow>;
    /// The player `id`.
    fn player(&self, id: &str) -> Option<PlayerRow>;
    /// Renames player `id`; an account's login follows its name, so it must stay unique.
    fn rename(&self, id: &str, name: &str) -> Result<(), Taken>;
    /// Makes player `id` an account: its name (any case) and the argon2 hash of its password.
    fn set_password(&self, id: &str, password_hash: &str) -> Result<(), Taken>;
    /// The account with this name (any case): its player id and password hash.
    fn account(&self, name: &str) -> Option<(String, String)>;
    /// Lets a further token (by hash) speak for player `id`: a log-in on another device.
    fn add_token(&self, id: &str, token_hash: &str) -> ();
    /// Forgets a token (log out on this device).
    fn remove_token(&self, token_hash: &str) -> ();
    /// The best-rated players with at least one rated game, provisional ratings last.
    fn leaderboard(&self, limit: usize) -> Vec<PlayerRow>;
    /// Player `id`'s rating after each rated game, oldest first.
    fn rating_history(&self, id: &str) -> Vec<RatingPoint>;
    /// Player `id`'s games, newest first.
    fn games_of(&self, id: &str, limit: usize) -> Vec<PlayedGame>;
    /// Stores (or replaces) the review of game `id`, made for the moves `moves`.
    fn save_review(&self, id: &str, moves: &str, body: &str) -> ();
    /// The stored review of game `id` (its JSON) when it was made for exactly `moves`.
    fn load_review(&self, id: &str, moves: &str) -> Option<String>;
    /// How many reviews are stored (for tests and statistics).
    fn review_count(&self) -> usize;
}

// After `dispatch!`, which they use.
pub mod offers;
mod pg_offers;
mod pg_seeks;
pub mod seeks;
mod sqlite_offers;
mod sqlite_seeks;
