//! Probing finished tables.

use crate::error::TbError;
use crate::index::{MAX_LAYER, index_of};
use crate::integrity::{self, CheckedLayer};
use crate::value::move_value;
use std::path::Path;
use vlt_core::{Move, Position};

/// A set of finished layers, 0 to [`Tablebase::max_stones`] stones.
///
/// Thread-safe (`Send + Sync`): probing only reads. Tables opened from files are memory-mapped
/// (one byte a position: 452 MB for 20 stones, 2.5 GB for 24), so opening is immediate, only the
/// pages that probes touch are read, and processes probing the same files share them; tables built
/// in memory are held as they are.
#[derive(Clone, Debug)]
pub struct Tablebase {
    layers: Vec<Layer>,
}

/// One layer's entries: from a file (mapped, after its header) or built in memory.
#[derive(Clone, Debug)]
enum Layer {
    Mapped(std::sync::Arc<CheckedLayer>),
    Owned(Vec<u8>),
}

impl Layer {
    fn entries(&self) -> &[u8] {
        match self {
            Layer::Mapped(l) => l.entries(),
            Layer::Owned(v) => v,
        }
    }

    /// The file the layer came from, if any.
    fn path(&self) -> Option<&Path> {
        match self {
            Layer::Mapped(l) => Some(&l.path),
            Layer::Owned(_) => None,
        }
    }
}

impl Tablebase {
    /// Opens the tables in `dir`: every layer from 0 stones up to the first one missing.
    ///
    /// Each layer is checked before its first use ([`integrity::open_layer`]: header, length,
    /// checksum and value range, or a matching verified stamp for large layers), so a damaged,
    /// truncated or foreign file is an error naming it, never a value.
    ///
    /// # Errors
    /// [`TbError::NoTables`] when there is no layer 0; [`TbError::BadFile`] or [`TbError::Io`] when a
    /// present layer is damaged or unreadable.
    pub fn open(dir: &Path) -> Result<Tablebase, TbError> {
        Tablebase::open_up_to(dir, MAX_LAYER)
    }

    /// Opens the layers of at most `max` stones in `dir` (to bound memory).
    ///
    /// # Errors
    /// As [`Tablebase::open`].
    pub fn open_up_to(dir: &Path, max: u32) -> Result<Tablebase, TbError> {
        let mut layers = Vec::new();
        for n in 0..=max.min(MAX_LAYER) {
            if !crate::format::layer_path(dir, n).exists() {
                break;
            }
            layers.push(Layer::Mapped(std::sync::Arc::new(integrity::open_layer(dir, n)?)));
        }
        if layers.is_empty() {
            return Err(TbError::NoTables(dir.to_path_buf()));
        }
        Ok(Tablebase { layers })
    }

    /// Tables from layers built in memory (`layers[n]` is layer `n`, as
    /// [`crate::build::build_in_memory`] gives them).
    ///
    /// # Panics
    /// When `layers` is empty or a layer has the wrong length.
    #[must_use]
    pub fn from_layers(layers: Vec<Vec<u8>>) -> Tablebase {
        assert!(!layers.is_empty(), "at least layer 0");
        for (n, l) in layers.iter().enumerate() {
            assert_eq!(l.len() as u64, crate::index::layer_entries(n as u32), "layer {n}");
        }
        Tablebase { layers: layers.into_iter().map(Layer::Owned).collect() }
    }

    /// The most stones on the board a position may have to be in the tables.
    #[must_use]
    pub fn max_stones(&self) -> u32 {
        self.layers.len() as u32 - 1
    }

    /// The raw bytes of layer `n` (one `i8` an entry, see [`crate::format`]).
    #[must_use]
    pub fn layer(&self, n: u32) -> Option<&[u8]> {
        self.layers.get(n as usize).map(Layer::entries)
    }

    /// The exact value of `pos` for the player to move: the best future capture difference (own
    /// captures minus the opponent's, from here to the end) that it can force, where an endless game
    /// ends by R7 with no further captures. Captures made before `pos` do not count. `None` when the
    /// board holds more than [`Tablebase::max_stones`] stones, and also when the stored entry is
    /// not a value of its layer (a file changed in place since it was opened and checked:
    /// [`Tablebase::try_probe`] tells that apart). The game-over position is worth 0.
    #[must_use]
    pub fn probe(&self, pos: Position) -> Option<i32> {
        self.try_probe(pos).ok().flatten()
    }

    /// [`Tablebase::probe`], with the range check of the value read made an error.
    ///
    /// # Errors
    /// [`TbError::BadFile`] naming the layer's file when the stored entry is not a value of the
    /// layer (out of `-n..=n`, or marked as no position where a [`Position`] always is one).
    pub fn try_probe(&self, pos: Position) -> Result<Option<i32>, TbError> {
        let n = pos.stones_on_board();
        let Some(layer) = self.layers.get(n as usize) else { return Ok(None) };
        let v = layer.entries()[index_of(pos) as usize] as i8;
        // NO_POSITION (-128) is out of range too: a Position's mover can always move (R5).
        if v.unsigned_abs() as u32 > n {
            return Err(TbError::BadFile {
                path: layer.path().map_or_else(|| format!("layer {n} in memory").into(), Path::to_path_buf),
                reason: format!(
                    "entry {} holds {v}, not a value of {n} stones: the file changed since it was checked",
                    index_of(pos)
                ),
            });
        }
        Ok(Some(i32::from(v)))
    }

    /// Every legal move of `pos` with its exact value for the player to move (the stones it captures
    /// plus what follows, R4, R5), in ring order; the best of them equals [`Tablebase::probe`].
    /// Empty when the game is over; `None` beyond the tables, or where a stored entry is not a
    /// value (as [`Tablebase::probe`]).
    #[must_use]
    pub fn probe_moves(&self, pos: Position) -> Option<Vec<(Move, i32)>> {
        self.try_probe_moves(pos).ok().flatten()
    }

    /// [`Tablebase::probe_moves`], with a stored entry that is not a value made an error.
    ///
    /// # Errors
    /// As [`Tablebase::try_probe`].
    pub fn try_probe_moves(&self, pos: Position) -> Result<Option<Vec<(Move, i32)>>, TbError> {
        if self.layers.get(pos.stones_on_board() as usize).is_none() {
            return Ok(None);
        }
        let mover = pos.to_move();
        let mut out = Vec::new();
        for m in pos.legal_moves() {
            let (child, k) = pos.play_counting(m);
            let cv = self.try_probe(child)?.expect("a move never adds stones") as i8;
            out.push((m, i32::from(move_value(mover, k, child, cv))));
        }
        Ok(Some(out))
    }

    /// The move perfect play makes in `pos`: the first best one in ring order, with its value
    /// (which is [`Tablebase::probe`]'s). One fixed choice among equal moves, so that the move an
    /// engine plays and the line it shows agree. `None` when the game is over or beyond the tables.
    #[must_use]
    pub fn best_move(&self, pos: Position) -> Option<(Move, i32)> {
        self.probe_moves(pos)?.into_iter().reduce(|b, m| if m.1 > b.1 { m } else { b })
    }
}
