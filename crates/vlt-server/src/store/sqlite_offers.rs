//! A game's offers and the players' open sockets in SQLite (see `offers`).

use super::StoreError;
use super::offers::{StoredOffers, ply, ply_read};
use super::seeks::now_ms;
use super::sqlite::SqliteStore;
use crate::kinds::Side;
use rusqlite::{OptionalExtension, params};

fn wide(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl SqliteStore {
    /// See `Store::offers`.
    pub fn offers(&self, game: &str) -> Result<StoredOffers, StoreError> {
        let c = self.conn();
        let row = c
            .query_row(
                "SELECT takeback, takeback_ply, rematch_by, rematch_game FROM offers WHERE game_id = ?1",
                [game],
                |r| {
                    let side: Option<Side> = r.get(0)?;
                    let at = ply_read(r.get(1)?);
                    Ok(StoredOffers {
                        takeback: side.zip(at),
                        rematch_by: r.get(2)?,
                        rematch_game: r.get(3)?,
                    })
                },
            )
            .optional()?;
        Ok(row.unwrap_or_default())
    }

    /// See `Store::ask_takeback`.
    pub fn ask_takeback(&self, game: &str, side: Side, plies: usize) -> Result<bool, StoreError> {
        let game = game.to_string();
        let n = self.write(move |c| {
            c.execute(
                "INSERT INTO offers (game_id, takeback, takeback_ply) VALUES (?1, ?2, ?3)
                 ON CONFLICT (game_id) DO UPDATE SET takeback = ?2, takeback_ply = ?3
                 WHERE offers.takeback IS NULL OR offers.takeback_ply IS NOT ?3",
                params![game, side, ply(plies)],
            )
        })?;
        Ok(n == 1)
    }

    /// See `Store::clear_takeback`.
    pub fn clear_takeback(&self, game: &str, plies: usize, by: Option<Side>) -> Result<bool, StoreError> {
        let game = game.to_string();
        let n = self.write(move |c| {
            c.execute(
                "UPDATE offers SET takeback = NULL, takeback_ply = NULL
                 WHERE game_id = ?1 AND takeback IS NOT NULL AND takeback_ply = ?2 AND (?3 IS NULL OR takeback = ?3)",
                params![game, ply(plies), by],
            )
        })?;
        Ok(n == 1)
    }

    /// See `Store::offer_rematch`.
    pub fn offer_rematch(&self, game: &str, side: Side) -> Result<bool, StoreError> {
        let game = game.to_string();
        let n = self.write(move |c| {
            c.execute(
                "INSERT INTO offers (game_id, rematch_by) VALUES (?1, ?2)
                 ON CONFLICT (game_id) DO UPDATE SET rematch_by = ?2 WHERE offers.rematch_by IS NULL",
                params![game, side],
            )
        })?;
        Ok(n == 1)
    }

    /// See `Store::claim_rematch`.
    pub fn claim_rematch(&self, game: &str, by: Side, rematch: &str) -> Result<bool, StoreError> {
        let (game, rematch) = (game.to_string(), rematch.to_string());
        let n = self.write(move |c| {
            c.execute(
                "UPDATE offers SET rematch_game = ?3 WHERE game_id = ?1 AND rematch_by = ?2 AND rematch_game IS NULL",
                params![game, by, rematch],
            )
        })?;
        Ok(n == 1)
    }

    /// See `Store::unclaim_rematch`.
    pub fn unclaim_rematch(&self, game: &str, rematch: &str) -> Result<(), StoreError> {
        let (game, rematch) = (game.to_string(), rematch.to_string());
        self.write(move |c| {
            c.execute(
                "UPDATE offers SET rematch_game = NULL WHERE game_id = ?1 AND rematch_game = ?2",
                [game, rematch],
            )
        })?;
        Ok(())
    }

    /// See `Store::publish_presence`.
    pub fn publish_presence(&self, server: &str, counts: &[(String, [usize; 2])]) -> Result<(), StoreError> {
        let (server, counts) = (server.to_string(), counts.to_vec());
        self.write(move |c| {
            let mut changed = 0;
            for (game, sockets) in &counts {
                changed += if *sockets == [0, 0] {
                    c.execute("DELETE FROM presence WHERE game_id = ?1 AND server = ?2", [game, &server])?
                } else {
                    c.execute(
                        "INSERT INTO presence (game_id, server, b, a) VALUES (?1, ?2, ?3, ?4)
                         ON CONFLICT (game_id, server) DO UPDATE SET b = ?3, a = ?4",
                        params![game, server, wide(sockets[0]), wide(sockets[1])],
                    )?
                };
            }
            Ok(changed)
        })?;
        Ok(())
    }

    /// See `Store::remote_presence`.
    pub fn remote_presence(&self, server: &str, game: &str) -> Result<[usize; 2], StoreError> {
        let c = self.conn();
        let (b, a): (i64, i64) = c.query_row(
            "SELECT COALESCE(SUM(p.b), 0), COALESCE(SUM(p.a), 0) FROM presence p
             JOIN servers v ON v.name = p.server
             WHERE p.game_id = ?1 AND p.server != ?2 AND v.expires > ?3",
            params![game, server, now_ms()],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        Ok([usize::try_from(b).unwrap_or(0), usize::try_from(a).unwrap_or(0)])
    }
}
