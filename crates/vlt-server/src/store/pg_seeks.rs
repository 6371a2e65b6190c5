//! The lobby in PostgreSQL (see `seeks`): server leases, seeks, the games a lobby lists, shared
//! rates. Times of leases and rates are the database's clock, so servers whose clocks differ agree.

use super::StoreError;
use super::pg_players::{PLAYER_COLUMNS, player_row_at};
use super::postgres::{CHANNEL, PgStore, client};
use super::seeks::{LobbyGame, Posted, RateStep, SeekBounds, SeekRow, Taking};
use crate::accounts::PlayerRow;
use crate::clock::TimeControl;
use deadpool_postgres::GenericClient;
use tokio_postgres::Row;

/// The database's time in milliseconds since the epoch, as SQL.
pub(crate) const DB_NOW_MS: &str = "(extract(epoch FROM clock_timestamp()) * 1000)::BIGINT";

/// Any constant: the advisory lock under which seeks are counted against the bounds and posted.
const SEEK_LOCK: i64 = 0x766c_7403;
/// Any constant: the first key of the advisory locks of rate states (the second is the key's hash).
const RATE_LOCK: i32 = 0x766c_7404;

const SEEK_COLUMNS: &str =
    "s.id, s.player_id, s.initial_ms, s.increment_ms, s.per_move, s.rated, s.colour, s.created";

/// Where a seek's owner is alive: its lease unexpired.
const ALIVE: &str = "EXISTS (SELECT 1 FROM servers v WHERE v.name = s.owner AND v.expires > {now})";

fn alive() -> String {
    ALIVE.replace("{now}", DB_NOW_MS)
}

fn seek_row(r: &Row) -> Result<SeekRow, StoreError> {
    let initial: Option<i64> = r.try_get(2)?;
    let increment: i64 = r.try_get(3)?;
    let per_move: bool = r.try_get(4)?;
    let clock = initial.map(|i| TimeControl {
        initial_ms: u64::try_from(i).unwrap_or(0),
        increment_ms: u64::try_from(increment).unwrap_or(0),
        per_move,
    });
    Ok(SeekRow {
        id: r.try_get(0)?,
        player: r.try_get(1)?,
        clock,
        rated: r.try_get(5)?,
        colour: r.try_get(6)?,
        created_ms: r.try_get(7)?,
    })
}

fn count(r: &Row) -> Result<usize, StoreError> {
    Ok(usize::try_from(r.try_get::<_, i64>(0)?).unwrap_or(usize::MAX))
}

async fn db_now(c: &impl GenericClient) -> Result<i64, StoreError> {
    Ok(c.query_one(&format!("SELECT {DB_NOW_MS}"), &[]).await?.try_get(0)?)
}

/// Renews `name`'s lease inside `c`'s transaction.
async fn renew(c: &impl GenericClient, name: &str, lease_ms: i64) -> Result<(), StoreError> {
    c.execute(
        &format!(
            "INSERT INTO servers (name, expires) VALUES ($1, {DB_NOW_MS} + $2)
             ON CONFLICT (name) DO UPDATE SET expires = EXCLUDED.expires"
        ),
        &[&name, &lease_ms],
    )
    .await?;
    Ok(())
}

impl PgStore {
    /// See `Store::renew_server`. Games whose presence the expiry changed are notified.
    pub fn renew_server(&self, name: &str, lease_ms: i64) -> Result<Vec<String>, StoreError> {
        let (pool, name, me) = (self.pool.clone(), name.to_string(), self.instance.to_string());
        self.run(async move {
            let mut c = client(&pool).await?;
            let tx = c.transaction().await?;
            renew(&tx, &name, lease_ms).await?;
            tx.execute(&format!("DELETE FROM servers WHERE expires <= {DB_NOW_MS}"), &[]).await?;
            tx.execute(
                "DELETE FROM seeks s WHERE NOT EXISTS (SELECT 1 FROM servers v WHERE v.name = s.owner)",
                &[],
            )
            .await?;
            let rows = tx
                .query(
                    "DELETE FROM presence p WHERE NOT EXISTS (SELECT 1 FROM servers v WHERE v.name = p.server)
                     RETURNING p.game_id",
                    &[],
                )
                .await?;
            tx.execute(&format!("DELETE FROM rates WHERE tat <= {DB_NOW_MS}"), &[]).await?;
            let mut games: Vec<String> = rows.iter().map(|r| r.try_get(0)).collect::<Result<_, _>>()?;
            games.sort_unstable();
            games.dedup();
            for g in &games {
                tx.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &format!("{me} presence {g}")]).await?;
            }
            tx.commit().await?;
            Ok(games)
        })
    }

    /// See `Store::leave_server`. Games whose presence this changed are notified.
    pub fn leave_server(&self, name: &str) -> Result<Vec<String>, StoreError> {
        let (pool, name, me) = (self.pool.clone(), name.to_string(), self.instance.to_string());
        self.run(async move {
            let mut c = client(&pool).await?;
            let tx = c.transaction().await?;
            tx.execute("DELETE FROM servers WHERE name = $1", &[&name]).await?;
            tx.execute("DELETE FROM seeks WHERE owner = $1", &[&name]).await?;
            let rows = tx.query("DELETE FROM presence WHERE server = $1 RETURNING game_id", &[&name]).await?;
            let games: Vec<String> = rows.iter().map(|r| r.try_get(0)).collect::<Result<_, _>>()?;
            for g in &games {
                tx.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &format!("{me} presence {g}")]).await?;
            }
            tx.commit().await?;
            Ok(games)
        })
    }

    /// See `Store::post_seek`.
    pub fn post_seek(
        &self,
        owner: &str,
        seek: &SeekRow,
        bounds: SeekBounds,
        lease_ms: i64,
    ) -> Result<Posted, StoreError> {
        let (pool, owner, s) = (self.pool.clone(), owner.to_string(), seek.clone());
        self.run(async move {
            let mut c = client(&pool).await?;
            let tx = c.transaction().await?;
            // Held to the commit: the seek of this transaction is counted by the next one.
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SEEK_LOCK]).await?;
            renew(&tx, &owner, lease_ms).await?;
            let alive = alive();
            let total = count(&tx.query_one(&format!("SELECT COUNT(*) FROM seeks s WHERE {alive}"), &[]).await?)?;
            if total >= bounds.total {
                return Ok(Posted::LobbyFull);
            }
            let mine = tx
                .query_one(&format!("SELECT COUNT(*) FROM seeks s WHERE s.player_id = $1 AND {alive}"), &[&s.player])
                .await?;
            if count(&mine)? >= bounds.per_player {
                return Ok(Posted::PlayerFull);
            }
            let tc = s.clock;
            let initial = tc.map(|c| i64::try_from(c.initial_ms).unwrap_or(i64::MAX));
            let increment = tc.map_or(0, |c| i64::try_from(c.increment_ms).unwrap_or(i64::MAX));
            let per_move = tc.is_some_and(|c| c.per_move);
            tx.execute(
                "INSERT INTO seeks (id, player_id, owner, initial_ms, increment_ms, per_move, rated, colour, created)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                &[&s.id, &s.player, &owner, &initial, &increment, &per_move, &s.rated, &s.colour, &s.created_ms],
            )
            .await?;
            tx.commit().await?;
            Ok(Posted::Open)
        })
    }

    /// See `Store::cancel_seek`.
    pub fn cancel_seek(&self, id: &str, player: &str) -> Result<bool, StoreError> {
        let (pool, id, player) = (self.pool.clone(), id.to_string(), player.to_string());
        self.run(async move {
            let c = client(&pool).await?;
            Ok(c.execute("DELETE FROM seeks WHERE id = $1 AND player_id = $2", &[&id, &player]).await? == 1)
        })
    }

    /// See `Store::take_seek`: the row is locked, then deleted unless it is the taker's own; a
    /// second taker waits for the first's commit and finds it gone.
    pub fn take_seek(&self, id: &str, taker: &str) -> Result<Taking, StoreError> {
        let (pool, id, taker) = (self.pool.clone(), id.to_string(), taker.to_string());
        self.run(async move {
            let mut c = client(&pool).await?;
            let tx = c.transaction().await?;
            let sql =
                format!("SELECT {SEEK_COLUMNS} FROM seeks s WHERE s.id = $1 AND {} FOR UPDATE", alive());
            let Some(row) = tx.query_opt(&sql, &[&id]).await? else { return Ok(Taking::Gone) };
            let seek = seek_row(&row)?;
            if seek.player == taker {
                return Ok(Taking::Own);
            }
            tx.execute("DELETE FROM seeks WHERE id = $1", &[&id]).await?;
            tx.commit().await?;
            Ok(Taking::Taken(seek))
        })
    }

    /// See `Store::open_seeks`.
    pub fn open_seeks(&self) -> Result<Vec<(SeekRow, PlayerRow)>, StoreError> {
        let pool = self.pool.clone();
        self.run(async move {
            let c = client(&pool).await?;
            let players = PLAYER_COLUMNS.split(", ").map(|c| format!("p.{c}")).collect::<Vec<_>>().join(", ");
            let st = c
                .prepare_cached(&format!(
                    "SELECT {SEEK_COLUMNS}, {players} FROM seeks s JOIN players p ON p.id = s.player_id
                     WHERE {} ORDER BY s.created, s.id",
                    alive()
                ))
                .await?;
            let rows = c.query(&st, &[]).await?;
            rows.iter().map(|r| Ok((seek_row(r)?, player_row_at(r, 8)?))).collect()
        })
    }

    /// See `Store::lobby_games`.
    pub fn lobby_games(&self, since: i64, limit: usize) -> Result<Vec<LobbyGame>, StoreError> {
        let (pool, limit) = (self.pool.clone(), i64::try_from(limit).unwrap_or(i64::MAX));
        self.run(async move {
            let c = client(&pool).await?;
            let cols = |t: &str| PLAYER_COLUMNS.split(", ").map(|c| format!("{t}.{c}")).collect::<Vec<_>>().join(", ");
            let st = c
                .prepare_cached(&format!(
                    "SELECT g.id, g.clock, g.rated, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id),
                            pb.id IS NOT NULL, {}, pa.id IS NOT NULL, {}
                     FROM games g LEFT JOIN players pb ON pb.id = g.player_b LEFT JOIN players pa ON pa.id = g.player_a
                     WHERE NOT g.finished AND g.updated >= $1 AND g.mode = 'online'
                       AND (g.token_b IS NOT NULL OR g.player_b IS NOT NULL)
                       AND (g.token_a IS NOT NULL OR g.player_a IS NOT NULL)
                     ORDER BY g.created DESC, g.id LIMIT $2",
                    cols("pb"),
                    cols("pa")
                ))
                .await?;
            let rows = c.query(&st, &[&since, &limit]).await?;
            let width = PLAYER_COLUMNS.split(", ").count();
            rows.iter()
                .map(|r| {
                    let card = |flag: usize| -> Result<Option<PlayerRow>, StoreError> {
                        Ok(if r.try_get(flag)? { Some(player_row_at(r, flag + 1)?) } else { None })
                    };
                    Ok(LobbyGame {
                        id: r.try_get(0)?,
                        clock: r.try_get(1)?,
                        rated: r.try_get(2)?,
                        moves: usize::try_from(r.try_get::<_, i64>(3)?).unwrap_or(0),
                        players: [card(4)?, card(5 + width)?],
                    })
                })
                .collect()
        })
    }

    /// See `Store::going_on_of`.
    pub fn going_on_of(&self, player: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        let (pool, player, limit) =
            (self.pool.clone(), player.to_string(), i64::try_from(limit).unwrap_or(i64::MAX));
        self.run(async move {
            let c = client(&pool).await?;
            let st = c
                .prepare_cached(
                    "SELECT id FROM games WHERE (player_b = $1 OR player_a = $1) AND NOT finished AND mode = 'online'
                       AND (token_b IS NOT NULL OR player_b IS NOT NULL)
                       AND (token_a IS NOT NULL OR player_a IS NOT NULL)
                     ORDER BY created DESC, id LIMIT $2",
                )
                .await?;
            let rows = c.query(&st, &[&player, &limit]).await?;
            rows.iter().map(|r| r.try_get(0).map_err(StoreError::from)).collect()
        })
    }

    /// See `Store::rate_take`: the key's state is read and written under an advisory lock of its
    /// own, so requests to several servers at once are counted one after the other.
    pub fn rate_take(&self, key: &str, rate: RateStep) -> Result<Option<i64>, StoreError> {
        let (pool, key) = (self.pool.clone(), key.to_string());
        self.run(async move {
            let mut c = client(&pool).await?;
            let tx = c.transaction().await?;
            tx.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))", &[&RATE_LOCK, &key]).await?;
            let now = db_now(&tx).await?;
            let tat: Option<i64> =
                tx.query_opt("SELECT tat FROM rates WHERE key = $1", &[&key]).await?.map(|r| r.try_get(0)).transpose()?;
            match rate.step(tat, now) {
                Err(wait) => Ok(Some(wait)),
                Ok(next) => {
                    tx.execute(
                        "INSERT INTO rates (key, tat) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET tat = $2",
                        &[&key, &next],
                    )
                    .await?;
                    tx.commit().await?;
                    Ok(None)
                }
            }
        })
    }
}
