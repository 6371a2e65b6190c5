//! Random playouts: whole games of uniformly random legal moves, for benchmarks, tests and Monte
//! Carlo search. The random source is a small deterministic generator passed in by the caller, so
//! the crate stays free of hidden randomness.

use crate::{Position, Repetitions};

/// A small, fast deterministic pseudo-random generator (SplitMix64).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform integer below `n` (`n > 0`), by multiply-high: no division.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u32
    }
}

/// A position with exactly `n` stones on the board from a game played from the start by a
/// greedy-random policy (seven moves in ten capture the most stones possible, R4; the others are
/// any legal move), or `None` when the game skips `n` (a capture may take several stones) or
/// runs 2,000 plies without reaching it. Realistic positions for measuring solvers.
pub fn greedy_position(n: u32, rng: &mut SplitMix64) -> Option<Position> {
    let mut pos = Position::START;
    let mut plies = 0;
    while pos.stones_on_board() > n && plies < 2000 {
        let moves: Vec<_> = pos.legal_moves().collect();
        let mv = if rng.below(10) < 7 {
            let best = moves.iter().map(|&m| pos.play_counting(m).1).max().unwrap_or(0);
            let top: Vec<_> = moves.iter().copied().filter(|&m| pos.play_counting(m).1 == best).collect();
            top[rng.below(top.len() as u32) as usize]
        } else {
            moves[rng.below(moves.len() as u32) as usize]
        };
        pos = pos.play_unchecked(mv);
        plies += 1;
    }
    (pos.stones_on_board() == n).then_some(pos)
}

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playout {
    /// The final position: an empty board, or the position that occurred for the third time.
    pub end: Position,
    /// Moves played.
    pub moves: u32,
    /// True when the game ended by R7 repetition rather than an empty board.
    pub repetition: bool,
}

/// Plays uniformly random legal moves from `start` until the game ends (R6, or R7: a position's
/// third occurrence). `keys` is scratch space (the positions since the last capture), reused
/// across calls so a playout allocates nothing once it has grown.
pub fn random_playout(start: Position, rng: &mut SplitMix64, keys: &mut Vec<u128>) -> Playout {
    // The generator and the history live in locals for the game, not behind the references.
    let mut r = *rng;
    let mut reps = Repetitions::with_buffer(start, std::mem::take(keys));
    let mut p = start;
    let mut legal = p.legal_moves();
    let mut moves = 0;
    let repetition = loop {
        if legal.is_empty() {
            break false;
        }
        let mv = legal.pick(r.next_u64());
        let (next, taken, next_legal) = p.play_with_moves(mv);
        p = next;
        legal = next_legal;
        moves += 1;
        if reps.push(p, taken > 0) >= 3 {
            break true;
        }
    };
    *rng = r;
    *keys = reps.into_buffer();
    Playout { end: p, moves, repetition }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Greedy games give positions of the asked stone count, the same ones for the same seed.
    #[test]
    fn greedy_positions_have_the_stone_count() {
        let draw = |seed| {
            let mut rng = SplitMix64(seed);
            (0..50).filter_map(|_| greedy_position(20, &mut rng)).collect::<Vec<_>>()
        };
        let found = draw(7);
        assert!(found.len() > 5);
        assert!(found.iter().all(|p| p.stones_on_board() == 20 && !p.is_game_over()));
        assert_eq!(found, draw(7));
        assert_ne!(found, draw(8));
    }
}
