//! The manifest of a table folder, `vlt-tb.json`: what the folder holds (format version, rules,
//! stones, and each layer's entries and checksum) and how it was built, so that a folder copied
//! elsewhere can be checked against it (`vlt tb verify`) and a reader can tell what it has before
//! opening a layer.
//!
//! The builder rewrites it (atomically) after each layer it finishes, so it always describes the
//! layers on disk, an interrupted build's included.

use crate::error::TbError;
use crate::format::{self, FORMAT_VERSION, RULES_ID};
use crate::index;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The manifest's file name in a table folder.
pub const MANIFEST_FILE: &str = "vlt-tb.json";

/// What [`Manifest::format`] says.
pub const FORMAT_NAME: &str = "vlt-tablebase";

/// The rules [`RULES_ID`] stands for, in words.
pub const RULES_TEXT: &str = "RULES.md R1-R7: 12 holes, laps do not skip the start hole, \
                              R5 passes to the player who can move, R7 third occurrence ends the game";

/// A table folder's manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always [`FORMAT_NAME`].
    pub format: String,
    /// The layer file format's version ([`FORMAT_VERSION`]).
    pub format_version: u32,
    /// The rules id of the layer headers ([`RULES_ID`]).
    pub rules_id: u32,
    /// [`RULES_TEXT`].
    pub rules: String,
    /// The largest layer listed.
    pub max_stones: u32,
    /// Layers 0 to `max_stones`, in order.
    pub layers: Vec<LayerEntry>,
    /// The program that wrote the manifest (`vlt-tablebase` and its version).
    pub writer: String,
}

/// One layer in the manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayerEntry {
    /// Stones on the board.
    pub stones: u32,
    /// Its file name in the folder.
    pub file: String,
    /// Entries (both players to move, non-positions included).
    pub entries: u64,
    /// The file's length in bytes.
    pub bytes: u64,
    /// The checksum of the entries, as in the header (hexadecimal, `0x` first).
    pub checksum: String,
    /// Real positions.
    pub positions: u64,
    /// Positions worth 0, where known.
    pub zeros: Option<u64>,
    /// How the layer was built, where known (a layer kept from an earlier run without manifest
    /// has none).
    pub build: Option<LayerBuild>,
}

/// Figures of building one layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayerBuild {
    /// Wall-clock time, milliseconds.
    pub millis: u64,
    /// Worker threads.
    pub threads: u32,
    /// Processes (MPI ranks) that shared the work.
    pub ranks: u32,
}

/// The real positions of layer `n`: every entry but those whose mover has an empty row (a row
/// is empty for `C(n + 5, 5)` boards, the other row holding all `n` stones); none on the empty
/// board.
#[must_use]
pub fn layer_positions(n: u32) -> u64 {
    if n == 0 { 0 } else { index::layer_entries(n) - 2 * index::binom(n as usize + 5, 5) }
}

/// The checksum as the manifest writes it.
#[must_use]
pub fn checksum_text(checksum: u64) -> String {
    format!("{checksum:#018x}")
}

impl Manifest {
    /// An empty manifest (no layers yet).
    #[must_use]
    pub fn new() -> Manifest {
        Manifest {
            format: FORMAT_NAME.into(),
            format_version: FORMAT_VERSION,
            rules_id: RULES_ID,
            rules: RULES_TEXT.into(),
            max_stones: 0,
            layers: Vec::new(),
            writer: concat!("vlt-tablebase ", env!("CARGO_PKG_VERSION")).into(),
        }
    }

    /// The manifest's path in `dir`.
    #[must_use]
    pub fn path(dir: &Path) -> PathBuf {
        dir.join(MANIFEST_FILE)
    }

    /// Reads the manifest of `dir`; `None` when there is none.
    ///
    /// # Errors
    /// [`TbError::BadFile`] naming the manifest when it is not a manifest of this format and these
    /// rules, or lists its layers out of order; [`TbError::Io`] when it cannot be read.
    pub fn read(dir: &Path) -> Result<Option<Manifest>, TbError> {
        let path = Manifest::path(dir);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(TbError::io(&path, e)),
        };
        let bad = |reason: String| TbError::BadFile { path: path.clone(), reason };
        let m: Manifest = serde_json::from_str(&text).map_err(|e| bad(format!("not a manifest: {e}")))?;
        if m.format != FORMAT_NAME {
            return Err(bad(format!("format {:?}, expected {FORMAT_NAME:?}", m.format)));
        }
        if m.format_version != FORMAT_VERSION {
            return Err(bad(format!("format version {}, expected {FORMAT_VERSION}", m.format_version)));
        }
        if m.rules_id != RULES_ID {
            return Err(bad(format!("rules id {}, expected {RULES_ID}", m.rules_id)));
        }
        let in_order = m.layers.iter().enumerate().all(|(i, l)| l.stones == i as u32);
        if !in_order || m.layers.len() != m.max_stones as usize + 1 {
            return Err(bad(format!("does not list layers 0 to {} in order", m.max_stones)));
        }
        Ok(Some(m))
    }

    /// Writes the manifest into `dir` atomically (a temporary file renamed over the old one).
    ///
    /// # Errors
    /// [`TbError::Io`].
    pub fn write(&self, dir: &Path) -> Result<(), TbError> {
        let path = Manifest::path(dir);
        let tmp = path.with_extension("json-tmp");
        let text = serde_json::to_string_pretty(self).expect("a manifest serialises") + "\n";
        std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, &path))
            .map_err(|e| TbError::io(&path, e))
    }

    /// Sets the entry of layer `entry.stones`, dropping any entries above it (they were built on
    /// another version of it).
    pub fn set_layer(&mut self, entry: LayerEntry) {
        let n = entry.stones as usize;
        self.layers.truncate(n);
        assert_eq!(self.layers.len(), n, "layers are set in order");
        self.layers.push(entry);
        self.max_stones = n as u32;
    }

    /// Checks the layer files of `dir` against the manifest: each listed layer is there, with the
    /// listed length and header checksum, and no layer beyond those listed is. (The entries
    /// against the header checksum are [`crate::integrity`]'s part.)
    ///
    /// # Errors
    /// [`TbError::BadFile`] naming the layer file or the manifest.
    pub fn check_files(&self, dir: &Path) -> Result<(), TbError> {
        for l in &self.layers {
            let path = format::layer_path(dir, l.stones);
            let bad = |reason: String| TbError::BadFile { path: path.clone(), reason };
            let meta =
                std::fs::metadata(&path).map_err(|e| bad(format!("listed in {MANIFEST_FILE}: {e}")))?;
            if meta.len() != l.bytes {
                return Err(bad(format!("{} bytes, {MANIFEST_FILE} says {}", meta.len(), l.bytes)));
            }
            let (header, _) = format::map_layer(dir, l.stones)?;
            if checksum_text(header.checksum) != l.checksum {
                return Err(bad(format!(
                    "checksum {}, {MANIFEST_FILE} says {}",
                    checksum_text(header.checksum),
                    l.checksum
                )));
            }
        }
        let next = format::layer_path(dir, self.max_stones + 1);
        if next.exists() {
            return Err(TbError::BadFile {
                path: Manifest::path(dir),
                reason: format!(
                    "lists layers up to {} stones, but {} exists",
                    self.max_stones,
                    next.display()
                ),
            });
        }
        Ok(())
    }
}

impl Default for Manifest {
    fn default() -> Manifest {
        Manifest::new()
    }
}
