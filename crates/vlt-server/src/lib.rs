//! `vlt serve`: the whole game in a browser — against the computer, two on one screen, or online
//! with an invite link — with SQLite persistence.
//!
//! The server is the referee: every move is validated with `vlt-core` (R3–R7), committed to the
//! store before it is acknowledged, and broadcast to the game's WebSocket watchers. Each seat of an
//! online game is held by a secret token. Request bodies, WebSocket messages, the number of open
//! games and the engine's thinking time are bounded ([`Bounds`]). The API is documented in
//! `docs/api.md`.
//!
//! ```no_run
//! # async fn demo() -> anyhow::Result<()> {
//! use vlt_server::{Bounds, Hub, Store};
//! let hub = Hub::new(Store::open("games.db".as_ref())?, Bounds::default());
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! vlt_server::serve(listener, hub, &vlt_server::Edge::default()).await?;
//! # Ok(()) }
//! ```

pub mod accounts;
mod assets;
mod board;
pub mod cache;
pub mod clock;
pub mod config;
pub mod edge;
pub mod engine;
pub mod error;
mod fanout;
pub mod hub;
pub mod identity;
pub mod kinds;
mod learn;
pub mod lease;
pub mod listen;
pub mod live;
pub mod loadtest;
pub mod lobby;
mod offers;
pub mod players;
mod presence;
pub mod public;
pub mod ratelimit;
pub mod review;
mod routes;
mod routes_players;
pub mod seat;
pub mod servers;
pub mod store;
mod timers;
pub mod view;
pub mod wire;
mod ws;

pub use config::Bounds;
pub use edge::Edge;
pub use error::ApiError;
pub use hub::Hub;
pub use public::{Hosts, PublicUrl};
pub use store::Store;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use std::sync::Arc;

/// The application with the default [`Edge`]: the page, the API and the WebSocket, over `hub`.
pub fn router(hub: Arc<Hub>) -> Router {
    router_with(hub, &Edge::default())
}

/// The application behind `edge`'s checks, headers and rate limits.
pub fn router_with(hub: Arc<Hub>, edge: &Edge) -> Router {
    // The hard limit sits a little above ours, so that our own check answers with a JSON error.
    let limit = hub.bounds.max_body + 1024;
    let layer = |l: Arc<ratelimit::Limiter>| axum::middleware::from_fn_with_state(l, ratelimit::limit);
    let games = ratelimit::Limiter::new(edge.games_rate, "new games");
    let games = || layer(Arc::clone(&games));
    // Seeks and account requests are counted in the store, for every server sharing it.
    let shared =
        |l: Arc<ratelimit::SharedLimiter>| axum::middleware::from_fn_with_state(l, ratelimit::limit_shared);
    let seeks = ratelimit::SharedLimiter::new(Arc::clone(&hub), edge.seeks_rate, "seeks");
    // Sign-ups and log-ins share one quota: both cost an argon2 hash.
    let accounts =
        ratelimit::SharedLimiter::new(Arc::clone(&hub), edge.accounts_rate, "sign-ups and log-ins");
    let accounts = || shared(Arc::clone(&accounts));
    let app = Router::new()
        .route("/", get(assets::index))
        .route("/static/{*path}", get(assets::file))
        .route("/api/health", get(routes::health))
        .route("/api/examples", get(routes::examples))
        .route("/api/levels", get(routes::levels))
        .route("/api/puzzles", get(learn::list))
        .route("/api/puzzles/{n}", get(learn::get))
        .route("/api/puzzles/{n}/solution", get(learn::get_solution))
        .route("/api/puzzles/{n}/answer", post(learn::answer))
        .route("/api/puzzles/{n}/rating", post(learn::rating))
        .route("/api/tutorial", get(learn::tutorial))
        .route("/api/games", post(routes::create).layer(games()).get(routes::list))
        .route("/api/import", post(routes::import).layer(games()))
        .route("/api/games/{id}", get(routes::get_game))
        .route("/api/games/{id}/join", post(routes::join))
        .route("/api/games/{id}/move", post(routes::play))
        .route("/api/games/{id}/resign", post(routes::resign))
        .route("/api/games/{id}/undo", post(routes::undo))
        .route("/api/games/{id}/hint", post(routes::hint))
        .route("/api/games/{id}/analysis", get(routes::analysis))
        .route("/api/games/{id}/record", get(routes::record))
        .route("/api/games/{id}/review", get(review::routes::get).post(review::routes::start))
        .route("/api/analyse", post(board::analyse))
        .route("/api/games/{id}/ws", get(ws::upgrade))
        .route("/api/games/{id}/takeback", post(routes_players::takeback))
        .route("/api/games/{id}/takeback/decline", post(routes_players::decline_takeback))
        .route("/api/games/{id}/rematch", post(routes_players::rematch))
        .route("/api/me", get(routes_players::me).post(routes_players::set_name))
        .route("/api/me/password", post(routes_players::set_password).layer(accounts()))
        .route("/api/login", post(routes_players::login).layer(accounts()))
        .route("/api/logout", post(routes_players::logout))
        .route("/api/players/{id}", get(routes_players::player))
        .route("/api/leaderboard", get(routes_players::leaderboard))
        .route("/api/lobby", get(routes_players::lobby))
        .route("/api/seeks", post(routes_players::create_seek).layer(shared(seeks)))
        .route("/api/seeks/{id}", axum::routing::delete(routes_players::cancel_seek))
        .route("/api/seeks/{id}/accept", post(routes_players::accept_seek))
        .fallback(routes::not_found)
        .layer(DefaultBodyLimit::max(limit))
        .with_state(hub);
    edge::wrap(app, edge)
}

/// Serves `hub` on `listener` behind `edge` until Ctrl-C or SIGTERM, then gives open requests
/// the edge's shutdown grace and returns. Every acknowledged move is already committed, so
/// stopping at any moment loses nothing.
///
/// # Errors
/// When the listener fails.
pub async fn serve(listener: tokio::net::TcpListener, hub: Arc<Hub>, edge: &Edge) -> std::io::Result<()> {
    // Clocks that were running when the server stopped run on (and may have run out meanwhile);
    // with a shared store, other servers' changes reach this one's watchers and clocks run where
    // their lease is.
    hub.resume_clocks().await.map_err(std::io::Error::other)?;
    let served =
        listen::serve_until(listener, router_with(Arc::clone(&hub), edge), edge, stop_signal()).await;
    // Its seeks and its players' sockets leave the lobby with it.
    hub.leave().await;
    served
}

/// Completes at Ctrl-C or SIGTERM.
pub async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { () = ctrl_c => {}, () = term => {} }
}
