//! Endgame tablebases for Vai Lung Thlan: for every position with at most `N` stones on the board,
//! the exact value under perfect play (RULES.md R1–R7), by retrograde analysis; probing, verifying,
//! and a solver for positions beyond the tables.
//!
//! **Values.** The value of a position is the best *future* capture difference the player to move
//! can force: its own captures from here to the end minus the opponent's (captures already made do
//! not count). The game-over position is worth 0 (R6). A move that captures `k` stones into a child
//! worth `c` (for the child's mover) is worth `k − c` when the opponent moves next and `k + c` when
//! the mover moves again because the opponent's row is empty (R5, N3). A game that never ends is
//! ended by R7 with no further captures: positions that neither player can profitably leave are
//! worth 0. See `docs/tablebase.md`.
//!
//! ```
//! use vlt_tablebase::{Tablebase, build::build_in_memory};
//! use vlt_core::Position;
//!
//! let tb = Tablebase::from_layers(build_in_memory(4));
//! // B sows 6B into the empty 1A and captures that stone (R4); A's row is empty, so B moves again
//! // (R5) and sows 5B into the now empty 6B, capturing again: 2 stones ahead.
//! let pos: Position = "0,0,0,0,1,1/0,0,0,0,0,0 B 0 0".parse()?;
//! assert_eq!(tb.probe(pos), Some(2));
//! assert!(tb.probe("1,1,1,1,1,0/0,0,0,0,0,0 B 0 0".parse()?).is_none());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod build;
pub mod certificate;
mod checkpoint;
pub mod comm;
pub mod error;
pub mod format;
pub mod index;
pub mod integrity;
pub mod manifest;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod probe;
pub mod retro;
pub mod solve;
pub mod stats;
pub mod unsow;
mod value;
pub mod verify;

pub use build::{BuildEvent, BuildOptions, LayerStats, build, build_with};
pub use error::TbError;
pub use manifest::Manifest;
pub use probe::Tablebase;
pub use value::move_value;
