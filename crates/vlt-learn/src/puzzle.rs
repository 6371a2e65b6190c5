//! A puzzle: a position from a real game whose best move is unique by the tables, with what the
//! tables say of every move, its themes and its difficulty.

use crate::theme::Themes;
use vlt_core::{Hole, Move, Player, Position, ROW};

/// Where a puzzle's position was met.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Source {
    /// A game the engine played against itself at playing levels (`vlt puzzles build`).
    SelfPlay = 0,
    /// A game read from a record file (games people played).
    Record = 1,
}

impl Source {
    /// The stored byte's source.
    #[must_use]
    pub fn from_byte(b: u8) -> Option<Source> {
        match b {
            0 => Some(Source::SelfPlay),
            1 => Some(Source::Record),
            _ => None,
        }
    }

    /// A stable name, for JSON and listings.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Source::SelfPlay => "self-play",
            Source::Record => "record",
        }
    }
}

/// How hard a puzzle is, from its rating ([`Puzzle::rating`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Difficulty {
    /// Rated below [`Difficulty::MEDIUM_FROM`].
    Easy,
    /// Rated from [`Difficulty::MEDIUM_FROM`] to below [`Difficulty::HARD_FROM`].
    Medium,
    /// Rated [`Difficulty::HARD_FROM`] or more.
    Hard,
}

impl Difficulty {
    /// The least rating of a medium puzzle.
    pub const MEDIUM_FROM: u16 = 1200;
    /// The least rating of a hard puzzle.
    pub const HARD_FROM: u16 = 1500;

    /// The difficulty of a puzzle rated `rating`.
    #[must_use]
    pub fn of_rating(rating: u16) -> Difficulty {
        if rating >= Self::HARD_FROM {
            Difficulty::Hard
        } else if rating >= Self::MEDIUM_FROM {
            Difficulty::Medium
        } else {
            Difficulty::Easy
        }
    }

    /// A stable name: `easy`, `medium`, `hard`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }
}

/// One puzzle. Values are the tables' (vlt-tablebase): the best future capture difference the
/// mover can force after each move, from here to the end (captures already made do not count).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The position, as met in the game (N2).
    pub position: Position,
    /// The one best move.
    pub best: Move,
    /// The value of each of the mover's holes 1–6 (`None` where the hole is empty).
    pub values: [Option<i8>; ROW],
    /// Plies from the position to the last capture of the tables' line (how deep the win is).
    pub depth: u8,
    /// How often the engine at low levels missed the best move, out of [`Puzzle::tries`].
    pub misses: u8,
    /// How many low-level choices [`Puzzle::misses`] counts.
    pub tries: u8,
    /// What the solution shows.
    pub themes: Themes,
    /// The puzzle's rating (Glicko scale), from how often the engine misses it, its depth and how
    /// far the second-best move falls short (docs/puzzles.md).
    pub rating: u16,
    /// Where the position comes from.
    pub source: Source,
    /// The solution: the best move and the tables' line after it (at most [`MAX_LINE`] plies).
    pub line: Vec<Move>,
}

/// The rating deviation a puzzle plays with: its rating comes from measurement, not from games,
/// so it is taken as well known (a settled player's deviation).
pub const PUZZLE_DEVIATION: f64 = 80.0;

/// The most plies of a solution line that a puzzle keeps.
pub const MAX_LINE: usize = 16;

/// The hole of `mover`'s row numbered `i + 1`.
#[must_use]
pub fn own_hole(mover: Player, i: usize) -> Hole {
    Hole::new(mover, i as u8 + 1).expect("1..=6 names a hole")
}

impl Puzzle {
    /// The best move's value: the stones the mover comes out ahead from here on.
    #[must_use]
    pub fn value(&self) -> i32 {
        i32::from(self.values[self.best.hole().number() as usize - 1].expect("the best move is legal"))
    }

    /// The value of the second-best move.
    #[must_use]
    pub fn second(&self) -> i32 {
        let best = self.best.hole().number() as usize - 1;
        self.values
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != best)
            .filter_map(|(_, v)| v.map(i32::from))
            .max()
            .expect("a puzzle has two legal moves at least")
    }

    /// How many stones the second-best move gives away against the best.
    #[must_use]
    pub fn gap(&self) -> i32 {
        self.value() - self.second()
    }

    /// Every legal move with its value, in ring order.
    #[must_use]
    pub fn move_values(&self) -> Vec<(Move, i32)> {
        let mover = self.position.to_move();
        (0..ROW)
            .filter_map(|i| self.values[i].map(|v| (Move::from(own_hole(mover, i)), i32::from(v))))
            .collect()
    }

    /// The value of `mv`, when it is legal here.
    #[must_use]
    pub fn value_of(&self, mv: Move) -> Option<i32> {
        if mv.player() != self.position.to_move() {
            return None;
        }
        self.values[mv.hole().number() as usize - 1].map(i32::from)
    }

    /// True for the one right answer.
    #[must_use]
    pub fn accepts(&self, mv: Move) -> bool {
        mv == self.best
    }

    /// The puzzle's difficulty.
    #[must_use]
    pub fn difficulty(&self) -> Difficulty {
        Difficulty::of_rating(self.rating)
    }

    /// The puzzle as a Glicko-2 opponent: its rating, with the deviation of [`PUZZLE_DEVIATION`]
    /// (a puzzle is rated once, when built, and its rating does not move with attempts).
    #[must_use]
    pub fn as_opponent(&self) -> vlt_rating::Rating {
        vlt_rating::Rating {
            rating: f64::from(self.rating),
            deviation: PUZZLE_DEVIATION,
            ..vlt_rating::Rating::default()
        }
    }

    /// The player's new puzzle rating after an attempt at this puzzle: solved at the first try is a
    /// win against the puzzle, anything else a loss (Glicko-2, vlt-rating).
    #[must_use]
    pub fn rate(&self, player: vlt_rating::Rating, solved: bool) -> vlt_rating::Rating {
        let outcome = if solved { vlt_rating::Outcome::Win } else { vlt_rating::Outcome::Loss };
        vlt_rating::rate_game(player, self.as_opponent(), outcome).0
    }

    /// How often the engine at low levels found the best move, 0 to 1.
    #[must_use]
    pub fn engine_hit_rate(&self) -> f64 {
        if self.tries == 0 { 1.0 } else { 1.0 - f64::from(self.misses) / f64::from(self.tries) }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn solving_raises_the_player_and_failing_lowers_it_more_for_an_easy_puzzle() {
        let set = crate::shipped::set();
        let easy = set.puzzles.iter().min_by_key(|p| p.rating).unwrap();
        let hard = set.puzzles.iter().max_by_key(|p| p.rating).unwrap();
        let me = vlt_rating::Rating::default();
        assert!(easy.rate(me, true).rating > me.rating);
        assert!(hard.rate(me, false).rating < me.rating);
        // Beating a hard puzzle gains more than an easy one; failing an easy one costs more.
        assert!(hard.rate(me, true).rating > easy.rate(me, true).rating);
        assert!(easy.rate(me, false).rating < hard.rate(me, false).rating);
        assert!(easy.rate(me, true).deviation < me.deviation);
    }
}
