//! What the puzzles and the tutorial share in the terminal.

pub mod rating;
