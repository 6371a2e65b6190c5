//! What bounds a search: depth, nodes, time, a clock, and a flag to stop it from another thread.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A flag another thread sets to stop a search early; the search then returns its best so far.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// A new, unset flag.
    #[must_use]
    pub fn new() -> Stop {
        Stop::default()
    }
    /// Asks the search to stop.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    /// True once [`Stop::stop`] was called.
    #[must_use]
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// What bounds a search. All `None` means: search until stopped (or a proven result).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in moves.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// Clock: the mover's remaining time and increment; the engine budgets its time from these.
    pub clock: Option<Clock>,
    /// Depth finished whatever the time limits say: time stops only deeper iterations. (Level 10
    /// uses it so that a busy machine never makes it search less than level 9.)
    pub min_depth: Option<u32>,
}

/// A player's clock (time management).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
}
