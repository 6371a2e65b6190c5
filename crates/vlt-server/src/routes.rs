//! The HTTP routes. Bodies are read as bytes and parsed here, so that every refusal (malformed
//! JSON, unknown fields, oversized bodies) is a JSON error from [`ApiError`], never a panic.

use crate::error::ApiError;
use crate::hub::Hub;
use crate::identity::cookie_token;
use crate::seat::Caller;
use crate::view::PlyView;
use crate::wire::NewGame;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use axum::response::IntoResponse;
use serde::de::DeserializeOwned;
use std::sync::Arc;
use vlt_core::examples::WORKED_EXAMPLES;
use vlt_core::{Move, Position};

pub(crate) type Hs = State<Arc<Hub>>;
/// A request body, or why it could not be read (too large, cut off).
pub(crate) type Body = Result<Bytes, BytesRejection>;

/// Who is asking: the seat token of the body (if any) and the player of the cookie.
pub(crate) async fn caller(hub: &Hub, headers: &HeaderMap, token: &str) -> Result<Caller, ApiError> {
    hub.caller(cookie_token(headers), token).await
}

/// Parses a JSON body, refusing oversized ones and naming what is wrong in malformed ones.
pub(crate) fn body<T: DeserializeOwned>(hub: &Hub, bytes: &Body) -> Result<T, ApiError> {
    let bytes = match bytes {
        Ok(b) => b,
        Err(e) if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE => {
            return Err(ApiError::TooLarge(hub.bounds.max_body));
        }
        Err(e) if timed_out(e) => return Err(ApiError::TimedOut("the request body stopped arriving".into())),
        Err(e) => return Err(ApiError::BadRequest(format!("request body: {}", e.body_text()))),
    };
    if bytes.len() > hub.bounds.max_body {
        return Err(ApiError::TooLarge(hub.bounds.max_body));
    }
    serde_json::from_slice(bytes).map_err(|e| ApiError::BadRequest(format!("request body: {e}")))
}

/// Whether reading the body failed because the client stopped sending it (the edge's timeout).
fn timed_out(e: &BytesRejection) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(c) = cause {
        if c.is::<tower_http::timeout::TimeoutError>() {
            return true;
        }
        cause = c.source();
    }
    false
}

/// A body naming the seat by its token; without one, the cookie's player acts.
#[derive(serde::Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct TokenBody {
    #[serde(default)]
    pub(crate) token: String,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    #[serde(default)]
    token: String,
    #[serde(rename = "move")]
    mv: String,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportBody {
    record: String,
}

/// Who is asking, for a request that names its player by the cookie alone (no seat token): an
/// extractor from the headers, so it may stand before a body.
pub(crate) struct CookieCaller(pub(crate) Caller);

impl FromRequestParts<Arc<Hub>> for CookieCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, hub: &Arc<Hub>) -> Result<Self, ApiError> {
        Ok(Self(hub.caller(cookie_token(&parts.headers), "").await?))
    }
}

/// Who is asking, for an action whose body holds at most a seat token (an empty body is no token):
/// an extractor, so that each such handler says only what it does.
pub(crate) struct BodyCaller(pub(crate) Caller);

impl FromRequest<Arc<Hub>> for BodyCaller {
    type Rejection = ApiError;

    async fn from_request(req: Request, hub: &Arc<Hub>) -> Result<Self, ApiError> {
        let cookie = cookie_token(req.headers());
        let bytes: Body = Bytes::from_request(req, hub).await;
        let b: TokenBody =
            if bytes.as_ref().is_ok_and(Bytes::is_empty) { TokenBody::default() } else { body(hub, &bytes)? };
        Ok(Self(hub.caller(cookie, &b.token).await?))
    }
}

pub(crate) async fn create(
    State(hub): Hs,
    CookieCaller(who): CookieCaller,
    bytes: Body,
) -> Result<impl IntoResponse, ApiError> {
    let req: NewGame =
        if bytes.as_ref().is_ok_and(Bytes::is_empty) { NewGame::default() } else { body(&hub, &bytes)? };
    Ok((axum::http::StatusCode::CREATED, Json(hub.create(req, &who).await?)))
}

pub(crate) async fn get_game(State(hub): Hs, Path(id): Path<String>) -> Result<impl IntoResponse, ApiError> {
    Ok(Json(hub.view(&id).await?))
}

pub(crate) async fn join(
    State(hub): Hs,
    Path(id): Path<String>,
    CookieCaller(who): CookieCaller,
) -> Result<impl IntoResponse, ApiError> {
    Ok(Json(hub.join(&id, &who).await?))
}

pub(crate) async fn play(
    State(hub): Hs,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Body,
) -> Result<impl IntoResponse, ApiError> {
    let b: MoveBody = body(&hub, &bytes)?;
    let who = caller(&hub, &headers, &b.token).await?;
    Ok(Json(hub.play(&id, &who, &b.mv).await?))
}

pub(crate) async fn resign(
    State(hub): Hs,
    Path(id): Path<String>,
    BodyCaller(who): BodyCaller,
) -> Result<impl IntoResponse, ApiError> {
    Ok(Json(hub.resign(&id, &who).await?))
}

pub(crate) async fn undo(
    State(hub): Hs,
    Path(id): Path<String>,
    BodyCaller(who): BodyCaller,
) -> Result<impl IntoResponse, ApiError> {
    Ok(Json(hub.undo(&id, &who).await?))
}

pub(crate) async fn hint(
    State(hub): Hs,
    Path(id): Path<String>,
    BodyCaller(who): BodyCaller,
) -> Result<impl IntoResponse, ApiError> {
    if hub.seat_of(&id, &who).await?.is_none() {
        return Err(ApiError::Forbidden("this token holds no seat in this game".into()));
    }
    Ok(Json(hub.advise(&id, 300).await?))
}

#[derive(serde::Deserialize)]
pub(crate) struct AnalysisQuery {
    ms: Option<u64>,
}

pub(crate) async fn analysis(
    State(hub): Hs,
    Path(id): Path<String>,
    Query(q): Query<AnalysisQuery>,
) -> Result<impl IntoResponse, ApiError> {
    Ok(Json(hub.advise(&id, q.ms.unwrap_or(500)).await?))
}

pub(crate) async fn record(State(hub): Hs, Path(id): Path<String>) -> Result<impl IntoResponse, ApiError> {
    let text = hub.record(&id).await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text))
}

pub(crate) async fn import(State(hub): Hs, bytes: Body) -> Result<impl IntoResponse, ApiError> {
    let b: ImportBody = body(&hub, &bytes)?;
    Ok((axum::http::StatusCode::CREATED, Json(hub.import(&b.record).await?)))
}

#[derive(serde::Deserialize)]
pub(crate) struct ListQuery {
    limit: Option<usize>,
    offset: Option<usize>,
}

pub(crate) async fn list(State(hub): Hs, Query(q): Query<ListQuery>) -> Result<impl IntoResponse, ApiError> {
    Ok(Json(
        serde_json::json!({ "games": hub.finished(q.limit.unwrap_or(50), q.offset.unwrap_or(0)).await? }),
    ))
}

/// The rule texts' three worked examples (RULES.md), each with the traced move, for the rules page (R3, R4).
pub(crate) async fn examples() -> Result<impl IntoResponse, ApiError> {
    let mut out = Vec::new();
    for ex in WORKED_EXAMPLES {
        let pos: Position =
            ex.position.parse().map_err(|e| ApiError::Internal(format!("example {}: {e}", ex.id)))?;
        let mv: Move = ex.mv.parse().map_err(|e| ApiError::Internal(format!("example {}: {e}", ex.id)))?;
        let (after, outcome) =
            pos.play_traced(mv).map_err(|e| ApiError::Internal(format!("example {}: {e}", ex.id)))?;
        out.push(serde_json::json!({
            "id": ex.id,
            "position": ex.position,
            "board": pos.board().to_vec(),
            "captured_b": pos.captured(vlt_core::Player::B),
            "captured_a": pos.captured(vlt_core::Player::A),
            "description": ex.description,
            "ply": PlyView::new(1, &outcome, after),
        }));
    }
    Ok(Json(serde_json::json!({ "examples": out })))
}

/// What each computer level does, from the engine's own settings, so the page describes them
/// without a copy: its depth (none for level 10, which thinks a fixed time), its time, its least
/// depth, and whether chance picks among the moves.
pub(crate) async fn levels() -> impl IntoResponse {
    let levels: Vec<_> = (vlt_engine::Level::MIN.get()..=vlt_engine::Level::MAX.get())
        .filter_map(vlt_engine::Level::new)
        .map(|l| {
            let s = l.settings();
            serde_json::json!({
                "level": l.get(),
                "depth": s.limits.depth,
                "min_depth": s.limits.min_depth,
                "movetime_ms": s.limits.movetime.map(|t| t.as_millis() as u64),
                "chance": s.temperature > 0,
            })
        })
        .collect();
    Json(serde_json::json!({ "levels": levels }))
}

pub(crate) async fn health() -> impl IntoResponse {
    Json(serde_json::json!({ "ok": true }))
}

pub(crate) async fn not_found() -> ApiError {
    ApiError::NotFound("no such route".into())
}
