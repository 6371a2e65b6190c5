//! The referee: live games in memory, backed by the store. Every change is validated with the rules
//! crate (R3–R7), committed to the store, and only then applied in memory, answered and broadcast to
//! the game's WebSocket watchers. Making games (create, import, join) is in `making`; engine work
//! goes to the [`EnginePool`]; clocks, offers between players, the lobby and identities are in
//! `timers`, `offers`, `lobby` and `players`.

/// A write to a game, `game_write!(hub, append_moves_with(&id, …))` naming the [`Store`] method:
/// either store's group commit is awaited on this task, with no thread held between it and the
/// commit.
macro_rules! game_write {
    ($hub:expr, $name:ident($($arg:expr),* $(,)?)) => {
        match &*$hub.store {
            $crate::store::Store::Postgres(p) => p.$name($($arg),*).await,
            $crate::store::Store::Sqlite(s) => s.$name($($arg),*).await,
        }
        .map_err($crate::error::ApiError::from)
    };
}
pub(crate) use game_write;

mod making;

pub use making::MAX_IMPORT;
pub(crate) use making::{Seating, random_hex};

use crate::accounts::PlayerCard;
use crate::cache::GameCache;
use crate::clock::now_ms;
use crate::config::Bounds;
use crate::engine::{Advice, EnginePool};
use crate::error::ApiError;
use crate::kinds::{Forfeit, Mode, Side, StoredResult};
use crate::live::{Live, LiveGame, rebuild};
use crate::seat::{Caller, Seat, waiting_for_second};
use crate::store::{Extra, GameRow, Store, now};
use crate::view::GameView;
use std::sync::Arc;
use std::time::Duration;
use vlt_core::{Move, Player, Record};

/// The shared state of the server.
#[derive(Debug)]
pub struct Hub {
    pub(crate) store: Arc<Store>,
    pub(crate) games: GameCache,
    engines: EnginePool,
    /// The endgame tables, if any (the analysis board's line to the end).
    tablebase: Option<Arc<vlt_tablebase::Tablebase>>,
    /// Game reviews, computed in the background and stored.
    reviews: crate::review::Reviewer,
    epoch: Arc<str>,
    pub(crate) lobby: crate::lobby::Lobby,
    /// The games whose players' sockets here changed, to be written to a shared store.
    pub(crate) presence_out: crate::presence::Outbox,
    /// The bounds in force.
    pub bounds: Bounds,
}

/// How often the computer tries to move after a failure before it leaves the game until reloaded.
const COMPUTER_ATTEMPTS: u32 = 5;

impl Hub {
    /// A hub over `store` with `bounds`.
    #[must_use]
    pub fn new(store: Store, bounds: Bounds) -> Arc<Hub> {
        Hub::with_tablebase(store, bounds, None)
    }

    /// A hub whose engine values positions within `tablebase` exactly: the computer plays those
    /// endgames perfectly, and hints and analysis say when a value is exact.
    #[must_use]
    pub fn with_tablebase(
        store: Store,
        bounds: Bounds,
        tablebase: Option<Arc<vlt_tablebase::Tablebase>>,
    ) -> Arc<Hub> {
        let epoch = random_hex(4).unwrap_or_else(|_| format!("{:x}", now()));
        let store = Arc::new(store);
        Arc::new(Hub {
            engines: EnginePool::new(bounds.engine_threads, bounds.engine_ms, tablebase.clone()),
            reviews: crate::review::Reviewer::new(Arc::clone(&store), tablebase.clone(), bounds.review_ms),
            tablebase,
            epoch: Arc::from(epoch),
            lobby: crate::lobby::Lobby::new(&store),
            store,
            games: GameCache::default(),
            presence_out: crate::presence::Outbox::default(),
            bounds,
        })
    }

    /// The engine pool (the analysis board searches on it).
    pub(crate) fn engines(&self) -> &EnginePool {
        &self.engines
    }

    /// The endgame tables, if any.
    pub(crate) fn tablebase(&self) -> Option<&Arc<vlt_tablebase::Tablebase>> {
        self.tablebase.as_ref()
    }

    /// The game reviews.
    pub(crate) fn reviews(&self) -> &crate::review::Reviewer {
        &self.reviews
    }

    /// Runs a store operation on a blocking thread (SQLite waits for the disk).
    pub(crate) async fn db<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> Result<T, crate::store::StoreError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let store = Arc::clone(&self.store);
        tokio::task::spawn_blocking(move || f(&store))
            .await
            .map_err(|e| ApiError::Internal(format!("database task: {e}")))?
            .map_err(ApiError::from)
    }

    /// The cards of `row`'s players, B then A.
    pub(crate) async fn cards(&self, row: &GameRow) -> Result<[Option<PlayerCard>; 2], ApiError> {
        let ids = [row.player_b.clone(), row.player_a.clone()];
        self.db(move |s| {
            let card = |id: &Option<String>| match id {
                Some(id) => s.player(id).map(|p| p.map(|p| p.card())),
                None => Ok(None),
            };
            Ok([card(&ids[0])?, card(&ids[1])?])
        })
        .await
    }

    /// The live game `id`, loading it from the store when it is not in memory.
    ///
    /// # Errors
    /// [`ApiError::NoGame`] when there is no such game.
    pub async fn get(self: &Arc<Self>, id: &str) -> Result<Arc<Live>, ApiError> {
        if id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(ApiError::NoGame(id.chars().take(64).collect()));
        }
        if let Some(l) = self.games.get(id) {
            return Ok(l);
        }
        let key = id.to_string();
        let (row, moves) =
            self.db(move |s| s.load(&key)).await?.ok_or_else(|| ApiError::NoGame(id.into()))?;
        let game = rebuild(&row, &moves)?;
        let cards = self.cards(&row).await?;
        let live = Arc::new(Live::new(row, game, &self.epoch, cards, self.bounds.abort_ms));
        self.load_offers(&mut *live.state.lock().await).await?;
        let live = self.games.insert(id, live);
        // A computer game left with the computer to move (a restart while it thought) goes on,
        // and a running clock runs on.
        self.spawn_computer(&live);
        self.arm(&live, &mut *live.state.lock().await);
        Ok(live)
    }

    /// The view of game `id`.
    ///
    /// # Errors
    /// [`ApiError::NoGame`].
    pub async fn view(self: &Arc<Self>, id: &str) -> Result<GameView, ApiError> {
        let live = self.get(id).await?;
        let g = live.state.lock().await;
        Ok(g.view())
    }

    /// The seat that `caller` holds in game `id`, if any.
    ///
    /// # Errors
    /// [`ApiError::NoGame`].
    pub async fn seat_of(self: &Arc<Self>, id: &str, caller: &Caller) -> Result<Option<Seat>, ApiError> {
        let live = self.get(id).await?;
        let g = live.state.lock().await;
        Ok(g.seat(caller))
    }

    pub(crate) fn seat_checked(g: &LiveGame, caller: &Caller) -> Result<Seat, ApiError> {
        g.seat(caller).ok_or_else(|| ApiError::Forbidden("this token holds no seat in this game".into()))
    }

    /// [`Hub::play_answering`] on the game as this server has it in memory.
    pub(crate) async fn play_here<T>(
        self: &Arc<Self>,
        id: &str,
        caller: &Caller,
        mv: &str,
        answer: fn(&LiveGame) -> T,
    ) -> Result<T, ApiError> {
        let live = self.get(id).await?;
        let mut g = live.state.lock().await;
        let seat = Self::seat_checked(&g, caller)?;
        if g.row.aborted {
            return Err(ApiError::Conflict("the game is over: it was aborted".into()));
        }
        if let Some(r) = g.game.result() {
            return Err(ApiError::Conflict(format!("the game is over: {r}")));
        }
        if waiting_for_second(&g.row) {
            return Err(ApiError::Conflict(
                "the other seat is still free: wait for your friend to join".into(),
            ));
        }
        // A clock that ran out before its timer fired still ends the game first.
        if let Some(side) = g.row.clock.and_then(|c| c.flagged(now_ms())) {
            self.end_by_forfeit(&live, &mut g, Forfeit { side, time: true }).await?;
            return Err(ApiError::Conflict("the game is over: time ran out".into()));
        }
        let to_move = g.game.position().to_move();
        if g.computer() == Some(to_move) {
            return Err(ApiError::Conflict("it is the computer's turn".into()));
        }
        if let Seat::One(p) = seat {
            if p != to_move {
                return Err(ApiError::Conflict(format!("it is {to_move}'s turn, not yours")));
            }
        }
        if mv.len() > 8 {
            return Err(ApiError::BadRequest("a move is a hole name such as 3B (N1)".into()));
        }
        let m =
            Move::parse_with(mv, Some(to_move)).map_err(|e| ApiError::BadRequest(format!("move: {e}")))?;
        self.commit(&live, &mut g, m).await?;
        let answer = answer(&g);
        drop(g);
        self.spawn_computer(&live);
        Ok(answer)
    }

    /// The ratings a game's end changes: its players, when it is rated.
    pub(crate) fn rated_players(g: &LiveGame) -> Option<[String; 2]> {
        if g.row.rated { g.both_players() } else { None }
    }

    /// Validates `m` on a copy, commits it, then applies it in memory and tells the watchers.
    async fn commit(self: &Arc<Self>, live: &Arc<Live>, g: &mut LiveGame, m: Move) -> Result<(), ApiError> {
        let mut next = g.game.clone();
        next.play(m).map_err(|e| ApiError::Illegal(format!("{m}: {e}")))?;
        let ply = g.game.moves().len();
        let result = next.result();
        let mut clock = g.row.clock;
        if let Some(c) = clock.as_mut() {
            c.moved(m.player().into(), result.is_none().then(|| next.position().to_move().into()), now_ms());
        }
        let extra = Extra { clock, rated: result.and(Self::rated_players(g)) };
        let (id, text) = (g.row.id.clone(), m.to_string());
        game_write!(self, append_moves_with(&id, ply, &[text], result, &extra))?;
        g.game = next;
        g.row.finished = result.is_some();
        g.row.result = result.map(StoredResult);
        g.row.clock = clock;
        g.takeback = None;
        if result.is_some() && g.row.rated {
            g.players = self.cards(&g.row).await?;
        }
        g.version += 1;
        self.arm(live, g);
        live.broadcast(g);
        Ok(())
    }

    /// Ends the game by `forfeit` (a resignation, or a clock run out): stored with the ratings it
    /// changes, then told to every watcher.
    pub(crate) async fn end_by_forfeit(
        self: &Arc<Self>,
        live: &Arc<Live>,
        g: &mut LiveGame,
        forfeit: Forfeit,
    ) -> Result<(), ApiError> {
        let mut next = g.game.clone();
        let p = Player::from(forfeit.side);
        let r = if forfeit.time { next.lose_on_time(p) } else { next.resign(p) }
            .map_err(|e| ApiError::Conflict(e.to_string()))?;
        let mut clock = g.row.clock;
        if let Some(c) = clock.as_mut() {
            c.stop(now_ms());
            if forfeit.time {
                match forfeit.side {
                    Side::B => c.b_ms = 0,
                    Side::A => c.a_ms = 0,
                }
            }
        }
        let extra = Extra { clock, rated: Self::rated_players(g) };
        let key = g.row.id.clone();
        game_write!(self, forfeit(&key, forfeit, r, &extra))?;
        g.game = next;
        g.row.resigned = Some(forfeit);
        g.row.finished = true;
        g.row.result = Some(StoredResult(r));
        g.row.clock = clock;
        g.takeback = None;
        if g.row.rated {
            g.players = self.cards(&g.row).await?;
        }
        g.version += 1;
        self.arm(live, g);
        live.broadcast(g);
        Ok(())
    }

    /// If the computer is to move in this game, lets it move (in the background), as often as R5
    /// passes require.
    fn spawn_computer(self: &Arc<Self>, live: &Arc<Live>) {
        let (hub, live) = (Arc::clone(self), Arc::clone(live));
        tokio::spawn(async move {
            let mut failures = 0;
            while failures < COMPUTER_ATTEMPTS {
                let mut g = live.state.lock().await;
                if !g.computer_to_move() {
                    return;
                }
                let level = g.row.level.unwrap_or(3);
                let seed = g.row.id.bytes().fold(g.game.moves().len() as u64, |h, b| {
                    h.wrapping_mul(0x100_0000_01b3).wrapping_add(u64::from(b))
                });
                let done = match hub.engines.computer_move(g.game.clone(), level, seed).await {
                    Ok(m) => hub.commit(&live, &mut g, m).await.is_ok(),
                    Err(_) => false,
                };
                if !done {
                    // The engine or the store failed: try again shortly rather than stall.
                    failures += 1;
                    drop(g);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        });
    }

    fn advice_allowed(g: &LiveGame) -> Result<(), ApiError> {
        if g.row.mode == Mode::Online && !g.over() {
            return Err(ApiError::Forbidden("no hints or analysis during an online game".into()));
        }
        Ok(())
    }

    /// The engine's advice for the position of game `id` (hint, evaluation bar, analysis).
    ///
    /// # Errors
    /// [`ApiError::Forbidden`] during an online game, [`ApiError::Conflict`] when it is over.
    pub async fn advise(self: &Arc<Self>, id: &str, movetime_ms: u64) -> Result<Advice, ApiError> {
        let live = self.get(id).await?;
        let game = {
            let g = live.state.lock().await;
            Self::advice_allowed(&g)?;
            g.game.clone()
        };
        self.engines.advise(game, movetime_ms).await
    }

    /// Resigns for the seat `caller` holds (in a two-on-one-screen game, the player to move).
    ///
    /// # Errors
    /// [`ApiError::Forbidden`], [`ApiError::Conflict`] when the game is over.
    pub async fn resign(self: &Arc<Self>, id: &str, caller: &Caller) -> Result<GameView, ApiError> {
        let live = self.get(id).await?;
        let mut g = live.state.lock().await;
        let seat = Self::seat_checked(&g, caller)?;
        if g.row.aborted {
            return Err(ApiError::Conflict("the game is over: it was aborted".into()));
        }
        let p = match seat {
            Seat::One(p) => p,
            Seat::Both => g.game.position().to_move(),
        };
        self.end_by_forfeit(&live, &mut g, Forfeit { side: p.into(), time: false }).await?;
        Ok(g.view())
    }

    /// Takes back moves: against the computer, back to before your last move; on one screen, one
    /// move. Not in online games (there the opponent must agree: `takeback`), nor after a
    /// resignation.
    ///
    /// # Errors
    /// [`ApiError::Forbidden`], [`ApiError::Conflict`] when there is nothing to undo.
    pub async fn undo(self: &Arc<Self>, id: &str, caller: &Caller) -> Result<GameView, ApiError> {
        let live = self.get(id).await?;
        let mut g = live.state.lock().await;
        Self::seat_checked(&g, caller)?;
        if g.row.mode == Mode::Online {
            return Err(ApiError::Forbidden("moves cannot be taken back in an online game".into()));
        }
        if g.row.resigned.is_some() {
            return Err(ApiError::Conflict("the game was resigned".into()));
        }
        let human = g.computer().map(Player::other);
        self.take_back(&live, &mut g, human).await?;
        Ok(g.view())
    }

    /// Takes back moves up to and including the last one `by` made (any last move when `None`),
    /// committed first; the clock, if any, then runs for the side to move.
    pub(crate) async fn take_back(
        self: &Arc<Self>,
        live: &Arc<Live>,
        g: &mut LiveGame,
        by: Option<Player>,
    ) -> Result<(), ApiError> {
        let mut next = g.game.clone();
        loop {
            let Some(m) = next.undo() else {
                return Err(ApiError::Conflict("there is no move of yours to take back".into()));
            };
            if by.is_none_or(|h| m.player() == h) {
                break;
            }
        }
        let mut clock = g.row.clock;
        if let Some(c) = clock.as_mut() {
            c.switch(next.position().to_move().into(), now_ms());
        }
        let (key, len) = (g.row.id.clone(), next.moves().len());
        game_write!(self, truncate_moves(&key, len, clock))?;
        g.game = next;
        g.row.finished = false;
        g.row.result = None;
        g.row.clock = clock;
        g.takeback = None;
        g.version += 1;
        self.arm(live, g);
        live.broadcast(g);
        Ok(())
    }

    /// The game's record (tags, moves and result), as `vlt replay` reads it.
    ///
    /// # Errors
    /// [`ApiError::NoGame`].
    pub async fn record(self: &Arc<Self>, id: &str) -> Result<String, ApiError> {
        let live = self.get(id).await?;
        let g = live.state.lock().await;
        let mut rec = Record::new(g.game.clone());
        let tags: Vec<(String, String)> = serde_json::from_str(&g.row.tags).unwrap_or_default();
        for (k, v) in &tags {
            rec.set_tag(k, v);
        }
        if rec.tag("Site").is_none() {
            rec.set_tag("Site", "vlt serve");
        }
        rec.set_tag("Game", &g.row.id);
        rec.set_tag("Mode", g.row.mode.as_str());
        if let (Some(c), Some(l)) = (g.computer(), g.row.level) {
            rec.set_tag(if c == Player::B { "B" } else { "A" }, &format!("computer level {l}"));
        }
        for (side, card) in [("B", &g.players[0]), ("A", &g.players[1])] {
            if let Some(c) = card {
                rec.set_tag(side, &c.name);
            }
        }
        Ok(rec.to_string())
    }

    /// Finished games, newest first.
    ///
    /// # Errors
    /// [`ApiError::Internal`] if the store fails.
    pub async fn finished(
        &self,
        limit: usize,
        offset: usize,
    ) -> Result<Vec<crate::store::Summary>, ApiError> {
        self.db(move |s| s.finished(limit.min(200), offset)).await
    }
}
