//! The retrograde builder: layer by layer by stones on the board, each layer solved from the
//! finished smaller ones (captures) and a fixed point within itself (moves without capture, R7).
//!
//! # The algorithm of one layer
//!
//! Values are *future* capture differences for the player to move. Seen from player `S`, the game
//! inside a layer is a reachability game: play moves along non-capturing edges until some player
//! takes a capture (an *exit*, whose value the smaller layers give exactly), or goes on for ever,
//! which R7 scores 0 (no further captures). For a threshold `t ≥ 1`, "`S` can force at least `t`" is
//! the least fixed point (the attractor) of: `S` to move and some move is an exit worth ≥ `t` or leads
//! to such a position; the opponent to move and every move does. Attractors grow as `t` falls, so
//! one backward propagation handles all thresholds, from `n` down to 1, for both players at once:
//!
//! * an exit worth exactly `t` to its mover seeds the mover's set at `t`;
//! * when a position enters `S`'s set at `t`, each predecessor (found by un-sowing) with `S` to
//!   move enters at `t` unless already decided; a predecessor with the opponent to move counts down
//!   its remaining non-capturing moves, and when none is left it enters at `t` if its best exit
//!   concedes at least `t`, or else waits for the threshold of that exit;
//! * whatever is left undecided can neither be forced up nor down: value 0, the R7 value.
//!
//! The winner's strategy follows the attractor's order, so it never repeats a position; the other
//! player can keep play out of the attractor for ever, so repetitions (R7) only ever give it its 0
//! or better. Hence these values are the values of the game with R7 from an empty history, and the
//! tests check them against a minimax search that plays R7 literally.
//!
//! Only the B-to-move entries are solved; an A-to-move position is its mirror image (rows swapped)
//! with B to move, and the A-to-move entries are filled when the layer is written (see
//! [`crate::retro`]). Memory while building layer `n`: 3 bytes per board of the layer (value, exit,
//! move counter of its B-to-move entry), the lists of seeds and frontiers (4 bytes a listed entry)
//! and the layer's bytes as written (2 a board); the smaller layers (1 byte an entry)
//! are memory-mapped by [`build`], so their pages are page cache that the system can reclaim.
//!
//! The solve itself is in [`crate::retro`], written once for any number of processes over the
//! communication seam [`crate::comm`]: [`build`] is [`build_with`] on one process; under MPI
//! (feature `mpi`) each rank holds a range of every layer.

use crate::checkpoint::{self, DirCheckpoints};
use crate::comm::{Comm, SingleProcess, agree};
use crate::error::TbError;
use crate::format;
use crate::index::{self, MAX_LAYER};
use crate::integrity;
use crate::manifest::{self, LayerBuild, LayerEntry, Manifest};
use crate::retro::{self, NoCheckpoints};
use std::path::Path;
use std::time::Duration;

/// What the builder reports as it goes; the CLI draws progress bars from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildEvent {
    /// A layer already on disk was checked and kept (resuming).
    LayerKept {
        /// Stones on the board.
        stones: u32,
    },
    /// Work on a layer began; `total` is the unit count of its progress (boards, twice: one pass
    /// over the moves, one over the decided positions).
    LayerStart {
        /// Stones on the board.
        stones: u32,
        /// Entries in the layer.
        entries: u64,
        /// Units of work [`BuildEvent::Progress`] counts to.
        total: u64,
    },
    /// Units of work done so far in the current layer.
    Progress {
        /// Stones on the board.
        stones: u32,
        /// Units done.
        done: u64,
    },
    /// A checkpoint of the layer being built was written: a build interrupted from here on resumes
    /// at it, with thresholds `threshold` down to 1 still to propagate.
    Checkpoint {
        /// Stones on the board.
        stones: u32,
        /// The next threshold.
        threshold: u32,
    },
    /// The layer being built resumes from its checkpoint, at `threshold`.
    LayerResumed {
        /// Stones on the board.
        stones: u32,
        /// The next threshold.
        threshold: u32,
    },
    /// A layer was solved and written.
    LayerDone {
        /// Stones on the board.
        stones: u32,
        /// The layer's statistics.
        stats: LayerStats,
    },
}

/// Figures about one solved layer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayerStats {
    /// Entries (both players to move, non-positions included).
    pub entries: u64,
    /// Real positions.
    pub positions: u64,
    /// Positions of value 0.
    pub zeros: u64,
    /// Positions of value 0 that have non-capturing moves and no capture worth 0 or more: their 0
    /// comes through quiet play, in the end from positions that a cycle holds (R7).
    pub zero_by_quiet_play: u64,
    /// Microseconds it took (the slowest rank's).
    pub micros: u64,
    /// Bytes of predecessor updates the ranks sent one another (0 for one process).
    pub exchanged_bytes: u64,
}

/// How [`build_with`] builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BuildOptions {
    /// A layer whose build has run this long since its start or its last checkpoint writes a
    /// checkpoint at the next threshold (`Duration::ZERO`: at every one; `None`: never).
    pub checkpoint_every: Option<Duration>,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        // A checkpoint of a 27-stone layer writes 7 GB: worth it only after a good while of work.
        BuildOptions { checkpoint_every: Some(Duration::from_secs(15 * 60)) }
    }
}

impl BuildOptions {
    /// Checkpoints after `every` of a layer's work (see [`BuildOptions::checkpoint_every`]).
    #[must_use]
    pub fn checkpoint_every(every: Option<Duration>) -> BuildOptions {
        BuildOptions { checkpoint_every: every }
    }
}

/// Solves layer `n` in memory, given the layers `0..n` (`lower[k]` is layer `k`).
///
/// `progress(done)` is called now and then with units of work done (see
/// [`BuildEvent::LayerStart`]: `2 * entries` in all).
///
/// # Panics
/// When `lower` does not hold the layers `0..n` or `n > MAX_LAYER`.
pub fn solve_layer(n: u32, lower: &[&[u8]], progress: &(dyn Fn(u64) + Sync)) -> (Vec<u8>, LayerStats) {
    retro::solve_part(n, lower, &SingleProcess, &mut NoCheckpoints, progress)
        .expect("a solve without checkpoints does no input or output")
}

/// Builds (or completes) the tables of up to `max_stones` stones in `dir`, layer by layer, keeping
/// the layers already there (resuming an interrupted build), each checked as every reader checks
/// it ([`integrity::open_layer`]): a damaged one is an error naming it, never built upon.
///
/// The smaller layers, which the layer being built reads its captures from, are memory-mapped
/// from their files, not held in the process's own memory: their pages are the page cache's, which
/// the system can drop and read again when memory runs short, so only the layer being built must
/// fit (see docs/tablebase.md, "Size, memory and time"). Each layer written gets its verified
/// stamp, and the folder's manifest ([`Manifest`]) is rewritten to list it.
///
/// # Errors
/// [`TbError`] when a file cannot be read or written, a kept layer is damaged, or `max_stones` is
/// too large.
pub fn build(
    dir: &Path,
    max_stones: u32,
    events: &(dyn Fn(BuildEvent) + Sync),
) -> Result<Vec<LayerStats>, TbError> {
    build_with(dir, max_stones, events, &SingleProcess, &BuildOptions::default())
}

/// [`build`] by the ranks of `comm` together (collective: every rank calls it with the same
/// folder, which they share, and the same arguments), with checkpoints within layers as
/// `options` says.
///
/// Each rank solves its range of every layer's boards ([`crate::retro::board_bounds`]), maps
/// the smaller layers from the folder, and writes its part of each layer file in place; rank 0
/// (the lead) checks the layers kept, writes the headers, stamps and the manifest. The files are
/// byte for byte those of one process, and the manifest differs only in the build's figures.
/// Events come on every rank, each with its own part's progress.
///
/// # Errors
/// As [`build`]; [`TbError::OtherRank`] on the ranks where another rank failed.
pub fn build_with(
    dir: &Path,
    max_stones: u32,
    events: &(dyn Fn(BuildEvent) + Sync),
    comm: &dyn Comm,
    options: &BuildOptions,
) -> Result<Vec<LayerStats>, TbError> {
    if max_stones > MAX_LAYER {
        return Err(TbError::TooManyStones(max_stones));
    }
    let lead = comm.rank() == 0;
    let old_manifest = agree(
        comm,
        if lead {
            std::fs::create_dir_all(dir).map_err(|e| TbError::io(dir, e)).and_then(|()| Manifest::read(dir))
        } else {
            Ok(None)
        },
    )?;
    let mut manifest = Manifest::new();
    let mut layers: Vec<memmap2::Mmap> = Vec::new();
    let mut all = Vec::new();
    for n in 0..=max_stones {
        if comm.broadcast(u64::from(lead && format::layer_path(dir, n).exists()), 0) == 1 {
            // The lead checks the layer (and stamps it) first; then the others open it.
            let checked = if lead {
                integrity::open_layer(dir, n).and_then(|kept| {
                    let listed = old_manifest.as_ref().and_then(|m| m.layers.get(n as usize)).filter(|l| {
                        l.checksum == manifest::checksum_text(kept.header.checksum)
                            && l.bytes == kept.map.len() as u64
                    });
                    let entry =
                        listed.cloned().unwrap_or_else(|| layer_entry(n, &kept.header, kept.counts, None));
                    manifest.set_layer(entry);
                    manifest.write(dir)?;
                    Ok(Some(kept.map))
                })
            } else {
                Ok(None)
            };
            let checked = agree(comm, checked)?;
            let map = agree(
                comm,
                match checked {
                    Some(map) => Ok(map),
                    None => integrity::open_layer(dir, n).map(|kept| kept.map),
                },
            )?;
            layers.push(map);
            events(BuildEvent::LayerKept { stones: n });
            continue;
        }
        let bounds = retro::board_bounds(n, comm.size());
        let first = 2 * bounds[comm.rank()];
        let part = 2 * bounds[comm.rank() + 1] - first;
        // Two units a board of the part: one for each pass (B to move only, see `retro`).
        events(BuildEvent::LayerStart { stones: n, entries: index::layer_entries(n), total: part });
        let lower: Vec<&[u8]> = layers.iter().map(format::entries).collect();
        let mut checkpoints = DirCheckpoints::new(dir, options.checkpoint_every, events);
        let progress = |done| events(BuildEvent::Progress { stones: n, done });
        let (data, stats) = retro::solve_part(n, &lower, comm, &mut checkpoints, &progress)?;
        let header = format::write_layer_part(dir, n, first, &data, comm)?;
        drop(data);
        let finished = if lead {
            integrity::write_stamp(&format::layer_path(dir, n), header.checksum).and_then(|()| {
                let counts = integrity::LayerCounts { positions: stats.positions, zeros: stats.zeros };
                let figures = LayerBuild {
                    millis: stats.micros / 1000,
                    threads: rayon::current_num_threads() as u32,
                    ranks: comm.size() as u32,
                };
                manifest.set_layer(layer_entry(n, &header, Some(counts), Some(figures)));
                manifest.write(dir)?;
                checkpoint::remove_all(dir, n);
                Ok(())
            })
        } else {
            Ok(())
        };
        agree(comm, finished)?;
        events(BuildEvent::LayerDone { stones: n, stats });
        all.push(stats);
        layers.push(agree(comm, format::map_layer(dir, n).map(|(_, map)| map))?);
    }
    Ok(all)
}

/// The manifest's entry of layer `n` with header `header`.
pub(crate) fn layer_entry(
    n: u32,
    header: &format::Header,
    counts: Option<integrity::LayerCounts>,
    build: Option<LayerBuild>,
) -> LayerEntry {
    LayerEntry {
        stones: n,
        file: format!("vlt-tb-{n:02}.bin"),
        entries: header.entries,
        bytes: (format::HEADER_LEN as u64) + header.entries,
        checksum: manifest::checksum_text(header.checksum),
        positions: manifest::layer_positions(n),
        zeros: counts.map(|c| c.zeros),
        build,
    }
}

/// Solves the layers `0..=max_stones` in memory (for tests and small tools).
#[must_use]
pub fn build_in_memory(max_stones: u32) -> Vec<Vec<u8>> {
    let mut layers: Vec<Vec<u8>> = Vec::new();
    for n in 0..=max_stones {
        let lower: Vec<&[u8]> = layers.iter().map(Vec::as_slice).collect();
        let (data, _) = solve_layer(n, &lower, &|_| {});
        layers.push(data);
    }
    layers
}
