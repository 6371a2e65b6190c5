//! The store: games, their moves, players and reviews, in SQLite (embedded, the default) or in
//! PostgreSQL (shared by several servers). Both keep the same schema ideas, migrate forward on
//! open and commit every write before it is acknowledged; [`Store`] gives the hub one interface
//! over either.

pub mod sqlite;
mod sqlite_migrations;
mod sqlite_players;

use crate::accounts::{PlayedGame, PlayerRow, RatingPoint, Taken};
use crate::clock::Clock;
use crate::kinds::{Forfeit, Mode, Side, StoredResult};
use crate::view::ResultView;
pub use sqlite::SqliteStore;
pub use sqlite_migrations::SCHEMA_VERSION;
use std::path::Path;
use vlt_core::GameResult;

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// SQLite failed.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
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

/// The database a server keeps its games in.
#[derive(Debug)]
#[non_exhaustive]
pub enum Store {
    /// One SQLite file, for one server.
    Sqlite(SqliteStore),
}

impl Store {
    /// Opens (creating if needed) the SQLite database at `path` and migrates it.
    ///
    /// # Errors
    /// [`StoreError`] when the file cannot be opened, is not a database, or is from a newer build.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        SqliteStore::open(path).map(Store::Sqlite)
    }

    /// An in-memory SQLite database (for tests).
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn in_memory() -> Result<Store, StoreError> {
        SqliteStore::in_memory().map(Store::Sqlite)
    }
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
                    }
                }
            )*
        }
    };
}

dispatch! {
    /// The schema version of the open database.
    fn schema_version(&self) -> usize;
    /// Inserts a new game with its moves (imports bring moves), in one transaction.
    fn insert_game(&self, g: &GameRow, moves: &[String]) -> ();
    /// Inserts games with their moves, all or none, in one transaction. With `bound` =
    /// `(max_open, since)`, only if the unfinished games changed since `since` and the unfinished
    /// ones inserted stay within `max_open`, counted and inserted atomically (racing creators
    /// cannot overshoot it). False when the bound refused them.
    fn insert_games(&self, games: Vec<(GameRow, Vec<String>)>, bound: Option<(usize, i64)>) -> bool;
    /// Appends moves at plies `first..` and records whether the game is now over, atomically.
    /// A ply already stored is refused, so a race cannot fork a game.
    fn append_moves(&self, id: &str, first: usize, moves: &[String], result: Option<GameResult>) -> ();
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
