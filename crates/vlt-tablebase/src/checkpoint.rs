//! Checkpoints within a layer, so that an interrupted build of a big layer resumes where it was
//! rather than at the layer's start.
//!
//! After the first pass and after each threshold, when [`crate::build::BuildOptions`] says one is
//! due, every rank writes its part's state (values, quiet-move counters, best exits and the waiting
//! lists of its boards' B-to-move entries: about 3 bytes a board) to `vlt-tb-NN-tTT-rR-of-S.ckpt` (layer, next threshold, rank,
//! ranks), through a temporary file that is synced and renamed, with a checksum at its end. Only
//! once every rank has its new file does any rank remove its older one, so at any moment there is
//! a checkpoint that every rank has. A build resumes from the latest checkpoint that every rank
//! has for the same number of ranks; a missing, damaged or foreign one makes the layer start
//! again (never an error: a checkpoint is only a saving of time). The lead removes a layer's
//! checkpoints once the layer file is written.

use crate::build::BuildEvent;
use crate::comm::{Comm, Reduce, agree};
use crate::error::TbError;
use crate::format::Checksum;
use crate::retro::{Checkpoints, PartState};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::time::{Duration, Instant};

const MAGIC: [u8; 8] = *b"VLTCKPT\x1a";
/// 2: the state of B-to-move entries only, one per board (see `crate::retro`).
const VERSION: u32 = 2;
/// Bytes hashed and written at a time (a multiple of 8: the checksum takes words).
const IO_CHUNK: usize = 1 << 20;

/// The checkpoint file of layer `n`'s part `rank` of `size`, with `t` the next threshold.
fn path(dir: &Path, n: u32, t: u32, rank: usize, size: usize) -> PathBuf {
    dir.join(format!("vlt-tb-{n:02}-t{t:02}-r{rank}-of-{size}.ckpt"))
}

/// Checkpoints in a table folder.
pub(crate) struct DirCheckpoints<'a> {
    dir: &'a Path,
    every: Option<Duration>,
    since: Instant,
    events: &'a (dyn Fn(BuildEvent) + Sync),
}

impl<'a> DirCheckpoints<'a> {
    pub(crate) fn new(
        dir: &'a Path,
        every: Option<Duration>,
        events: &'a (dyn Fn(BuildEvent) + Sync),
    ) -> DirCheckpoints<'a> {
        DirCheckpoints { dir, every, since: Instant::now(), events }
    }
}

impl Checkpoints for DirCheckpoints<'_> {
    fn resume(&mut self, comm: &dyn Comm, n: u32, first: u64) -> Result<Option<PartState>, TbError> {
        let (rank, size) = (comm.rank(), comm.size());
        let mine = (1..=n.min(63))
            .filter(|&t| path(self.dir, n, t, rank, size).is_file())
            .fold(0u64, |m, t| m | 1 << t);
        let common = comm.reduce(mine, Reduce::And);
        if common == 0 {
            return Ok(None);
        }
        // The smallest next threshold: the most work done.
        let t = common.trailing_zeros();
        let loaded = load(&path(self.dir, n, t, rank, size), n, t, rank, size, first);
        if comm.reduce(u64::from(loaded.is_none()), Reduce::Max) == 1 {
            return Ok(None);
        }
        (self.events)(BuildEvent::LayerResumed { stones: n, threshold: t });
        self.since = Instant::now();
        Ok(loaded)
    }

    fn reached(&mut self, comm: &dyn Comm, n: u32, first: u64, state: &PartState) -> Result<(), TbError> {
        let due = self.every.is_some_and(|e| self.since.elapsed() >= e);
        // Rank 0's clock decides for all: every rank writes the same checkpoint.
        if comm.broadcast(u64::from(due), 0) == 0 {
            return Ok(());
        }
        let (rank, size) = (comm.rank(), comm.size());
        let p = path(self.dir, n, state.next_t, rank, size);
        agree(comm, save(&p, n, rank, size, first, state).map_err(|e| TbError::io(&p, e)))?;
        // Every rank has the new one: the older ones are no longer needed.
        for t in state.next_t + 1..=n {
            let _ = std::fs::remove_file(path(self.dir, n, t, rank, size));
        }
        (self.events)(BuildEvent::Checkpoint { stones: n, threshold: state.next_t });
        self.since = Instant::now();
        Ok(())
    }
}

/// Removes every checkpoint of layer `n` in `dir` (of any rank and number of ranks), and the
/// temporary files of checkpoints being written when a build stopped.
pub(crate) fn remove_all(dir: &Path, n: u32) {
    let prefix = format!("vlt-tb-{n:02}-t");
    let Ok(list) = std::fs::read_dir(dir) else { return };
    for e in list.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(&prefix) && (name.ends_with(".ckpt") || name.ends_with(".ckpt-tmp")) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// The fields that say which part a checkpoint holds.
fn header(n: u32, t: u32, rank: usize, size: usize, first: u64, len: u64) -> [u8; 48] {
    let mut h = [0u8; 48];
    h[0..8].copy_from_slice(&MAGIC);
    for (i, x) in [VERSION, n, t, rank as u32, size as u32, 0].into_iter().enumerate() {
        h[8 + 4 * i..12 + 4 * i].copy_from_slice(&x.to_le_bytes());
    }
    h[32..40].copy_from_slice(&first.to_le_bytes());
    h[40..48].copy_from_slice(&len.to_le_bytes());
    h
}

/// Writes a file and hashes what it writes, by whole words (each section padded to 8 bytes).
struct HashWriter {
    out: BufWriter<File>,
    sum: Checksum,
    buf: Vec<u8>,
}

impl HashWriter {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= IO_CHUNK {
            let whole = self.buf.len() & !7;
            self.sum.words(&self.buf[..whole]);
            self.out.write_all(&self.buf[..whole])?;
            self.buf.drain(..whole);
        }
        Ok(())
    }

    fn end_section(&mut self) -> std::io::Result<()> {
        let pad = self.buf.len().next_multiple_of(8) - self.buf.len();
        self.put(&[0u8; 8][..pad])
    }

    fn finish(mut self) -> std::io::Result<()> {
        self.end_section()?;
        self.sum.words(&self.buf);
        self.out.write_all(&self.buf)?;
        self.out.write_all(&self.sum.finish(&[]).to_le_bytes())?;
        self.out.into_inner().map_err(|e| e.into_error())?.sync_all()
    }
}

fn save(p: &Path, n: u32, rank: usize, size: usize, first: u64, s: &PartState) -> std::io::Result<()> {
    let tmp = p.with_extension("ckpt-tmp");
    let mut w = HashWriter {
        out: BufWriter::with_capacity(IO_CHUNK, File::create(&tmp)?),
        sum: Checksum::new(0),
        buf: Vec::with_capacity(2 * IO_CHUNK),
    };
    w.put(&header(n, s.next_t, rank, size, first, s.value.len() as u64))?;
    for l in &s.pending {
        w.put(&(l.len() as u64).to_le_bytes())?;
    }
    let mut chunk = Vec::with_capacity(IO_CHUNK);
    for array in [&s.value, &s.count] {
        for part in array.chunks(IO_CHUNK) {
            chunk.clear();
            chunk.extend(part.iter().map(|a| a.load(Relaxed)));
            w.put(&chunk)?;
        }
        w.end_section()?;
    }
    for part in s.exit.chunks(IO_CHUNK) {
        chunk.clear();
        chunk.extend(part.iter().map(|&e| e as u8));
        w.put(&chunk)?;
    }
    w.end_section()?;
    for l in &s.pending {
        for &i in l {
            w.put(&i.to_le_bytes())?;
        }
    }
    w.finish()?;
    std::fs::rename(&tmp, p)
}

/// Reads a file and hashes what it reads, section by section (each padded to 8 bytes).
struct HashReader {
    input: BufReader<File>,
    sum: Checksum,
    buf: Vec<u8>,
}

impl HashReader {
    /// Reads a section of `len` bytes, handing it to `f` a piece at a time.
    fn section(&mut self, len: u64, mut f: impl FnMut(&[u8])) -> std::io::Result<()> {
        let padded = len.next_multiple_of(8);
        let mut left = padded;
        while left > 0 {
            let k = left.min(IO_CHUNK as u64) as usize;
            self.buf.resize(k, 0);
            self.input.read_exact(&mut self.buf)?;
            self.sum.words(&self.buf);
            let data = (len - (padded - left)).min(k as u64) as usize;
            f(&self.buf[..data]);
            left -= k as u64;
        }
        Ok(())
    }
}

/// The state of a checkpoint file, when it is one of layer `n` at threshold `t` for this part
/// and its checksum holds.
fn load(p: &Path, n: u32, t: u32, rank: usize, size: usize, first: u64) -> Option<PartState> {
    let file = File::open(p).ok()?;
    let mut r = HashReader {
        input: BufReader::with_capacity(IO_CHUNK, file),
        sum: Checksum::new(0),
        buf: Vec::new(),
    };
    let mut head = Vec::new();
    r.section(48, |b| head.extend_from_slice(b)).ok()?;
    let len = u64::from_le_bytes(head[40..48].try_into().ok()?);
    if head[..] != header(n, t, rank, size, first, len) || len > 1 << 40 {
        return None;
    }
    let mut lens = Vec::new();
    r.section(8 * (u64::from(n) + 1), |b| {
        lens.extend(b.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))));
    })
    .ok()?;
    if lens.iter().sum::<u64>() > len {
        return None;
    }
    let mut value = Vec::with_capacity(len as usize);
    r.section(len, |b| value.extend(b.iter().map(|&x| AtomicU8::new(x)))).ok()?;
    let mut count = Vec::with_capacity(len as usize);
    r.section(len, |b| count.extend(b.iter().map(|&x| AtomicU8::new(x)))).ok()?;
    let mut exit = Vec::with_capacity(len as usize);
    r.section(len, |b| exit.extend(b.iter().map(|&x| x as i8))).ok()?;
    let mut all = Vec::new();
    r.section(4 * lens.iter().sum::<u64>(), |b| {
        all.extend(b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes"))));
    })
    .ok()?;
    let mut stored = [0u8; 8];
    r.input.read_exact(&mut stored).ok()?;
    let mut rest = [0u8; 1];
    if u64::from_le_bytes(stored) != r.sum.finish(&[]) || r.input.read(&mut rest).ok()? != 0 {
        return None;
    }
    let mut pending = Vec::with_capacity(lens.len());
    let mut at = 0usize;
    for l in lens {
        pending.push(all[at..at + l as usize].to_vec());
        at += l as usize;
    }
    // A checkpoint's entries are its part's: out-of-range indices would be another part's.
    let end = first + len;
    if pending.iter().flatten().any(|&i| u64::from(i) < first || u64::from(i) >= end) {
        return None;
    }
    Some(PartState { next_t: t, value, count, exit, pending })
}
