//! The SQLite store (the embedded default): games, their moves and the seats' tokens. Every write
//! is committed (with `synchronous = FULL`, in a transaction with the writes queued beside it)
//! before the server answers, so a server killed at any moment loses no acknowledged move. The
//! schema is versioned by `PRAGMA user_version` and migrated forward on open, one numbered step at
//! a time.

#[cfg(test)]
use super::sqlite_migrations::SCHEMA_VERSION;
use super::sqlite_migrations::migrate;
use super::sqlite_writer::{Writer, Written, lock};
use super::{Extra, GameRow, StoreError, Summary, now};
use crate::clock::Clock;
use crate::kinds::{Forfeit, Side, StoredResult};
use crate::view::ResultView;
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use vlt_core::GameResult;

/// The database: a connection for reads behind a mutex, and the writer thread that commits writes
/// in groups on a connection of its own (`sqlite_writer`; SQLite serialises writers anyway).
pub struct SqliteStore {
    /// The readers' connection.
    conn: Arc<Mutex<Connection>>,
    writer: Writer,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore").finish_non_exhaustive()
    }
}

/// The write that inserts `games` (see [`SqliteStore::insert_games`]): answers 1 when they were
/// inserted, 0 when the bound refused them.
fn insert_op(
    games: Vec<(GameRow, Vec<String>)>,
    bound: Option<(usize, i64)>,
) -> impl FnOnce(&Connection) -> rusqlite::Result<usize> + Send + 'static {
    move |tx| {
        if let Some((max_open, since)) = bound {
            let open = tx
                .prepare_cached("SELECT COUNT(*) FROM games WHERE finished = 0 AND updated >= ?1")?
                .query_row([since], |r| r.get::<_, i64>(0))? as usize;
            let new = games.iter().filter(|(g, _)| !g.finished).count();
            if open + new > max_open {
                return Ok(0);
            }
        }
        for (g, moves) in &games {
            tx.prepare_cached(
                "INSERT INTO games (id, mode, start, level, computer, token_b, token_a, resigned, finished,
                                result, created, updated, tags, player_b, player_a, rated, clock, aborted)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
            )?
            .execute(params![
                g.id, g.mode, g.start, g.level, g.computer, g.token_b, g.token_a, g.resigned, g.finished,
                g.result, g.created, g.updated, g.tags, g.player_b, g.player_a, g.rated, g.clock, g.aborted
            ])?;
            let mut insert = tx.prepare_cached("INSERT INTO moves (game_id, ply, mv) VALUES (?1, ?2, ?3)")?;
            for (i, m) in moves.iter().enumerate() {
                insert.execute(params![g.id, i as i64, m])?;
            }
        }
        Ok(1)
    }
}

/// Room for every statement the store runs, so that none is parsed twice.
const STATEMENTS: usize = 128;

/// What every connection of the store needs, the readers' and the writer's.
fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.set_prepared_statement_cache_capacity(STATEMENTS);
    Ok(())
}

/// Sets up the connection that writes and migrates its file to [`SCHEMA_VERSION`].
fn prepare(mut conn: Connection) -> Result<Connection, StoreError> {
    // WAL lets readers go on during a write; FULL syncs the log at every commit, which is
    // what "committed before acknowledged" needs even across a power cut.
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    configure(&conn)?;
    migrate(&mut conn)?;
    Ok(conn)
}

/// Creates the database file readable and writable by its owner only (it holds password hashes),
/// or makes an existing one so. SQLite gives its journal files the same permissions.
fn owner_only(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        std::fs::OpenOptions::new().create(true).append(true).mode(0o600).open(path)?;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path` and migrates it to [`SCHEMA_VERSION`].
    ///
    /// # Errors
    /// [`StoreError`] when the file cannot be opened, is not a database, or is from a newer build.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        owner_only(path).map_err(|e| StoreError::Commit(format!("{}: {e}", path.display())))?;
        let writes = prepare(Connection::open(path)?)?;
        // Reads get a connection of their own: under WAL they go on while a batch commits, and
        // never queue behind the writer thread for the lock.
        let reads = Connection::open(path)?;
        configure(&reads)?;
        reads.pragma_update(None, "query_only", true)?;
        SqliteStore::start(Arc::new(Mutex::new(reads)), Arc::new(Mutex::new(writes)))
    }

    /// An in-memory database (for tests): one connection for reads and writes, as a second
    /// would open a different database.
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        let conn = Arc::new(Mutex::new(prepare(Connection::open_in_memory()?)?));
        SqliteStore::start(Arc::clone(&conn), conn)
    }

    fn start(
        reads: Arc<Mutex<Connection>>,
        writes: Arc<Mutex<Connection>>,
    ) -> Result<SqliteStore, StoreError> {
        let writer =
            Writer::start(writes).map_err(|e| StoreError::Commit(format!("the writer thread: {e}")))?;
        Ok(SqliteStore { conn: reads, writer })
    }

    pub(crate) fn conn(&self) -> MutexGuard<'_, Connection> {
        lock(&self.conn)
    }

    /// Queues `op` to be committed (grouped with other writers' ops queued at the same time); the
    /// answer is the rows it changed, mapped with `map`, once that transaction is committed.
    pub(crate) fn submit<T>(
        &self,
        op: impl FnOnce(&Connection) -> rusqlite::Result<usize> + Send + 'static,
        map: fn(usize) -> T,
    ) -> Written<T> {
        self.writer.submit(op, map)
    }

    /// Runs `op` in a committed transaction and returns the rows it changed, once that
    /// transaction is committed (blocking: see [`SqliteStore::submit`]).
    pub(crate) fn write(
        &self,
        op: impl FnOnce(&Connection) -> rusqlite::Result<usize> + Send + 'static,
    ) -> Result<usize, StoreError> {
        self.submit(op, |n| n).wait()
    }

    /// The schema version of the open file.
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn schema_version(&self) -> Result<usize, StoreError> {
        Ok(self.conn().pragma_query_value(None, "user_version", |r| r.get::<_, i64>(0))? as usize)
    }

    /// Inserts a new game with its moves (imports bring moves), in one transaction.
    pub fn insert_game(&self, g: &GameRow, moves: &[String]) -> Written<()> {
        self.submit(insert_op(vec![(g.clone(), moves.to_vec())], None), |_| ())
    }

    /// Inserts games with their moves, all or none, in one transaction. With `bound` =
    /// `(max_open, since)`, only if the unfinished games changed since `since` and the unfinished
    /// ones inserted stay within `max_open`: counted and inserted in the same write transaction, so
    /// racing creators cannot overshoot it. False when the bound refused them.
    pub fn insert_games(
        &self,
        games: Vec<(GameRow, Vec<String>)>,
        bound: Option<(usize, i64)>,
    ) -> Written<bool> {
        self.submit(insert_op(games, bound), |n| n == 1)
    }

    /// Appends moves at plies `first..` and records whether the game is now over, with the clock
    /// and, when the game ends rated, both players' new ratings, in one transaction.
    pub fn append_moves_with(
        &self,
        id: &str,
        first: usize,
        moves: &[String],
        result: Option<GameResult>,
        extra: &Extra,
    ) -> Written<()> {
        let (id, moves, extra) = (id.to_string(), moves.to_vec(), extra.clone());
        let op = move |tx: &Connection| {
            let mut insert = tx.prepare_cached("INSERT INTO moves (game_id, ply, mv) VALUES (?1, ?2, ?3)")?;
            for (i, m) in moves.iter().enumerate() {
                insert.execute(params![id, (first + i) as i64, m])?;
            }
            let n = tx
                .prepare_cached(
                    "UPDATE games SET finished = ?2, result = ?3, updated = ?4, clock = ?5 WHERE id = ?1",
                )?
                .execute(params![id, result.is_some(), result.map(StoredResult), now(), extra.clock])?;
            if let (Some(r), Some(players)) = (result, &extra.rated) {
                super::sqlite_players::rate(tx, &id, players, r)?;
            }
            Ok(n)
        };
        self.submit(op, |_| ())
    }

    /// Keeps only the first `len` moves (undo), and marks the game unfinished.
    pub fn truncate_moves(&self, id: &str, len: usize, clock: Option<Clock>) -> Written<()> {
        let id = id.to_string();
        let op = move |tx: &Connection| {
            tx.prepare_cached("DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2")?
                .execute(params![id, len as i64])?;
            tx.prepare_cached(
                "UPDATE games SET finished = 0, result = NULL, updated = ?2, clock = ?3 WHERE id = ?1",
            )?
            .execute(params![id, now(), clock])
        };
        self.submit(op, |_| ())
    }

    /// Gives a free seat to `token`; false when the seat was already taken (checked in
    /// the same statement, so two friends racing for one seat cannot both get it).
    pub fn take_seat(
        &self,
        id: &str,
        seat: Side,
        token_hash: &str,
        player: Option<&str>,
        clock: Option<Clock>,
    ) -> Written<bool> {
        let sql = if seat == Side::B {
            "UPDATE games SET token_b = ?2, player_b = ?4, clock = ?5, updated = ?3
             WHERE id = ?1 AND token_b IS NULL AND player_b IS NULL"
        } else {
            "UPDATE games SET token_a = ?2, player_a = ?4, clock = ?5, updated = ?3
             WHERE id = ?1 AND token_a IS NULL AND player_a IS NULL"
        };
        let (id, token, player) = (id.to_string(), token_hash.to_string(), player.map(str::to_string));
        let op =
            move |c: &Connection| c.prepare_cached(sql)?.execute(params![id, token, now(), player, clock]);
        self.submit(op, |n| n == 1)
    }

    /// Records a resignation or a loss on time, and the result.
    pub fn forfeit(&self, id: &str, forfeit: Forfeit, result: GameResult, extra: &Extra) -> Written<()> {
        let (id, extra) = (id.to_string(), extra.clone());
        let op = move |c: &Connection| {
            let n = c
                .prepare_cached(
                    "UPDATE games SET resigned = ?2, finished = 1, result = ?3, updated = ?4, clock = ?5
                     WHERE id = ?1",
                )?
                .execute(params![id, forfeit, StoredResult(result), now(), extra.clock])?;
            if let Some(players) = &extra.rated {
                super::sqlite_players::rate(c, &id, players, result)?;
            }
            Ok(n)
        };
        self.submit(op, |_| ())
    }

    /// Ends a game without a result: nobody made the first move in time.
    pub fn abort(&self, id: &str, clock: Option<Clock>) -> Written<()> {
        let id = id.to_string();
        let op = move |c: &Connection| {
            c.prepare_cached(
                "UPDATE games SET aborted = 1, finished = 1, updated = ?2, clock = ?3 WHERE id = ?1",
            )?
            .execute(params![id, now(), clock])
        };
        self.submit(op, |_| ())
    }

    /// Unfinished games with a clock (their timers are armed again after a restart).
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn clocked_unfinished(&self) -> Result<Vec<String>, StoreError> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare_cached("SELECT id FROM games WHERE finished = 0 AND clock IS NOT NULL")?;
        let ids = stmt.query_map([], |r| r.get(0))?.collect::<Result<Vec<String>, _>>()?;
        Ok(ids)
    }

    /// A game's row and its moves in order, or `None` when there is no such game.
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn load(&self, id: &str) -> Result<Option<(GameRow, Vec<String>)>, StoreError> {
        let conn = self.conn();
        let row = conn
            .prepare_cached(
                "SELECT id, mode, start, level, computer, token_b, token_a, resigned, finished, result,
                        created, updated, tags, player_b, player_a, rated, clock, aborted
                 FROM games WHERE id = ?1",
            )?
            .query_row([id], |r| {
                Ok(GameRow {
                    id: r.get(0)?,
                    mode: r.get(1)?,
                    start: r.get(2)?,
                    level: r.get(3)?,
                    computer: r.get(4)?,
                    token_b: r.get(5)?,
                    token_a: r.get(6)?,
                    resigned: r.get(7)?,
                    finished: r.get(8)?,
                    result: r.get(9)?,
                    created: r.get(10)?,
                    updated: r.get(11)?,
                    tags: r.get(12)?,
                    player_b: r.get(13)?,
                    player_a: r.get(14)?,
                    rated: r.get(15)?,
                    clock: r.get(16)?,
                    aborted: r.get(17)?,
                })
            })
            .optional()?;
        let Some(row) = row else { return Ok(None) };
        let mut stmt = conn.prepare_cached("SELECT mv FROM moves WHERE game_id = ?1 ORDER BY ply")?;
        let moves = stmt.query_map([id], |r| r.get::<_, String>(0))?.collect::<Result<Vec<_>, _>>()?;
        Ok(Some((row, moves)))
    }

    /// Finished games, newest first.
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn finished(&self, limit: usize, offset: usize) -> Result<Vec<Summary>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(
            "SELECT g.id, g.mode, g.result, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id), g.updated
             FROM games g WHERE g.finished = 1 ORDER BY g.updated DESC, g.id LIMIT ?1 OFFSET ?2",
        )?;
        let rows = stmt
            .query_map(params![limit as i64, offset as i64], |r| {
                let result: Option<StoredResult> = r.get(2)?;
                Ok(Summary {
                    id: r.get(0)?,
                    mode: r.get(1)?,
                    outcome: result.map(|r| ResultView::from(r.0)),
                    moves: r.get(3)?,
                    updated: r.get(4)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// How many games are not finished (bounded by the server's `max_open_games`).
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn open_games(&self) -> Result<usize, StoreError> {
        self.open_games_since(i64::MIN)
    }

    /// How many unfinished games changed at or after `since` (seconds since the epoch): games
    /// abandoned before then stay playable but no longer count against the bound.
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn open_games_since(&self, since: i64) -> Result<usize, StoreError> {
        Ok(self.conn().query_row(
            "SELECT COUNT(*) FROM games WHERE finished = 0 AND updated >= ?1",
            [since],
            |r| r.get::<_, i64>(0),
        )? as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str) -> GameRow {
        GameRow::sample(id)
    }

    #[test]
    fn migrates_to_the_latest_version_and_reopens() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.db");
        let s = SqliteStore::open(&path).unwrap();
        assert_eq!(s.schema_version().unwrap(), SCHEMA_VERSION);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "the database is its owner's only: {mode:o}");
        }
        s.insert_game(&row("g1"), &["1B".into()]).wait().unwrap();
        drop(s);
        let s = SqliteStore::open(&path).unwrap();
        let (r, moves) = s.load("g1").unwrap().unwrap();
        assert_eq!(r, row("g1"));
        assert_eq!(moves, vec!["1B".to_string()]);
    }

    #[test]
    fn migrates_an_old_file_step_by_step() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        {
            // A file at version 1, as the first release wrote it.
            let c = Connection::open(&path).unwrap();
            c.execute_batch(crate::store::sqlite_migrations::MIGRATIONS[0]).unwrap();
            c.pragma_update(None, "user_version", 1).unwrap();
            c.execute(
                "INSERT INTO games (id, mode, start, token_b, created, updated)
                 VALUES ('old', 'local', 'x', 'plaintoken', 0, 0)",
                [],
            )
            .unwrap();
        }
        let s = SqliteStore::open(&path).unwrap();
        assert_eq!(s.schema_version().unwrap(), SCHEMA_VERSION);
        let old = s.load("old").unwrap().unwrap().0;
        assert_eq!(old.tags, "[]");
        assert_eq!(old.token_b, Some(crate::identity::token_hash("plaintoken")), "seat tokens are hashed");
        assert_eq!(old.token_a, None);
    }

    #[test]
    fn a_file_is_read_on_its_own_connection_that_sees_every_commit_and_cannot_write() {
        let dir = tempfile::tempdir().unwrap();
        let s = SqliteStore::open(&dir.path().join("r.db")).unwrap();
        for ply in 0..20 {
            if ply == 0 {
                s.insert_game(&row("g"), &[]).wait().unwrap();
            }
            s.append_moves_with("g", ply, &[format!("{}B", ply % 6 + 1)], None, &Extra::default())
                .wait()
                .unwrap();
            // Answered after its commit, so the readers' connection already sees it.
            assert_eq!(s.load("g").unwrap().unwrap().1.len(), ply + 1);
        }
        assert!(s.conn().execute("DELETE FROM moves", []).is_err(), "reads cannot write");
        assert_eq!(s.load("g").unwrap().unwrap().1.len(), 20);
    }

    #[test]
    fn a_write_that_panics_fails_alone_and_the_writer_goes_on() {
        let s = SqliteStore::in_memory().unwrap();
        s.insert_game(&row("g"), &[]).wait().unwrap();
        let bad = s.submit(
            |c| {
                c.execute("DELETE FROM games", [])?;
                panic!("a bug in a write")
            },
            |n| n,
        );
        let good = s.append_moves_with("g", 0, &["1B".into()], None, &Extra::default());
        assert!(matches!(bad.wait(), Err(StoreError::Commit(_))));
        good.wait().unwrap();
        // The panicking write's delete was rolled back with its savepoint.
        assert_eq!(s.load("g").unwrap().unwrap().1, vec!["1B"]);
        s.truncate_moves("g", 0, None).wait().unwrap();
        assert!(s.load("g").unwrap().unwrap().1.is_empty());
    }

    #[test]
    fn refuses_a_newer_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.db");
        Connection::open(&path).unwrap().pragma_update(None, "user_version", 99).unwrap();
        assert!(matches!(SqliteStore::open(&path), Err(StoreError::TooNew { found: 99, .. })));
    }

    #[test]
    fn a_seat_is_taken_once_and_moves_append_and_truncate() {
        let s = SqliteStore::in_memory().unwrap();
        s.insert_game(&row("g"), &[]).wait().unwrap();
        assert!(s.take_seat("g", Side::A, "t1", None, None).wait().unwrap());
        assert!(!s.take_seat("g", Side::A, "t2", None, None).wait().unwrap());
        assert!(!s.take_seat("g", Side::B, "t3", None, None).wait().unwrap());
        s.append_moves_with("g", 0, &["1B".into(), "2A".into()], None, &Extra::default()).wait().unwrap();
        // The same ply twice is refused by the primary key, so a race cannot fork a game.
        assert!(s.append_moves_with("g", 1, &["3A".into()], None, &Extra::default()).wait().is_err());
        assert_eq!(s.load("g").unwrap().unwrap().1, vec!["1B", "2A"]);
        s.truncate_moves("g", 1, None).wait().unwrap();
        assert_eq!(s.load("g").unwrap().unwrap().1, vec!["1B"]);
        assert_eq!(s.open_games().unwrap(), 1);
        // The game was last changed just now, so it counts; one changed before it would not.
        assert_eq!(s.open_games_since(now() - 60).unwrap(), 1);
        assert_eq!(s.open_games_since(now() + 60).unwrap(), 0);
        let won = GameResult {
            winner: Some(vlt_core::Player::A),
            score: vlt_core::ByPlayer::new(0, 0),
            termination: vlt_core::Termination::Resignation(vlt_core::Player::B),
        };
        s.forfeit("g", Forfeit { side: Side::B, time: false }, won, &Extra::default()).wait().unwrap();
        assert_eq!(s.load("g").unwrap().unwrap().0.result, Some(StoredResult(won)));
        assert_eq!(s.open_games().unwrap(), 0);
        assert_eq!(s.finished(10, 0).unwrap()[0].id, "g");
    }

    #[test]
    fn concurrent_writes_are_grouped_and_a_failing_one_fails_alone() {
        let dir = tempfile::tempdir().unwrap();
        let s = std::sync::Arc::new(SqliteStore::open(&dir.path().join("g.db")).unwrap());
        for t in 0..8 {
            s.insert_game(&row(&format!("g{t}")), &[]).wait().unwrap();
        }
        let threads: Vec<_> = (0..8)
            .map(|t| {
                let s = std::sync::Arc::clone(&s);
                std::thread::spawn(move || {
                    let id = format!("g{t}");
                    for ply in 0..25 {
                        s.append_moves_with(
                            &id,
                            ply,
                            &[format!("{}B", ply % 6 + 1)],
                            None,
                            &Extra::default(),
                        )
                        .wait()
                        .unwrap();
                        // Every odd thread also tries a ply that is already stored: refused alone.
                        if t % 2 == 1 {
                            assert!(
                                s.append_moves_with(&id, ply, &["1A".into()], None, &Extra::default())
                                    .wait()
                                    .is_err()
                            );
                        }
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        drop(s);
        let s = SqliteStore::open(&dir.path().join("g.db")).unwrap();
        for t in 0..8 {
            let moves = s.load(&format!("g{t}")).unwrap().unwrap().1;
            assert_eq!(moves.len(), 25);
            assert!(moves.iter().enumerate().all(|(i, m)| *m == format!("{}B", i % 6 + 1)));
        }
    }
}
