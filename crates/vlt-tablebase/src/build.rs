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
//! Memory while building layer `n`: 3 bytes per entry of the layer (value, exit, move counter) and
//! the lists of seeds and frontiers (4 bytes a listed entry); the smaller layers (1 byte an entry)
//! are memory-mapped by [`build`], so their pages are page cache that the system can reclaim.

use crate::error::TbError;
use crate::format::{self, NO_POSITION};
use crate::index::{self, MAX_LAYER, boards, index_of, next_board, unrank};
use crate::integrity;
use crate::manifest::{self, LayerBuild, LayerEntry, Manifest};
use crate::unsow::for_each_predecessor;
use crate::value::move_value;
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};
use std::time::Instant;
use vlt_core::{ByPlayer, HOLES, Player, Position, ROW};

/// Not yet decided, in the value array: no value reaches 127.
const UNDECIDED: u8 = 0x7f;
/// Boards a work item of the first pass covers.
const CHUNK_BOARDS: usize = 1 << 12;
/// Boards of the first pass whose captures are looked up together.
const BLOCK_BOARDS: usize = 64;

/// What the builder reports as it goes; the CLI draws progress bars from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildEvent {
    /// A layer already on disk was checked and kept (resuming).
    LayerKept {
        /// Stones on the board.
        stones: u32,
    },
    /// Work on a layer began; `total` is the unit count of its progress (entries, twice: one pass
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
    /// Microseconds it took.
    pub micros: u64,
}

/// Solves layer `n` in memory, given the layers `0..n` (`lower[k]` is layer `k`).
///
/// `progress(done)` is called now and then with units of work done (see
/// [`BuildEvent::LayerStart`]: `2 * entries` in all).
///
/// # Panics
/// When `lower` does not hold the layers `0..n` or `n > MAX_LAYER`.
pub fn solve_layer(n: u32, lower: &[&[u8]], progress: &(dyn Fn(u64) + Sync)) -> (Vec<u8>, LayerStats) {
    assert!(n <= MAX_LAYER, "layer {n} is beyond {MAX_LAYER}");
    assert!(lower.len() >= n as usize, "layer {n} needs the layers below it");
    let start = Instant::now();
    let entries = index::layer_entries(n) as usize;
    if n == 0 {
        // The empty board: the game is over, nothing more to capture (R6), whoever is named to move.
        // Where games end, not a position to move from: no positions, as `verify` and `stats` count.
        return (vec![0, 0], LayerStats { entries: 2, ..LayerStats::default() });
    }
    let done = AtomicU64::new(0);
    let value: Vec<AtomicU8> = (0..entries).map(|_| AtomicU8::new(UNDECIDED)).collect();
    let count: Vec<AtomicU8> = (0..entries).map(|_| AtomicU8::new(0)).collect();
    let mut exit = vec![i8::MIN; entries];

    // Pass 1: every position's best exit (capture) and its number of non-capturing moves; the seeds.
    let nb = boards(n) as usize;
    let pending_lists: Vec<Vec<Vec<u32>>> = exit
        .par_chunks_mut(2 * CHUNK_BOARDS)
        .enumerate()
        .map(|(ci, exit_chunk)| {
            let first = ci * CHUNK_BOARDS;
            let mut pending: Vec<Vec<u32>> = vec![Vec::new(); n as usize + 1];
            let mut board = unrank(n, first as u64);
            let mut caps: Vec<Capture> = Vec::with_capacity(2 * BLOCK_BOARDS * ROW);
            let mut quiet = [0u8; 2 * BLOCK_BOARDS];
            let in_chunk = (nb - first).min(CHUNK_BOARDS);
            for block in (0..in_chunk).step_by(BLOCK_BOARDS) {
                let len = (in_chunk - block).min(BLOCK_BOARDS);
                // The block's moves first, then the lookups of their captures' values in the
                // smaller layers, which the processor overlaps (see `propagate_chunk`).
                caps.clear();
                for b in 0..len {
                    if block + b > 0 {
                        next_board(&mut board);
                    }
                    for p in Player::BOTH {
                        let slot = 2 * b + p.index();
                        let row = p.index() * ROW;
                        exit_chunk[2 * block + slot] = i8::MIN;
                        if board[row..row + ROW].iter().all(|&c| c == 0) {
                            value[2 * (first + block) + slot].store(NO_POSITION as u8, Relaxed);
                            quiet[slot] = u8::MAX;
                            continue;
                        }
                        quiet[slot] = moves_of(board, p, slot as u16, &mut caps);
                    }
                }
                for c in &caps {
                    let cv = lower[c.stones as usize][c.index as usize] as i8;
                    let v = c.captured as i8 + c.sign * cv;
                    let e = &mut exit_chunk[2 * block + c.slot as usize];
                    *e = (*e).max(v);
                }
                for slot in 0..2 * len {
                    if quiet[slot] == u8::MAX {
                        continue;
                    }
                    let idx = 2 * (first + block) + slot;
                    let best = exit_chunk[2 * block + slot];
                    count[idx].store(quiet[slot], Relaxed);
                    if best >= 1 {
                        pending[best as usize].push(idx as u32);
                    } else if quiet[slot] == 0 && best <= -1 {
                        pending[(-best) as usize].push(idx as u32);
                    }
                }
            }
            progress(done.fetch_add(2 * CHUNK_BOARDS as u64, Relaxed) + 2 * CHUNK_BOARDS as u64);
            pending
        })
        .collect();
    done.store(entries as u64, Relaxed);
    let mut pending: Vec<Vec<u32>> = vec![Vec::new(); n as usize + 1];
    for lists in pending_lists {
        for (t, l) in lists.into_iter().enumerate() {
            pending[t].extend(l);
        }
    }

    // Pass 2: the propagation, threshold by threshold, each as level-synchronous frontiers.
    let exit = &exit;
    for t in (1..=n as usize).rev() {
        let seeds = std::mem::take(&mut pending[t]);
        let mut frontier: Vec<u32> = seeds
            .into_par_iter()
            .filter(|&i| {
                let e = exit[i as usize];
                // An exit worth `t` wins `t` for the mover; a position without quiet moves whose best
                // exit concedes `t` loses `t`.
                let v = if e >= 1 { t as i8 } else { -(t as i8) };
                value[i as usize].compare_exchange(UNDECIDED, v as u8, Relaxed, Relaxed).is_ok()
            })
            .collect();
        while !frontier.is_empty() {
            let (next, later) = frontier
                .par_chunks(1024)
                .map(|chunk| {
                    let mut next = Vec::new();
                    let mut later: Vec<(u8, u32)> = Vec::new();
                    propagate_chunk(n, t as i8, chunk, &value, &count, exit, &mut next, &mut later);
                    progress(done.fetch_add(chunk.len() as u64, Relaxed) + chunk.len() as u64);
                    (next, later)
                })
                .reduce(
                    || (Vec::new(), Vec::new()),
                    |mut a, b| {
                        a.0.extend(b.0);
                        a.1.extend(b.1);
                        a
                    },
                );
            for (tt, i) in later {
                pending[tt as usize].push(i);
            }
            frontier = next;
        }
    }

    // What is left is held by the cycle: no player can force a capture difference other than 0 (R7).
    let mut stats = LayerStats { entries: entries as u64, ..LayerStats::default() };
    let out: Vec<u8> = value
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            let v = v.into_inner();
            if v == NO_POSITION as u8 {
                return v;
            }
            stats.positions += 1;
            if v == UNDECIDED {
                stats.zeros += 1;
                if count[i].load(Relaxed) > 0 && exit[i] < 0 {
                    stats.zero_by_quiet_play += 1;
                }
                0
            } else {
                v
            }
        })
        .collect();
    stats.micros = start.elapsed().as_micros() as u64;
    progress(2 * entries as u64);
    (out, stats)
}

/// A capturing move of pass 1, whose value waits for the lookup of its child's value.
struct Capture {
    /// The position's place in its block.
    slot: u16,
    /// Stones captured.
    captured: u8,
    /// How the child's value counts for the mover: +1 when it moves again (R5, N3), else −1.
    sign: i8,
    /// The child's layer and index in it.
    stones: u8,
    index: u32,
}

/// The moves of a position: its capturing moves are pushed to `caps` (as `slot`), and its number
/// of non-capturing moves returned (R3, R4; N3 for who moves after).
#[inline]
fn moves_of(board: [u8; HOLES], p: Player, slot: u16, caps: &mut Vec<Capture>) -> u8 {
    let pos = Position::new(board, p, ByPlayer::new(0, 0)).expect("a layer holds at most 60 stones");
    debug_assert_eq!(pos.to_move(), p);
    let mut quiet = 0u8;
    for m in pos.legal_moves() {
        let (child, k) = pos.play_counting(m);
        if k == 0 {
            quiet += 1;
        } else {
            caps.push(Capture {
                slot,
                captured: k,
                // +1 where the mover moves again, −1 where the opponent does: the child's value
                // counts with this sign ([`move_value`] of a child worth 1, nothing captured).
                sign: move_value(p, 0, child, 1),
                stones: child.stones_on_board() as u8,
                index: index_of(child) as u32,
            });
        }
    }
    quiet
}

/// Hands the decisions of the entries of `chunk` (decided at threshold `t`) to their predecessors.
///
/// In three passes rather than one predecessor at a time, for the memory system: the
/// predecessors' indices first (arithmetic only), then plain loads of their entries, which the
/// processor overlaps since none waits for another, and only then the atomic updates of the few
/// still undecided, whose lines are now in cache. Done one by one, each atomic update (a locked
/// instruction on x86) waits for the cache miss before it, and the misses of the value and count
/// arrays were most of the build's time. The result does not depend on the order: a position
/// enters at most one player's attractor at each threshold.
#[allow(clippy::too_many_arguments)]
fn propagate_chunk(
    n: u32,
    t: i8,
    chunk: &[u32],
    value: &[AtomicU8],
    count: &[AtomicU8],
    exit: &[i8],
    next: &mut Vec<u32>,
    later: &mut Vec<(u8, u32)>,
) {
    // (index, 1 when the predecessor's mover is the one who forces `t`).
    let mut preds: Vec<(u32, bool)> = Vec::with_capacity(chunk.len() * 8);
    for &x in chunk {
        let mover = Player::from_index(x as usize & 1);
        let v = value[x as usize].load(Relaxed) as i8;
        // The player who forces at least `t` from `x`.
        let winner = if v > 0 { mover } else { mover.other() };
        let board = unrank(n, u64::from(x) >> 1);
        for_each_predecessor(&board, mover, |pb, pp| {
            preds.push((index::index_of_board(pb, pp) as u32, pp == winner));
        });
    }
    // Plain loads (of the count too, so that its line is in cache for the update).
    let mut touched = 0u8;
    preds.retain(|&(i, _)| {
        touched = touched.wrapping_add(count[i as usize].load(Relaxed));
        value[i as usize].load(Relaxed) == UNDECIDED
    });
    std::hint::black_box(touched);
    for (i, winner) in preds {
        let iu = i as usize;
        if value[iu].load(Relaxed) != UNDECIDED {
            continue;
        }
        if winner {
            if value[iu].compare_exchange(UNDECIDED, t as u8, Relaxed, Relaxed).is_ok() {
                next.push(i);
            }
        } else if count[iu].fetch_sub(1, Relaxed) == 1 {
            // Every quiet move of `i` now leads where the winner forces `t`: `i` loses `t` unless a
            // capture does better, in which case it waits for that capture's threshold.
            let e = exit[iu];
            if e <= -t {
                if value[iu].compare_exchange(UNDECIDED, (-t) as u8, Relaxed, Relaxed).is_ok() {
                    next.push(i);
                }
            } else if e <= -1 {
                later.push(((-e) as u8, i));
            }
        }
    }
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
    if max_stones > MAX_LAYER {
        return Err(TbError::TooManyStones(max_stones));
    }
    std::fs::create_dir_all(dir).map_err(|e| TbError::io(dir, e))?;
    let old_manifest = Manifest::read(dir)?;
    let mut manifest = Manifest::new();
    let mut layers: Vec<memmap2::Mmap> = Vec::new();
    let mut all = Vec::new();
    for n in 0..=max_stones {
        if format::layer_path(dir, n).exists() {
            let kept = integrity::open_layer(dir, n)?;
            let listed = old_manifest.as_ref().and_then(|m| m.layers.get(n as usize)).filter(|l| {
                l.checksum == manifest::checksum_text(kept.header.checksum)
                    && l.bytes == kept.map.len() as u64
            });
            let entry = listed.cloned().unwrap_or_else(|| layer_entry(n, &kept.header, kept.counts, None));
            manifest.set_layer(entry);
            manifest.write(dir)?;
            layers.push(kept.map);
            events(BuildEvent::LayerKept { stones: n });
            continue;
        }
        let entries = index::layer_entries(n);
        events(BuildEvent::LayerStart { stones: n, entries, total: 2 * entries });
        let lower: Vec<&[u8]> = layers.iter().map(format::entries).collect();
        let (data, stats) = solve_layer(n, &lower, &|done| events(BuildEvent::Progress { stones: n, done }));
        let header = format::write_layer(dir, n, &data)?;
        drop(data);
        integrity::write_stamp(&format::layer_path(dir, n), header.checksum)?;
        let counts = integrity::LayerCounts { positions: stats.positions, zeros: stats.zeros };
        let figures = LayerBuild {
            millis: stats.micros / 1000,
            threads: rayon::current_num_threads() as u32,
            ranks: 1,
        };
        manifest.set_layer(layer_entry(n, &header, Some(counts), Some(figures)));
        manifest.write(dir)?;
        events(BuildEvent::LayerDone { stones: n, stats });
        all.push(stats);
        layers.push(format::map_layer(dir, n)?.1);
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
