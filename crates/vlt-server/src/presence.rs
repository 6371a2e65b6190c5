//! Whether the players of a game are connected, across servers: each server counts the players'
//! sockets open on it and tells its own watchers at once; with a shared store it also writes its
//! count (under its lease, see `servers`) and notifies the others, which read every other server's
//! count again and tell their watchers. A server that dies stops counting once its lease expires.

use crate::hub::Hub;
use crate::live::Live;
use std::sync::Arc;
use vlt_core::Player;

impl Hub {
    /// Notes a seat holder's socket opening (`open`) or closing on this server, tells every
    /// watcher here, and, with a shared store, the other servers.
    pub(crate) fn set_present(self: &Arc<Self>, live: &Arc<Live>, seat: Player, open: bool) {
        live.set_present(seat, open);
        if !self.store.shared() {
            return;
        }
        // Called when a socket closes too, from a drop: no waiting there.
        let Ok(rt) = tokio::runtime::Handle::try_current() else { return };
        let (hub, live) = (Arc::clone(self), Arc::clone(live));
        rt.spawn(async move {
            let _turn = live.publishing.lock().await;
            // The count as it is now, not as it was when asked: the last write holds the latest.
            let (sockets, server, id) =
                (live.local_sockets(), hub.lobby.server().to_string(), live.id().to_string());
            // A failed write leaves the others with the count before it until the next change.
            let _ = hub.db(move |s| s.publish_presence(&server, &id, sockets)).await;
        });
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
