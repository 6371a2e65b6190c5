//! `GET /api/games/{id}/review` (where the review stands) and `POST` (start it): reviews are for
//! finished games; the answer is a [`ReviewState`], with the review once it is done.

use super::ReviewState;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::routes::Hs;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use std::sync::Arc;
use vlt_core::Game;

/// The finished game `id`.
async fn finished_game(hub: &Arc<Hub>, id: &str) -> Result<Game, ApiError> {
    let live = hub.get(id).await?;
    let g = live.state.lock().await;
    if !g.game.is_over() {
        return Err(ApiError::Conflict("the game is not finished: reviews are for finished games".into()));
    }
    Ok(g.game.clone())
}

/// Runs `f` on the reviewer off the async threads (it reads the store).
async fn on_reviewer(
    hub: Arc<Hub>,
    f: impl FnOnce(&Hub) -> Result<ReviewState, ApiError> + Send + 'static,
) -> Result<ReviewState, ApiError> {
    tokio::task::spawn_blocking(move || f(&hub))
        .await
        .map_err(|e| ApiError::Internal(format!("review task: {e}")))?
}

pub(crate) async fn get(State(hub): Hs, Path(id): Path<String>) -> Result<Json<ReviewState>, ApiError> {
    let game = finished_game(&hub, &id).await?;
    Ok(Json(on_reviewer(hub, move |h| h.reviews().state(&id, &game)).await?))
}

pub(crate) async fn start(
    State(hub): Hs,
    Path(id): Path<String>,
) -> Result<(StatusCode, Json<ReviewState>), ApiError> {
    let game = finished_game(&hub, &id).await?;
    let st = on_reviewer(hub, move |h| h.reviews().start(&id, &game)).await?;
    let code = if matches!(st, ReviewState::Done { .. }) { StatusCode::OK } else { StatusCode::ACCEPTED };
    Ok((code, Json(st)))
}
