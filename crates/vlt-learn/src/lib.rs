//! Learning Vai Lung Thlan: puzzles taken from real games with exact values from the endgame
//! tables, and an interactive tutorial of the rules (RULES.md R3–R7).
//!
//! A puzzle is a position whose best move is unique by the tables: "find the move that comes out
//! `N` stones ahead from here on". [`build::build`] makes a set from games, [`format`] stores it
//! compactly, [`shipped`] is the set built into the binary (docs/puzzles.md says how it was made).
//!
//! ```
//! use vlt_learn::shipped;
//!
//! let set = shipped::set();
//! assert!(set.puzzles.len() >= 1000);
//! let p = &set.puzzles[0];
//! assert!(p.accepts(p.best));
//! assert!(p.value() > p.second());
//! ```

pub mod build;
pub mod cycle;
pub mod format;
pub mod grade;
pub mod puzzle;
pub mod shipped;
pub mod theme;
pub mod tutorial;

pub use format::{FormatError, PuzzleSet};
pub use puzzle::{Difficulty, Puzzle, Source};
pub use theme::{Theme, Themes};
