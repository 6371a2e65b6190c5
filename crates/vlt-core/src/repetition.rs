//! R7, the end of a game at a position's third occurrence: the one count of occurrences that
//! [`Game`](crate::Game), the random playouts and the vectorised environments all use.

use crate::Position;

/// The positions of a game since its last capture, which are the only ones that can occur again
/// (R7: no capture can be undone, so nothing before one is ever seen after it), with how often the
/// newest has occurred.
///
/// R7 compares boards and players to move: [`Position::repetition_key`]. A 256-bit filter of the
/// keys says "new" for most positions without scanning the list, and the list keeps its
/// allocation when it starts afresh, so that recording a move allocates nothing once it has grown.
///
/// ```
/// use vlt_core::{Position, repetition::Repetitions};
///
/// let p: Position = "0,0,0,0,0,1/1,0,0,0,0,0 B 29 29".parse()?;
/// let mut reps = Repetitions::new(p);
/// assert_eq!(reps.occurrences(), 1);
/// assert_eq!(reps.push(p, false), 2);
/// assert_eq!(reps.push(p, true), 1); // a capture: everything before it is gone
/// # Ok::<(), vlt_core::ParsePositionError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Repetitions {
    keys: Vec<u128>,
    filter: [u64; 4],
    /// How many times the newest key occurs in `keys`.
    last: usize,
}

impl Repetitions {
    /// A game that starts at `start`.
    #[must_use]
    pub fn new(start: Position) -> Repetitions {
        Repetitions::with_buffer(start, Vec::new())
    }

    /// A game that starts at `start`, keeping its keys in `buffer` (whose contents are dropped,
    /// its allocation kept: see [`Repetitions::into_buffer`]).
    #[must_use]
    pub fn with_buffer(start: Position, buffer: Vec<u128>) -> Repetitions {
        let mut r = Repetitions { keys: buffer, filter: [0; 4], last: 0 };
        r.restart(start);
        r
    }

    /// The positions since the last capture of a game, oldest first (as
    /// [`Game::since_last_capture`](crate::Game::since_last_capture) gives them).
    #[must_use]
    pub fn from_positions(positions: &[Position]) -> Repetitions {
        let mut it = positions.iter();
        let mut r = Repetitions::new(*it.next().unwrap_or(&Position::START));
        for &p in it {
            r.push(p, false);
        }
        r
    }

    /// The list's allocation, to be handed to [`Repetitions::with_buffer`] again.
    #[must_use]
    pub fn into_buffer(self) -> Vec<u128> {
        self.keys
    }

    /// Starts afresh: a game that starts at `start`.
    #[inline]
    pub fn restart(&mut self, start: Position) {
        self.keys.clear();
        self.filter = [0; 4];
        self.last = 0;
        self.record(start.repetition_key());
    }

    #[inline(always)]
    fn bit(key: u128) -> (usize, u64) {
        let h = ((key as u64) ^ ((key >> 64) as u64)).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56;
        ((h >> 6) as usize, 1u64 << (h & 63))
    }

    #[inline(always)]
    fn record(&mut self, key: u128) {
        let (w, b) = Repetitions::bit(key);
        self.last =
            if self.filter[w] & b == 0 { 1 } else { 1 + self.keys.iter().filter(|&&k| k == key).count() };
        self.filter[w] |= b;
        self.keys.push(key);
    }

    /// Records `after`, the position a move led to (`captured`: the move took stones, so no
    /// earlier position can occur again); returns how many times `after` has now occurred since
    /// the last capture, itself included: 3 ends the game (R7).
    #[inline]
    pub fn push(&mut self, after: Position, captured: bool) -> usize {
        if captured {
            self.restart(after);
        } else {
            self.record(after.repetition_key());
        }
        self.last
    }

    /// How many times the newest position has occurred since the last capture, itself included.
    #[must_use]
    #[inline]
    pub fn occurrences(&self) -> usize {
        self.last
    }

    /// How many positions have been recorded since the last capture, the one after it included.
    #[must_use]
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Never true: there is always the position the game (or the last capture) started from.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;
    use crate::playout::SplitMix64;

    /// Plays `moves` in a game and a tracker side by side, checking the tracker's count against
    /// the game's own history after every move; returns the game.
    fn lockstep(start: Position, mut choose: impl FnMut(&Game) -> Option<crate::Move>) -> Game {
        let mut game = Game::new(start);
        let mut reps = Repetitions::new(start);
        while let Some(mv) = choose(&game) {
            let before = game.position().stones_on_board();
            game.play(mv).unwrap();
            let n = reps.push(game.position(), game.position().stones_on_board() != before);
            let history = game.since_last_capture();
            let key = game.position().repetition_key();
            assert_eq!(n, history.iter().filter(|p| p.repetition_key() == key).count());
            assert_eq!(reps.len(), history.len());
            assert_eq!(Repetitions::from_positions(history), reps);
            assert_eq!(game.is_over(), n == 3 || game.position().is_game_over());
        }
        game
    }

    /// In lockstep with a game's own history: random games, which end on an empty board.
    #[test]
    fn counts_as_the_game_history_does_in_random_games() {
        for seed in 0..50 {
            let mut rng = SplitMix64(seed);
            let game = lockstep(Position::START, |g| {
                let legal = g.position().legal_moves();
                (!g.is_over()).then(|| legal.nth_move(rng.below(legal.len() as u32) as usize).unwrap())
            });
            assert!(game.position().is_game_over());
        }
    }

    /// In lockstep with a game's own history: R7's example cycle, to its third occurrence.
    #[test]
    fn counts_the_example_cycle_to_its_third_occurrence() {
        let start: Position = "1,0,1,0,1,0/1,2,0,1,2,0 A 25 26".parse().unwrap();
        let cycle: Vec<crate::Move> =
            "5A 1B 2A 3B 4A 5B 6A 2B 1A 4B 3A 6B".split(' ').map(|m| m.parse().unwrap()).collect();
        let mut i = 0;
        let game = lockstep(start, |g| {
            i += 1;
            (!g.is_over()).then(|| cycle[(i - 1) % cycle.len()])
        });
        assert_eq!(game.moves().len(), 24);
        assert_eq!(game.result().unwrap().termination, crate::Termination::Repetition);
    }
}
