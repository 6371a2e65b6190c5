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
//! use vlt_server::{Bounds, Hub, Store, router};
//! let hub = Hub::new(Store::open("games.db".as_ref())?, Bounds::default());
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! axum::serve(listener, router(hub)).await?;
//! # Ok(()) }
//! ```

mod assets;
mod board;
pub mod cache;
pub mod config;
pub mod engine;
pub mod error;
pub mod hub;
pub mod kinds;
pub mod live;
pub mod loadtest;
pub mod review;
mod routes;
pub mod seat;
pub mod store;
pub mod view;
pub mod wire;
mod ws;

pub use config::Bounds;
pub use error::ApiError;
pub use hub::Hub;
pub use store::Store;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use std::sync::Arc;

/// The application: the page, the API and the WebSocket, over `hub`.
pub fn router(hub: Arc<Hub>) -> Router {
    // The hard limit sits a little above ours, so that our own check answers with a JSON error.
    let limit = hub.bounds.max_body + 1024;
    Router::new()
        .route("/", get(assets::index))
        .route("/static/{*path}", get(assets::file))
        .route("/api/health", get(routes::health))
        .route("/api/examples", get(routes::examples))
        .route("/api/games", post(routes::create).get(routes::list))
        .route("/api/import", post(routes::import))
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
        .fallback(routes::not_found)
        .layer(DefaultBodyLimit::max(limit))
        .with_state(hub)
}

/// Serves `hub` on `listener` until Ctrl-C (or SIGTERM). Every acknowledged move is already
/// committed, so stopping at any moment loses nothing.
///
/// # Errors
/// When the listener fails.
pub async fn serve(listener: tokio::net::TcpListener, hub: Arc<Hub>) -> std::io::Result<()> {
    axum::serve(listener, router(hub)).with_graceful_shutdown(shutdown()).await
}

async fn shutdown() {
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
