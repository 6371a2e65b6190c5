//! Stored reviews: one row a game, with the moves it judged, so that a game whose moves changed
//! since (a takeback in a local game) is reviewed again rather than shown a stale review.

use crate::store::sqlite::SqliteStore;
use crate::store::{StoreError, now};
use rusqlite::{OptionalExtension, params};

impl SqliteStore {
    /// Stores (or replaces) the review of game `id`, made for the moves `moves`.
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn save_review(&self, id: &str, moves: &str, body: &str) -> Result<(), StoreError> {
        let (id, moves, body) = (id.to_string(), moves.to_string(), body.to_string());
        self.write(move |tx| {
            tx.execute(
                "INSERT INTO reviews (game_id, moves, body, created) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT(game_id) DO UPDATE SET moves = ?2, body = ?3, created = ?4",
                params![id, moves, body, now()],
            )
        })?;
        Ok(())
    }

    /// The stored review of game `id` (its JSON) when it was made for exactly `moves`.
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn load_review(&self, id: &str, moves: &str) -> Result<Option<String>, StoreError> {
        let row: Option<(String, String)> = self
            .conn()
            .query_row("SELECT moves, body FROM reviews WHERE game_id = ?1", [id], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?;
        Ok(row.and_then(|(m, body)| (m == moves).then_some(body)))
    }

    /// How many reviews are stored (for tests and statistics).
    ///
    /// # Errors
    /// [`StoreError`] if SQLite fails.
    pub fn review_count(&self) -> Result<usize, StoreError> {
        Ok(self.conn().query_row("SELECT COUNT(*) FROM reviews", [], |r| r.get::<_, i64>(0))? as usize)
    }
}
