//! Games and their moves in PostgreSQL: the same operations as SQLite's, each write committed
//! together with the others waiting (`pg_batch`), after which the other servers are notified of
//! the games it changed. A write answers a future, which the hub awaits on its own tasks; the
//! blocking form of each is [`Store`](super::Store)'s.

use super::pg_batch::{Job, Order};
use super::pg_players::rate;
use super::postgres::{PgStore, client};
use super::{Extra, GameRow, StoreError, Summary, now};
use crate::clock::Clock;
use crate::kinds::{Forfeit, Side, StoredResult};
use crate::view::ResultView;
use deadpool_postgres::Transaction;
use futures_util::future::BoxFuture;
use std::future::Future;
use std::sync::Arc;
use tokio_postgres::Row;
use tokio_postgres::types::ToSql;
use vlt_core::GameResult;

/// Any constant: the advisory lock under which games are counted against the bound and inserted,
/// so servers racing to create games cannot overshoot it together.
const CREATE_LOCK: i64 = 0x766c_7402;

const GAME_COLUMNS: &str = "id, mode, start, level, computer, token_b, token_a, resigned, finished, result,
     created, updated, tags, player_b, player_a, rated, clock, aborted";

fn game_row(r: &Row) -> Result<GameRow, tokio_postgres::Error> {
    let level: Option<i16> = r.try_get(3)?;
    Ok(GameRow {
        id: r.try_get(0)?,
        mode: r.try_get(1)?,
        start: r.try_get(2)?,
        level: level.and_then(|l| u8::try_from(l).ok()),
        computer: r.try_get(4)?,
        token_b: r.try_get(5)?,
        token_a: r.try_get(6)?,
        resigned: r.try_get(7)?,
        finished: r.try_get(8)?,
        result: r.try_get(9)?,
        created: r.try_get(10)?,
        updated: r.try_get(11)?,
        tags: r.try_get(12)?,
        player_b: r.try_get(13)?,
        player_a: r.try_get(14)?,
        rated: r.try_get(15)?,
        clock: r.try_get(16)?,
        aborted: r.try_get(17)?,
    })
}

fn ply(i: usize) -> i64 {
    i64::try_from(i).unwrap_or(i64::MAX)
}

/// A write's future, borrowing the batch's transaction.
type Written<'a> = BoxFuture<'a, Result<u64, StoreError>>;

/// Moves appended to a game at plies `first..`, with what its row says after them.
pub(crate) struct Append {
    pub(crate) id: String,
    first: i64,
    moves: Vec<String>,
    result: Option<StoredResult>,
    updated: i64,
    clock: Option<Clock>,
}

/// The moves of every append (arrays `$1..$3`, one element a move) and the games' rows (arrays
/// `$4..$7`, one element a game) in one statement.
const APPEND: &str = "WITH new_moves AS (
         INSERT INTO moves (game_id, ply, mv) SELECT * FROM unnest($1::TEXT[], $2::BIGINT[], $3::TEXT[])
     )
     UPDATE games g SET finished = u.result IS NOT NULL, result = u.result, updated = u.updated, clock = u.clock
     FROM unnest($4::TEXT[], $5::TEXT[], $6::BIGINT[], $7::TEXT[]) AS u(id, result, updated, clock)
     WHERE g.id = u.id";

/// Writes `appends`, of distinct games, with one statement (a ply already stored fails it all).
pub(crate) async fn append_all(tx: &Transaction<'_>, appends: &[&Append]) -> Result<(), StoreError> {
    let n = appends.iter().map(|a| a.moves.len()).sum();
    let (mut games, mut plies, mut moves) =
        (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
    for a in appends {
        for (i, m) in a.moves.iter().enumerate() {
            games.push(a.id.as_str());
            plies.push(a.first.saturating_add(ply(i)));
            moves.push(m.as_str());
        }
    }
    let ids: Vec<&str> = appends.iter().map(|a| a.id.as_str()).collect();
    let results: Vec<Option<StoredResult>> = appends.iter().map(|a| a.result).collect();
    let updated: Vec<i64> = appends.iter().map(|a| a.updated).collect();
    let clocks: Vec<Option<Clock>> = appends.iter().map(|a| a.clock).collect();
    let st = tx.prepare_cached(APPEND).await?;
    tx.execute(&st, &[&games, &plies, &moves, &ids, &results, &updated, &clocks]).await?;
    Ok(())
}

const INSERT_GAME: &str = "INSERT INTO games (id, mode, start, level, computer, token_b, token_a, resigned,
     finished, result, created, updated, tags, player_b, player_a, rated, clock, aborted) VALUES
     ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)";

/// Games to insert only while the open games stay within a bound: `max_open` unfinished games
/// updated since `since` (ms), the new ones included.
pub(crate) struct Create {
    pub(crate) games: Vec<(GameRow, Vec<String>)>,
    pub(crate) max_open: usize,
    pub(crate) since: i64,
}

/// Inserts each of a batch's `creates` that its bound admits, counting the open games once under
/// the bound's lock (held to the commit: the games of this transaction are counted by the next
/// one) and adding each admitted create's games to the count for the next; 1 for each inserted,
/// 0 for each refused. The count is taken at the earliest `since` of the batch, which counts at
/// least as many games as each create's own would: a bound is never overshot. The admitted games
/// are then sent together, so the lock is held for one round trip of inserts, not one per game.
pub(crate) async fn insert_counted(
    tx: &Transaction<'_>,
    creates: &[&Create],
) -> Result<Vec<u64>, StoreError> {
    let Some(since) = creates.iter().map(|c| c.since).min() else { return Ok(Vec::new()) };
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&CREATE_LOCK]).await?;
    let st = tx.prepare_cached("SELECT COUNT(*) FROM games WHERE NOT finished AND updated >= $1").await?;
    let counted: i64 = tx.query_one(&st, &[&since]).await?.try_get(0)?;
    let mut open = usize::try_from(counted).unwrap_or(usize::MAX);
    let mut out = Vec::with_capacity(creates.len());
    let mut admitted = Vec::new();
    for c in creates {
        let new = c.games.iter().filter(|(g, _)| !g.finished).count();
        if open.saturating_add(new) > c.max_open {
            out.push(0);
            continue;
        }
        admitted.extend(&c.games);
        open += new;
        out.push(1);
    }
    insert(tx, admitted).await?;
    Ok(out)
}

/// Inserts `games` with their moves: each game's statements in order, the games' sent together
/// (tokio-postgres pipelines the statements of futures polled at once).
async fn insert<'a>(
    tx: &Transaction<'_>,
    games: impl IntoIterator<Item = &'a (GameRow, Vec<String>)>,
) -> Result<(), StoreError> {
    let insert_game = tx.prepare_cached(INSERT_GAME).await?;
    let insert_move = tx.prepare_cached("INSERT INTO moves (game_id, ply, mv) VALUES ($1, $2, $3)").await?;
    let one = |(g, moves): &'a (GameRow, Vec<String>)| {
        let (insert_game, insert_move) = (&insert_game, &insert_move);
        async move {
            let level = g.level.map(i16::from);
            let values: [&(dyn ToSql + Sync); 18] = [
                &g.id,
                &g.mode,
                &g.start,
                &level,
                &g.computer,
                &g.token_b,
                &g.token_a,
                &g.resigned,
                &g.finished,
                &g.result,
                &g.created,
                &g.updated,
                &g.tags,
                &g.player_b,
                &g.player_a,
                &g.rated,
                &g.clock,
                &g.aborted,
            ];
            tx.execute(insert_game, &values).await?;
            for (i, m) in moves.iter().enumerate() {
                tx.execute(insert_move, &[&g.id, &ply(i), m]).await?;
            }
            Ok::<_, StoreError>(())
        }
    };
    for r in futures_util::future::join_all(games.into_iter().map(one)).await {
        r?;
    }
    Ok(())
}

impl PgStore {
    /// Commits `op` with the other writes waiting (see `pg_batch`), then notifies the change of
    /// game `id`, if any; answers what `op` answered.
    fn write(
        &self,
        id: Option<&str>,
        order: Order,
        op: impl for<'a> Fn(&'a Transaction<'a>) -> Written<'a> + Send + Sync + 'static,
    ) -> impl Future<Output = Result<u64, StoreError>> + Send + 'static {
        self.queue(id, Job::Op(order, Box::new(op)))
    }

    /// Commits `job` with the other writes waiting, then notifies the change of game `id`.
    fn queue(
        &self,
        id: Option<&str>,
        job: Job,
    ) -> impl Future<Output = Result<u64, StoreError>> + Send + 'static {
        let (batch, game) = (Arc::clone(&self.batch), id.map(str::to_string));
        async move { batch.write(game, job).await }
    }

    /// The schema version of the database.
    pub fn schema_version(&self) -> Result<usize, StoreError> {
        let pool = self.pool.clone();
        self.run(async move { super::pg_migrations::version(&**client(&pool).await?).await })
    }

    /// Inserts a new game with its moves.
    pub fn insert_game(
        &self,
        g: &GameRow,
        moves: &[String],
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        let w = self.insert_games(vec![(g.clone(), moves.to_vec())], None);
        async move { w.await.map(|_| ()) }
    }

    /// Inserts games with their moves, all or none, within `bound` (see `Store::insert_games`).
    /// New games: no other server holds them, so none is notified.
    pub fn insert_games(
        &self,
        games: Vec<(GameRow, Vec<String>)>,
        bound: Option<(usize, i64)>,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send + 'static {
        let job = match bound {
            Some((max_open, since)) => Job::Create(Create { games, max_open, since }),
            None => {
                let games = Arc::new(games);
                Job::Op(
                    Order::Together,
                    Box::new(move |tx| {
                        let games = Arc::clone(&games);
                        Box::pin(async move { insert(tx, games.iter()).await.map(|()| 1) })
                    }),
                )
            }
        };
        let w = self.queue(None, job);
        async move { Ok(w.await? == 1) }
    }

    /// Appends moves, with the clock and, when the game ends rated, the new ratings.
    pub fn append_moves_with(
        &self,
        id: &str,
        first: usize,
        moves: &[String],
        result: Option<GameResult>,
        extra: &Extra,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        let append = Append {
            id: id.to_string(),
            first: ply(first),
            moves: moves.to_vec(),
            result: result.map(StoredResult),
            updated: now(),
            clock: extra.clock,
        };
        let job = match (result, extra.rated.clone()) {
            // The ratings read the players' rows before updating them: after the other writes.
            (Some(r), Some(players)) => {
                let (append, players) = (Arc::new(append), Arc::new(players));
                Job::Op(
                    Order::Serial,
                    Box::new(move |tx| {
                        let (append, players) = (Arc::clone(&append), Arc::clone(&players));
                        Box::pin(async move {
                            append_all(tx, &[&append]).await?;
                            rate(tx, &append.id, &players, r).await?;
                            Ok(0)
                        })
                    }),
                )
            }
            _ => Job::Append(append),
        };
        let w = self.queue(Some(id), job);
        async move { w.await.map(|_| ()) }
    }

    /// Keeps only the first `len` moves (undo), and marks the game unfinished.
    pub fn truncate_moves(
        &self,
        id: &str,
        len: usize,
        clock: Option<Clock>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        let (key, updated) = (Arc::<str>::from(id), now());
        let w = self.write(Some(id), Order::Together, move |tx| {
            let key = Arc::clone(&key);
            Box::pin(async move {
                let k: &str = &key;
                tx.execute("DELETE FROM moves WHERE game_id = $1 AND ply >= $2", &[&k, &ply(len)]).await?;
                tx.execute(
                    "UPDATE games SET finished = FALSE, result = NULL, updated = $2, clock = $3 WHERE id = $1",
                    &[&k, &updated, &clock],
                )
                .await?;
                Ok(0)
            })
        });
        async move { w.await.map(|_| ()) }
    }

    /// Gives a free seat to `token_hash`; false when it was already taken.
    pub fn take_seat(
        &self,
        id: &str,
        seat: Side,
        token_hash: &str,
        player: Option<&str>,
        clock: Option<Clock>,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send + 'static {
        let sql = if seat == Side::B {
            "UPDATE games SET token_b = $2, player_b = $4, clock = $5, updated = $3
             WHERE id = $1 AND token_b IS NULL AND player_b IS NULL"
        } else {
            "UPDATE games SET token_a = $2, player_a = $4, clock = $5, updated = $3
             WHERE id = $1 AND token_a IS NULL AND player_a IS NULL"
        };
        let (key, token, player) = (id.to_string(), token_hash.to_string(), player.map(str::to_string));
        let updated = now();
        let w = self.write(Some(id), Order::Together, move |tx| {
            let (key, token, player) = (key.clone(), token.clone(), player.clone());
            Box::pin(async move {
                let st = tx.prepare_cached(sql).await?;
                Ok(tx.execute(&st, &[&key, &token, &updated, &player, &clock]).await?)
            })
        });
        async move { Ok(w.await? == 1) }
    }

    /// Records a resignation or a loss on time, and the result (once: a game already over stays
    /// as it ended, so two servers flagging the same clock rate it once).
    pub fn forfeit(
        &self,
        id: &str,
        forfeit: Forfeit,
        result: GameResult,
        extra: &Extra,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        let (key, extra, updated) = (Arc::<str>::from(id), Arc::new(extra.clone()), now());
        let order = if extra.rated.is_some() { Order::Serial } else { Order::Together };
        let w = self.write(Some(id), order, move |tx| {
            let (key, extra) = (Arc::clone(&key), Arc::clone(&extra));
            Box::pin(async move {
                let k: &str = &key;
                let st = tx
                    .prepare_cached(
                        "UPDATE games SET resigned = $2, finished = TRUE, result = $3, updated = $4, clock = $5
                         WHERE id = $1 AND NOT finished",
                    )
                    .await?;
                let n = tx.execute(&st, &[&k, &forfeit, &StoredResult(result), &updated, &extra.clock]).await?;
                if let (1, Some(players)) = (n, &extra.rated) {
                    rate(tx, k, players, result).await?;
                }
                Ok(n)
            })
        });
        async move { w.await.map(|_| ()) }
    }

    /// Ends a game without a result: nobody made the first move in time.
    pub fn abort(
        &self,
        id: &str,
        clock: Option<Clock>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send + 'static {
        let (key, updated) = (Arc::<str>::from(id), now());
        let w = self.write(Some(id), Order::Together, move |tx| {
            let key = Arc::clone(&key);
            Box::pin(async move {
                let k: &str = &key;
                Ok(tx
                    .execute(
                        "UPDATE games SET aborted = TRUE, finished = TRUE, updated = $2, clock = $3
                         WHERE id = $1 AND NOT finished",
                        &[&k, &updated, &clock],
                    )
                    .await?)
            })
        });
        async move { w.await.map(|_| ()) }
    }

    /// Unfinished games with a clock.
    pub fn clocked_unfinished(&self) -> Result<Vec<String>, StoreError> {
        let pool = self.pool.clone();
        self.run(async move {
            let c = client(&pool).await?;
            let rows = c.query("SELECT id FROM games WHERE NOT finished AND clock IS NOT NULL", &[]).await?;
            rows.iter().map(|r| r.try_get(0).map_err(StoreError::from)).collect()
        })
    }

    /// A game's row and its moves in order.
    pub fn load(&self, id: &str) -> Result<Option<(GameRow, Vec<String>)>, StoreError> {
        let (pool, id) = (self.pool.clone(), id.to_string());
        self.run(async move {
            let c = client(&pool).await?;
            let st = c.prepare_cached(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1")).await?;
            let Some(row) = c.query_opt(&st, &[&id]).await? else { return Ok(None) };
            let st = c.prepare_cached("SELECT mv FROM moves WHERE game_id = $1 ORDER BY ply").await?;
            let moves = c
                .query(&st, &[&id])
                .await?
                .iter()
                .map(|r| r.try_get(0))
                .collect::<Result<Vec<String>, _>>()?;
            Ok(Some((game_row(&row)?, moves)))
        })
    }

    /// Finished games, newest first.
    pub fn finished(&self, limit: usize, offset: usize) -> Result<Vec<Summary>, StoreError> {
        let pool = self.pool.clone();
        self.run(async move {
            let c = client(&pool).await?;
            let rows = c
                .query(
                    "SELECT g.id, g.mode, g.result, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id), g.updated
                     FROM games g WHERE g.finished ORDER BY g.updated DESC, g.id LIMIT $1 OFFSET $2",
                    &[&ply(limit), &ply(offset)],
                )
                .await?;
            rows.iter()
                .map(|r| {
                    let result: Option<StoredResult> = r.try_get(2)?;
                    Ok(Summary {
                        id: r.try_get(0)?,
                        mode: r.try_get(1)?,
                        outcome: result.map(|r| ResultView::from(r.0)),
                        moves: r.try_get(3)?,
                        updated: r.try_get(4)?,
                    })
                })
                .collect()
        })
    }

    /// How many games are not finished.
    pub fn open_games(&self) -> Result<usize, StoreError> {
        self.open_games_since(i64::MIN)
    }

    /// How many unfinished games changed at or after `since`.
    pub fn open_games_since(&self, since: i64) -> Result<usize, StoreError> {
        let pool = self.pool.clone();
        self.run(async move {
            let c = client(&pool).await?;
            let n: i64 = c
                .query_one("SELECT COUNT(*) FROM games WHERE NOT finished AND updated >= $1", &[&since])
                .await?
                .try_get(0)?;
            Ok(usize::try_from(n).unwrap_or(0))
        })
    }
}
