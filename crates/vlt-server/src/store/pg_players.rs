//! Players and reviews in PostgreSQL: names, token hashes, accounts, ratings and their history,
//! the rating update a rated game's end makes inside that ending's transaction, stored reviews.

use super::postgres::{PgStore, client};
use super::{StoreError, now};
use crate::accounts::{PlayedGame, PlayerRow, RatingPoint, Taken};
use crate::kinds::{Side, StoredResult};
use crate::view::ResultView;
use tokio_postgres::{GenericClient, Row};
use vlt_core::GameResult;
use vlt_rating::Rating;

pub(crate) const PLAYER_COLUMNS: &str = "id, name, login, rating, deviation, volatility, rated_games";

fn player_row(r: &Row) -> Result<PlayerRow, tokio_postgres::Error> {
    player_row_at(r, 0)
}

/// The player whose [`PLAYER_COLUMNS`] start at column `at` of `r`.
pub(crate) fn player_row_at(r: &Row, at: usize) -> Result<PlayerRow, tokio_postgres::Error> {
    Ok(PlayerRow {
        id: r.try_get(at)?,
        name: r.try_get(at + 1)?,
        login: r.try_get(at + 2)?,
        rating: Rating {
            rating: r.try_get(at + 3)?,
            deviation: r.try_get(at + 4)?,
            volatility: r.try_get(at + 5)?,
        },
        rated_games: r.try_get(at + 6)?,
    })
}

async fn player_in(c: &impl GenericClient, id: &str, lock: bool) -> Result<Option<PlayerRow>, StoreError> {
    let lock = if lock { " FOR UPDATE" } else { "" };
    let row =
        c.query_opt(&format!("SELECT {PLAYER_COLUMNS} FROM players WHERE id = $1{lock}"), &[&id]).await?;
    Ok(row.as_ref().map(player_row).transpose()?)
}

/// Updates both players' ratings for game `game_id` ending in `result`, inside the transaction that
/// ends it (their rows locked first, so two games ending at once on two servers both count).
pub(crate) async fn rate(
    tx: &tokio_postgres::Transaction<'_>,
    game_id: &str,
    players: &[String; 2],
    result: GameResult,
) -> Result<(), StoreError> {
    let (Some(b), Some(a)) =
        (player_in(tx, &players[0], true).await?, player_in(tx, &players[1], true).await?)
    else {
        return Ok(());
    };
    let (nb, na) = crate::accounts::rated(b.rating, a.rating, result);
    let t = now();
    for (p, r) in [(&b, nb), (&a, na)] {
        tx.execute(
            "UPDATE players SET rating = $2, deviation = $3, volatility = $4, rated_games = rated_games + 1
             WHERE id = $1",
            &[&p.id, &r.rating, &r.deviation, &r.volatility],
        )
        .await?;
        tx.execute(
            "INSERT INTO rating_history (player_id, game_id, rating, deviation, at) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (player_id, game_id) DO UPDATE SET rating = $3, deviation = $4, at = $5",
            &[&p.id, &game_id, &r.rating, &r.deviation, &t],
        )
        .await?;
    }
    Ok(())
}

/// Whether another player than `id` has the login `login`.
async fn login_taken(c: &impl GenericClient, login: &str, id: &str) -> Result<bool, StoreError> {
    Ok(c.query_opt("SELECT 1 FROM players WHERE login = $1 AND id != $2", &[&login, &id]).await?.is_some())
}

impl PgStore {
    /// Creates a player named `name` known by the token with hash `token_hash`.
    pub fn create_player(&self, id: &str, name: &str, token_hash: &str) -> Result<(), StoreError> {
        let (pool, id, name, hash) =
            (self.pool.clone(), id.to_string(), name.to_string(), token_hash.to_string());
        self.run(async move {
            let mut c = client(&pool).await?;
            let tx = c.transaction().await?;
            let t = now();
            tx.execute("INSERT INTO players (id, name, created) VALUES ($1, $2, $3)", &[&id, &name, &t])
                .await?;
            tx.execute(
                "INSERT INTO player_tokens (hash, player_id, created) VALUES ($1, $2, $3)",
                &[&hash, &id, &t],
            )
            .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    /// The player a token (by its hash) belongs to.
    pub fn player_by_token(&self, token_hash: &str) -> Result<Option<PlayerRow>, StoreError> {
        let (pool, hash) = (self.pool.clone(), token_hash.to_string());
        self.run(async move {
            let c = client(&pool).await?;
            let cols = PLAYER_COLUMNS.split(", ").map(|c| format!("p.{c}")).collect::<Vec<_>>().join(", ");
            let st = c
                .prepare_cached(&format!(
                    "SELECT {cols} FROM players p JOIN player_tokens t ON t.player_id = p.id WHERE t.hash = $1"
                ))
                .await?;
            Ok(c.query_opt(&st, &[&hash]).await?.as_ref().map(player_row).transpose()?)
        })
    }

    /// The player `id`.
    pub fn player(&self, id: &str) -> Result<Option<PlayerRow>, StoreError> {
        let (pool, id) = (self.pool.clone(), id.to_string());
        self.run(async move { player_in(&**client(&pool).await?, &id, false).await })
    }

    /// Renames player `id`; an account's login follows its name, so it must stay unique.
    pub fn rename(&self, id: &str, name: &str) -> Result<Result<(), Taken>, StoreError> {
        let (pool, id, name) = (self.pool.clone(), id.to_string(), name.to_string());
        let login = crate::identity::login_key(&name);
        self.run(async move {
            let mut c = client(&pool).await?;
            let tx = c.transaction().await?;
            if login_taken(&*tx, &login, &id).await? {
                return Ok(Err(Taken::Name));
            }
            tx.execute(
                "UPDATE players SET name = $2, login = CASE WHEN login IS NULL THEN NULL ELSE $3 END WHERE id = $1",
                &[&id, &name, &login],
            )
            .await?;
            tx.commit().await?;
            Ok(Ok(()))
        })
    }

    /// Makes player `id` an account: its name (any case) and the argon2 hash of its password.
    pub fn set_password(&self, id: &str, password_hash: &str) -> Result<Result<(), Taken>, StoreError> {
        let (pool, id, hash) = (self.pool.clone(), id.to_string(), password_hash.to_string());
        self.run(async move {
            let mut c = client(&pool).await?;
            let tx = c.transaction().await?;
            let name: String =
                tx.query_one("SELECT name FROM players WHERE id = $1", &[&id]).await?.try_get(0)?;
            let login = crate::identity::login_key(&name);
            if login_taken(&*tx, &login, &id).await? {
                return Ok(Err(Taken::Name));
            }
            tx.execute("UPDATE players SET login = $2, password = $3 WHERE id = $1", &[&id, &login, &hash])
                .await?;
            tx.commit().await?;
            Ok(Ok(()))
        })
    }

    /// The account with this name (any case): its player id and password hash.
    pub fn account(&self, name: &str) -> Result<Option<(String, String)>, StoreError> {
        let (pool, login) = (self.pool.clone(), crate::identity::login_key(name));
        self.run(async move {
            let c = client(&pool).await?;
            let row = c
                .query_opt(
                    "SELECT id, password FROM players WHERE login = $1 AND password IS NOT NULL",
                    &[&login],
                )
                .await?;
            Ok(match row {
                Some(r) => Some((r.try_get(0)?, r.try_get(1)?)),
                None => None,
            })
        })
    }

    /// Lets a further token (by hash) speak for player `id`.
    pub fn add_token(&self, id: &str, token_hash: &str) -> Result<(), StoreError> {
        let (pool, id, hash) = (self.pool.clone(), id.to_string(), token_hash.to_string());
        self.run(async move {
            client(&pool)
                .await?
                .execute(
                    "INSERT INTO player_tokens (hash, player_id, created) VALUES ($1, $2, $3)",
                    &[&hash, &id, &now()],
                )
                .await?;
            Ok(())
        })
    }

    /// Forgets a token.
    pub fn remove_token(&self, token_hash: &str) -> Result<(), StoreError> {
        let (pool, hash) = (self.pool.clone(), token_hash.to_string());
        self.run(async move {
            client(&pool).await?.execute("DELETE FROM player_tokens WHERE hash = $1", &[&hash]).await?;
            Ok(())
        })
    }

    /// The best-rated players with at least one rated game, provisional ratings last.
    pub fn leaderboard(&self, limit: usize) -> Result<Vec<PlayerRow>, StoreError> {
        let pool = self.pool.clone();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.run(async move {
            let rows = client(&pool)
                .await?
                .query(
                    &format!(
                        "SELECT {PLAYER_COLUMNS} FROM players WHERE rated_games > 0
                         ORDER BY deviation > $2, rating DESC, id LIMIT $1"
                    ),
                    &[&limit, &vlt_rating::PROVISIONAL_DEVIATION],
                )
                .await?;
            Ok(rows.iter().map(player_row).collect::<Result<_, _>>()?)
        })
    }

    /// Player `id`'s rating after each rated game, oldest first.
    pub fn rating_history(&self, id: &str) -> Result<Vec<RatingPoint>, StoreError> {
        let (pool, id) = (self.pool.clone(), id.to_string());
        self.run(async move {
            let rows = client(&pool)
                .await?
                .query(
                    "SELECT game_id, rating, deviation, at FROM rating_history WHERE player_id = $1 ORDER BY at, seq",
                    &[&id],
                )
                .await?;
            rows.iter()
                .map(|r| {
                    Ok(RatingPoint {
                        game: r.try_get(0)?,
                        rating: r.try_get::<_, f64>(1)?.round() as i64,
                        deviation: r.try_get::<_, f64>(2)?.round() as i64,
                        at: r.try_get(3)?,
                    })
                })
                .collect()
        })
    }

    /// Player `id`'s games, newest first, each with its opponent's card.
    pub fn games_of(&self, id: &str, limit: usize) -> Result<Vec<PlayedGame>, StoreError> {
        let (pool, id) = (self.pool.clone(), id.to_string());
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.run(async move {
            let c = client(&pool).await?;
            let rows = c
                .query(
                    "SELECT id, mode, rated, player_b, player_a, result, aborted, updated FROM games
                     WHERE player_b = $1 OR player_a = $1 ORDER BY updated DESC, id LIMIT $2",
                    &[&id, &limit],
                )
                .await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in &rows {
                let (pb, pa): (Option<String>, Option<String>) = (r.try_get(3)?, r.try_get(4)?);
                let side = if pb.as_deref() == Some(id.as_str()) { Side::B } else { Side::A };
                let result: Option<StoredResult> = r.try_get(5)?;
                let other = if side == Side::B { pa } else { pb };
                let opponent = match other {
                    Some(o) => player_in(&**c, &o, false).await?.map(|p| p.card()),
                    None => None,
                };
                out.push(PlayedGame {
                    id: r.try_get(0)?,
                    mode: r.try_get(1)?,
                    rated: r.try_get(2)?,
                    side,
                    opponent,
                    outcome: result.map(|r| ResultView::from(r.0)),
                    aborted: r.try_get(6)?,
                    updated: r.try_get(7)?,
                });
            }
            Ok(out)
        })
    }

    /// Stores (or replaces) the review of game `id`, made for the moves `moves`.
    pub fn save_review(&self, id: &str, moves: &str, body: &str) -> Result<(), StoreError> {
        let (pool, id, moves, body) =
            (self.pool.clone(), id.to_string(), moves.to_string(), body.to_string());
        self.run(async move {
            client(&pool)
                .await?
                .execute(
                    "INSERT INTO reviews (game_id, moves, body, created) VALUES ($1, $2, $3, $4)
                     ON CONFLICT (game_id) DO UPDATE SET moves = $2, body = $3, created = $4",
                    &[&id, &moves, &body, &now()],
                )
                .await?;
            Ok(())
        })
    }

    /// The stored review of game `id` when it was made for exactly `moves`.
    pub fn load_review(&self, id: &str, moves: &str) -> Result<Option<String>, StoreError> {
        let (pool, id, moves) = (self.pool.clone(), id.to_string(), moves.to_string());
        self.run(async move {
            let row = client(&pool)
                .await?
                .query_opt("SELECT moves, body FROM reviews WHERE game_id = $1", &[&id])
                .await?;
            Ok(match row {
                Some(r) => {
                    let (m, body): (String, String) = (r.try_get(0)?, r.try_get(1)?);
                    (m == moves).then_some(body)
                }
                None => None,
            })
        })
    }

    /// How many reviews are stored.
    pub fn review_count(&self) -> Result<usize, StoreError> {
        let pool = self.pool.clone();
        self.run(async move {
            let n: i64 =
                client(&pool).await?.query_one("SELECT COUNT(*) FROM reviews", &[]).await?.try_get(0)?;
            Ok(usize::try_from(n).unwrap_or(0))
        })
    }
}
