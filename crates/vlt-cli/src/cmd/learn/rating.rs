//! The terminal player's puzzle record, kept in a small JSON file: the puzzle rating (Glicko-2,
//! vlt-rating, the same code as the page's and the online ratings) and the puzzles tried.

use crate::error::input;
use std::path::PathBuf;
use vlt_learn::{Puzzle, PuzzleSet};
use vlt_rating::Rating;

/// How a puzzle attempt ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solved {
    /// The right move at the first try: a win against the puzzle.
    Yes,
    /// A wrong move first, the solution shown, or skipped: a loss.
    No,
}

/// What is stored.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
struct Stored {
    /// The player's puzzle rating.
    rating: Rating,
    /// Puzzle numbers (from 0) tried, with whether each was solved at the first try.
    tried: Vec<(usize, bool)>,
}

/// The record and where it lives (nowhere for a test).
pub struct RatingFile {
    path: Option<PathBuf>,
    stored: Stored,
}

impl RatingFile {
    /// `~/.vlt-puzzles.json`, where there is a home folder.
    pub fn default_path() -> Option<PathBuf> {
        std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".vlt-puzzles.json"))
    }

    /// The record at `path` (a new player's when the file does not exist yet).
    pub fn load(path: Option<PathBuf>) -> anyhow::Result<RatingFile> {
        let stored: Stored = match &path {
            Some(p) if p.exists() => {
                let text = std::fs::read_to_string(p).map_err(|e| input(format!("{}: {e}", p.display())))?;
                serde_json::from_str(&text).map_err(|e| input(format!("{}: {e}", p.display())))?
            }
            _ => Stored::default(),
        };
        if !stored.rating.is_valid() {
            let p = path.as_deref().map(|p| p.display().to_string()).unwrap_or_default();
            return Err(input(format!("{p}: the stored rating is not a rating")));
        }
        Ok(RatingFile { path, stored })
    }

    /// A record kept in memory only.
    #[cfg(test)]
    pub fn in_memory() -> RatingFile {
        RatingFile { path: None, stored: Stored::default() }
    }

    /// Writes the record back.
    pub fn save(&self) -> anyhow::Result<()> {
        if let Some(p) = &self.path {
            let text = serde_json::to_string(&self.stored)?;
            std::fs::write(p, text).map_err(|e| input(format!("{}: {e}", p.display())))?;
        }
        Ok(())
    }

    /// Counts an attempt at puzzle `index`: the rating moves (Glicko-2, the puzzle as opponent).
    pub fn record(&mut self, p: &Puzzle, index: usize, solved: Solved) {
        self.stored.rating = p.rate(self.stored.rating, solved == Solved::Yes);
        self.stored.tried.push((index, solved == Solved::Yes));
    }

    /// Attempts so far.
    #[cfg(test)]
    pub fn attempts(&self) -> usize {
        self.stored.tried.len()
    }

    /// The rating and its deviation, rounded, as shown.
    pub fn shown(&self) -> (i64, i64) {
        (self.stored.rating.rating.round() as i64, self.stored.rating.deviation.round() as i64)
    }

    /// The next puzzle: of `picked`, the one not tried yet whose rating is nearest the player's
    /// (all tried: the nearest of all).
    pub fn next(&self, set: &PuzzleSet, picked: &[usize]) -> usize {
        let tried = |i: usize| self.stored.tried.iter().any(|t| t.0 == i);
        let fresh: Vec<usize> = picked.iter().copied().filter(|&i| !tried(i)).collect();
        let pool = if fresh.is_empty() { picked } else { &fresh };
        let me = self.stored.rating.rating;
        let dist = |i: &usize| (f64::from(set.puzzles[*i].rating) - me).abs();
        *pool.iter().min_by(|a, b| dist(a).total_cmp(&dist(b))).expect("at least one puzzle picked")
    }
}
