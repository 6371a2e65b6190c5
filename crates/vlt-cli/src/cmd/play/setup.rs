//! How a game is set up: the opponent, the sides, the start, the animation, the seed (the start
//! menu and the command line's flags both fill it in).

use vlt_core::{Player, Position};
use vlt_engine::Level;

/// Who plays against the user.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Another person at the same keyboard.
    Human,
    /// The engine at a level.
    Computer(Level),
}

/// How a game is set up (the start menu, or the command line's flags).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The opponent.
    pub opponent: Opponent,
    /// The side the user plays against the computer.
    pub human: Player,
    /// Who moves first (R2); ignored when a start position is given.
    pub first: Player,
    /// A start position (N2) instead of the usual one.
    pub position: Option<Position>,
    /// Animate moves stone by stone.
    pub animate: bool,
    /// The seed of the computer's choices; each move uses it plus the move number.
    pub seed: u64,
}

impl Setup {
    /// The position a new game starts from.
    pub fn start(&self) -> Position {
        self.position.unwrap_or_else(|| Position::start(self.first))
    }

    /// True when `p` is played by the computer.
    pub fn is_computer(&self, p: Player) -> bool {
        matches!(self.opponent, Opponent::Computer(_)) && p != self.human
    }
}
