//! The rules of Vai Lung Thlan, the mancala game of the Mizo people, as `RULES.md` gives them:
//! the board (R1), sowing (R3), captures (R4), passing (R5), the end (R6) and repetition (R7), and
//! the notation (N1–N4).
//!
//! No I/O, no threads, no clock, no randomness: a library that search, tablebases and front ends
//! build on. A [`Position`] is a 16-byte `Copy` value and playing a move allocates nothing.
//!
//! ```
//! use vlt_core::{Game, Move, Position};
//!
//! let start = Position::START;
//! assert_eq!(start.to_string(), "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0");
//! let mv: Move = "1B".parse()?;
//! let (after, outcome) = start.play_traced(mv)?;
//! assert_eq!(after.to_string(), "0,6,6,6,6,6/5,5,5,5,5,5 A 0 0");
//! assert!(outcome.capture.is_empty());
//!
//! let mut game = Game::new(start);
//! game.play(mv)?;
//! assert_eq!(game.position(), after);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

pub mod examples;
pub mod game;
pub mod hole;
mod moves;
pub mod notation;
pub mod perft;
pub mod player;
pub mod playout;
pub mod position;
pub mod record;
pub mod repetition;
pub mod sowing;
mod swar;
mod zobrist;

pub use game::{Game, GameResult, PlayError, Termination};
pub use hole::{HOLES, Hole, Move, ParseHoleError, ROW};
pub use moves::Moves;
pub use notation::{Field, ParsePositionError};
pub use perft::perft;
pub use player::{ByPlayer, ParsePlayerError, Player};
pub use position::{IllegalMoveError, InvalidPositionError, MoveOutcome, Position, TOTAL_STONES};
pub use record::{Record, RecordError};
pub use repetition::Repetitions;
pub use sowing::{Capture, MAX_STONES, Sowing};
