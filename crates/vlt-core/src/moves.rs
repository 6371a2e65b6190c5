//! The legal moves of a position as a small set (R3).

use crate::Player;
use crate::hole::{Hole, Move, ROW};
use std::fmt;

/// Bits of [`Moves`]' byte that hold the mask; the bit above holds the owner.
const MASK: u8 = (1 << ROW) - 1;

/// `SELECT[owner << 6 | mask][i]`: the ring index of the `i`-th hole of the owner's row in a 6-bit
/// mask. Indexed by the whole byte of a [`Moves`], with eight columns so an index masked with 7
/// needs no bounds check.
const fn select_table() -> [[u8; 8]; 128] {
    let mut t = [[0u8; 8]; 128];
    let mut b = 0;
    while b < 128 {
        let (mut i, mut bit) = (0, 0);
        while bit < ROW {
            if b >> bit & 1 == 1 {
                t[b][i] = ((b >> ROW) * ROW + bit) as u8;
                i += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
}
static SELECT: [[u8; 8]; 128] = select_table();

/// Draws of a uniform choice among the moves: 60 is a multiple of every possible count (1–6).
const DRAWS: usize = 60;

/// `PICK[bits][d]`: the ring index of the move that draw `d` (0..60) picks from the moves with this
/// byte: the `d * len / 60`-th in ring order. Rows for all 256 bytes, so no index needs a mask.
static PICK: [[u8; 64]; 256] = {
    let select = select_table();
    let mut t = [[0u8; 64]; 256];
    let mut b = 0;
    while b < 128 {
        let len = (b as u32 & MASK as u32).count_ones() as usize;
        let mut d = 0;
        while len > 0 && d < DRAWS {
            t[b][d] = select[b][d * len / DRAWS];
            d += 1;
        }
        b += 1;
    }
    t
};

/// `COUNT[mask]`: the set bits of a 6-bit mask (a table: `count_ones` is a dozen instructions on
/// targets without a population-count instruction, such as baseline x86-64).
static COUNT: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut m = 0;
    while m < 64 {
        t[m] = (m as u32).count_ones() as u8;
        m += 1;
    }
    t
};

/// The legal moves of a position, in ring order: a small set that iterates without allocating.
///
/// One byte: the mask of the mover's holes that hold stones, and above it the mover, so that
/// picking the `i`-th move is one table lookup.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Moves {
    bits: u8,
}

impl Moves {
    /// The moves from the holes of `owner`'s row set in `mask` (bit 0 = hole 1 … bit 5 = hole 6).
    #[inline(always)]
    pub(crate) fn new(mask: u8, owner: Player) -> Moves {
        debug_assert!(mask <= MASK);
        Moves { bits: mask | (owner.index() as u8) << ROW }
    }

    /// The player whose moves these are.
    #[inline]
    fn owner(self) -> Player {
        Player::from_index(usize::from(self.bits >> ROW))
    }

    /// How many moves.
    #[inline]
    #[must_use]
    pub fn len(self) -> usize {
        COUNT[usize::from(self.mask())] as usize
    }

    /// True when there is no move (only when the game is over).
    #[inline]
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.mask() == 0
    }

    /// Whether `mv` is among these moves.
    #[must_use]
    pub fn contains(self, mv: Move) -> bool {
        mv.player() == self.owner() && self.mask() >> (mv.hole().number() - 1) & 1 == 1
    }

    /// The bits of the mover's holes that hold stones: bit 0 = hole 1 … bit 5 = hole 6.
    #[inline]
    #[must_use]
    pub fn mask(self) -> u8 {
        self.bits & MASK
    }

    /// The `i`-th move in ring order (`i < len()`).
    #[inline]
    #[must_use]
    pub fn nth_move(self, i: usize) -> Option<Move> {
        (i < self.len()).then(|| self.select(i))
    }

    /// The move that 64 random bits pick, uniformly: the same as `nth_move((random * len) >> 64)`
    /// (with the product in 128 bits), but with no dependence on the count, so a chain of random
    /// moves waits on one table lookup per move. Meaningless when there is no move.
    #[inline]
    #[must_use]
    pub fn pick(self, random: u64) -> Move {
        // floor(floor(u * 60) * len / 60) = floor(u * len) for u in [0, 1) when len divides 60.
        let d = ((u128::from(random) * DRAWS as u128) >> 64) as usize;
        Move(Hole::ring(PICK[usize::from(self.bits)][d & 63]))
    }

    /// The `i`-th move in ring order, for a caller that knows `i < len()` (otherwise some hole of
    /// the board; debug builds panic).
    #[inline]
    pub(crate) fn select(self, i: usize) -> Move {
        debug_assert!(i < self.len());
        Move(Hole::ring(SELECT[usize::from(self.bits & 0x7f)][i & 7]))
    }
}

impl fmt::Debug for Moves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Moves").field("mask", &self.mask()).field("owner", &self.owner()).finish()
    }
}

impl Iterator for Moves {
    type Item = Move;
    #[inline]
    fn next(&mut self) -> Option<Move> {
        if self.mask() == 0 {
            return None;
        }
        let bit = self.bits.trailing_zeros() as u8;
        // Clears the lowest mask bit; the owner bit above stays.
        self.bits &= self.bits - 1;
        Some(Move(Hole::ring((self.bits >> ROW) * ROW as u8 + bit)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // The inherent method: `self.len()` on `&Moves` would be `ExactSizeIterator::len`, which
        // calls this.
        let n = Moves::len(*self);
        (n, Some(n))
    }
}

impl ExactSizeIterator for Moves {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every mask and owner: iteration, `nth_move`, `len` and `contains` agree with the mask.
    #[test]
    fn moves_agree_with_their_mask() {
        for owner in [Player::B, Player::A] {
            for mask in 0..64u8 {
                let m = Moves::new(mask, owner);
                let want: Vec<Move> = (1..=ROW as u8)
                    .filter(|&n| mask >> (n - 1) & 1 == 1)
                    .map(|n| Move(Hole::new(owner, n).unwrap()))
                    .collect();
                assert_eq!(m.collect::<Vec<_>>(), want);
                assert_eq!((m.len(), m.mask(), m.is_empty()), (want.len(), mask, mask == 0));
                assert_eq!((0..ROW + 1).filter_map(|i| m.nth_move(i)).collect::<Vec<_>>(), want);
                assert!(Hole::ALL.iter().all(|&h| m.contains(Move(h)) == want.contains(&Move(h))));
            }
        }
    }

    /// `pick` chooses what `nth_move` of the multiply-high index chooses, for random draws and for
    /// the draws next to every boundary between two choices.
    #[test]
    fn pick_is_the_multiply_high_choice() {
        let mut rng = crate::playout::SplitMix64(3);
        for owner in [Player::B, Player::A] {
            for mask in 1..64u8 {
                let m = Moves::new(mask, owner);
                let len = m.len() as u128;
                let mut draws: Vec<u64> = (0..200).map(|_| rng.next_u64()).collect();
                for i in 0..=len {
                    let edge = ((i << 64) / len) as u64;
                    draws.extend([edge.wrapping_sub(1), edge, edge.wrapping_add(1), u64::MAX - edge]);
                }
                for r in draws {
                    let want = m.nth_move(((u128::from(r) * len) >> 64) as usize);
                    assert_eq!(Some(m.pick(r)), want, "{m:?} {r:#x}");
                }
            }
        }
    }
}
