//! The PostgreSQL schema's numbered migrations, the same tables as SQLite's (typed columns:
//! booleans, 64-bit integers), with the version in `vlt_schema`. Servers starting at once take an
//! advisory lock first, so exactly one of them migrates.

use super::StoreError;

/// Migrations in order: migration `i` brings the schema from version `i` to `i + 1`. Never edit a
/// released step; append a new one.
const MIGRATIONS: &[&str] = &[
    // 1: the schema as SQLite's version 6 has it, and the clock leases of several servers.
    "CREATE TABLE players (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        login TEXT UNIQUE,
        password TEXT,
        rating DOUBLE PRECISION NOT NULL DEFAULT 1500,
        deviation DOUBLE PRECISION NOT NULL DEFAULT 350,
        volatility DOUBLE PRECISION NOT NULL DEFAULT 0.06,
        rated_games BIGINT NOT NULL DEFAULT 0,
        created BIGINT NOT NULL
    );
    CREATE TABLE player_tokens (
        hash TEXT PRIMARY KEY,
        player_id TEXT NOT NULL REFERENCES players(id),
        created BIGINT NOT NULL
    );
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        mode TEXT NOT NULL,
        start TEXT NOT NULL,
        level SMALLINT,
        computer TEXT,
        token_b TEXT,
        token_a TEXT,
        resigned TEXT,
        finished BOOLEAN NOT NULL DEFAULT FALSE,
        result TEXT,
        created BIGINT NOT NULL,
        updated BIGINT NOT NULL,
        tags TEXT NOT NULL DEFAULT '[]',
        player_b TEXT REFERENCES players(id),
        player_a TEXT REFERENCES players(id),
        rated BOOLEAN NOT NULL DEFAULT FALSE,
        clock TEXT,
        aborted BOOLEAN NOT NULL DEFAULT FALSE
    );
    CREATE INDEX games_finished ON games (finished, updated);
    CREATE INDEX games_player_b ON games (player_b, updated);
    CREATE INDEX games_player_a ON games (player_a, updated);
    CREATE INDEX games_clocked ON games (id) WHERE NOT finished AND clock IS NOT NULL;
    CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games(id),
        ply BIGINT NOT NULL,
        mv TEXT NOT NULL,
        PRIMARY KEY (game_id, ply)
    );
    CREATE TABLE reviews (
        game_id TEXT PRIMARY KEY REFERENCES games(id),
        moves TEXT NOT NULL,
        body TEXT NOT NULL,
        created BIGINT NOT NULL
    );
    CREATE TABLE rating_history (
        seq BIGSERIAL,
        player_id TEXT NOT NULL REFERENCES players(id),
        game_id TEXT NOT NULL REFERENCES games(id),
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (player_id, game_id)
    );
    CREATE INDEX players_rating ON players (rating);
    CREATE TABLE clock_leases (
        game_id TEXT PRIMARY KEY REFERENCES games(id),
        owner TEXT NOT NULL,
        expires BIGINT NOT NULL
    );",
    // 2: what the lobby shares between servers (SQLite's version 7): each server's lease, the open
    // seeks held under it, a game's offers, the players' open sockets counted by each server, and
    // the rate-limit state of each address.
    "CREATE TABLE servers (
        name TEXT PRIMARY KEY,
        expires BIGINT NOT NULL
    );
    CREATE TABLE seeks (
        id TEXT PRIMARY KEY,
        player_id TEXT NOT NULL REFERENCES players(id),
        owner TEXT NOT NULL,
        initial_ms BIGINT,
        increment_ms BIGINT NOT NULL DEFAULT 0,
        per_move BOOLEAN NOT NULL DEFAULT FALSE,
        rated BOOLEAN NOT NULL,
        colour TEXT,
        created BIGINT NOT NULL
    );
    CREATE INDEX seeks_player ON seeks (player_id);
    CREATE INDEX seeks_created ON seeks (created);
    CREATE TABLE offers (
        game_id TEXT PRIMARY KEY REFERENCES games(id),
        takeback TEXT,
        takeback_ply BIGINT,
        rematch_by TEXT,
        rematch_game TEXT
    );
    CREATE TABLE presence (
        game_id TEXT NOT NULL,
        server TEXT NOT NULL,
        b BIGINT NOT NULL,
        a BIGINT NOT NULL,
        PRIMARY KEY (game_id, server)
    );
    CREATE TABLE rates (
        key TEXT PRIMARY KEY,
        tat BIGINT NOT NULL
    );",
];

/// The schema version this build writes in PostgreSQL.
pub const PG_SCHEMA_VERSION: usize = MIGRATIONS.len();

/// Any constant: the advisory lock that serialises migrations between servers.
const MIGRATION_LOCK: i64 = 0x766c_7401;

/// Brings the database to [`PG_SCHEMA_VERSION`] in one transaction, refusing a newer one.
pub(crate) async fn migrate(c: &mut tokio_postgres::Client) -> Result<(), StoreError> {
    let tx = c.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).await?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS vlt_schema (version INTEGER NOT NULL)").await?;
    let version = match tx.query_opt("SELECT version FROM vlt_schema", &[]).await? {
        Some(r) => usize::try_from(r.try_get::<_, i32>(0)?).unwrap_or(0),
        None => {
            tx.execute("INSERT INTO vlt_schema (version) VALUES (0)", &[]).await?;
            0
        }
    };
    if version > PG_SCHEMA_VERSION {
        return Err(StoreError::TooNew { found: version, supported: PG_SCHEMA_VERSION });
    }
    for sql in &MIGRATIONS[version..] {
        tx.batch_execute(sql).await?;
    }
    let v = i32::try_from(PG_SCHEMA_VERSION).unwrap_or(i32::MAX);
    tx.execute("UPDATE vlt_schema SET version = $1", &[&v]).await?;
    tx.commit().await?;
    Ok(())
}

/// The version the database is at.
pub(crate) async fn version(c: &tokio_postgres::Client) -> Result<usize, StoreError> {
    let r = c.query_one("SELECT version FROM vlt_schema", &[]).await?;
    Ok(usize::try_from(r.try_get::<_, i32>(0)?).unwrap_or(0))
}
