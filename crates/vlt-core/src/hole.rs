//! Holes and moves and their names (R1, N1).

use crate::Player;
use std::fmt;
use std::str::FromStr;

/// Number of holes on the board (R1).
pub const HOLES: usize = 12;
/// Holes in each player's row (R1).
pub const ROW: usize = 6;

/// A hole of the board (R1), by its index in the ring: 0 = `1B` … 5 = `6B`, 6 = `1A` … 11 = `6A`.
///
/// The index order is the sowing order, so the next hole is always `index + 1` modulo 12.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hole(u8);

impl Hole {
    /// All twelve holes in ring order, `1B` first (R1).
    pub const ALL: [Hole; HOLES] = {
        let mut all = [Hole(0); HOLES];
        let mut i = 0;
        while i < HOLES {
            all[i] = Hole(i as u8);
            i += 1;
        }
        all
    };

    /// The hole at ring index `i` (0..12), or `None`.
    #[must_use]
    pub const fn from_index(i: usize) -> Option<Hole> {
        if i < HOLES { Some(Hole(i as u8)) } else { None }
    }

    /// The hole at ring index `i`, which the caller knows is below 12.
    #[inline(always)]
    pub(crate) const fn ring(i: u8) -> Hole {
        debug_assert!((i as usize) < HOLES);
        Hole(i)
    }

    /// The hole numbered `number` (1..=6) in `owner`'s row, or `None` (N1).
    #[must_use]
    pub const fn new(owner: Player, number: u8) -> Option<Hole> {
        if number >= 1 && number as usize <= ROW {
            Some(Hole(owner.index() as u8 * ROW as u8 + number - 1))
        } else {
            None
        }
    }

    /// The ring index, 0..12.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The player whose row holds this hole (R1).
    #[inline]
    #[must_use]
    pub const fn owner(self) -> Player {
        if (self.0 as usize) < ROW { Player::B } else { Player::A }
    }

    /// The hole's number in its owner's row, 1..=6 (N1).
    #[inline]
    #[must_use]
    pub const fn number(self) -> u8 {
        self.0 % ROW as u8 + 1
    }

    /// The hole `steps` further on in the sowing direction (R1).
    #[inline]
    #[must_use]
    pub const fn forward(self, steps: usize) -> Hole {
        Hole(((self.0 as usize + steps) % HOLES) as u8)
    }

    /// The hole `steps` back against the sowing direction (R4's chain walks this way).
    #[inline]
    #[must_use]
    pub const fn backward(self, steps: usize) -> Hole {
        Hole(((self.0 as usize + HOLES - steps % HOLES) % HOLES) as u8)
    }
}

impl fmt::Display for Hole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.number(), self.owner())
    }
}

/// Why a hole or move name did not parse (N1).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseHoleError {
    /// The text is not `1`…`6` followed by `A` or `B`.
    Syntax(String),
    /// A bare number was given where the player to move is not known.
    NeedsOwner(String),
}

impl fmt::Display for ParseHoleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseHoleError::Syntax(s) => {
                write!(f, "{s:?} is not a hole: expected 1B…6B or 1A…6A")
            }
            ParseHoleError::NeedsOwner(s) => {
                write!(f, "{s:?} does not say whose hole: expected 1B…6B or 1A…6A")
            }
        }
    }
}

impl std::error::Error for ParseHoleError {}

impl Hole {
    /// Parses a hole name, case-insensitive; a bare `1`…`6` means `default_owner`'s hole when given (N1).
    ///
    /// # Errors
    /// [`ParseHoleError`] when the text names no hole.
    pub fn parse_with(s: &str, default_owner: Option<Player>) -> Result<Hole, ParseHoleError> {
        let t = s.trim();
        let b = t.as_bytes();
        let digit = |c: u8| (b'1'..=b'6').contains(&c).then(|| c - b'0');
        match b {
            [d] => match (digit(*d), default_owner) {
                (Some(n), Some(p)) => Ok(Hole::new(p, n).expect("1..=6")),
                (Some(_), None) => Err(ParseHoleError::NeedsOwner(s.to_string())),
                (None, _) => Err(ParseHoleError::Syntax(s.to_string())),
            },
            [d, p] => {
                let n = digit(*d).ok_or_else(|| ParseHoleError::Syntax(s.to_string()))?;
                let owner = match p {
                    b'B' | b'b' => Player::B,
                    b'A' | b'a' => Player::A,
                    _ => return Err(ParseHoleError::Syntax(s.to_string())),
                };
                Ok(Hole::new(owner, n).expect("1..=6"))
            }
            _ => Err(ParseHoleError::Syntax(s.to_string())),
        }
    }
}

impl FromStr for Hole {
    type Err = ParseHoleError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Hole::parse_with(s, None)
    }
}

/// A move: the hole it sows from (N1). Whether it is legal depends on the position (R3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(pub Hole);

impl Move {
    /// The hole this move sows from.
    #[inline]
    #[must_use]
    pub const fn hole(self) -> Hole {
        self.0
    }

    /// The player who may make this move: the owner of its hole (R3).
    #[inline]
    #[must_use]
    pub const fn player(self) -> Player {
        self.0.owner()
    }

    /// Parses a move, case-insensitive; a bare `1`…`6` is `mover`'s hole when given (N1).
    ///
    /// # Errors
    /// [`ParseHoleError`] when the text names no hole.
    pub fn parse_with(s: &str, mover: Option<Player>) -> Result<Move, ParseHoleError> {
        Hole::parse_with(s, mover).map(Move)
    }
}

impl From<Hole> for Move {
    fn from(h: Hole) -> Move {
        Move(h)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl FromStr for Move {
    type Err = ParseHoleError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Move::parse_with(s, None)
    }
}
