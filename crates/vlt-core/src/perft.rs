//! Move-path counting (N4), the standard check of a move generator.

use crate::Position;

/// The number of move sequences of exactly `depth` moves from `position` (N4). A game that ends
/// earlier adds nothing; repetition (R7) is ignored.
#[must_use]
pub fn perft(position: Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = position.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.map(|m| perft(position.play_unchecked(m), depth - 1)).sum()
}
