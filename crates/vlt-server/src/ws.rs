//! The WebSocket of a game: `GET /api/games/{id}/ws?token=…`. The server sends the game on connect
//! and after every change; a seat holder may send moves and resign through it. Without a token (or
//! with a wrong one) the socket only watches. Messages are bounded in size; a client that falls
//! behind is sent the whole game again rather than the updates it missed.

use crate::hub::Hub;
use crate::live::Live;
use crate::seat::{Caller, Seat};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

#[derive(serde::Deserialize)]
pub(crate) struct WsQuery {
    token: Option<String>,
}

#[derive(serde::Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
enum ClientMsg {
    Move {
        #[serde(rename = "move")]
        mv: String,
    },
    Resign,
    Ping,
}

pub(crate) async fn upgrade(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    headers: axum::http::HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, crate::error::ApiError> {
    let live = hub.get(&id).await?;
    let token = q.token.unwrap_or_default();
    let who = crate::routes::caller(&hub, &headers, &token).await?;
    let seat = hub.seat_of(&id, &who).await?;
    let max = hub.bounds.max_message;
    // Small buffers: a socket carries small messages, and thousands may be open; a client that
    // stops reading is cut off once a bounded backlog waits for it.
    let ws = ws.read_buffer_size(8 * 1024).write_buffer_size(0).max_write_buffer_size(WRITE_BACKLOG);
    Ok(ws.max_message_size(max).max_frame_size(max).on_upgrade(move |socket| async move {
        run(socket, hub, live, id, who, seat).await;
    }))
}

/// The most bytes waiting to be sent to one socket before it is closed.
const WRITE_BACKLOG: usize = 256 * 1024;

fn text(v: serde_json::Value) -> Message {
    Message::Text(v.to_string().into())
}

async fn run(socket: WebSocket, hub: Arc<Hub>, live: Arc<Live>, id: String, who: Caller, seat: Option<Seat>) {
    let mut rx = live.subscribe();
    let (mut tx, mut incoming) = socket.split();
    let Ok(view) = hub.view(&id).await else { return };
    let hello = serde_json::json!({ "type": "state", "you": seat, "game": view });
    if tx.send(text(hello)).await.is_err() {
        return;
    }
    // Who is here on the other servers, as it is now (this server hears of changes from then on).
    hub.refresh_presence(&id).await;
    // A seat holder's socket counts as that player being here, until it closes.
    let _here = match seat {
        Some(Seat::One(p)) => Some(Presence::new(&hub, &live, p)),
        _ => None,
    };
    if _here.is_none() && tx.send(Message::Text(live.presence_message().into())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            update = rx.recv() => match update {
                Ok(msg) => {
                    if tx.send(Message::Text(msg.as_ref().into())).await.is_err() {
                        return;
                    }
                }
                Err(RecvError::Lagged(_)) => {
                    let Ok(view) = hub.view(&id).await else { return };
                    if tx.send(text(serde_json::json!({ "type": "update", "game": view }))).await.is_err() {
                        return;
                    }
                }
                Err(RecvError::Closed) => return,
            },
            msg = incoming.next() => {
                let reply = match msg {
                    Some(Ok(Message::Text(t))) => handle(&hub, &id, &who, seat.is_some(), t.as_str()).await,
                    Some(Ok(Message::Binary(_))) => Some(error("binary messages are not understood")),
                    Some(Ok(_)) => None, // ping/pong are answered by the library
                    Some(Err(_)) | None => return, // closed, or a message over the size bound
                };
                if let Some(r) = reply {
                    if tx.send(r).await.is_err() {
                        return;
                    }
                }
            }
        }
    }
}

/// A seat holder's open socket: counted while it lives.
struct Presence<'a> {
    hub: &'a Arc<Hub>,
    live: &'a Arc<Live>,
    seat: vlt_core::Player,
}

impl<'a> Presence<'a> {
    fn new(hub: &'a Arc<Hub>, live: &'a Arc<Live>, seat: vlt_core::Player) -> Presence<'a> {
        hub.set_present(live, seat, true);
        Presence { hub, live, seat }
    }
}

impl Drop for Presence<'_> {
    fn drop(&mut self) {
        self.hub.set_present(self.live, self.seat, false);
    }
}

fn error(msg: &str) -> Message {
    text(serde_json::json!({ "type": "error", "error": msg }))
}

/// Handles one client message; the update itself reaches this client through the broadcast.
async fn handle(hub: &Arc<Hub>, id: &str, who: &Caller, seated: bool, t: &str) -> Option<Message> {
    let msg: ClientMsg = match serde_json::from_str(t) {
        Ok(m) => m,
        Err(e) => return Some(error(&format!("message: {e}"))),
    };
    if !seated && !matches!(msg, ClientMsg::Ping) {
        return Some(error("spectators cannot move: this socket holds no seat"));
    }
    let r = match msg {
        ClientMsg::Ping => return Some(text(serde_json::json!({ "type": "pong" }))),
        ClientMsg::Move { mv } => hub.play_answering(id, who, &mv, |_| ()).await,
        ClientMsg::Resign => hub.resign(id, who).await.map(|_| ()),
    };
    r.err().map(|e| error(&e.to_string()))
}
