//! `vlt loadtest`: many concurrent online games against a running server on the loopback
//! interface, bounded in games and time, stopping by itself. Each game is created by one client and
//! joined by a second (the invite link); both then play random legal moves until the game ends or
//! time is up, over HTTP or over their WebSockets, waiting a think time between moves as people do
//! (or flat out). Reports moves per second and latency percentiles (request sent to
//! acknowledgement received; the think time is not counted).

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// The largest number of concurrent games a load test may hold.
pub const MAX_GAMES: usize = 2000;
/// The longest a load test may run.
pub const MAX_DURATION: Duration = Duration::from_secs(300);
/// The longest think time between moves.
pub const MAX_THINK: Duration = Duration::from_secs(60);

/// How moves are sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// `POST /api/games/{id}/move`; latency until the response.
    Http,
    /// `{"type":"move"}` on the seat's WebSocket; latency until the update comes back.
    WebSocket,
}

/// What to run.
#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// The server (must be a loopback address).
    pub addr: SocketAddr,
    /// Games held at once.
    pub games: usize,
    /// How long to play.
    pub duration: Duration,
    /// How moves travel.
    pub transport: Transport,
    /// Seed of the random move choice.
    pub seed: u64,
    /// How long each game waits between moves (zero: flat out). Games start spread over one
    /// think time, as people do not all move at the same instant.
    pub think: Duration,
}

/// What was measured.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LoadReport {
    /// Games held at once.
    pub concurrent_games: usize,
    /// The wait between a game's moves, milliseconds.
    pub think_ms: u64,
    /// Games started.
    pub games_started: u64,
    /// Games played to their end (R6, R7).
    pub games_finished: u64,
    /// Moves acknowledged.
    pub moves: u64,
    /// Requests refused or failed.
    pub errors: u64,
    /// Wall time, seconds.
    pub seconds: f64,
    /// Moves per second.
    pub moves_per_second: f64,
    /// Median move latency, milliseconds.
    pub p50_ms: f64,
    /// 99th percentile move latency, milliseconds.
    pub p99_ms: f64,
    /// Slowest move, milliseconds.
    pub max_ms: f64,
}

/// Live counters, for a progress display.
#[derive(Debug, Default)]
pub struct Progress {
    /// Moves acknowledged so far.
    pub moves: AtomicU64,
    /// Games finished so far.
    pub finished: AtomicU64,
    /// Errors so far.
    pub errors: AtomicU64,
}

/// Why a load test could not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The target is not on this machine.
    #[error("{0} is not a loopback address: the load test only targets this machine")]
    NotLoopback(SocketAddr),
    /// A bound was exceeded.
    #[error("{0}")]
    OutOfBounds(String),
    /// The server could not be reached.
    #[error("server at {0}: {1}")]
    Unreachable(SocketAddr, String),
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // SplitMix64: good enough to pick moves, and reproducible from the seed.
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

struct Ctx {
    http: reqwest::Client,
    base: String,
    ws_base: String,
    deadline: Instant,
    progress: Arc<Progress>,
    transport: Transport,
    think: Duration,
}

/// Runs the load test; `progress` is updated as it goes.
///
/// # Errors
/// [`LoadError`] for a non-loopback address, bounds exceeded, or a server that does not answer.
pub async fn run(cfg: LoadConfig, progress: Arc<Progress>) -> Result<LoadReport, LoadError> {
    if !cfg.addr.ip().is_loopback() {
        return Err(LoadError::NotLoopback(cfg.addr));
    }
    if cfg.games == 0 || cfg.games > MAX_GAMES {
        return Err(LoadError::OutOfBounds(format!("games must be 1-{MAX_GAMES}")));
    }
    if cfg.duration.is_zero() || cfg.duration > MAX_DURATION {
        return Err(LoadError::OutOfBounds(format!("duration must be 1-{} s", MAX_DURATION.as_secs())));
    }
    if cfg.think > MAX_THINK {
        return Err(LoadError::OutOfBounds(format!("think time must be 0-{} ms", MAX_THINK.as_millis())));
    }
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(cfg.games * 2)
        .timeout(Duration::from_secs(30))
        .build()
        .map_err(|e| LoadError::Unreachable(cfg.addr, e.to_string()))?;
    let base = format!("http://{}", cfg.addr);
    http.get(format!("{base}/api/health"))
        .send()
        .await
        .and_then(reqwest::Response::error_for_status)
        .map_err(|e| LoadError::Unreachable(cfg.addr, e.to_string()))?;
    let start = Instant::now();
    let ctx = Arc::new(Ctx {
        http,
        ws_base: format!("ws://{}", cfg.addr),
        base,
        deadline: start + cfg.duration,
        progress: Arc::clone(&progress),
        transport: cfg.transport,
        think: cfg.think,
    });
    let started = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for i in 0..cfg.games {
        let (ctx, started) = (Arc::clone(&ctx), Arc::clone(&started));
        let seed = cfg.seed ^ (i as u64).wrapping_mul(0x2545_f491_4f6c_dd1d);
        tasks.push(tokio::spawn(async move {
            let mut rng = Rng(seed);
            let mut lat = Vec::new();
            if !ctx.think.is_zero() {
                let ms = ctx.think.as_millis() as u64;
                tokio::time::sleep(Duration::from_millis(rng.next() % ms)).await;
            }
            while Instant::now() < ctx.deadline {
                started.fetch_add(1, Ordering::Relaxed);
                if play_one(&ctx, &mut rng, &mut lat).await.is_err() {
                    ctx.progress.errors.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
            lat
        }));
    }
    let mut lat: Vec<Duration> = Vec::new();
    for t in tasks {
        if let Ok(l) = t.await {
            lat.extend(l);
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    lat.sort_unstable();
    let pct = |p: f64| -> f64 {
        if lat.is_empty() {
            return 0.0;
        }
        let i = ((lat.len() as f64 * p).ceil() as usize).clamp(1, lat.len()) - 1;
        lat[i].as_secs_f64() * 1000.0
    };
    let moves = progress.moves.load(Ordering::Relaxed);
    Ok(LoadReport {
        concurrent_games: cfg.games,
        think_ms: cfg.think.as_millis() as u64,
        games_started: started.load(Ordering::Relaxed),
        games_finished: progress.finished.load(Ordering::Relaxed),
        moves,
        errors: progress.errors.load(Ordering::Relaxed),
        seconds,
        moves_per_second: moves as f64 / seconds.max(1e-9),
        p50_ms: pct(0.50),
        p99_ms: pct(0.99),
        max_ms: lat.last().map_or(0.0, |d| d.as_secs_f64() * 1000.0),
    })
}

type Res<T> = Result<T, String>;

async fn post(ctx: &Ctx, path: &str, body: Value) -> Res<Value> {
    let r =
        ctx.http.post(format!("{}{path}", ctx.base)).json(&body).send().await.map_err(|e| e.to_string())?;
    let status = r.status();
    let v: Value = r.json().await.map_err(|e| e.to_string())?;
    if status.is_success() { Ok(v) } else { Err(format!("{status}: {v}")) }
}

fn pick(rng: &mut Rng, game: &Value) -> Option<String> {
    let legal = game["legal"].as_array()?;
    if legal.is_empty() {
        return None;
    }
    legal[(rng.next() % legal.len() as u64) as usize].as_str().map(str::to_string)
}

/// Plays one online game between two seats to its end or to the deadline (then resigns it, so
/// that the load test leaves no open games behind).
async fn play_one(ctx: &Ctx, rng: &mut Rng, lat: &mut Vec<Duration>) -> Res<()> {
    let created = post(ctx, "/api/games", serde_json::json!({ "mode": "online", "side": "B" })).await?;
    let id = created["game"]["id"].as_str().ok_or("no id")?.to_string();
    let tb = created["token"].as_str().ok_or("no token")?.to_string();
    let joined = post(ctx, &format!("/api/games/{id}/join"), serde_json::json!({})).await?;
    let ta = joined["token"].as_str().ok_or("no token")?.to_string();
    let mut game = joined["game"].clone();
    let r = match ctx.transport {
        Transport::Http => play_http(ctx, rng, lat, &id, [&tb, &ta], &mut game).await,
        Transport::WebSocket => play_ws(ctx, rng, lat, &id, [&tb, &ta], &mut game).await,
    };
    if game["result"].is_null() {
        // Out of time (or failed): resign so the game does not stay open.
        let _ = post(ctx, &format!("/api/games/{id}/resign"), serde_json::json!({ "token": tb })).await;
    } else {
        ctx.progress.finished.fetch_add(1, Ordering::Relaxed);
    }
    r
}

fn token_for<'a>(game: &Value, tokens: [&'a String; 2]) -> &'a str {
    if game["to_move"] == "B" { tokens[0] } else { tokens[1] }
}

async fn play_http(
    ctx: &Ctx,
    rng: &mut Rng,
    lat: &mut Vec<Duration>,
    id: &str,
    tokens: [&String; 2],
    game: &mut Value,
) -> Res<()> {
    while game["result"].is_null() && Instant::now() < ctx.deadline {
        let mv = pick(rng, game).ok_or("no legal move in an unfinished game")?;
        let t0 = Instant::now();
        *game = post(
            ctx,
            &format!("/api/games/{id}/move"),
            serde_json::json!({ "token": token_for(game, tokens), "move": mv }),
        )
        .await?;
        lat.push(t0.elapsed());
        ctx.progress.moves.fetch_add(1, Ordering::Relaxed);
        think(ctx).await;
    }
    Ok(())
}

/// Waits the think time, but not past the deadline.
async fn think(ctx: &Ctx) {
    if !ctx.think.is_zero() {
        let left = ctx.deadline.saturating_duration_since(Instant::now());
        tokio::time::sleep(ctx.think.min(left)).await;
    }
}

async fn play_ws(
    ctx: &Ctx,
    rng: &mut Rng,
    lat: &mut Vec<Duration>,
    id: &str,
    tokens: [&String; 2],
    game: &mut Value,
) -> Res<()> {
    // Small buffers, as the server's: thousands of sockets are open at once.
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0);
    let mut sockets = Vec::new();
    for t in tokens {
        let url = format!("{}/api/games/{id}/ws?token={t}", ctx.ws_base);
        let (s, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), true)
            .await
            .map_err(|e| e.to_string())?;
        sockets.push(s);
    }
    // Each socket first says hello with the whole game.
    for s in &mut sockets {
        next_game(s).await?;
    }
    let mut plies = game["plies"].as_array().map_or(0, Vec::len);
    while game["result"].is_null() && Instant::now() < ctx.deadline {
        let mv = pick(rng, game).ok_or("no legal move in an unfinished game")?;
        let seat = usize::from(game["to_move"] != "B");
        let t0 = Instant::now();
        let msg = serde_json::json!({ "type": "move", "move": mv }).to_string();
        sockets[seat].send(Message::Text(msg.into())).await.map_err(|e| e.to_string())?;
        // Wait for the delta that carries this move (the acknowledgement of a committed move);
        // the deltas of the opponent's move, queued on this socket meanwhile, are passed over.
        loop {
            let (g, n) = next_delta(&mut sockets[seat]).await?;
            if n > plies {
                (*game, plies) = (g, n);
                break;
            }
        }
        lat.push(t0.elapsed());
        ctx.progress.moves.fetch_add(1, Ordering::Relaxed);
        think(ctx).await;
    }
    // The other socket's deltas are drained by closing it.
    for mut s in sockets {
        let _ = s.close(None).await;
    }
    Ok(())
}

async fn next_msg<S>(s: &mut S) -> Res<Value>
where
    S: futures_util::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    loop {
        let m = tokio::time::timeout(Duration::from_secs(30), s.next())
            .await
            .map_err(|_| "no update within 30 s".to_string())?
            .ok_or("socket closed")?
            .map_err(|e| e.to_string())?;
        if let Message::Text(t) = m {
            let v: Value = serde_json::from_str(t.as_str()).map_err(|e| e.to_string())?;
            if v["type"] == "error" {
                return Err(v["error"].to_string());
            }
            return Ok(v);
        }
    }
}

/// The next whole game (the hello on connect).
async fn next_game<S>(s: &mut S) -> Res<Value>
where
    S: futures_util::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    loop {
        let mut v = next_msg(s).await?;
        if matches!(v["type"].as_str(), Some("state" | "update")) {
            return Ok(v["game"].take());
        }
    }
}

/// The game of the next change, and its number of plies: a delta carries every field but the
/// plies whole, and the plies after its `from`; a whole game (after falling behind) all of them.
async fn next_delta<S>(s: &mut S) -> Res<(Value, usize)>
where
    S: futures_util::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    loop {
        let mut v = next_msg(s).await?;
        let new = v["game"]["plies"].as_array().map_or(0, Vec::len);
        match v["type"].as_str() {
            Some("delta") => {
                let from = v["from"].as_u64().ok_or("a delta without from")? as usize;
                return Ok((v["game"].take(), from + new));
            }
            Some("state" | "update") => return Ok((v["game"].take(), new)),
            _ => {}
        }
    }
}
