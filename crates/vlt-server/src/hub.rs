//! The referee: live games in memory, backed by the store. Every change is validated with the rules
//! crate (R3–R7), committed to SQLite, and only then applied in memory, answered and broadcast to
//! the game's WebSocket watchers. Engine work runs on the engines' own threads (one
//! [`EngineThread`] for each slot) under a semaphore and a time bound, never on the async
//! runtime's threads.

use crate::error::ApiError;
use crate::store::{GameRow, Store, now};
use crate::view::{GameView, SeatState, game_view};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{Semaphore, broadcast};
use vlt_core::{Game, Move, Player, Position, Record, Termination};
use vlt_engine::{Engine, EngineConfig, EngineThread, Finished, Level, Limits, Task};

/// The server's bounds.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// The largest WebSocket message, in bytes.
    pub max_message: usize,
    /// The most unfinished games at once; creating more is refused with 503. Games left
    /// untouched for [`ABANDONED_AFTER`] no longer count (they stay playable).
    pub max_open_games: usize,
    /// The engine's thinking time for one move, hint or analysis, in milliseconds.
    pub engine_ms: u64,
    /// How many engine searches run at once (each on its own blocking thread).
    pub engine_threads: usize,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            max_body: 64 * 1024,
            max_message: 4096,
            max_open_games: 10_000,
            engine_ms: 1500,
            engine_threads: 2,
        }
    }
}

/// Who a token speaks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// One player's seat.
    One(Player),
    /// Both seats: two people on one screen, or an imported game.
    Both,
}

impl Seat {
    /// The name sent to clients: `B`, `A` or `both`.
    #[must_use]
    pub fn name(self) -> String {
        match self {
            Seat::One(p) => p.to_string(),
            Seat::Both => "both".into(),
        }
    }
}

/// A game in memory: its row and the rules' view of it.
#[derive(Debug)]
pub struct LiveGame {
    row: GameRow,
    game: Game,
    version: u64,
    epoch: Arc<str>,
}

/// A live game and the channel its watchers listen on.
#[derive(Debug)]
pub struct Live {
    state: tokio::sync::Mutex<LiveGame>,
    tx: broadcast::Sender<Arc<str>>,
    /// Open sockets of each seat holder, B then A: whether the opponent is there.
    present: std::sync::Mutex<[usize; 2]>,
}

impl Live {
    /// A game now in memory, as `row` and `game` say, at version 0 of this run.
    fn new(row: GameRow, game: Game, epoch: &Arc<str>) -> Live {
        Live {
            state: tokio::sync::Mutex::new(LiveGame { row, game, version: 0, epoch: Arc::clone(epoch) }),
            tx: broadcast::channel(64).0,
            present: std::sync::Mutex::new([0; 2]),
        }
    }

    /// Notes a seat holder's socket opening (`open`) or closing, and tells every watcher.
    pub fn set_present(&self, seat: Player, open: bool) {
        {
            let mut n = self.present.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let i = usize::from(seat == Player::A);
            n[i] = if open { n[i] + 1 } else { n[i].saturating_sub(1) };
        }
        // No receivers is fine: nobody is watching.
        let _ = self.tx.send(Arc::from(self.presence_message()));
    }

    /// Who is connected now, as the socket message `{"type":"presence","seats":{"B":…,"A":…}}`.
    #[must_use]
    pub fn presence_message(&self) -> String {
        let n = *self.present.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        serde_json::json!({ "type": "presence", "seats": { "B": n[0] > 0, "A": n[1] > 0 } }).to_string()
    }

    /// A receiver of this game's updates (JSON text messages).
    #[must_use]
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.tx.subscribe()
    }
}

/// The shared state of the server.
#[derive(Debug)]
pub struct Hub {
    store: Arc<Store>,
    games: Mutex<HashMap<String, Arc<Live>>>,
    engine_slots: Arc<Semaphore>,
    /// One engine for each slot, each on its own thread.
    engines: Vec<EngineThread>,
    /// Held while a task picks its engine.
    engine_pick: Mutex<()>,
    epoch: Arc<str>,
    /// The bounds in force.
    pub bounds: Bounds,
}

/// An unfinished game untouched for this long counts as abandoned for the open-games bound.
pub const ABANDONED_AFTER: Duration = Duration::from_secs(30 * 24 * 3600);
/// Live games kept in memory before idle ones are dropped (they reload from the store on demand).
const CACHE_SOFT_LIMIT: usize = 4096;
/// Extra time allowed past the engine's own time limit before its answer is given up on.
const ENGINE_GRACE: Duration = Duration::from_secs(5);
/// The longest a request waits for an engine slot before it is refused with 503.
const ENGINE_QUEUE_WAIT: Duration = Duration::from_secs(10);
/// How often the computer tries to move after a failure before it leaves the game until reloaded.
const COMPUTER_ATTEMPTS: u32 = 5;
/// Transposition table for each server-side search: small, since searches are short and many.
const ENGINE_HASH_MB: usize = 8;

/// What creating a game asks for.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// `computer` (the default), `local` or `online`.
    pub mode: Option<String>,
    /// The computer's level, 1–10 (default 3).
    pub level: Option<u8>,
    /// The creator's seat, `B` or `A` (default B). In `local` games the token holds both.
    pub side: Option<String>,
    /// Who moves first, `B` or `A` (R2: B by default). Ignored when `position` is given.
    pub first: Option<String>,
    /// A custom start position (N2), e.g. a study with few stones.
    pub position: Option<String>,
}

/// A seat handed out: the token to keep secret and the game.
#[derive(Clone, Debug, Serialize)]
pub struct Seated {
    /// The seat: `B`, `A` or `both`.
    pub seat: String,
    /// The secret that holds the seat.
    pub token: String,
    /// The game.
    pub game: GameView,
}

/// The engine's advice.
#[derive(Clone, Debug, Serialize)]
pub struct Advice {
    /// The best move found.
    pub best: String,
    /// Its value for the player to move, in stones of future capture difference.
    pub score: i32,
    /// The player the score is for.
    pub for_player: String,
    /// Depth reached.
    pub depth: u32,
    /// True when `score` and every move's score are proven (the search reached the end of the game,
    /// an R7 repetition or the endgame tables on every line).
    pub exact: bool,
    /// The principal variation.
    pub pv: Vec<String>,
    /// Every legal move with its value, best first.
    pub moves: Vec<MoveScore>,
}

/// One move's value.
#[derive(Clone, Debug, Serialize)]
pub struct MoveScore {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value for the player to move, in stones.
    pub score: i32,
}

fn random_hex(bytes: usize) -> Result<String, ApiError> {
    let mut buf = vec![0u8; bytes];
    getrandom::getrandom(&mut buf).map_err(|e| ApiError::Internal(format!("random: {e}")))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

fn game_over() -> ApiError {
    ApiError::Conflict("the game is over: there is nothing to search".into())
}

fn parse_player(s: &str, what: &str) -> Result<Player, ApiError> {
    s.parse().map_err(|_| ApiError::BadRequest(format!("{what} must be \"B\" or \"A\", not {s:?}")))
}

fn seats(row: &GameRow) -> [SeatState; 2] {
    let one = |letter: &str, token: &Option<String>| {
        if row.computer.as_deref() == Some(letter) {
            SeatState::Computer
        } else if token.is_some() {
            SeatState::Taken
        } else {
            SeatState::Free
        }
    };
    [one("B", &row.token_b), one("A", &row.token_a)]
}

impl LiveGame {
    fn view(&self) -> GameView {
        game_view(
            &self.row.id,
            &self.row.mode,
            self.row.level,
            seats(&self.row),
            &self.game,
            (self.version, &self.epoch),
        )
    }

    /// The seat `token` holds, comparing without an early exit so timing does not leak it.
    fn seat(&self, token: &str) -> Option<Seat> {
        let eq = |t: &Option<String>| {
            t.as_deref().is_some_and(|t| {
                t.len() == token.len()
                    && t.bytes().zip(token.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
            })
        };
        match (eq(&self.row.token_b), eq(&self.row.token_a)) {
            (true, true) => Some(Seat::Both),
            (true, false) => Some(Seat::One(Player::B)),
            (false, true) => Some(Seat::One(Player::A)),
            (false, false) => None,
        }
    }

    fn computer(&self) -> Option<Player> {
        self.row.computer.as_deref().and_then(|c| c.parse().ok())
    }

    fn computer_to_move(&self) -> bool {
        !self.game.is_over() && self.computer() == Some(self.game.position().to_move())
    }
}

/// Rebuilds a game from its stored start, moves and resignation (restart resumes every game).
fn rebuild(row: &GameRow, moves: &[String]) -> Result<Game, ApiError> {
    let start: Position =
        row.start.parse().map_err(|e| ApiError::Internal(format!("stored start of {}: {e}", row.id)))?;
    let mut game = Game::new(start);
    for m in moves {
        let mv: Move =
            m.parse().map_err(|e| ApiError::Internal(format!("stored move of {}: {e}", row.id)))?;
        game.play(mv).map_err(|e| ApiError::Internal(format!("stored move {m} of {}: {e}", row.id)))?;
    }
    // `resigned` is the seat that gave up: `B` or `A`, or `B:time` / `A:time` for a time forfeit
    // kept from an imported record.
    if let Some(r) = row.resigned.as_deref() {
        let (seat, time) = r.split_once(':').map_or((r, false), |(s, why)| (s, why == "time"));
        if let Ok(p) = seat.parse::<Player>() {
            let _ = if time { game.lose_on_time(p) } else { game.resign(p) };
        }
    }
    Ok(game)
}

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
        let slots = bounds.engine_threads.max(1);
        let engines = (0..slots)
            .map(|_| {
                let mut e = Engine::new(EngineConfig { hash_mb: ENGINE_HASH_MB, ..EngineConfig::default() });
                e.set_tablebase(tablebase.clone());
                EngineThread::new(e)
            })
            .collect();
        Arc::new(Hub {
            engines,
            engine_pick: Mutex::new(()),
            epoch: Arc::from(epoch),
            store: Arc::new(store),
            games: Mutex::new(HashMap::new()),
            engine_slots: Arc::new(Semaphore::new(slots)),
            bounds,
        })
    }

    /// Runs a store operation on a blocking thread (SQLite waits for the disk).
    async fn db<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> Result<T, crate::store::StoreError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let store = Arc::clone(&self.store);
        tokio::task::spawn_blocking(move || f(&store))
            .await
            .map_err(|e| ApiError::Internal(format!("database task: {e}")))?
            .map_err(ApiError::from)
    }

    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Live>>> {
        self.games.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The live game `id`, loading it from the store when it is not in memory.
    ///
    /// # Errors
    /// [`ApiError::NotFound`] when there is no such game.
    pub async fn get(self: &Arc<Self>, id: &str) -> Result<Arc<Live>, ApiError> {
        if id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(ApiError::NotFound(id.chars().take(64).collect()));
        }
        if let Some(l) = self.games().get(id) {
            return Ok(Arc::clone(l));
        }
        let key = id.to_string();
        let (row, moves) =
            self.db(move |s| s.load(&key)).await?.ok_or_else(|| ApiError::NotFound(id.into()))?;
        let game = rebuild(&row, &moves)?;
        let live = Arc::new(Live::new(row, game, &self.epoch));
        let live = {
            let mut games = self.games();
            if games.len() >= CACHE_SOFT_LIMIT {
                // Drop idle games: nobody holds them and nobody watches.
                games.retain(|_, l| Arc::strong_count(l) > 1 || l.tx.receiver_count() > 0);
            }
            Arc::clone(games.entry(id.to_string()).or_insert(live))
        };
        // A computer game left with the computer to move (a restart while it thought) goes on.
        self.spawn_computer(&live);
        Ok(live)
    }

    /// The view of game `id`.
    ///
    /// # Errors
    /// [`ApiError::NotFound`].
    pub async fn view(self: &Arc<Self>, id: &str) -> Result<GameView, ApiError> {
        let live = self.get(id).await?;
        let g = live.state.lock().await;
        Ok(g.view())
    }

    /// The seat that `token` holds in game `id`, if any.
    ///
    /// # Errors
    /// [`ApiError::NotFound`].
    pub async fn seat_of(self: &Arc<Self>, id: &str, token: &str) -> Result<Option<Seat>, ApiError> {
        let live = self.get(id).await?;
        let g = live.state.lock().await;
        Ok(g.seat(token))
    }

    /// Creates a game.
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] for a bad field, [`ApiError::Busy`] when too many games are open.
    pub async fn create(self: &Arc<Self>, req: NewGame) -> Result<Seated, ApiError> {
        let mode = req.mode.as_deref().unwrap_or("computer");
        if !matches!(mode, "computer" | "local" | "online") {
            return Err(ApiError::BadRequest(format!(
                "mode must be \"computer\", \"local\" or \"online\", not {mode:?}"
            )));
        }
        let side = parse_player(req.side.as_deref().unwrap_or("B"), "side")?;
        let start = match &req.position {
            Some(p) => {
                let pos: Position = p.parse().map_err(|e| ApiError::BadRequest(format!("position: {e}")))?;
                if pos.is_game_over() {
                    return Err(ApiError::BadRequest(
                        "position: the board is empty, there is no game to play".into(),
                    ));
                }
                pos
            }
            None => Position::start(parse_player(req.first.as_deref().unwrap_or("B"), "first")?),
        };
        let level = match mode {
            "computer" => {
                let l = req.level.unwrap_or(3);
                Level::new(l).ok_or_else(|| ApiError::BadRequest(format!("level must be 1-10, not {l}")))?;
                Some(l)
            }
            _ => None,
        };
        let since = now() - ABANDONED_AFTER.as_secs() as i64;
        let open = self.db(move |s| s.open_games_since(since)).await?;
        if open >= self.bounds.max_open_games {
            return Err(ApiError::Busy(format!(
                "the server holds {open} unfinished games, its limit; finish or resign one first"
            )));
        }
        let id = random_hex(6)?;
        let token = random_hex(16)?;
        let (token_b, token_a, seat) = match (mode, side) {
            ("local", _) => (Some(token.clone()), Some(token.clone()), Seat::Both),
            (_, Player::B) => (Some(token.clone()), None, Seat::One(Player::B)),
            (_, Player::A) => (None, Some(token.clone()), Seat::One(Player::A)),
        };
        let t = now();
        let row = GameRow {
            id: id.clone(),
            mode: mode.into(),
            start: start.to_string(),
            level,
            computer: (mode == "computer").then(|| side.other().to_string()),
            token_b,
            token_a,
            resigned: None,
            finished: false,
            result: None,
            created: t,
            updated: t,
            tags: "[]".into(),
        };
        self.insert(row, Game::new(start), token, seat).await
    }

    async fn insert(
        self: &Arc<Self>,
        row: GameRow,
        game: Game,
        token: String,
        seat: Seat,
    ) -> Result<Seated, ApiError> {
        let moves: Vec<String> = game.moves().iter().map(ToString::to_string).collect();
        let r = row.clone();
        self.db(move |s| s.insert_game(&r, &moves)).await?;
        let live = Arc::new(Live::new(row, game, &self.epoch));
        let view = live.state.lock().await.view();
        self.games().insert(view.id.clone(), Arc::clone(&live));
        self.spawn_computer(&live);
        Ok(Seated { seat: seat.name(), token, game: view })
    }

    /// Imports a record (as written by `GET /record` or `vlt replay`) as a new two-on-one-screen
    /// game; the token holds both seats.
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] naming what is wrong in the record.
    pub async fn import(self: &Arc<Self>, text: &str) -> Result<Seated, ApiError> {
        let rec = Record::parse(text).map_err(|e| ApiError::BadRequest(e.to_string()))?;
        let game = rec.game;
        let token = random_hex(16)?;
        let t = now();
        let resigned = match game.result().map(|r| r.termination) {
            Some(Termination::Resignation(p)) => Some(p.to_string()),
            Some(Termination::TimeForfeit(p)) => Some(format!("{p}:time")),
            _ => None,
        };
        let row = GameRow {
            id: random_hex(6)?,
            mode: "local".into(),
            start: game.start().to_string(),
            level: None,
            computer: None,
            token_b: Some(token.clone()),
            token_a: Some(token.clone()),
            resigned,
            finished: game.is_over(),
            result: game.result().map(|r| r.to_string()),
            created: t,
            updated: t,
            tags: serde_json::to_string(&rec.tags).unwrap_or_else(|_| "[]".into()),
        };
        self.insert(row, game, token, Seat::Both).await
    }

    /// Takes the free seat of an online game (the invite link).
    ///
    /// # Errors
    /// [`ApiError::Conflict`] when no seat is free, [`ApiError::Forbidden`] for non-online games.
    pub async fn join(self: &Arc<Self>, id: &str) -> Result<Seated, ApiError> {
        let live = self.get(id).await?;
        let mut g = live.state.lock().await;
        if g.row.mode != "online" {
            return Err(ApiError::Forbidden("only online games can be joined".into()));
        }
        let seat = if g.row.token_b.is_none() {
            Player::B
        } else if g.row.token_a.is_none() {
            Player::A
        } else {
            return Err(ApiError::Conflict("both seats are taken; you can watch this game".into()));
        };
        let token = random_hex(16)?;
        let (key, t) = (id.to_string(), token.clone());
        let took = self.db(move |s| s.take_seat(&key, seat.letter(), &t)).await?;
        if !took {
            return Err(ApiError::Conflict("the seat was just taken".into()));
        }
        match seat {
            Player::B => g.row.token_b = Some(token.clone()),
            Player::A => g.row.token_a = Some(token.clone()),
        }
        g.version += 1;
        let view = g.view();
        self.broadcast(&live, &view);
        Ok(Seated { seat: seat.to_string(), token, game: view })
    }

    fn broadcast(&self, live: &Live, view: &GameView) {
        // Every change is broadcast exactly once, after its version was bumped.
        let msg = serde_json::json!({ "type": "update", "game": view }).to_string();
        // No receivers is fine: nobody is watching.
        let _ = live.tx.send(Arc::from(msg));
    }

    fn seat_checked(g: &LiveGame, token: &str) -> Result<Seat, ApiError> {
        g.seat(token).ok_or_else(|| ApiError::Forbidden("this token holds no seat in this game".into()))
    }

    /// Plays `mv` for the seat `token` holds. Committed to the store before it returns.
    ///
    /// # Errors
    /// [`ApiError::Forbidden`] (wrong token), [`ApiError::Conflict`] (out of turn, game over),
    /// [`ApiError::BadRequest`] (not a move), [`ApiError::Illegal`] (R3, R5).
    pub async fn play(self: &Arc<Self>, id: &str, token: &str, mv: &str) -> Result<GameView, ApiError> {
        let live = self.get(id).await?;
        let mut g = live.state.lock().await;
        let seat = Self::seat_checked(&g, token)?;
        if let Some(r) = g.game.result() {
            return Err(ApiError::Conflict(format!("the game is over: {r}")));
        }
        if g.row.mode == "online" && (g.row.token_b.is_none() || g.row.token_a.is_none()) {
            return Err(ApiError::Conflict(
                "the other seat is still free: wait for your friend to join".into(),
            ));
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
        let view = g.view();
        drop(g);
        self.spawn_computer(&live);
        Ok(view)
    }

    /// Validates `m` on a copy, commits it, then applies it in memory and tells the watchers.
    async fn commit(&self, live: &Live, g: &mut LiveGame, m: Move) -> Result<(), ApiError> {
        let mut next = g.game.clone();
        next.play(m).map_err(|e| ApiError::Illegal(format!("{m}: {e}")))?;
        let ply = g.game.moves().len();
        let (id, text, result) = (g.row.id.clone(), m.to_string(), next.result().map(|r| r.to_string()));
        let r = result.clone();
        self.db(move |s| s.append_moves(&id, ply, &[text], r.as_deref())).await?;
        g.game = next;
        g.row.finished = result.is_some();
        g.row.result = result;
        g.version += 1;
        self.broadcast(live, &g.view());
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
                let done = match hub.computer_move(g.game.clone(), level, seed).await {
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

    /// Runs `task` on an idle engine, under the semaphore and a time bound.
    async fn run_engine(&self, task: Task) -> Result<Finished, ApiError> {
        // Waiting for a slot is bounded too, so a flood of analysis requests is refused rather
        // than queued without end.
        let permit = tokio::time::timeout(ENGINE_QUEUE_WAIT, Arc::clone(&self.engine_slots).acquire_owned())
            .await
            .map_err(|_| ApiError::Busy("the engine is busy; try again".into()))?
            .map_err(|_| ApiError::Internal("engine slots closed".into()))?;
        let (tx, rx) = tokio::sync::oneshot::channel();
        let engine = {
            // A permit is released only once its task has finished, so a permit holder always
            // finds an idle engine; the lock keeps two holders from picking the same one.
            let _pick = self.engine_pick.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let engine = self.engines.iter().find(|e| !e.is_searching()).unwrap_or(&self.engines[0]);
            // A fresh table for every task: answers depend only on the request.
            engine.clear();
            engine.go(
                task,
                |_| {},
                move |f| {
                    let _ = tx.send(f);
                    drop(permit); // held until the search ends, even if nobody waits any more
                },
            );
            engine
        };
        let limit = Duration::from_millis(self.bounds.engine_ms) + ENGINE_GRACE;
        match tokio::time::timeout(limit, rx).await {
            Ok(Ok(f)) => Ok(f),
            Ok(Err(_)) => Err(ApiError::Internal("engine: the search was lost".into())),
            Err(_) => {
                // Past its own limit and the grace: tell the search to stop, and give up on it.
                engine.stop();
                Err(ApiError::Busy("the engine took too long".into()))
            }
        }
    }

    async fn computer_move(&self, game: Game, level: u8, seed: u64) -> Result<Move, ApiError> {
        let cap = Duration::from_millis(self.bounds.engine_ms);
        let level = Level::new(level).ok_or_else(|| ApiError::Internal(format!("stored level {level}")))?;
        let s = level.settings();
        let task = if s.temperature > 0 {
            // The low levels search shallow (a few plies): quick, and their chance matters.
            Task::Level { game, level, seed, clock: None }
        } else {
            let mut limits = s.limits;
            limits.movetime = Some(limits.movetime.map_or(cap, |t| t.min(cap)));
            Task::Search { game, limits, infinite: false }
        };
        self.run_engine(task).await?.best.ok_or_else(game_over)
    }

    fn advice_allowed(g: &LiveGame) -> Result<(), ApiError> {
        if g.row.mode == "online" && !g.game.is_over() {
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
        let limits = Limits {
            movetime: Some(Duration::from_millis(movetime_ms.clamp(10, self.bounds.engine_ms))),
            ..Limits::default()
        };
        let for_player = game.position().to_move().to_string();
        let r = self.run_engine(Task::Analyse { game, limits }).await?.result.ok_or_else(game_over)?;
        Ok(Advice {
            best: r.best.to_string(),
            score: r.info.score,
            for_player,
            depth: r.info.depth,
            exact: r.info.exact,
            pv: r.info.pv.iter().map(ToString::to_string).collect(),
            moves: r.moves.iter().map(|(m, s)| MoveScore { mv: m.to_string(), score: *s }).collect(),
        })
    }

    /// Resigns for the seat `token` holds (in a two-on-one-screen game, the player to move).
    ///
    /// # Errors
    /// [`ApiError::Forbidden`], [`ApiError::Conflict`] when the game is over.
    pub async fn resign(self: &Arc<Self>, id: &str, token: &str) -> Result<GameView, ApiError> {
        let live = self.get(id).await?;
        let mut g = live.state.lock().await;
        let seat = Self::seat_checked(&g, token)?;
        let p = match seat {
            Seat::One(p) => p,
            Seat::Both => g.game.position().to_move(),
        };
        let mut next = g.game.clone();
        let r = next.resign(p).map_err(|e| ApiError::Conflict(e.to_string()))?;
        let (key, text) = (id.to_string(), r.to_string());
        self.db(move |s| s.resign(&key, p.letter(), &text)).await?;
        g.game = next;
        g.row.resigned = Some(p.to_string());
        g.row.finished = true;
        g.row.result = Some(r.to_string());
        g.version += 1;
        let view = g.view();
        self.broadcast(&live, &view);
        Ok(view)
    }

    /// Takes back moves: against the computer, back to before your last move; on one screen, one
    /// move. Not in online games, nor after a resignation.
    ///
    /// # Errors
    /// [`ApiError::Forbidden`], [`ApiError::Conflict`] when there is nothing to undo.
    pub async fn undo(self: &Arc<Self>, id: &str, token: &str) -> Result<GameView, ApiError> {
        let live = self.get(id).await?;
        let mut g = live.state.lock().await;
        Self::seat_checked(&g, token)?;
        if g.row.mode == "online" {
            return Err(ApiError::Forbidden("moves cannot be taken back in an online game".into()));
        }
        if g.row.resigned.is_some() {
            return Err(ApiError::Conflict("the game was resigned".into()));
        }
        let mut next = g.game.clone();
        let human = g.computer().map(Player::other);
        loop {
            let Some(m) = next.undo() else {
                return Err(ApiError::Conflict("there is no move of yours to take back".into()));
            };
            if human.is_none_or(|h| m.player() == h) {
                break;
            }
        }
        let (key, len) = (id.to_string(), next.moves().len());
        self.db(move |s| s.truncate_moves(&key, len)).await?;
        g.game = next;
        g.row.finished = false;
        g.row.result = None;
        g.version += 1;
        let view = g.view();
        self.broadcast(&live, &view);
        Ok(view)
    }

    /// The game's record (tags, moves and result), as `vlt replay` reads it.
    ///
    /// # Errors
    /// [`ApiError::NotFound`].
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
        rec.set_tag("Mode", &g.row.mode);
        if let (Some(c), Some(l)) = (g.computer(), g.row.level) {
            rec.set_tag(if c == Player::B { "B" } else { "A" }, &format!("computer level {l}"));
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
