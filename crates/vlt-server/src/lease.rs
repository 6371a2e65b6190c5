//! Clocks under leases, for servers sharing one database: each unfinished clocked game's clock is
//! run by the one server holding its lease (a row with an expiry, renewed by its holder every
//! second). A server that dies stops renewing; once its leases expire another server takes them,
//! loads those games and arms their timers, so a player whose time runs out still loses on time.
//! Only the holder's timers act; the others' find they do not hold the lease and leave it.

use crate::hub::Hub;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;

/// How long a lease lasts unless renewed, in milliseconds: a dead server's clocks are taken over
/// within this and one renewal period.
pub const LEASE_MS: i64 = 3000;

/// How often a server renews its leases and looks for expired ones.
const RENEW: Duration = Duration::from_millis(1000);

impl Hub {
    /// Renews and takes clock leases while the hub lives (a shared store only).
    pub(crate) fn run_leases(self: &Arc<Self>) {
        if !self.store.shared() {
            return;
        }
        self.every(RENEW, |hub| async move {
            // A failure is tried again at the next tick; meanwhile another server may take the
            // leases over, which is what a server cut off from the database should let happen.
            if let Ok(taken) = hub.db(|s| s.lease_clocks(LEASE_MS)).await {
                for id in taken {
                    if let Ok(live) = hub.get(&id).await {
                        let mut g = live.state.lock().await;
                        hub.arm(&live, &mut g);
                    }
                }
            }
            ControlFlow::Continue(())
        });
    }
}
