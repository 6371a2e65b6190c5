//! The timers that act on clocks without any request arriving: one task per game with a running
//! clock (or awaiting its first move), sleeping until that moment, then ending the game on time
//! (the other side wins) or aborting it, and telling every watcher at once.

use crate::clock::now_ms;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::kinds::Forfeit;
use crate::live::{Live, LiveGame};
use std::future::Future;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;

/// How long a timer waits before trying again when the store failed.
const RETRY: Duration = Duration::from_secs(1);

impl Hub {
    /// (Re)sets game `g`'s timer for its next deadline: the running side's flag, or the abort of a
    /// game whose first move has not come. Called, with the game locked, after every change.
    pub(crate) fn arm(self: &Arc<Self>, live: &Arc<Live>, g: &mut LiveGame) {
        if let Some(t) = g.timer.take() {
            t.abort();
        }
        if g.over() {
            return;
        }
        let Some(c) = g.row.clock else { return };
        let Some(at) = c.flag_at().or_else(|| c.abort_at(self.bounds.abort_ms)) else { return };
        let (hub, live) = (Arc::clone(self), Arc::clone(live));
        let task = tokio::spawn(async move {
            let wait = u64::try_from(at - now_ms()).unwrap_or(0);
            tokio::time::sleep(Duration::from_millis(wait)).await;
            while hub.on_timer(&live).await.is_err() {
                tokio::time::sleep(RETRY).await;
            }
        });
        g.timer = Some(task.abort_handle());
    }

    /// A timer's moment came: the game ends on time or is aborted if that is still due (a move may
    /// have come first), else the timer is set again.
    async fn on_timer(self: &Arc<Self>, live: &Arc<Live>) -> Result<(), ApiError> {
        let mut g = live.state.lock().await;
        // This task is the timer: forget it without aborting it.
        g.timer = None;
        if g.over() {
            return Ok(());
        }
        let Some(c) = g.row.clock else { return Ok(()) };
        if self.store.shared() {
            // Another server runs this clock while it holds the lease; if it stops, the lease
            // passes to a server that arms the timer again.
            let key = g.row.id.clone();
            if !self.db(move |s| s.owns_clock(&key)).await? {
                return Ok(());
            }
        }
        let now = now_ms();
        if let Some(side) = c.flagged(now) {
            return self.end_by_forfeit(live, &mut g, Forfeit { side, time: true }).await;
        }
        if c.abort_at(self.bounds.abort_ms).is_some_and(|t| t <= now) {
            return self.abort(live, &mut g).await;
        }
        self.arm(live, &mut g);
        Ok(())
    }

    /// Aborts a game whose first move did not come in time: over, without a result or rating.
    async fn abort(self: &Arc<Self>, live: &Arc<Live>, g: &mut LiveGame) -> Result<(), ApiError> {
        let mut clock = g.row.clock;
        if let Some(c) = clock.as_mut() {
            c.stop(now_ms());
            c.since_ms = 0;
        }
        let key = g.row.id.clone();
        crate::hub::game_write!(self, abort(&key, clock))?;
        g.row.aborted = true;
        g.row.finished = true;
        g.row.clock = clock;
        g.version += 1;
        live.broadcast(g);
        Ok(())
    }

    /// Runs `step` every `period` while the hub lives, until it answers [`ControlFlow::Break`].
    /// The task holds the hub only during a step, so it never keeps a stopped server alive; a
    /// step that fails is tried again at the next tick, which is the step's own choice.
    pub(crate) fn every<F, Fut>(self: &Arc<Self>, period: Duration, mut step: F)
    where
        F: FnMut(Arc<Hub>) -> Fut + Send + 'static,
        Fut: Future<Output = ControlFlow<()>> + Send,
    {
        let hub = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(period);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let Some(hub) = hub.upgrade() else { return };
                if step(hub).await.is_break() {
                    return;
                }
            }
        });
    }

    /// Brings the clocks to life at start, and this server's lease (see `servers`). Alone, every unfinished game with a clock is loaded, so
    /// that its timer runs again after a restart; with a shared store, this server starts hearing
    /// the others' changes and taking clock leases (it loads the games whose lease it takes).
    /// Answers the games loaded now.
    ///
    /// # Errors
    /// [`ApiError::Internal`] if the store fails.
    pub async fn resume_clocks(self: &Arc<Self>) -> Result<usize, ApiError> {
        self.run_server_lease();
        if self.store.shared() {
            self.follow_changes();
            self.run_leases();
            return Ok(0);
        }
        let ids = self.db(crate::store::Store::clocked_unfinished).await?;
        for id in &ids {
            self.get(id).await?;
        }
        Ok(ids.len())
    }
}
