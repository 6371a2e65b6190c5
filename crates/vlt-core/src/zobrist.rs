//! Zobrist hashing of positions for transposition tables: one random key per (hole, count) and one
//! for the player to move, generated at compile time from a fixed seed so hashes are reproducible.

use crate::Player;
use crate::hole::HOLES;
use crate::sowing::MAX_STONES;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

/// `KEYS[h][c]`: the key of `c` stones in hole `h`; `KEYS[h][0]` is zero so empty holes cost nothing.
pub(crate) static KEYS: [[u64; MAX_STONES + 1]; HOLES] = {
    let mut t = [[0u64; MAX_STONES + 1]; HOLES];
    let mut state = 0x5641_4920_4c55_4e47; // "VAI LUNG"
    let mut h = 0;
    while h < HOLES {
        let mut c = 1;
        while c <= MAX_STONES {
            let (s, k) = splitmix(state);
            state = s;
            t[h][c] = k;
            c += 1;
        }
        h += 1;
    }
    t
};

/// The key XORed in when A is to move.
pub(crate) const A_TO_MOVE: u64 = splitmix(0x5448_4c41_4e21).1;

/// The hash of a board and the player to move.
#[inline]
pub(crate) fn hash(board: &[u8], to_move: Player) -> u64 {
    let mut h = if to_move == Player::A { A_TO_MOVE } else { 0 };
    for (i, &c) in board.iter().enumerate() {
        h ^= KEYS[i][(c as usize).min(MAX_STONES)];
    }
    h
}
