//! The two players and per-player pairs (R1, R2).

use std::fmt;
use std::ops::{Index, IndexMut};
use std::str::FromStr;

/// One of the two players (R1). `B` owns the bottom row and moves first by default (R2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Player {
    /// The bottom row, holes `1B`…`6B`; moves first by default (R2).
    B = 0,
    /// The top row, holes `1A`…`6A`.
    A = 1,
}

impl Player {
    /// Both players, B first (R2).
    pub const BOTH: [Player; 2] = [Player::B, Player::A];

    /// The other player.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Player {
        match self {
            Player::B => Player::A,
            Player::A => Player::B,
        }
    }

    /// 0 for B, 1 for A: the index of this player in per-player arrays.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The player whose index is `i & 1`.
    #[inline]
    #[must_use]
    pub const fn from_index(i: usize) -> Player {
        if i & 1 == 0 { Player::B } else { Player::A }
    }

    /// The letter of this player in the notation (N1, N2).
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Player::B => 'B',
            Player::A => 'A',
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// The text was not `A` or `B` (N2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePlayerError(pub String);

impl fmt::Display for ParsePlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected player A or B, found {:?}", self.0)
    }
}

impl std::error::Error for ParsePlayerError {}

impl FromStr for Player {
    type Err = ParsePlayerError;

    /// `A` or `B`, case-insensitive (N1).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "B" | "b" => Ok(Player::B),
            "A" | "a" => Ok(Player::A),
            _ => Err(ParsePlayerError(s.to_string())),
        }
    }
}

/// A value for each player, indexed by [`Player`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByPlayer<T> {
    /// B's value.
    pub b: T,
    /// A's value.
    pub a: T,
}

impl<T> ByPlayer<T> {
    /// A pair from B's and A's values.
    pub const fn new(b: T, a: T) -> Self {
        ByPlayer { b, a }
    }
}

impl<T> Index<Player> for ByPlayer<T> {
    type Output = T;
    fn index(&self, p: Player) -> &T {
        match p {
            Player::B => &self.b,
            Player::A => &self.a,
        }
    }
}

impl<T> IndexMut<Player> for ByPlayer<T> {
    fn index_mut(&mut self, p: Player) -> &mut T {
        match p {
            Player::B => &mut self.b,
            Player::A => &mut self.a,
        }
    }
}
