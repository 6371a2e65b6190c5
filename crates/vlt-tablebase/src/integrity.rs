//! Checking a layer file before its first use: header, length, checksum and the range of every
//! value, so that a damaged, truncated or foreign file is an error naming it, never a value.
//!
//! The full check reads every byte (about a second for a 24-stone layer). To keep opening large
//! tables immediate, a passed check leaves a *verified stamp* beside the layer,
//! `vlt-tb-NN.verified`, recording the file's size, modification and change times, device, inode
//! and checksum; a later open that finds the stamp matching the file skips the full check. Any
//! write to the file, a copy or a restore from backup changes the change time or the inode, so the
//! stamp no longer matches and the full check runs again. Small layers (below
//! [`STAMP_MIN_BYTES`]) are always checked in full: it costs little, and needs no faith in
//! file times. The builder writes the stamp of each layer it writes; `vlt tb verify` writes them
//! too. Stamps are a cache: deleting them only costs time, and a folder where they cannot be
//! written (read-only) is checked in full at every open.

use crate::error::TbError;
use crate::format::{self, HEADER_LEN, Header, NO_POSITION};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// Layers of at least this many bytes are trusted on a matching stamp; smaller ones are always
/// checked in full.
pub const STAMP_MIN_BYTES: u64 = 4 << 20;

/// What the full check of a layer counts: its positions and how many are worth 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayerCounts {
    /// Real positions (entries that are not [`NO_POSITION`]); 0 for the empty board's layer.
    pub positions: u64,
    /// Positions worth 0.
    pub zeros: u64,
}

/// A layer file mapped into memory and checked.
#[derive(Debug)]
pub struct CheckedLayer {
    /// The file.
    pub path: PathBuf,
    /// Its header.
    pub header: Header,
    /// The whole file, header included ([`format::entries`] gives the entries).
    pub map: memmap2::Mmap,
    /// Counts from the full check; `None` when a matching stamp spared it.
    pub counts: Option<LayerCounts>,
}

impl CheckedLayer {
    /// The entries, after the header.
    #[must_use]
    pub fn entries(&self) -> &[u8] {
        format::entries(&self.map)
    }
}

/// Maps layer `n` of `dir` and checks it, in full unless a matching verified stamp (for layers of
/// [`STAMP_MIN_BYTES`] and more) says it already was; a full check that passes writes the stamp.
///
/// # Errors
/// [`TbError::BadFile`] naming the file when its header, length, checksum or a value is wrong;
/// [`TbError::Io`] when it cannot be read.
pub fn open_layer(dir: &Path, n: u32) -> Result<CheckedLayer, TbError> {
    open_layer_with(dir, n, STAMP_MIN_BYTES, false)
}

/// [`open_layer`] with the stamp threshold given, and with `full` the stamp ignored (what
/// `vlt tb verify` does).
///
/// # Errors
/// As [`open_layer`].
pub fn open_layer_with(dir: &Path, n: u32, stamp_min: u64, full: bool) -> Result<CheckedLayer, TbError> {
    let (header, map) = format::map_layer(dir, n)?;
    let path = format::layer_path(dir, n);
    let meta = std::fs::metadata(&path).map_err(|e| TbError::io(&path, e))?;
    let stamp = Stamp::of(&meta, header.checksum);
    if !full && meta.len() >= stamp_min && Stamp::read(&stamp_path(&path)).as_ref() == Some(&stamp) {
        return Ok(CheckedLayer { path, header, map, counts: None });
    }
    let counts = check_entries(&path, n, &header, format::entries(&map))?;
    // A stamp is only a cache: where it cannot be written, the next open checks in full again.
    let _ = stamp.write(&stamp_path(&path));
    Ok(CheckedLayer { path, header, map, counts: Some(counts) })
}

/// Checks the entries of layer `n` (file `path`, header `header`): the checksum, and that every
/// entry is a value of `-n..=n` or (above 0 stones) [`NO_POSITION`].
///
/// # Errors
/// [`TbError::BadFile`] naming `path`.
pub fn check_entries(path: &Path, n: u32, header: &Header, entries: &[u8]) -> Result<LayerCounts, TbError> {
    let bad = |reason: String| TbError::BadFile { path: path.to_path_buf(), reason };
    if !format::check_checksum(header, entries) {
        return Err(bad("checksum mismatch: the entries are damaged".into()));
    }
    let by_byte = byte_counts(entries);
    let mut counts = LayerCounts::default();
    for (byte, &c) in by_byte.iter().enumerate() {
        let v = byte as u8 as i8;
        if c == 0 {
            continue;
        }
        if v == NO_POSITION && n > 0 {
            continue;
        }
        if v.unsigned_abs() as u32 > n {
            return Err(bad(format!("{c} entries hold {v}, not a value of a layer of {n} stones")));
        }
        if n > 0 {
            counts.positions += c;
            counts.zeros += if v == 0 { c } else { 0 };
        }
    }
    Ok(counts)
}

/// How often each byte occurs in `data` (the layer check and the statistics both count this way).
pub(crate) fn byte_counts(data: &[u8]) -> [u64; 256] {
    data.par_chunks(1 << 20)
        .map(|chunk| {
            let mut by_byte = [0u64; 256];
            for &b in chunk {
                by_byte[b as usize] += 1;
            }
            by_byte
        })
        .reduce(
            || [0u64; 256],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        )
}

/// Writes the verified stamp of layer file `path`, whose checksum is `checksum` (the builder,
/// which has just written and synced the file).
///
/// # Errors
/// [`TbError::Io`] when the file's metadata cannot be read or the stamp not written.
pub fn write_stamp(path: &Path, checksum: u64) -> Result<(), TbError> {
    let meta = std::fs::metadata(path).map_err(|e| TbError::io(path, e))?;
    let sp = stamp_path(path);
    Stamp::of(&meta, checksum).write(&sp).map_err(|e| TbError::io(sp, e))
}

/// The stamp file of layer file `path`.
#[must_use]
pub fn stamp_path(path: &Path) -> PathBuf {
    path.with_extension("verified")
}

/// What a verified stamp records of a layer file.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Stamp {
    size: u64,
    mtime_ns: i128,
    ctime_ns: i128,
    dev: u64,
    ino: u64,
    checksum: u64,
}

impl Stamp {
    fn of(meta: &std::fs::Metadata, checksum: u64) -> Stamp {
        let ns = |t: std::io::Result<std::time::SystemTime>| {
            t.ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(-1, |d| d.as_nanos() as i128)
        };
        #[cfg(unix)]
        let (ctime_ns, dev, ino) = {
            use std::os::unix::fs::MetadataExt;
            (i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec()), meta.dev(), meta.ino())
        };
        // Without change times and inodes a copy could keep the size and modification time: such
        // systems never match a stamp (ctime -1 is never written as matching, see `read`).
        #[cfg(not(unix))]
        let (ctime_ns, dev, ino) = (-1, 0, 0);
        Stamp { size: meta.len(), mtime_ns: ns(meta.modified()), ctime_ns, dev, ino, checksum }
    }

    fn text(&self) -> String {
        format!(
            "vlt-tb verified 1\nsize {}\nmtime_ns {}\nctime_ns {}\ndev {}\nino {}\nchecksum {:#018x}\n",
            self.size, self.mtime_ns, self.ctime_ns, self.dev, self.ino, self.checksum
        )
    }

    fn read(path: &Path) -> Option<Stamp> {
        let text = std::fs::read_to_string(path).ok()?;
        let mut lines = text.lines();
        if lines.next()? != "vlt-tb verified 1" {
            return None;
        }
        let mut field = |name: &str| -> Option<String> {
            let line = lines.next()?;
            Some(line.strip_prefix(name)?.strip_prefix(' ')?.to_string())
        };
        let size = field("size")?.parse().ok()?;
        let mtime_ns = field("mtime_ns")?.parse().ok()?;
        let ctime_ns: i128 = field("ctime_ns")?.parse().ok()?;
        let dev = field("dev")?.parse().ok()?;
        let ino = field("ino")?.parse().ok()?;
        let checksum = u64::from_str_radix(field("checksum")?.strip_prefix("0x")?, 16).ok()?;
        (ctime_ns >= 0).then_some(Stamp { size, mtime_ns, ctime_ns, dev, ino, checksum })
    }

    fn write(&self, path: &Path) -> std::io::Result<()> {
        let tmp = path.with_extension("verified-tmp");
        std::fs::write(&tmp, self.text())?;
        std::fs::rename(&tmp, path)
    }
}

/// The length of a layer file of `entries` entries.
#[must_use]
pub fn file_len(entries: u64) -> u64 {
    HEADER_LEN as u64 + entries
}
