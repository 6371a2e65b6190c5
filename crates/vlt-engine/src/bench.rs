//! A deterministic search benchmark: fixed positions, fixed depth, one thread, a fresh table.
//! The node count is a signature of the search: a change to the search that changes it says so.

use crate::{Engine, EngineConfig, Limits, Stop};
use std::time::{Duration, Instant};
use vlt_core::{Game, Position};

/// The benchmark positions (N2): the start, the rule texts' worked examples, and positions from play.
pub const BENCH_POSITIONS: [&str; 8] = [
    "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0",
    "7,2,3,1,4,2/3,0,4,2,1,3 B 14 14",
    "0,6,6,6,6,6/5,5,5,5,5,5 A 0 0",
    "1,0,1,0,1,0/1,2,0,1,2,0 A 25 26",
    "3,0,8,2,1,6/0,4,1,9,2,3 B 10 11",
    "12,0,1,3,0,2/4,1,0,6,2,1 B 12 16",
    "0,1,0,2,0,0/1,0,3,0,1,0 A 26 26",
    "2,9,1,0,4,3/6,0,2,7,1,5 A 8 12",
];

/// The depth each benchmark position is searched to.
pub const BENCH_DEPTH: u32 = 14;

/// The outcome of [`bench`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes over all positions: the signature.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

impl BenchResult {
    /// Nodes per second.
    #[must_use]
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches each of [`BENCH_POSITIONS`] to `depth` on one thread with a fresh 16 MiB table.
///
/// # Panics
/// Never for the built-in positions (they all parse and have moves).
#[must_use]
pub fn bench(depth: u32) -> BenchResult {
    let mut engine = Engine::new(EngineConfig { hash_mb: 16, threads: 1, ..EngineConfig::default() });
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let mut nodes = 0;
    let t = Instant::now();
    for s in BENCH_POSITIONS {
        let pos: Position = s.parse().expect("bench positions are valid");
        engine.clear();
        let r = engine
            .search(&Game::new(pos), &limits, &Stop::new(), &mut |_| {})
            .expect("bench positions have moves");
        nodes += r.info.nodes;
    }
    BenchResult { nodes, elapsed: t.elapsed() }
}
