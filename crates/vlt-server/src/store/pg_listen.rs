//! The other servers' changes, heard with `LISTEN`: each write to a game, once committed, is
//! followed by a notification on `vlt_games` with the writing server's name and the game's id
//! (`offers <id>` for its offers, `presence <id>` for its players' sockets), so what is heard is
//! already in the database. One connection of its own listens, reconnecting after a
//! failure; after every (re)connection a [`Change::Resync`] says that changes may have been missed.

use super::postgres::CHANNEL;
use futures_util::StreamExt;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;
use tokio_postgres::{AsyncMessage, NoTls};

/// A change made by another server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Game `id` changed: moves, seats, clock or result.
    Game(String),
    /// The offers of game `id` changed: a takeback or a rematch asked or answered.
    Offers(String),
    /// Another server's count of game `id`'s players' open sockets changed.
    Presence(String),
    /// The listening connection was (re)made: any game may have changed meanwhile.
    Resync,
}

impl Change {
    /// The change a notification names after its server: `<game>`, `offers <game>` or
    /// `presence <game>`.
    fn read(what: &str) -> Change {
        match what.split_once(' ') {
            Some(("offers", id)) => Change::Offers(id.to_string()),
            Some(("presence", id)) => Change::Presence(id.to_string()),
            _ => Change::Game(what.to_string()),
        }
    }
}

/// How long the listener waits before connecting again.
const RECONNECT: Duration = Duration::from_secs(1);

/// Listens for ever, sending every change not made by `me` to `changes`; `ready` hears once that
/// the first `LISTEN` is in force.
pub(crate) async fn listen(
    config: tokio_postgres::Config,
    me: Arc<str>,
    changes: broadcast::Sender<Change>,
    ready: std::sync::mpsc::SyncSender<()>,
) {
    let mut ready = Some(ready);
    loop {
        if let Ok((client, mut conn)) = config.connect(NoTls).await {
            let mut messages = futures_util::stream::poll_fn(move |cx| conn.poll_message(cx));
            let sql = format!("LISTEN {CHANNEL}");
            let ok = {
                // The connection is driven by reading its messages, the LISTEN's answer included.
                let mut listening = std::pin::pin!(client.batch_execute(&sql));
                loop {
                    tokio::select! {
                        r = &mut listening => break r.is_ok(),
                        m = messages.next() => if !matches!(m, Some(Ok(_))) { break false },
                    }
                }
            };
            if ok {
                if let Some(r) = ready.take() {
                    let _ = r.send(());
                }
                let _ = changes.send(Change::Resync);
                while let Some(Ok(m)) = messages.next().await {
                    if let AsyncMessage::Notification(n) = m {
                        match n.payload().split_once(' ') {
                            Some((from, what)) if from != &*me => {
                                let _ = changes.send(Change::read(what));
                            }
                            _ => {}
                        }
                    }
                }
            }
            drop(client);
        }
        tokio::time::sleep(RECONNECT).await;
    }
}
