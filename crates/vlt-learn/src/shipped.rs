//! The puzzle set built into the binary: `data/puzzles.vltp`, made by the command it records
//! ([`crate::PuzzleSet::command`]; docs/puzzles.md).

use crate::format::PuzzleSet;
use std::sync::OnceLock;

/// The file's bytes.
pub const BYTES: &[u8] = include_bytes!("../data/puzzles.vltp");

/// The shipped set, read once.
///
/// # Panics
/// When the built-in file is not a valid set (the crate's tests read it, so a build that ships a
/// bad one fails them).
#[must_use]
pub fn set() -> &'static PuzzleSet {
    static SET: OnceLock<PuzzleSet> = OnceLock::new();
    SET.get_or_init(|| PuzzleSet::decode(BYTES).expect("the shipped puzzle file is valid"))
}
