//! The HTTP routes of players (name, account, log-in, player page, leaderboard), the lobby
//! (seeks) and the offers between the players of a game (takeback, rematch). The player cookie is
//! set here and nowhere else.

use crate::error::ApiError;
use crate::identity::{clear_cookie, cookie_token, set_cookie};
use crate::lobby::NewSeek;
use crate::routes::{Body, BodyCaller, CookieCaller, Hs, body};
use axum::Json;
use axum::extract::{Path, Query};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use serde_json::json;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct NameBody {
    name: String,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PasswordBody {
    password: String,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct LoginBody {
    name: String,
    password: String,
}

pub(crate) async fn me(CookieCaller(who): CookieCaller) -> Result<impl IntoResponse, ApiError> {
    Ok(Json(json!({ "player": who.player.map(|p| p.card()) })))
}

pub(crate) async fn set_name(
    hub: Hs,
    CookieCaller(who): CookieCaller,
    bytes: Body,
) -> Result<impl IntoResponse, ApiError> {
    let b: NameBody = body(&hub, &bytes)?;
    let (card, token) = hub.set_name(&who, &b.name).await?;
    let mut h = HeaderMap::new();
    if let Some(t) = token {
        h.insert(
            header::SET_COOKIE,
            set_cookie(&t, hub.bounds.secure_cookie)
                .parse()
                .map_err(|_| ApiError::Internal("cookie".into()))?,
        );
    }
    Ok((h, Json(json!({ "player": card }))))
}

pub(crate) async fn set_password(
    hub: Hs,
    CookieCaller(who): CookieCaller,
    bytes: Body,
) -> Result<impl IntoResponse, ApiError> {
    let b: PasswordBody = body(&hub, &bytes)?;
    Ok(Json(json!({ "player": hub.set_password(&who, &b.password).await? })))
}

pub(crate) async fn login(hub: Hs, bytes: Body) -> Result<impl IntoResponse, ApiError> {
    let b: LoginBody = body(&hub, &bytes)?;
    let (card, token) = hub.login(&b.name, &b.password).await?;
    let cookie = set_cookie(&token, hub.bounds.secure_cookie);
    Ok(([(header::SET_COOKIE, cookie)], Json(json!({ "player": card }))))
}

pub(crate) async fn logout(hub: Hs, headers: HeaderMap) -> Result<impl IntoResponse, ApiError> {
    hub.logout(cookie_token(&headers)).await?;
    Ok(([(header::SET_COOKIE, clear_cookie())], Json(json!({ "player": null }))))
}

pub(crate) async fn player(hub: Hs, Path(id): Path<String>) -> Result<impl IntoResponse, ApiError> {
    Ok(Json(hub.player_page(&id).await?))
}

#[derive(serde::Deserialize)]
pub(crate) struct LimitQuery {
    limit: Option<usize>,
}

pub(crate) async fn leaderboard(hub: Hs, Query(q): Query<LimitQuery>) -> Result<impl IntoResponse, ApiError> {
    Ok(Json(json!({ "players": hub.leaderboard(q.limit.unwrap_or(50)).await? })))
}

pub(crate) async fn lobby(hub: Hs, CookieCaller(who): CookieCaller) -> Result<impl IntoResponse, ApiError> {
    Ok(Json(hub.lobby_view(&who).await?))
}

pub(crate) async fn create_seek(
    hub: Hs,
    CookieCaller(who): CookieCaller,
    bytes: Body,
) -> Result<impl IntoResponse, ApiError> {
    let req: NewSeek = body(&hub, &bytes)?;
    Ok((StatusCode::CREATED, Json(hub.create_seek(&who, req).await?)))
}

pub(crate) async fn cancel_seek(
    hub: Hs,
    Path(id): Path<String>,
    CookieCaller(who): CookieCaller,
) -> Result<impl IntoResponse, ApiError> {
    hub.cancel_seek(&id, &who).await?;
    Ok(Json(json!({ "ok": true })))
}

pub(crate) async fn accept_seek(
    hub: Hs,
    Path(id): Path<String>,
    CookieCaller(who): CookieCaller,
) -> Result<impl IntoResponse, ApiError> {
    Ok((StatusCode::CREATED, Json(hub.accept_seek(&id, &who).await?)))
}

pub(crate) async fn takeback(
    hub: Hs,
    Path(id): Path<String>,
    BodyCaller(who): BodyCaller,
) -> Result<impl IntoResponse, ApiError> {
    Ok(Json(hub.takeback(&id, &who).await?))
}

pub(crate) async fn decline_takeback(
    hub: Hs,
    Path(id): Path<String>,
    BodyCaller(who): BodyCaller,
) -> Result<impl IntoResponse, ApiError> {
    Ok(Json(hub.decline_takeback(&id, &who).await?))
}

pub(crate) async fn rematch(
    hub: Hs,
    Path(id): Path<String>,
    BodyCaller(who): BodyCaller,
) -> Result<impl IntoResponse, ApiError> {
    Ok(Json(hub.rematch(&id, &who).await?))
}
