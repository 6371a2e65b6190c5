//! Indexing positions of one layer (all positions with `n` stones on the board) by ranking the
//! distribution of the `n` stones over the 12 holes (R1) in the combinatorial number system.
//!
//! A distribution `c[0..12]` (holes in ring order, `1B` first) is the set of 11 "bar" places
//! `p[i] = c[0] + … + c[i] + i` (`i < 11`) among `n + 11` places (stars and bars); its rank is the
//! colex rank `Σ C(p[i], i + 1)`. Ranks run over `0..C(n + 11, 11)` without gaps. Each rank holds two
//! entries, one for each player to move: `index = 2 * rank + player`.

use vlt_core::{HOLES, Player, Position};

/// The largest layer the index supports: the entry count must fit a `u32` in the builder's lists.
pub const MAX_LAYER: u32 = 28;

/// Binomials `C(a, b)` for `a < BINOM_ROWS`, `b <= HOLES`.
const BINOM_ROWS: usize = 72;

static BINOM: [[u64; HOLES + 1]; BINOM_ROWS] = {
    let mut t = [[0u64; HOLES + 1]; BINOM_ROWS];
    let mut a = 0;
    while a < BINOM_ROWS {
        t[a][0] = 1;
        let mut b = 1;
        while b <= HOLES {
            t[a][b] = if a == 0 { 0 } else { t[a - 1][b - 1] + t[a - 1][b] };
            b += 1;
        }
        a += 1;
    }
    t
};

/// `C(a, b)`, for `a < 72`, `b <= 12`.
#[inline(always)]
#[must_use]
pub fn binom(a: usize, b: usize) -> u64 {
    BINOM[a][b]
}

/// The number of distributions of `n` stones over the 12 holes: `C(n + 11, 11)`.
#[must_use]
pub fn boards(n: u32) -> u64 {
    binom(n as usize + HOLES - 1, HOLES - 1)
}

/// The number of entries of layer `n`: every distribution, with either player to move.
#[must_use]
pub fn layer_entries(n: u32) -> u64 {
    2 * boards(n)
}

/// The rank of a distribution among those with the same number of stones.
#[inline]
#[must_use]
pub fn rank(board: &[u8; HOLES]) -> u64 {
    let mut r = 0;
    let mut p = 0usize;
    for (i, &c) in board[..HOLES - 1].iter().enumerate() {
        p += c as usize;
        r += binom(p + i, i + 1);
    }
    r
}

/// The distribution of `n` stones with rank `r` (the inverse of [`rank`]).
#[inline]
#[must_use]
pub fn unrank(n: u32, mut r: u64) -> [u8; HOLES] {
    let mut board = [0u8; HOLES];
    // Bars from the highest down: each is the largest place whose binomial still fits in `r`.
    let mut p = n as usize + HOLES - 1; // one past the largest place
    let mut prev_sum = n as usize;
    for i in (0..HOLES - 1).rev() {
        p -= 1;
        while binom(p, i + 1) > r {
            p -= 1;
        }
        r -= binom(p, i + 1);
        let sum = p - i; // c[0] + … + c[i]
        board[i + 1] = (prev_sum - sum) as u8;
        prev_sum = sum;
    }
    board[0] = prev_sum as u8;
    board
}

/// Steps `board` to the distribution of the next rank; false after the last one.
#[inline]
pub fn next_board(board: &mut [u8; HOLES]) -> bool {
    // Colex successor of the bar set: move the lowest movable bar up by one and push the bars below
    // it back to the bottom. In counts: the first hole `i` whose successor `i + 1` holds stones takes
    // one of them plus everything before it.
    let mut before = 0u8;
    for i in 0..HOLES - 1 {
        if board[i + 1] > 0 {
            board[i + 1] -= 1;
            board[..i].fill(0);
            board[i] += before + 1;
            return true;
        }
        before += board[i];
    }
    false
}

/// The board with the two rows swapped. The rules treat both players alike (R3–R7), so the
/// position (board, B to move) has the value of (mirror, A to move): the builder solves only the
/// B-to-move entries.
#[inline]
#[must_use]
pub fn mirror(board: &[u8; HOLES]) -> [u8; HOLES] {
    let mut m = *board;
    m.rotate_left(HOLES / 2);
    m
}

/// The entry index of a position in its layer.
#[inline]
#[must_use]
pub fn index_of(pos: Position) -> u64 {
    2 * rank(&pos.board()) + pos.to_move().index() as u64
}

/// The entry index of a board with `player` to move.
#[inline]
#[must_use]
pub fn index_of_board(board: &[u8; HOLES], player: Player) -> u64 {
    2 * rank(board) + player.index() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layer_sizes_match_the_issue() {
        // 451,585,680 positions with at most 20 stones, both players to move.
        let total: u64 = (0..=20).map(layer_entries).sum();
        assert_eq!(total, 451_585_680);
        assert_eq!(boards(0), 1);
        assert_eq!(boards(1), 12);
        assert_eq!(boards(2), 78);
    }

    #[test]
    fn rank_unrank_and_next_agree() {
        for n in 0..=7u32 {
            let mut b = unrank(n, 0);
            let mut r = 0u64;
            loop {
                assert_eq!(b.iter().map(|&c| u32::from(c)).sum::<u32>(), n);
                assert_eq!(rank(&b), r, "{b:?}");
                assert_eq!(unrank(n, r), b);
                r += 1;
                if !next_board(&mut b) {
                    break;
                }
            }
            assert_eq!(r, boards(n), "n = {n}");
        }
    }

    #[test]
    fn large_layers_round_trip() {
        let n = 24;
        for r in [0, 1, 12345, boards(n) / 2, boards(n) - 1] {
            assert_eq!(rank(&unrank(n, r)), r);
        }
        let mut b = [0u8; HOLES];
        b[0] = 60;
        assert_eq!(rank(&b), boards(60) - 1);
    }
}
