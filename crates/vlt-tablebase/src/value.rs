//! The value of a move, from the value of the position it leads to (the crate's definition of
//! values): shared by the builder, the verifier, probing and the solver.

use vlt_core::{Player, Position};

/// The value of a move for its mover: the stones it captured plus what follows, seen from the mover
/// (R5, N3: the mover may move again when the opponent's row is empty).
#[inline]
#[must_use]
pub fn move_value(mover: Player, captured: u8, child: Position, child_value: i8) -> i8 {
    if child.to_move() == mover && !child.is_game_over() {
        captured as i8 + child_value
    } else {
        captured as i8 - child_value
    }
}
