//! The schema's numbered migrations: migration `i` brings a database from version `i` to `i + 1`
//! (`PRAGMA user_version`), each in its own transaction, applied in order on open.

use super::StoreError;
use rusqlite::{Connection, params};

/// Schema migrations, in order: migration `i` brings the schema from version `i` to `i + 1`.
/// Never edit a released step; append a new one.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: games and moves.
    "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        mode TEXT NOT NULL,
        start TEXT NOT NULL,
        level INTEGER,
        computer TEXT,
        token_b TEXT,
        token_a TEXT,
        resigned TEXT,
        finished INTEGER NOT NULL DEFAULT 0,
        result TEXT,
        created INTEGER NOT NULL,
        updated INTEGER NOT NULL
    );
    CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games(id),
        ply INTEGER NOT NULL,
        mv TEXT NOT NULL,
        PRIMARY KEY (game_id, ply)
    );",
    // 2: the archive lists finished games, newest first.
    "CREATE INDEX games_finished ON games (finished, updated);",
    // 3: free-form record tags (JSON array of [name, value]) kept from imports.
    "ALTER TABLE games ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';",
    // 4: stored game reviews (review/store.rs): the moves reviewed and the review as JSON.
    "CREATE TABLE reviews (
        game_id TEXT PRIMARY KEY REFERENCES games(id),
        moves TEXT NOT NULL,
        body TEXT NOT NULL,
        created INTEGER NOT NULL
    );",
    // 5: players (a name, a rating, optionally an account), their tokens (SHA-256 only), rating
    // history; games know their players, whether they are rated, their clock, and an abort.
    "CREATE TABLE players (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        login TEXT UNIQUE,
        password TEXT,
        rating REAL NOT NULL DEFAULT 1500,
        deviation REAL NOT NULL DEFAULT 350,
        volatility REAL NOT NULL DEFAULT 0.06,
        rated_games INTEGER NOT NULL DEFAULT 0,
        created INTEGER NOT NULL
    );
    CREATE TABLE player_tokens (
        hash TEXT PRIMARY KEY,
        player_id TEXT NOT NULL REFERENCES players(id),
        created INTEGER NOT NULL
    );
    CREATE TABLE rating_history (
        player_id TEXT NOT NULL REFERENCES players(id),
        game_id TEXT NOT NULL REFERENCES games(id),
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (player_id, game_id)
    );
    CREATE INDEX players_rating ON players (rating);
    ALTER TABLE games ADD COLUMN player_b TEXT REFERENCES players(id);
    ALTER TABLE games ADD COLUMN player_a TEXT REFERENCES players(id);
    ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN clock TEXT;
    ALTER TABLE games ADD COLUMN aborted INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX games_player_b ON games (player_b, updated);
    CREATE INDEX games_player_a ON games (player_a, updated);",
    // 6: seat tokens are kept as their SHA-256 (the plain ones of older files are hashed by
    // `hash_seat_tokens` in the same step).
    "SELECT 1;",
    // 7: what the lobby shares between servers: each server's lease (`servers`, renewed while it
    // runs), the open seeks (held under their server's lease), the offers of a game (a takeback
    // asked at a ply, a rematch), the players' open sockets counted by each server, and the
    // rate-limit state of each address (the theoretical arrival time of GCRA, in ms).
    "CREATE TABLE servers (
        name TEXT PRIMARY KEY,
        expires INTEGER NOT NULL
    );
    CREATE TABLE seeks (
        id TEXT PRIMARY KEY,
        player_id TEXT NOT NULL REFERENCES players(id),
        owner TEXT NOT NULL,
        initial_ms INTEGER,
        increment_ms INTEGER NOT NULL DEFAULT 0,
        per_move INTEGER NOT NULL DEFAULT 0,
        rated INTEGER NOT NULL,
        colour TEXT,
        created INTEGER NOT NULL
    );
    CREATE INDEX seeks_player ON seeks (player_id);
    CREATE INDEX seeks_created ON seeks (created);
    CREATE TABLE offers (
        game_id TEXT PRIMARY KEY REFERENCES games(id),
        takeback TEXT,
        takeback_ply INTEGER,
        rematch_by TEXT,
        rematch_game TEXT
    );
    CREATE TABLE presence (
        game_id TEXT NOT NULL,
        server TEXT NOT NULL,
        b INTEGER NOT NULL,
        a INTEGER NOT NULL,
        PRIMARY KEY (game_id, server)
    );
    CREATE TABLE rates (
        key TEXT PRIMARY KEY,
        tat INTEGER NOT NULL
    );",
];

/// The migration after which seat tokens are stored hashed.
const SEAT_TOKENS_HASHED: usize = 6;

/// Replaces the plain seat tokens of an older file by their hashes.
fn hash_seat_tokens(tx: &Connection) -> rusqlite::Result<()> {
    let rows: Vec<(String, Option<String>, Option<String>)> = tx
        .prepare("SELECT id, token_b, token_a FROM games WHERE token_b IS NOT NULL OR token_a IS NOT NULL")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    for (id, b, a) in rows {
        let h = |t: Option<String>| t.map(|t| crate::identity::token_hash(&t));
        tx.execute("UPDATE games SET token_b = ?2, token_a = ?3 WHERE id = ?1", params![id, h(b), h(a)])?;
    }
    Ok(())
}

/// The schema version this build writes.
pub const SCHEMA_VERSION: usize = MIGRATIONS.len();

/// Brings `conn` to [`SCHEMA_VERSION`], refusing a file from a newer build.
pub(crate) fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let version: usize = conn.pragma_query_value(None, "user_version", |r| r.get::<_, i64>(0))? as usize;
    if version > SCHEMA_VERSION {
        return Err(StoreError::TooNew { found: version, supported: SCHEMA_VERSION });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        if i + 1 == SEAT_TOKENS_HASHED {
            hash_seat_tokens(&tx)?;
        }
        tx.pragma_update(None, "user_version", (i + 1) as i64)?;
        tx.commit()?;
    }
    Ok(())
}
