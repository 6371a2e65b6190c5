//! Sowing and capturing (R3, R4): precomputed tables for the hot path, and the description of a
//! move's effect that front ends animate and records annotate.

use crate::hole::{HOLES, Hole};

/// The most stones a hole can hold: all 60 of the game (R1).
pub const MAX_STONES: usize = 60;

/// `SOW[h][n]`: what sowing `n` stones from hole `h` adds to each hole, one byte per hole in ring
/// order (R3). The lap rule is built in: the starting hole is not skipped, so 12 stones or more put
/// a stone back into it on each full lap.
pub(crate) static SOW: [[u128; MAX_STONES + 1]; HOLES] = {
    let mut t = [[0u128; MAX_STONES + 1]; HOLES];
    let mut h = 0;
    while h < HOLES {
        let mut n = 0;
        while n <= MAX_STONES {
            let mut v = 0u128;
            let mut drop = 1;
            while drop <= n {
                v += 1u128 << (8 * ((h + drop) % HOLES));
                drop += 1;
            }
            t[h][n] = v;
            n += 1;
        }
        h += 1;
    }
    t
};

/// `DELTA[h][n]`: `SOW[h][n]` minus the `n` stones lifted from `h`, as one wrapping addition, so a
/// move's sowing is a single 128-bit add with no variable shift.
pub(crate) static DELTA: [[u128; MAX_STONES + 1]; HOLES] = {
    let mut t = [[0u128; MAX_STONES + 1]; HOLES];
    let mut h = 0;
    while h < HOLES {
        let mut n = 0;
        while n <= MAX_STONES {
            t[h][n] = SOW[h][n].wrapping_sub((n as u128) << (8 * h));
            n += 1;
        }
        h += 1;
    }
    t
};

/// `LAST[h][n]`: the hole where the last of `n` stones sown from `h` falls (R3).
pub(crate) static LAST: [[u8; MAX_STONES + 1]; HOLES] = {
    let mut t = [[0u8; MAX_STONES + 1]; HOLES];
    let mut h = 0;
    while h < HOLES {
        let mut n = 0;
        while n <= MAX_STONES {
            t[h][n] = ((h + n) % HOLES) as u8;
            n += 1;
        }
        h += 1;
    }
    t
};

/// `RUN[last][k]`: one stone in each of the `k` holes that end at `last`, walking backwards: the
/// stones a chain capture of length `k` removes (R4; every captured hole holds exactly one stone).
pub(crate) static RUN: [[u128; HOLES + 1]; HOLES] = {
    let mut t = [[0u128; HOLES + 1]; HOLES];
    let mut last = 0;
    while last < HOLES {
        let mut k = 1;
        while k <= HOLES {
            t[last][k] = t[last][k - 1] | 1u128 << (8 * ((last + HOLES - (k - 1)) % HOLES));
            k += 1;
        }
        last += 1;
    }
    t
};

/// The sowing part of a move (R3): which hole was emptied and how many stones went round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sowing {
    /// The hole the stones were lifted from.
    pub from: Hole,
    /// How many stones were sown.
    pub stones: u8,
}

impl Sowing {
    /// The holes that received a stone, in the order they received it (R3: the starting hole
    /// receives one on each full lap).
    pub fn holes(self) -> impl Iterator<Item = Hole> + Clone {
        (1..=self.stones as usize).map(move |i| self.from.forward(i))
    }

    /// The hole where the last stone fell.
    #[must_use]
    pub fn last(self) -> Hole {
        self.from.forward(self.stones as usize)
    }
}

/// The capturing part of a move (R4): a chain of single stones ending at the hole where the last
/// stone fell. Empty when the move captured nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Capture {
    /// The hole where the chain starts: the last hole sown.
    pub last: Hole,
    /// How many stones were captured; also the number of holes, since each held exactly one.
    pub stones: u8,
}

impl Capture {
    /// True when the move captured nothing.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.stones == 0
    }

    /// The captured holes, from the last hole sown backwards (R4).
    pub fn holes(self) -> impl Iterator<Item = Hole> + Clone {
        (0..self.stones as usize).map(move |i| self.last.backward(i))
    }
}
