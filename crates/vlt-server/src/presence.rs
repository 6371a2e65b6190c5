//! Whether the players of a game are connected, across servers: each server counts the players'
//! sockets open on it and tells its own watchers at once; with a shared store it also writes its
//! count (under its lease, see `servers`) and notifies the others, which read every other server's
//! count again and tell their watchers. A server that dies stops counting once its lease expires.
//!
//! The writes go out in batches: sockets open and close in bursts (a thousand players arriving
//! at once), and one transaction per change would spend a commit on each while moves wait for
//! the database. A change marks its game in the [`Outbox`]; one task at a time drains it, writing
//! every marked game's count as it is then in one transaction, so the last write holds the latest.

use crate::hub::Hub;
use crate::live::Live;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use vlt_core::Player;

/// The most games' counts written in one transaction.
const BATCH: usize = 512;

/// The games whose count on this server changed since it was last written.
#[derive(Debug, Default)]
pub(crate) struct Outbox {
    marked: Mutex<HashMap<String, Arc<Live>>>,
    /// Whether a task is draining the outbox: at most one, so that writes of a game never race.
    draining: AtomicBool,
}

impl Outbox {
    fn take(&self, n: usize) -> Vec<Arc<Live>> {
        let mut m = self.marked.lock().unwrap_or_else(PoisonError::into_inner);
        let keys: Vec<String> = m.keys().take(n).cloned().collect();
        keys.iter().filter_map(|k| m.remove(k)).collect()
    }

    fn is_empty(&self) -> bool {
        self.marked.lock().unwrap_or_else(PoisonError::into_inner).is_empty()
    }
}

impl Hub {
    /// Notes a seat holder's socket opening (`open`) or closing on this server, tells every
    /// watcher here, and, with a shared store, the other servers.
    pub(crate) fn set_present(self: &Arc<Self>, live: &Arc<Live>, seat: Player, open: bool) {
        live.set_present(seat, open);
        if !self.store.shared() {
            return;
        }
        let out = &self.presence_out;
        out.marked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(live.id().to_string(), Arc::clone(live));
        if out.draining.swap(true, Ordering::AcqRel) {
            return; // the running task writes it
        }
        // Called when a socket closes too, from a drop: no waiting there.
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            out.draining.store(false, Ordering::Release);
            return;
        };
        let hub = Arc::clone(self);
        rt.spawn(async move { hub.drain_presence().await });
    }

    /// Writes the marked games' counts until none is left, then lets the next change start a
    /// task again.
    async fn drain_presence(self: Arc<Self>) {
        let out = &self.presence_out;
        loop {
            let batch = out.take(BATCH);
            if batch.is_empty() {
                out.draining.store(false, Ordering::Release);
                // A change marked after the take but before the store found the flag still set
                // and left its game to this task: take it up unless another task already has.
                if out.is_empty() || out.draining.swap(true, Ordering::AcqRel) {
                    return;
                }
                continue;
            }
            // The counts as they are now, not as they were when marked.
            let counts: Vec<(String, [usize; 2])> =
                batch.iter().map(|l| (l.id().to_string(), l.local_sockets())).collect();
            let server = self.lobby.server().to_string();
            // A failed write leaves the others with the counts before it until the next change.
            let _ = self.db(move |s| s.publish_presence(&server, &counts)).await;
        }
    }

    /// Reads the other servers' counts of game `id`'s players' sockets again, if the game is in
    /// memory here, and tells its watchers when who is here changed.
    pub(crate) async fn refresh_presence(self: &Arc<Self>, id: &str) {
        if !self.store.shared() {
            return;
        }
        let Some(live) = self.games.get(id) else { return };
        let (server, key) = (self.lobby.server().to_string(), id.to_string());
        if let Ok(sockets) = self.db(move |s| s.remote_presence(&server, &key)).await {
            live.set_remote(sockets);
        }
    }
}
