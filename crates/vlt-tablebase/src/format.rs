//! The layer file format: a 64-byte header, then one signed byte per entry.
//!
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 8 | magic `VLTTB\r\n\x1a` |
//! | 8 | 4 | format version (little endian), [`FORMAT_VERSION`] |
//! | 12 | 4 | rules id, [`RULES_ID`]: R1–R7 of RULES.md (laps do not skip the start hole, R5 passes, R7 third occurrence) |
//! | 16 | 4 | stones on the board in this layer |
//! | 20 | 4 | zero |
//! | 24 | 8 | entry count, `2 * C(n + 11, 11)` |
//! | 32 | 8 | checksum of the entries ([`checksum`]) |
//! | 40 | 24 | zero |
//!
//! Entry `2 * rank + player` holds, as an `i8` byte, the value for the player to move (see the crate docs), or
//! [`NO_POSITION`] where that player has no stone in its row (N2 normalises such positions away).

use crate::error::TbError;
use crate::index;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first bytes of every layer file.
pub const MAGIC: [u8; 8] = *b"VLTTB\r\n\x1a";
/// The version of this format.
pub const FORMAT_VERSION: u32 = 1;
/// The rules the values are for: 1 = RULES.md R1–R7 (R7: third occurrence ends the game).
pub const RULES_ID: u32 = 1;
/// Bytes before the entries.
pub const HEADER_LEN: usize = 64;
/// The entry of a slot that is not a position: the player to move has an empty row, board not empty.
pub const NO_POSITION: i8 = i8::MIN;

/// The file name of layer `n` in a table folder.
#[must_use]
pub fn layer_path(dir: &Path, n: u32) -> PathBuf {
    dir.join(format!("vlt-tb-{n:02}.bin"))
}

/// A 64-bit checksum of the entries: FNV-1a-style mixing of 8-byte words (and the tail bytes).
#[must_use]
pub fn checksum(data: &[u8]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ data.len() as u64;
    let mut chunks = data.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        h = (h ^ w).wrapping_mul(PRIME).rotate_left(29);
    }
    for &b in chunks.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(PRIME);
    }
    h
}

/// The header fields of a layer file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Stones on the board.
    pub stones: u32,
    /// Number of entries.
    pub entries: u64,
    /// Checksum of the entries.
    pub checksum: u64,
}

impl Header {
    /// The 64 header bytes.
    #[must_use]
    pub fn to_bytes(self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(&MAGIC);
        h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        h[12..16].copy_from_slice(&RULES_ID.to_le_bytes());
        h[16..20].copy_from_slice(&self.stones.to_le_bytes());
        h[24..32].copy_from_slice(&self.entries.to_le_bytes());
        h[32..40].copy_from_slice(&self.checksum.to_le_bytes());
        h
    }

    /// Parses and checks a header for layer `n` (magic, version, rules, stone count, entry count).
    ///
    /// # Errors
    /// A description of the first field that is wrong.
    pub fn parse(bytes: &[u8], n: u32) -> Result<Header, String> {
        if bytes.len() < HEADER_LEN {
            return Err(format!("{} bytes: too short for a header", bytes.len()));
        }
        let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().expect("4 bytes"));
        let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().expect("8 bytes"));
        if bytes[0..8] != MAGIC {
            return Err("not a vlt tablebase file (bad magic)".into());
        }
        if u32_at(8) != FORMAT_VERSION {
            return Err(format!("format version {}, expected {FORMAT_VERSION}", u32_at(8)));
        }
        if u32_at(12) != RULES_ID {
            return Err(format!("rules id {}, expected {RULES_ID}", u32_at(12)));
        }
        let h = Header { stones: u32_at(16), entries: u64_at(24), checksum: u64_at(32) };
        if h.stones != n {
            return Err(format!("holds {} stones, expected {n}", h.stones));
        }
        if h.entries != index::layer_entries(n) {
            return Err(format!("{} entries, expected {}", h.entries, index::layer_entries(n)));
        }
        Ok(h)
    }
}

/// Writes layer `n` atomically: to a temporary file, synced, then renamed, so that a layer file that
/// exists is always complete (what resuming a build relies on).
///
/// Returns the header written.
///
/// # Errors
/// [`TbError::Io`] when writing fails.
pub fn write_layer(dir: &Path, n: u32, bytes: &[u8]) -> Result<Header, TbError> {
    let header = Header { stones: n, entries: bytes.len() as u64, checksum: checksum(bytes) };
    let path = layer_path(dir, n);
    let tmp = path.with_extension("tmp");
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(&header.to_bytes())?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, &path)
    };
    write().map_err(|e| TbError::io(&path, e))?;
    Ok(header)
}

/// Maps layer `n` into memory read-only, checking its header and its length (not its checksum
/// nor its values: [`crate::integrity::open_layer`] does all, and is what readers use). [`entries`] gives the entries of the map.
///
/// # Errors
/// [`TbError::Io`] or [`TbError::BadFile`].
pub fn map_layer(dir: &Path, n: u32) -> Result<(Header, memmap2::Mmap), TbError> {
    let path = layer_path(dir, n);
    let file = std::fs::File::open(&path).map_err(|e| TbError::io(&path, e))?;
    let meta = file.metadata().map_err(|e| TbError::io(&path, e))?;
    // A folder opens on some systems, then fails to map with an unhelpful error.
    if !meta.is_file() {
        return Err(TbError::BadFile { path, reason: "not a regular file".into() });
    }
    let len = meta.len();
    // Checked before mapping, not only by the header check after it: an empty file cannot be
    // mapped on every system, and must be refused as a bad file, not an I/O error.
    if len < HEADER_LEN as u64 {
        let reason = format!("{len} bytes: too short for a header");
        return Err(TbError::BadFile { path, reason });
    }
    // SAFETY: the map is read-only and only read through byte slices. It stays valid as long as
    // nobody changes or truncates the file in place while it is open; vlt never does (the builder
    // writes a new file and renames it over the old one, which leaves existing maps intact).
    #[allow(unsafe_code)]
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| TbError::io(&path, e))?;
    Ok((checked_header(&path, &map, n)?, map))
}

/// The header of layer file `path` (its whole contents `bytes`), checked against the layer `n` it
/// should hold and against the file's length.
fn checked_header(path: &Path, bytes: &[u8], n: u32) -> Result<Header, TbError> {
    let bad = |reason: String| TbError::BadFile { path: path.to_path_buf(), reason };
    let header = Header::parse(bytes, n).map_err(bad)?;
    if (bytes.len() - HEADER_LEN) as u64 != header.entries {
        return Err(bad(format!(
            "{} bytes of entries, the header says {}",
            bytes.len() - HEADER_LEN,
            header.entries
        )));
    }
    Ok(header)
}

/// The entries of a layer mapped by [`map_layer`]: what follows its header.
#[must_use]
pub fn entries(map: &memmap2::Mmap) -> &[u8] {
    &map[HEADER_LEN..]
}

/// Checks the checksum of a layer's entries against its header.
#[must_use]
pub fn check_checksum(header: &Header, bytes: &[u8]) -> bool {
    checksum(bytes) == header.checksum
}
