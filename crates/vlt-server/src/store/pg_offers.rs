//! A game's offers and the players' open sockets in PostgreSQL (see `offers`): each change is
//! notified to the other servers in its own transaction, so what they hear is committed.

use super::StoreError;
use super::offers::{StoredOffers, ply, ply_read};
use super::pg_seeks::DB_NOW_MS;
use super::postgres::{CHANNEL, PgStore, client};
use crate::kinds::Side;
use tokio_postgres::types::ToSql;

impl PgStore {
    /// Runs `sql` with `params` and, when it changed a row, notifies the change of `game`'s
    /// offers, in one transaction; answers the rows changed.
    fn change_and_notify(
        &self,
        game: &str,
        sql: &'static str,
        params: Vec<Box<dyn ToSql + Sync + Send>>,
    ) -> Result<u64, StoreError> {
        let (pool, payload) = (self.pool.clone(), format!("{} offers {game}", self.instance));
        self.run(async move {
            let mut c = client(&pool).await?;
            let tx = c.transaction().await?;
            let refs: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| &**p as &(dyn ToSql + Sync)).collect();
            let n = tx.execute(sql, &refs).await?;
            if n > 0 {
                tx.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &payload]).await?;
            }
            tx.commit().await?;
            Ok(n)
        })
    }

    /// See `Store::offers`.
    pub fn offers(&self, game: &str) -> Result<StoredOffers, StoreError> {
        let (pool, game) = (self.pool.clone(), game.to_string());
        self.run(async move {
            let c = client(&pool).await?;
            let st = c
                .prepare_cached(
                    "SELECT takeback, takeback_ply, rematch_by, rematch_game FROM offers WHERE game_id = $1",
                )
                .await?;
            let Some(r) = c.query_opt(&st, &[&game]).await? else { return Ok(StoredOffers::default()) };
            let side: Option<Side> = r.try_get(0)?;
            Ok(StoredOffers {
                takeback: side.zip(ply_read(r.try_get(1)?)),
                rematch_by: r.try_get(2)?,
                rematch_game: r.try_get(3)?,
            })
        })
    }

    /// See `Store::ask_takeback`.
    pub fn ask_takeback(&self, game: &str, side: Side, plies: usize) -> Result<bool, StoreError> {
        let sql = "INSERT INTO offers (game_id, takeback, takeback_ply) VALUES ($1, $2, $3)
                   ON CONFLICT (game_id) DO UPDATE SET takeback = $2, takeback_ply = $3
                   WHERE offers.takeback IS NULL OR offers.takeback_ply IS DISTINCT FROM $3";
        let n = self.change_and_notify(
            game,
            sql,
            vec![Box::new(game.to_string()), Box::new(side), Box::new(ply(plies))],
        )?;
        Ok(n == 1)
    }

    /// See `Store::clear_takeback`.
    pub fn clear_takeback(&self, game: &str, plies: usize, by: Option<Side>) -> Result<bool, StoreError> {
        let sql = "UPDATE offers SET takeback = NULL, takeback_ply = NULL
                   WHERE game_id = $1 AND takeback IS NOT NULL AND takeback_ply = $2
                     AND ($3::TEXT IS NULL OR takeback = $3)";
        let n = self.change_and_notify(
            game,
            sql,
            vec![Box::new(game.to_string()), Box::new(ply(plies)), Box::new(by)],
        )?;
        Ok(n == 1)
    }

    /// See `Store::offer_rematch`.
    pub fn offer_rematch(&self, game: &str, side: Side) -> Result<bool, StoreError> {
        let sql = "INSERT INTO offers (game_id, rematch_by) VALUES ($1, $2)
                   ON CONFLICT (game_id) DO UPDATE SET rematch_by = $2 WHERE offers.rematch_by IS NULL";
        let n = self.change_and_notify(game, sql, vec![Box::new(game.to_string()), Box::new(side)])?;
        Ok(n == 1)
    }

    /// See `Store::claim_rematch`.
    pub fn claim_rematch(&self, game: &str, by: Side, rematch: &str) -> Result<bool, StoreError> {
        let sql = "UPDATE offers SET rematch_game = $3 WHERE game_id = $1 AND rematch_by = $2 AND rematch_game IS NULL";
        let n = self.change_and_notify(
            game,
            sql,
            vec![Box::new(game.to_string()), Box::new(by), Box::new(rematch.to_string())],
        )?;
        Ok(n == 1)
    }

    /// See `Store::unclaim_rematch`.
    pub fn unclaim_rematch(&self, game: &str, rematch: &str) -> Result<(), StoreError> {
        let sql = "UPDATE offers SET rematch_game = NULL WHERE game_id = $1 AND rematch_game = $2";
        self.change_and_notify(game, sql, vec![Box::new(game.to_string()), Box::new(rematch.to_string())])?;
        Ok(())
    }

    /// See `Store::publish_presence`: one statement, deleting the rows of games with no socket
    /// left, upserting the others, and notifying each game whose row it changed.
    pub fn publish_presence(&self, server: &str, counts: &[(String, [usize; 2])]) -> Result<(), StoreError> {
        if counts.is_empty() {
            return Ok(());
        }
        let wide = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        let games: Vec<String> = counts.iter().map(|c| c.0.clone()).collect();
        let b: Vec<i64> = counts.iter().map(|c| wide(c.1[0])).collect();
        let a: Vec<i64> = counts.iter().map(|c| wide(c.1[1])).collect();
        let (pool, server, prefix) =
            (self.pool.clone(), server.to_string(), format!("{} presence ", self.instance));
        self.run(async move {
            let c = client(&pool).await?;
            let st = c
                .prepare_cached(
                    "WITH counts AS (SELECT * FROM unnest($2::TEXT[], $3::BIGINT[], $4::BIGINT[]) AS t(game_id, b, a)),
                     gone AS (DELETE FROM presence p USING counts n
                              WHERE p.game_id = n.game_id AND p.server = $1 AND n.b = 0 AND n.a = 0
                              RETURNING p.game_id),
                     kept AS (INSERT INTO presence (game_id, server, b, a)
                              SELECT game_id, $1, b, a FROM counts WHERE b <> 0 OR a <> 0
                              ON CONFLICT (game_id, server) DO UPDATE SET b = EXCLUDED.b, a = EXCLUDED.a
                              RETURNING game_id)
                     SELECT pg_notify($5, $6 || g.game_id)
                     FROM (SELECT game_id FROM gone UNION ALL SELECT game_id FROM kept) g",
                )
                .await?;
            c.execute(&st, &[&server, &games, &b, &a, &CHANNEL, &prefix]).await?;
            Ok(())
        })
    }

    /// See `Store::remote_presence`.
    pub fn remote_presence(&self, server: &str, game: &str) -> Result<[usize; 2], StoreError> {
        let (pool, server, game) = (self.pool.clone(), server.to_string(), game.to_string());
        self.run(async move {
            let c = client(&pool).await?;
            let st = c
                .prepare_cached(&format!(
                    "SELECT COALESCE(SUM(p.b), 0)::BIGINT, COALESCE(SUM(p.a), 0)::BIGINT FROM presence p
                     JOIN servers v ON v.name = p.server
                     WHERE p.game_id = $1 AND p.server != $2 AND v.expires > {DB_NOW_MS}"
                ))
                .await?;
            let r = c.query_one(&st, &[&game, &server]).await?;
            let n = |i: usize| -> Result<usize, StoreError> {
                Ok(usize::try_from(r.try_get::<_, i64>(i)?).unwrap_or(0))
            };
            Ok([n(0)?, n(1)?])
        })
    }
}
