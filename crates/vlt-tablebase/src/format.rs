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

use crate::comm::{Comm, SingleProcess, agree};
use crate::error::TbError;
use crate::index;
use std::io::{Seek, SeekFrom, Write};
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
    let whole = data.len() - data.len() % 8;
    let mut c = Checksum::new(data.len() as u64);
    c.words(&data[..whole]);
    c.finish(&data[whole..])
}

/// [`checksum`] computed piece by piece, in order: what processes that each hold a part of a layer
/// compute in turn (each continues from the previous one's state).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checksum(u64);

impl Checksum {
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    /// The state before the first byte of `len` bytes of data.
    #[must_use]
    pub fn new(len: u64) -> Checksum {
        Checksum(0xcbf2_9ce4_8422_2325 ^ len)
    }

    /// The state as a number, to hand on to whoever continues it.
    #[must_use]
    pub fn state(self) -> u64 {
        self.0
    }

    /// The state handed on by [`Checksum::state`].
    #[must_use]
    pub fn from_state(state: u64) -> Checksum {
        Checksum(state)
    }

    /// Continues over `data`, whose length is a multiple of 8 (the data's end goes to
    /// [`Checksum::finish`]).
    ///
    /// # Panics
    /// When `data.len()` is not a multiple of 8.
    pub fn words(&mut self, data: &[u8]) {
        assert_eq!(data.len() % 8, 0, "the checksum takes whole words until the tail");
        for c in data.chunks_exact(8) {
            let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
            self.0 = (self.0 ^ w).wrapping_mul(Self::PRIME).rotate_left(29);
        }
    }

    /// The checksum, after the last fewer than 8 bytes `tail`.
    #[must_use]
    pub fn finish(self, tail: &[u8]) -> u64 {
        tail.iter().fold(self.0, |h, &b| (h ^ u64::from(b)).wrapping_mul(Self::PRIME))
    }
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
    write_layer_part(dir, n, 0, bytes, &SingleProcess)
}

/// Writes layer `n` atomically from the parts the ranks of `comm` hold (collective): this rank's
/// entries `part` start at entry `first`. Rank 0 creates the temporary file at its full length,
/// each rank writes its part in place and syncs it, the checksum runs over the parts in rank
/// order, and rank 0 writes the header, syncs and renames: the file is the one a single process
/// writes, and it exists only once complete.
///
/// Returns the header written (on every rank).
///
/// # Errors
/// [`TbError::Io`] when writing fails on this rank, [`TbError::OtherRank`] when it failed on another.
pub fn write_layer_part(
    dir: &Path,
    n: u32,
    first: u64,
    part: &[u8],
    comm: &dyn Comm,
) -> Result<Header, TbError> {
    let entries = index::layer_entries(n);
    let path = layer_path(dir, n);
    let tmp = path.with_extension("tmp");
    let lead = comm.rank() == 0;
    let io = |e| TbError::io(&path, e);
    let open = || std::fs::OpenOptions::new().write(true).open(&tmp);
    let made = if lead {
        std::fs::File::create(&tmp).and_then(|f| f.set_len(HEADER_LEN as u64 + entries)).map_err(io)
    } else {
        Ok(())
    };
    agree(comm, made)?;
    let written = open()
        .and_then(|mut f| {
            f.seek(SeekFrom::Start(HEADER_LEN as u64 + first))?;
            f.write_all(part)?;
            f.sync_data()
        })
        .map_err(io);
    agree(comm, written)?;
    // Whole words on every rank; the last one's part ends the layer and holds its tail.
    let last = comm.rank() + 1 == comm.size();
    let whole = if last { part.len() - part.len() % 8 } else { part.len() };
    let sum = comm.chain(Checksum::new(entries).state(), &mut |state| {
        let mut c = Checksum::from_state(state);
        c.words(&part[..whole]);
        if last { c.finish(&part[whole..]) } else { c.state() }
    });
    let header = Header { stones: n, entries, checksum: sum };
    let renamed = if lead {
        open()
            .and_then(|mut f| {
                f.write_all(&header.to_bytes())?;
                f.sync_all()?;
                std::fs::rename(&tmp, &path)
            })
            .map_err(io)
    } else {
        Ok(())
    };
    agree(comm, renamed)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The checksum as first written, word by word: the pieces must give exactly it (it is in
    /// every layer file's header).
    fn reference(data: &[u8]) -> u64 {
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

    #[test]
    fn checksum_in_pieces_is_the_checksum() {
        let data: Vec<u8> = (0..1003u32).map(|i| (i * 37 % 251) as u8).collect();
        for len in [0, 1, 7, 8, 9, 64, 1003] {
            assert_eq!(checksum(&data[..len]), reference(&data[..len]), "len {len}");
        }
        let mut c = Checksum::new(data.len() as u64);
        c.words(&data[..96]);
        let mut c = Checksum::from_state(c.state());
        c.words(&data[96..1000]);
        assert_eq!(c.finish(&data[1000..]), reference(&data));
    }
}
