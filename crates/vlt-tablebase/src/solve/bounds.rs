//! The proved bounds a solver keeps between tests: by position (a position and its mirror image
//! share an entry), in a map with a hasher for packed positions.

use super::Solver;
use std::collections::HashMap;
use vlt_core::Position;

/// A hash map keyed by packed positions, with [`KeyHasher`].
pub(super) type KeyMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<KeyHasher>>;

/// A fast hasher for the solver's keys (positions packed into a `u128`, with a threshold): a
/// SplitMix64 finish over the words. The keys come from the game, not from an adversary, so
/// SipHash's protection buys nothing here; it took a quarter of the solver's time (survey: 9.1–10.2 s
/// of CPU with SipHash, 6.9 s with this).
#[derive(Default, Clone, Copy)]
pub(super) struct KeyHasher(u64);

/// SplitMix64's finalizer: every input bit affects every output bit.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        mix(self.0)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = mix(self.0 ^ u64::from(b));
        }
    }

    fn write_u128(&mut self, x: u128) {
        self.0 = mix(self.0 ^ x as u64) ^ (x >> 64) as u64;
    }

    fn write_i8(&mut self, x: i8) {
        self.0 = mix(self.0 ^ u64::from(x as u8));
    }
}

/// The key under which a position's bounds are kept: the same for a position and its mirror image
/// (rows swapped, the other player to move), which has the same value since the rules treat both
/// players alike (R3–R7; only the first move, R2, is B's, and a value does not depend on it).
pub(super) fn bounds_key(pos: Position) -> u128 {
    let b = pos.board();
    let pack = |first: usize| (0..12).fold(0u128, |k, i| k | u128::from(b[(first + i) % 12]) << (8 * i));
    let own = pack(0) | (pos.to_move() as u128) << 96;
    let mirror = pack(6) | (pos.to_move().other() as u128) << 96;
    own.min(mirror)
}

impl Solver<'_> {
    /// The bounds on `pos`'s value that this solver has proved so far (`lo ≤ value ≤ hi`; from
    /// `-stones` to `+stones` when it knows nothing, the exact value from the tables): what is left
    /// of a solve that ran out of nodes.
    #[must_use]
    pub fn proved_bounds(&self, pos: Position) -> (i32, i32) {
        if let Some(v) = self.tb.probe(pos) {
            return (v, v);
        }
        let (lo, hi) = self.bounds_of(pos);
        (i32::from(lo), i32::from(hi))
    }

    pub(super) fn bounds_of(&self, pos: Position) -> (i8, i8) {
        let n = pos.stones_on_board() as i8;
        self.bounds.get(&bounds_key(pos)).copied().unwrap_or((-n, n))
    }

    pub(super) fn learn(&mut self, pos: Position, lo: i8, hi: i8) {
        let n = pos.stones_on_board() as i8;
        let e = self.bounds.entry(bounds_key(pos)).or_insert((-n, n));
        e.0 = e.0.max(lo);
        e.1 = e.1.min(hi);
        debug_assert!(e.0 <= e.1, "contradictory bounds for {pos}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use vlt_core::{ByPlayer, Player};

    /// A position and its mirror image (rows swapped, the other player to move) share a key; the
    /// same board with the other player to move, or another board, does not.
    #[test]
    fn mirror_images_share_a_key() {
        let board = [1, 0, 2, 0, 0, 3, 0, 4, 0, 0, 1, 0];
        let at = |b: [u8; 12], p| Position::new(b, p, ByPlayer::new(0, 0)).expect("position");
        let mut swapped = board;
        swapped.rotate_left(6);
        let pos = at(board, Player::A);
        assert_eq!(bounds_key(pos), bounds_key(at(swapped, Player::B)));
        assert_ne!(bounds_key(pos), bounds_key(at(board, Player::B)));
        assert_ne!(bounds_key(pos), bounds_key(at(swapped, Player::A)));
    }
}
