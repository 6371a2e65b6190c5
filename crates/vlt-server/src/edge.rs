//! What every request passes before it reaches a route, and every answer on its way out: the
//! `Host` and `Origin` checks ([`Hosts`]), JSON bodies only as `application/json` (so a
//! cross-site form cannot post to the API), time bounds on requests and their bodies, security
//! headers, and every refusal as a JSON error — including those made by the framework itself
//! (a bad path or query, a wrong method, a timeout).

use crate::error::ApiError;
use crate::public::Hosts;
use crate::ratelimit::Rate;
use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use std::time::Duration;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::{RequestBodyTimeoutLayer, TimeoutLayer};

/// The server's edge: who it answers, how long it waits, how many connections, new games, seeks
/// and account requests it allows each address.
#[derive(Clone, Debug)]
pub struct Edge {
    /// The hosts answered and origins accepted; invite links use the public URL.
    pub hosts: Hosts,
    /// A connection must send a request's headers within this time (also when idle between
    /// requests), or it is closed.
    pub header_timeout: Duration,
    /// The longest pause while a body is sent.
    pub body_timeout: Duration,
    /// The longest a request may take, body and answer included (engine requests wait for the
    /// engine, which has bounds of its own below this).
    pub request_timeout: Duration,
    /// Connections open at once, in all.
    pub max_connections: usize,
    /// Connections open at once from one address (WebSockets included).
    pub max_connections_per_address: usize,
    /// After a stop is asked for, the time open requests get to finish before the server ends.
    pub shutdown_grace: Duration,
    /// New games (created or imported) one address may make.
    pub games_rate: Rate,
    /// Lobby seeks one address may post.
    pub seeks_rate: Rate,
    /// Sign-ups (a password set) and log-ins one address may make: each costs an argon2 hash, and
    /// log-ins are how passwords would be guessed.
    pub accounts_rate: Rate,
}

impl Default for Edge {
    fn default() -> Self {
        Edge {
            hosts: Hosts::Local,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            max_connections: 10_000,
            max_connections_per_address: 256,
            shutdown_grace: Duration::from_secs(3),
            games_rate: Rate { per_minute: 120, burst: 60 },
            seeks_rate: Rate { per_minute: 30, burst: 15 },
            accounts_rate: Rate { per_minute: 10, burst: 5 },
        }
    }
}

/// The content security policy: everything from this server only, nothing inline, no framing.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
                   frame-ancestors 'none'";

/// Wraps `app` in the edge's checks and headers.
pub fn wrap(app: Router, edge: &Edge) -> Router {
    let set = |name: &'static str, value: &'static str| {
        SetResponseHeaderLayer::if_not_present(
            header::HeaderName::from_static(name),
            HeaderValue::from_static(value),
        )
    };
    let mut app = app
        .layer(axum::middleware::from_fn_with_state(Arc::new(edge.hosts.clone()), check))
        .layer(RequestBodyTimeoutLayer::new(edge.body_timeout))
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, edge.request_timeout))
        .layer(set("content-security-policy", CSP))
        .layer(set("x-content-type-options", "nosniff"))
        .layer(set("referrer-policy", "no-referrer"))
        .layer(set("x-frame-options", "DENY"))
        .layer(set("cross-origin-opener-policy", "same-origin"));
    if edge.hosts.public_url().is_some_and(|u| u.to_string().starts_with("https:")) {
        app = app.layer(set("strict-transport-security", "max-age=31536000"));
    }
    // Outermost, so that it sees the refusals of every layer above.
    app.layer(axum::middleware::map_response(json_errors))
}

/// Refuses requests for other hosts, state changes and WebSockets from other origins, and
/// bodies that are not JSON.
async fn check(State(hosts): State<Arc<Hosts>>, req: Request, next: Next) -> Response {
    match refusal(&hosts, &req) {
        None => next.run(req).await,
        Some(e) => e.into_response(),
    }
}

fn refusal(hosts: &Hosts, req: &Request) -> Option<ApiError> {
    let h = req.headers();
    let host = req.uri().authority().map(|a| a.as_str()).or_else(|| h.get(header::HOST)?.to_str().ok());
    let Some(host) = host.filter(|host| hosts.allows_host(host)) else {
        let shown: String = host.unwrap_or("").chars().take(100).collect();
        return Some(ApiError::WrongHost(format!("this server does not answer for the host {shown:?}")));
    };
    let upgrade = h.get(header::UPGRADE).is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"websocket"));
    let changes = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if upgrade || changes {
        // Browsers always say where a WebSocket or a cross-site request comes from; programs
        // that do not are not pages of another site.
        if let Some(origin) = h.get(header::ORIGIN) {
            let o = origin.to_str().unwrap_or("");
            if !hosts.allows_origin(o, host) {
                let shown: String = o.chars().take(100).collect();
                return Some(ApiError::Forbidden(format!("requests from pages of {shown:?} are refused")));
            }
        }
    }
    if *req.method() == Method::POST && req.uri().path().starts_with("/api/") {
        let json = h.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|ct| {
            ct.split(';').next().is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
        });
        if !json {
            return Some(ApiError::UnsupportedMediaType(
                "the request body must be JSON, sent as content-type application/json".into(),
            ));
        }
    }
    None
}

/// The most of a refusal's own text kept in its JSON error.
const REFUSAL_TEXT: usize = 1024;

/// Turns any refusal that is not JSON yet (the framework's own: a bad path or query, a wrong
/// method, a timeout) into `{"error": "…"}`, keeping its status and its text.
async fn json_errors(resp: Response) -> Response {
    let status = resp.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return resp;
    }
    let is_json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if is_json {
        return resp;
    }
    let (mut parts, body) = resp.into_parts();
    let text = axum::body::to_bytes(body, REFUSAL_TEXT)
        .await
        .ok()
        .and_then(|b| String::from_utf8(b.to_vec()).ok())
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| status.canonical_reason().unwrap_or("refused").to_string());
    // The framework's texts start with a capital; ours are lowercase sentences.
    let mut chars = text.chars();
    let text: String = chars.next().map(|c| c.to_lowercase().chain(chars).collect()).unwrap_or_default();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    Response::from_parts(parts, Body::from(serde_json::json!({ "error": text }).to_string()))
}
