//! The players in SQLite: names, token hashes, accounts, ratings and their history, and the rating
//! update a rated game's end makes inside that ending's transaction.

use super::sqlite::SqliteStore;
use super::{StoreError, now};
use crate::accounts::{PlayedGame, PlayerRow, RatingPoint, Taken};
use crate::kinds::{Side, StoredResult};
use crate::view::ResultView;
use rusqlite::{Connection, OptionalExtension, params};
use vlt_core::GameResult;
use vlt_rating::Rating;

pub(crate) const PLAYER_COLUMNS: &str = "id, name, login, rating, deviation, volatility, rated_games";

fn player_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<PlayerRow> {
    player_row_at(r, 0)
}

/// The player whose [`PLAYER_COLUMNS`] start at column `at` of `r`.
pub(crate) fn player_row_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<PlayerRow> {
    Ok(PlayerRow {
        id: r.get(at)?,
        name: r.get(at + 1)?,
        login: r.get(at + 2)?,
        rating: Rating { rating: r.get(at + 3)?, deviation: r.get(at + 4)?, volatility: r.get(at + 5)? },
        rated_games: r.get(at + 6)?,
    })
}

fn player_in(c: &Connection, id: &str) -> rusqlite::Result<Option<PlayerRow>> {
    c.query_row(&format!("SELECT {PLAYER_COLUMNS} FROM players WHERE id = ?1"), [id], player_row).optional()
}

/// Updates both players' ratings for game `game_id` ending in `result` (inside the transaction
/// that ends it), and notes the new ratings in their histories.
pub(crate) fn rate(
    c: &Connection,
    game_id: &str,
    players: &[String; 2],
    result: GameResult,
) -> rusqlite::Result<()> {
    let (Some(b), Some(a)) = (player_in(c, &players[0])?, player_in(c, &players[1])?) else {
        return Ok(());
    };
    let (nb, na) = crate::accounts::rated(b.rating, a.rating, result);
    let t = now();
    for (p, r) in [(&b, nb), (&a, na)] {
        c.execute(
            "UPDATE players SET rating = ?2, deviation = ?3, volatility = ?4, rated_games = rated_games + 1
             WHERE id = ?1",
            params![p.id, r.rating, r.deviation, r.volatility],
        )?;
        c.execute(
            "INSERT OR REPLACE INTO rating_history (player_id, game_id, rating, deviation, at)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![p.id, game_id, r.rating, r.deviation, t],
        )?;
    }
    Ok(())
}

impl SqliteStore {
    /// Creates a player named `name` known by the token with hash `token_hash`.
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn create_player(&self, id: &str, name: &str, token_hash: &str) -> Result<(), StoreError> {
        let (id, name, hash) = (id.to_string(), name.to_string(), token_hash.to_string());
        self.write(move |c| {
            let t = now();
            c.execute("INSERT INTO players (id, name, created) VALUES (?1, ?2, ?3)", params![id, name, t])?;
            c.execute(
                "INSERT INTO player_tokens (hash, player_id, created) VALUES (?1, ?2, ?3)",
                params![hash, id, t],
            )
        })?;
        Ok(())
    }

    /// The player a token (by its hash) belongs to.
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn player_by_token(&self, token_hash: &str) -> Result<Option<PlayerRow>, StoreError> {
        let c = self.conn();
        Ok(c.query_row(
            &format!(
                "SELECT {} FROM players p JOIN player_tokens t ON t.player_id = p.id WHERE t.hash = ?1",
                PLAYER_COLUMNS.split(", ").map(|c| format!("p.{c}")).collect::<Vec<_>>().join(", ")
            ),
            [token_hash],
            player_row,
        )
        .optional()?)
    }

    /// The player `id`.
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn player(&self, id: &str) -> Result<Option<PlayerRow>, StoreError> {
        Ok(player_in(&self.conn(), id)?)
    }

    /// Renames player `id`; an account's login follows its name, so it must stay unique.
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn rename(&self, id: &str, name: &str) -> Result<Result<(), Taken>, StoreError> {
        let (id, name) = (id.to_string(), name.to_string());
        let login = crate::identity::login_key(&name);
        let r = self.write(move |c| {
            let clash: Option<String> = c
                .query_row("SELECT id FROM players WHERE login = ?1 AND id != ?2", params![login, id], |r| r.get(0))
                .optional()?;
            if clash.is_some() {
                return Ok(0);
            }
            c.execute(
                "UPDATE players SET name = ?2, login = CASE WHEN login IS NULL THEN NULL ELSE ?3 END WHERE id = ?1",
                params![id, name, login],
            )?;
            Ok(1)
        })?;
        Ok(if r == 1 { Ok(()) } else { Err(Taken::Name) })
    }

    /// Makes player `id` an account: its name (any case) and the argon2 hash of its password.
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn set_password(&self, id: &str, password_hash: &str) -> Result<Result<(), Taken>, StoreError> {
        let (id, hash) = (id.to_string(), password_hash.to_string());
        let r = self.write(move |c| {
            let name: String = c.query_row("SELECT name FROM players WHERE id = ?1", [&id], |r| r.get(0))?;
            let login = crate::identity::login_key(&name);
            let clash: Option<String> = c
                .query_row("SELECT id FROM players WHERE login = ?1 AND id != ?2", params![login, id], |r| {
                    r.get(0)
                })
                .optional()?;
            if clash.is_some() {
                return Ok(0);
            }
            c.execute("UPDATE players SET login = ?2, password = ?3 WHERE id = ?1", params![id, login, hash])
        })?;
        Ok(if r == 1 { Ok(()) } else { Err(Taken::Name) })
    }

    /// The account with this name (any case): its player id and password hash.
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn account(&self, name: &str) -> Result<Option<(String, String)>, StoreError> {
        let login = crate::identity::login_key(name);
        Ok(self
            .conn()
            .query_row(
                "SELECT id, password FROM players WHERE login = ?1 AND password IS NOT NULL",
                [login],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?)
    }

    /// Lets a further token (by hash) speak for player `id`: a log-in on another device.
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn add_token(&self, id: &str, token_hash: &str) -> Result<(), StoreError> {
        let (id, hash) = (id.to_string(), token_hash.to_string());
        self.write(move |c| {
            c.execute(
                "INSERT INTO player_tokens (hash, player_id, created) VALUES (?1, ?2, ?3)",
                params![hash, id, now()],
            )
        })?;
        Ok(())
    }

    /// Forgets a token (log out on this device).
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn remove_token(&self, token_hash: &str) -> Result<(), StoreError> {
        let hash = token_hash.to_string();
        self.write(move |c| c.execute("DELETE FROM player_tokens WHERE hash = ?1", [hash]))?;
        Ok(())
    }

    /// The best-rated players with at least one rated game, provisional ratings last.
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn leaderboard(&self, limit: usize) -> Result<Vec<PlayerRow>, StoreError> {
        let c = self.conn();
        let mut stmt = c.prepare_cached(&format!(
            "SELECT {PLAYER_COLUMNS} FROM players WHERE rated_games > 0
             ORDER BY deviation > {} , rating DESC, id LIMIT ?1",
            vlt_rating::PROVISIONAL_DEVIATION
        ))?;
        let rows = stmt.query_map([limit as i64], player_row)?.collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// Player `id`'s rating after each rated game, oldest first.
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn rating_history(&self, id: &str) -> Result<Vec<RatingPoint>, StoreError> {
        let c = self.conn();
        let mut stmt = c.prepare_cached(
            "SELECT game_id, rating, deviation, at FROM rating_history WHERE player_id = ?1 ORDER BY at, rowid",
        )?;
        let rows = stmt
            .query_map([id], |r| {
                Ok(RatingPoint {
                    game: r.get(0)?,
                    rating: r.get::<_, f64>(1)?.round() as i64,
                    deviation: r.get::<_, f64>(2)?.round() as i64,
                    at: r.get(3)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// Player `id`'s games, newest first.
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn games_of(&self, id: &str, limit: usize) -> Result<Vec<PlayedGame>, StoreError> {
        let rows: Vec<(PlayedGame, Option<String>)> = {
            let c = self.conn();
            let mut stmt = c.prepare_cached(
                "SELECT id, mode, rated, player_b, player_a, result, aborted, updated FROM games
                 WHERE player_b = ?1 OR player_a = ?1 ORDER BY updated DESC, id LIMIT ?2",
            )?;
            stmt.query_map(params![id, limit as i64], |r| {
                let (pb, pa): (Option<String>, Option<String>) = (r.get(3)?, r.get(4)?);
                let side = if pb.as_deref() == Some(id) { Side::B } else { Side::A };
                let result: Option<StoredResult> = r.get(5)?;
                let game = PlayedGame {
                    id: r.get(0)?,
                    mode: r.get(1)?,
                    rated: r.get(2)?,
                    side,
                    opponent: None,
                    outcome: result.map(|r| ResultView::from(r.0)),
                    aborted: r.get(6)?,
                    updated: r.get(7)?,
                };
                Ok((game, if side == Side::B { pa } else { pb }))
            })?
            .collect::<Result<_, _>>()?
        };
        let mut out = Vec::with_capacity(rows.len());
        for (mut game, other) in rows {
            if let Some(o) = other {
                game.opponent = self.player(&o)?.map(|p| p.card());
            }
            out.push(game);
        }
        Ok(out)
    }
}
