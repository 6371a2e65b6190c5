//! Each server's lease in the store: a row with an expiry that the server renews every second
//! while it runs, under which it holds what it shares in the lobby (the seeks posted on it, the
//! count of the players' sockets open on it). A server that dies stops renewing: within
//! [`SERVER_LEASE_MS`] its seeks leave every lobby and its sockets stop counting as players being
//! there, and the next renewal of any server deletes them (telling the games' watchers).
//! A server that stops cleanly gives its lease up at once ([`Hub::leave`]). The same on both
//! stores: alone on SQLite, the lease only ever lapses across a restart.

use crate::hub::Hub;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;

/// How long a server's lease lasts unless renewed, in milliseconds.
pub const SERVER_LEASE_MS: i64 = 5000;

/// How often a server renews its lease.
const RENEW: Duration = Duration::from_millis(1000);

impl Hub {
    /// Renews this server's lease while the hub lives.
    pub(crate) fn run_server_lease(self: &Arc<Self>) {
        self.every(RENEW, |hub| async move {
            if hub.lobby.has_left() {
                return ControlFlow::Break(());
            }
            let name = hub.lobby.server().to_string();
            // A failure is tried again at the next tick; meanwhile the lease may lapse, which is
            // what a server cut off from the database should let happen.
            if let Ok(games) = hub.db(move |s| s.renew_server(&name, SERVER_LEASE_MS)).await {
                for id in games {
                    hub.refresh_presence(&id).await;
                }
            }
            ControlFlow::Continue(())
        });
    }

    /// Gives this server's lease up (it stops): its seeks leave the lobby and its players'
    /// sockets stop counting at once, rather than once the lease expires. Best effort: when the
    /// store fails, the lease lapses as a dead server's does.
    pub async fn leave(self: &Arc<Self>) {
        self.lobby.leave();
        let name = self.lobby.server().to_string();
        let _ = self.db(move |s| s.leave_server(&name)).await;
    }
}
