//! The lobby in SQLite (see `seeks`): server leases, seeks, the games a lobby lists, shared rates.
//! One server writes a SQLite file, so its leases always hold while it runs; a restart leaves the
//! previous run's seeks under an expired lease, out of the lobby and deleted at the first renewal.

use super::StoreError;
use super::seeks::{LobbyGame, Posted, RateStep, SeekBounds, SeekRow, Taking, now_ms};
use super::sqlite::SqliteStore;
use super::sqlite_players::{PLAYER_COLUMNS, player_row_at};
use crate::accounts::PlayerRow;
use crate::clock::TimeControl;
use rusqlite::{Connection, OptionalExtension, params};
use std::sync::{Arc, Mutex};

const SEEK_COLUMNS: &str =
    "s.id, s.player_id, s.initial_ms, s.increment_ms, s.per_move, s.rated, s.colour, s.created";

/// Where a seek's owner is alive: its lease unexpired at `?1`.
const ALIVE: &str = "EXISTS (SELECT 1 FROM servers v WHERE v.name = s.owner AND v.expires > ?1)";

fn seek_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<SeekRow> {
    let initial: Option<i64> = r.get(2)?;
    let increment: i64 = r.get(3)?;
    let per_move: bool = r.get(4)?;
    Ok(SeekRow {
        id: r.get(0)?,
        player: r.get(1)?,
        clock: initial.map(|i| TimeControl {
            initial_ms: u64::try_from(i).unwrap_or(0),
            increment_ms: u64::try_from(increment).unwrap_or(0),
            per_move,
        }),
        rated: r.get(5)?,
        colour: r.get(6)?,
        created_ms: r.get(7)?,
    })
}

fn renew(c: &Connection, name: &str, lease_ms: i64) -> rusqlite::Result<usize> {
    c.execute(
        "INSERT INTO servers (name, expires) VALUES (?1, ?2) ON CONFLICT (name) DO UPDATE SET expires = ?2",
        params![name, now_ms().saturating_add(lease_ms)],
    )
}

fn count(c: &Connection, sql: &str, p: impl rusqlite::Params) -> rusqlite::Result<usize> {
    c.query_row(sql, p, |r| r.get::<_, i64>(0)).map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

impl SqliteStore {
    /// Runs `op` as a committed write (see `write`) and answers what it made.
    fn write_answer<T: Send + 'static>(
        &self,
        op: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, StoreError> {
        let out = Arc::new(Mutex::new(None));
        let slot = Arc::clone(&out);
        self.write(move |c| {
            let v = op(c)?;
            *slot.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(v);
            Ok(1)
        })?;
        let v = out.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        v.ok_or_else(|| StoreError::Commit("the write gave no answer".into()))
    }

    /// See `Store::renew_server`. Presence is counted in the database only by servers sharing
    /// one, so this answers no games.
    pub fn renew_server(&self, name: &str, lease_ms: i64) -> Result<Vec<String>, StoreError> {
        let name = name.to_string();
        self.write_answer(move |c| {
            renew(c, &name, lease_ms)?;
            let now = now_ms();
            c.execute("DELETE FROM servers WHERE expires <= ?1", [now])?;
            c.execute("DELETE FROM seeks WHERE owner NOT IN (SELECT name FROM servers)", [])?;
            c.execute("DELETE FROM presence WHERE server NOT IN (SELECT name FROM servers)", [])?;
            c.execute("DELETE FROM rates WHERE tat <= ?1", [now])?;
            Ok(Vec::new())
        })
    }

    /// See `Store::leave_server`.
    pub fn leave_server(&self, name: &str) -> Result<Vec<String>, StoreError> {
        let name = name.to_string();
        self.write_answer(move |c| {
            c.execute("DELETE FROM servers WHERE name = ?1", [&name])?;
            c.execute("DELETE FROM seeks WHERE owner = ?1", [&name])?;
            c.execute("DELETE FROM presence WHERE server = ?1", [&name])?;
            Ok(Vec::new())
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
        let (owner, s) = (owner.to_string(), seek.clone());
        self.write_answer(move |c| {
            renew(c, &owner, lease_ms)?;
            let now = now_ms();
            if count(c, &format!("SELECT COUNT(*) FROM seeks s WHERE {ALIVE}"), [now])? >= bounds.total {
                return Ok(Posted::LobbyFull);
            }
            let mine = count(
                c,
                &format!("SELECT COUNT(*) FROM seeks s WHERE {ALIVE} AND s.player_id = ?2"),
                params![now, s.player],
            )?;
            if mine >= bounds.per_player {
                return Ok(Posted::PlayerFull);
            }
            let tc = s.clock;
            c.execute(
                "INSERT INTO seeks (id, player_id, owner, initial_ms, increment_ms, per_move, rated, colour, created)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    s.id,
                    s.player,
                    owner,
                    tc.map(|c| i64::try_from(c.initial_ms).unwrap_or(i64::MAX)),
                    tc.map_or(0, |c| i64::try_from(c.increment_ms).unwrap_or(i64::MAX)),
                    tc.is_some_and(|c| c.per_move),
                    s.rated,
                    s.colour,
                    s.created_ms
                ],
            )?;
            Ok(Posted::Open)
        })
    }

    /// See `Store::cancel_seek`.
    pub fn cancel_seek(&self, id: &str, player: &str) -> Result<bool, StoreError> {
        let (id, player) = (id.to_string(), player.to_string());
        let n = self
            .write(move |c| c.execute("DELETE FROM seeks WHERE id = ?1 AND player_id = ?2", [id, player]))?;
        Ok(n == 1)
    }

    /// See `Store::take_seek`: read and deleted in one write, which SQLite runs alone.
    pub fn take_seek(&self, id: &str, taker: &str) -> Result<Taking, StoreError> {
        let (id, taker) = (id.to_string(), taker.to_string());
        self.write_answer(move |c| {
            let sql = format!("SELECT {SEEK_COLUMNS} FROM seeks s WHERE {ALIVE} AND s.id = ?2");
            let Some(seek) = c.query_row(&sql, params![now_ms(), id], seek_row).optional()? else {
                return Ok(Taking::Gone);
            };
            if seek.player == taker {
                return Ok(Taking::Own);
            }
            c.execute("DELETE FROM seeks WHERE id = ?1", [&id])?;
            Ok(Taking::Taken(seek))
        })
    }

    /// See `Store::open_seeks`.
    pub fn open_seeks(&self) -> Result<Vec<(SeekRow, PlayerRow)>, StoreError> {
        let c = self.conn();
        let players = PLAYER_COLUMNS.split(", ").map(|c| format!("p.{c}")).collect::<Vec<_>>().join(", ");
        let mut st = c.prepare_cached(&format!(
            "SELECT {SEEK_COLUMNS}, {players} FROM seeks s JOIN players p ON p.id = s.player_id
             WHERE {ALIVE} ORDER BY s.created, s.id"
        ))?;
        let rows = st.query_map([now_ms()], |r| Ok((seek_row(r)?, player_row_at(r, 8)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// See `Store::lobby_games`.
    pub fn lobby_games(&self, since: i64, limit: usize) -> Result<Vec<LobbyGame>, StoreError> {
        let c = self.conn();
        let cols =
            |t: &str| PLAYER_COLUMNS.split(", ").map(|c| format!("{t}.{c}")).collect::<Vec<_>>().join(", ");
        let width = PLAYER_COLUMNS.split(", ").count();
        let mut st = c.prepare_cached(&format!(
            "SELECT g.id, g.clock, g.rated, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id),
                    pb.id IS NOT NULL, {}, pa.id IS NOT NULL, {}
             FROM games g LEFT JOIN players pb ON pb.id = g.player_b LEFT JOIN players pa ON pa.id = g.player_a
             WHERE g.finished = 0 AND g.updated >= ?1 AND g.mode = 'online'
               AND (g.token_b IS NOT NULL OR g.player_b IS NOT NULL)
               AND (g.token_a IS NOT NULL OR g.player_a IS NOT NULL)
             ORDER BY g.created DESC, g.id LIMIT ?2",
            cols("pb"),
            cols("pa")
        ))?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = st.query_map(params![since, limit], |r| {
            let card = |flag: usize| -> rusqlite::Result<Option<PlayerRow>> {
                Ok(if r.get(flag)? { Some(player_row_at(r, flag + 1)?) } else { None })
            };
            Ok(LobbyGame {
                id: r.get(0)?,
                clock: r.get(1)?,
                rated: r.get(2)?,
                moves: usize::try_from(r.get::<_, i64>(3)?).unwrap_or(0),
                players: [card(4)?, card(5 + width)?],
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// See `Store::going_on_of`.
    pub fn going_on_of(&self, player: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        let c = self.conn();
        let mut st = c.prepare_cached(
            "SELECT id FROM games WHERE (player_b = ?1 OR player_a = ?1) AND finished = 0 AND mode = 'online'
               AND (token_b IS NOT NULL OR player_b IS NOT NULL)
               AND (token_a IS NOT NULL OR player_a IS NOT NULL)
             ORDER BY created DESC, id LIMIT ?2",
        )?;
        let rows = st.query_map(params![player, i64::try_from(limit).unwrap_or(i64::MAX)], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// See `Store::rate_take`.
    pub fn rate_take(&self, key: &str, rate: RateStep) -> Result<Option<i64>, StoreError> {
        let key = key.to_string();
        self.write_answer(move |c| {
            let tat: Option<i64> =
                c.query_row("SELECT tat FROM rates WHERE key = ?1", [&key], |r| r.get(0)).optional()?;
            match rate.step(tat, now_ms()) {
                Err(wait) => Ok(Some(wait)),
                Ok(next) => {
                    c.execute(
                        "INSERT INTO rates (key, tat) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET tat = ?2",
                        params![key, next],
                    )?;
                    Ok(None)
                }
            }
        })
    }
}
