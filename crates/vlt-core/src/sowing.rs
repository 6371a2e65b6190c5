//! Sowing and capturing (R3, R4): precomputed tables for the hot path, and the description of a
//! move's effect that front ends animate and records annotate.

use crate::hole::{HOLES, Hole};

/// The most stones a hole can hold: all 60 of the game (R1).
pub const MAX_STONES: usize = 60;

/// Rows of the hot-path tables: a power of two above [`HOLES`], so a hole index masked with
/// `HOLES_POW2 - 1` needs no bounds check (the rows past 11 are never read).
pub(crate) const HOLES_POW2: usize = 16;
/// Columns of the hot-path tables indexed by a stone count: a power of two above [`MAX_STONES`].
pub(crate) const STONES_POW2: usize = 64;

/// What sowing `n` stones from hole `h` adds to each hole, one byte per hole in ring order (R3).
/// The lap rule is built in: the starting hole is not skipped, so 12 stones or more put a stone
/// back into it on each full lap.
const fn sow(h: usize, n: usize) -> u128 {
    let mut v = 0u128;
    let mut drop = 1;
    while drop <= n {
        v += 1u128 << (8 * ((h + drop) % HOLES));
        drop += 1;
    }
    v
}

/// `DELTA[h][n]`: sowing `n` stones from `h` minus the `n` stones lifted from `h`, as one wrapping
/// addition, so a move's sowing is a single 128-bit add with no variable shift.
pub(crate) static DELTA: [[u128; STONES_POW2]; HOLES_POW2] = {
    let mut t = [[0u128; STONES_POW2]; HOLES_POW2];
    let mut h = 0;
    while h < HOLES {
        let mut n = 0;
        while n <= MAX_STONES {
            t[h][n] = sow(h, n).wrapping_sub((n as u128) << (8 * h));
            n += 1;
        }
        h += 1;
    }
    t
};

/// `LAST[h][n]`: the hole where the last of `n` stones sown from `h` falls (R3).
pub(crate) static LAST: [[u8; STONES_POW2]; HOLES_POW2] = {
    let mut t = [[0u8; STONES_POW2]; HOLES_POW2];
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

/// `CAPTURE_TEST[h][n]`: the byte of the position before the move that is zero exactly when the
/// last of `n` stones sown from `h` is single where it falls and starts a capture (R4). Fewer than
/// 12 stones: the hole where it falls, which must have been empty. Exactly 12: it falls back into
/// the emptied starting hole, always single: byte 15, which is always zero. More: the last hole
/// gets at least two stones, never a capture: the starting hole itself, which held the `n`.
pub(crate) static CAPTURE_TEST: [[u8; STONES_POW2]; HOLES_POW2] = {
    let mut t = [[0u8; STONES_POW2]; HOLES_POW2];
    let mut h = 0;
    while h < HOLES {
        let mut n = 0;
        while n < STONES_POW2 {
            t[h][n] = if n < HOLES {
                ((h + n) % HOLES) as u8
            } else if n == HOLES {
                15
            } else {
                h as u8
            };
            n += 1;
        }
        h += 1;
    }
    t
};

/// `RUN[last][k]`: one stone in each of the `k` holes that end at `last`, walking backwards: the
/// stones a chain capture of length `k` removes (R4; every captured hole holds exactly one stone).
pub(crate) static RUN: [[u128; HOLES + 1]; HOLES_POW2] = {
    let mut t = [[0u128; HOLES + 1]; HOLES_POW2];
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

/// Stones that sowing hole `h` of `board` would capture (R3, R4), without playing the move.
///
/// With `n <= 11` stones the last one lands in `h + n` with one stone only if that hole was empty,
/// and the chain runs back over holes that were empty before the sowing, stopping at `h` (now
/// empty). With exactly 12 the last lands in `h` itself, and the chain runs back over the holes that
/// were empty. With 13 or more the last hole gets at least two stones: no capture.
#[inline]
#[must_use]
pub fn capture_of(board: &[u8; HOLES], h: usize) -> u32 {
    let n = board[h] as usize;
    let last = (h + n) % HOLES;
    // With 12 the last stone lands in `h`, emptied by the sowing; otherwise in a hole that must
    // have been empty.
    if n == 0 || n >= 13 || (n != 12 && board[last] != 0) {
        return 0;
    }
    let mut k = 1;
    let mut j = (last + HOLES - 1) % HOLES;
    while j != h && board[j] == 0 {
        k += 1;
        j = (j + HOLES - 1) % HOLES;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;
    use crate::playout::SplitMix64;

    /// `capture_of` agrees with the rules crate's `play_counting` (the oracle) on random positions.
    #[test]
    fn capture_of_matches_rules() {
        let mut rng = SplitMix64(42);
        let mut checked = 0;
        for _ in 0..3000 {
            let mut p = Position::START;
            let plies = rng.below(80);
            for _ in 0..plies {
                let m = p.legal_moves();
                if m.is_empty() {
                    break;
                }
                p = p.play_unchecked(m.nth_move(rng.below(m.len() as u32) as usize).unwrap());
            }
            let board = p.board();
            for mv in p.legal_moves() {
                let (_, taken) = p.play_counting(mv);
                assert_eq!(capture_of(&board, mv.hole().index()), u32::from(taken), "{p} {mv}");
                checked += 1;
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn twelve_always_captures_thirteen_never() {
        // R4 consequences.
        let p: Position = "12,1,1,1,1,1/1,1,1,1,1,1 B 0 0".parse().unwrap();
        assert!(capture_of(&p.board(), 0) >= 1);
        let p: Position = "13,1,1,1,1,1/0,0,0,0,0,0 B 0 0".parse().unwrap();
        assert_eq!(capture_of(&p.board(), 0), 0);
    }
}
