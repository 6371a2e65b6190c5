//! The server's bounds and the fixed limits behind them.

use std::time::Duration;

/// The server's bounds.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// The largest WebSocket message, in bytes.
    pub max_message: usize,
    /// The most unfinished games at once; creating more is refused with 503. Games left
    /// untouched for [`ABANDONED_AFTER`] no longer count (they stay playable).
    pub max_open_games: usize,
    /// The engine's thinking time for one move, hint or analysis, in milliseconds.
    pub engine_ms: u64,
    /// How many engine searches run at once (each on its own blocking thread).
    pub engine_threads: usize,
    /// The game review's search time for each position, in milliseconds (the review runs in the
    /// background on its own thread; positions inside the tables take no search).
    pub review_ms: u64,
    /// How long a clocked game waits for its first move before it is aborted, in milliseconds.
    pub abort_ms: u64,
    /// Whether the player cookie is marked `Secure` (sent over HTTPS only): on when the server is
    /// reached through HTTPS.
    pub secure_cookie: bool,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            max_body: 64 * 1024,
            max_message: 4096,
            max_open_games: 10_000,
            engine_ms: 1500,
            engine_threads: 2,
            review_ms: 200,
            abort_ms: 30_000,
            secure_cookie: false,
        }
    }
}

/// An unfinished game untouched for this long counts as abandoned for the open-games bound.
pub const ABANDONED_AFTER: Duration = Duration::from_secs(30 * 24 * 3600);
