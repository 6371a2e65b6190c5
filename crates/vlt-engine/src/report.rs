//! What a search reports: progress after each iteration, and its result.

use crate::STONE;
use std::time::Duration;
use vlt_core::Move;

/// Progress of a running search, reported after each finished iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Depth completed.
    pub depth: u32,
    /// Score in stones for the player to move: its future captures minus the opponent's.
    pub score: i32,
    /// True when the score is proven (finished search or tablebase).
    pub exact: bool,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play.
    pub best: Move,
    /// The final iteration's information (score, depth, nodes, pv).
    pub info: SearchInfo,
    /// Every legal move with its score for the player to move, best first. The best move's score is
    /// exact; with [`Engine::search`] the others are upper bounds (PVS proves only that they are
    /// not better), with [`Engine::analyse`] every score is exact.
    pub moves: Vec<(Move, i32)>,
}

/// Centistones to whole stones, rounded to nearest.
#[must_use]
pub fn to_stones(cs: i32) -> i32 {
    (cs + STONE / 2).div_euclid(STONE)
}
