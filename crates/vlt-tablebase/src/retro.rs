//! The retrograde solve of one layer (the algorithm is in [`crate::build`]'s docs), by one rank
//! of those that share the layer: each rank holds a contiguous range of the layer's boards, runs
//! both passes over it with its threads, and hands the predecessor updates that fall in another
//! rank's range to that rank through [`Comm::exchange`], in batches. With one rank nothing is
//! exchanged and this is the single-process build.
//!
//! The result does not depend on how the layer is split nor on the order of the updates within a
//! threshold (a position enters at most one player's attractor at each threshold), so every split
//! gives the same bytes.
//!
//! **Colour symmetry.** The rules treat both players alike, so (board, A to move) has the value of
//! (mirror(board), B to move) ([`index::mirror`]: rows swapped). The solve holds only the B-to-move
//! entries, one per board (indexed by the board's rank): a predecessor with A to move is taken as
//! its mirror image with B to move. The mirror has no fixed point (it changes the player), so this
//! is the same game on half the positions, and every quiet move into a position or into its mirror
//! image is counted once: the moves into the mirror image are the mirror images of the moves into
//! the position. The A-to-move entries are filled when the layer is written
//! ([`fill_both_colours`]), so the files are those of a build over both colours.

use crate::build::LayerStats;
use crate::comm::{Comm, Reduce};
use crate::error::TbError;
use crate::format::NO_POSITION;
use crate::index::{self, MAX_LAYER, boards, index_of, next_board, unrank};
use crate::unsow::for_each_predecessor;
use crate::value::move_value;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};
use std::time::Instant;
use vlt_core::{ByPlayer, HOLES, Player, Position, ROW};

/// Not yet decided, in the value array: no value reaches 127.
pub(crate) const UNDECIDED: u8 = 0x7f;
/// Boards a work item of the first pass covers.
const CHUNK_BOARDS: usize = 1 << 12;
/// Boards of the first pass whose captures are looked up together.
const BLOCK_BOARDS: usize = 64;
/// Frontier entries whose predecessor updates one exchange carries (its memory: about 8 bytes
/// times 6 predecessors an entry, 48 MiB).
const BATCH: usize = 1 << 20;

/// The boards of layer `n` that rank `r` of `size` holds: `bounds[r]..bounds[r + 1]` of the
/// returned list. Every bound but the last is a multiple of 4 boards (8 entries: the layer's
/// checksum goes by 8-byte words, so each rank's part starts on one).
#[must_use]
pub fn board_bounds(n: u32, size: usize) -> Vec<u64> {
    let nb = u128::from(boards(n));
    (0..=size)
        .map(|r| if r == size { nb as u64 } else { ((nb * r as u128 / size as u128) as u64) & !3 })
        .collect()
}

/// What a rank holds of a layer while solving it: its entries' values, quiet-move counters and
/// best exits, and the positions waiting for a smaller threshold. What a checkpoint saves.
pub(crate) struct PartState {
    /// The thresholds still to propagate are `next_t` down to 1.
    pub next_t: u32,
    pub value: Vec<AtomicU8>,
    pub count: Vec<AtomicU8>,
    pub exit: Vec<i8>,
    /// `pending[t]`: entries (layer indices) that enter at threshold `t` if still undecided.
    pub pending: Vec<Vec<u32>>,
}

/// Where a layer's solve saves its state and resumes from it.
pub(crate) trait Checkpoints {
    /// The state saved for this rank's part, when every rank has one from the same point.
    fn resume(&mut self, comm: &dyn Comm, n: u32, first_entry: u64) -> Result<Option<PartState>, TbError>;
    /// Called after the first pass and after each threshold but the last; saves `state` when a
    /// checkpoint is due (every rank decides alike).
    fn reached(
        &mut self,
        comm: &dyn Comm,
        n: u32,
        first_entry: u64,
        state: &PartState,
    ) -> Result<(), TbError>;
}

/// No checkpoints: an in-memory solve.
pub(crate) struct NoCheckpoints;

impl Checkpoints for NoCheckpoints {
    fn resume(&mut self, _: &dyn Comm, _: u32, _: u64) -> Result<Option<PartState>, TbError> {
        Ok(None)
    }
    fn reached(&mut self, _: &dyn Comm, _: u32, _: u64, _: &PartState) -> Result<(), TbError> {
        Ok(())
    }
}

/// This rank's part of layer `n`: B-to-move entries, one per board.
struct Part<'a> {
    /// The first board this rank holds.
    first: u64,
    value: &'a [AtomicU8],
    count: &'a [AtomicU8],
    exit: &'a [i8],
    /// Board bounds of all ranks ([`board_bounds`]).
    bounds: &'a [u64],
    rank: usize,
}

impl Part<'_> {
    /// The local offset of board `i`, when this rank holds it.
    #[inline]
    fn local(&self, i: u64) -> Option<usize> {
        let o = i.wrapping_sub(self.first) as usize;
        (o < self.value.len()).then_some(o)
    }

    /// The rank that holds board `i`.
    #[inline]
    fn owner(&self, i: u64) -> usize {
        self.bounds.partition_point(|&b| b <= i) - 1
    }
}

/// Solves this rank's part of layer `n` (see [`board_bounds`]), given the layers `0..n`; returns
/// the part's entries and the statistics of the whole layer (every rank gets the same).
///
/// `progress(done)` is called now and then with units of work done, out of twice the part's
/// boards.
pub(crate) fn solve_part(
    n: u32,
    lower: &[&[u8]],
    comm: &dyn Comm,
    checkpoints: &mut dyn Checkpoints,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(Vec<u8>, LayerStats), TbError> {
    assert!(n <= MAX_LAYER, "layer {n} is beyond {MAX_LAYER}");
    assert!(lower.len() >= n as usize, "layer {n} needs the layers below it");
    let start = Instant::now();
    let bounds = board_bounds(n, comm.size());
    let (b0, b1) = (bounds[comm.rank()], bounds[comm.rank() + 1]);
    let nb = (b1 - b0) as usize;
    let entries = 2 * nb;
    if n == 0 {
        // The empty board: the game is over, nothing more to capture (R6), whoever is named to move.
        // Where games end, not a position to move from: no positions, as `verify` and `stats` count.
        return Ok((vec![0; entries], LayerStats { entries: 2, ..LayerStats::default() }));
    }
    let done = AtomicU64::new(0);
    let mut state = match checkpoints.resume(comm, n, b0)? {
        Some(s) => s,
        None => {
            let s = first_pass(n, lower, b0, b1, &done, progress);
            checkpoints.reached(comm, n, b0, &s)?;
            s
        }
    };
    done.store(nb as u64, Relaxed);

    // Pass 2: the propagation, threshold by threshold, each as level-synchronous frontiers.
    let mut exchanged = 0u64;
    while state.next_t >= 1 {
        let t = state.next_t as usize;
        let part = Part {
            first: b0,
            value: &state.value,
            count: &state.count,
            exit: &state.exit,
            bounds: &bounds,
            rank: comm.rank(),
        };
        let seeds = std::mem::take(&mut state.pending[t]);
        let mut frontier: Vec<u32> = seeds
            .into_par_iter()
            .filter(|&i| {
                let li = part.local(u64::from(i)).expect("a rank's seeds are its own");
                let e = part.exit[li];
                // An exit worth `t` wins `t` for the mover; a position without quiet moves whose best
                // exit concedes `t` loses `t`.
                let v = if e >= 1 { t as i8 } else { -(t as i8) };
                part.value[li].compare_exchange(UNDECIDED, v as u8, Relaxed, Relaxed).is_ok()
            })
            .collect();
        let mut later: Vec<(u8, u32)> = Vec::new();
        while comm.reduce(frontier.len() as u64, Reduce::Sum) > 0 {
            let batches = comm.reduce(frontier.len().div_ceil(BATCH) as u64, Reduce::Max) as usize;
            let mut next = Vec::new();
            for b in 0..batches {
                let lo = (b * BATCH).min(frontier.len());
                let batch = &frontier[lo..(lo + BATCH).min(frontier.len())];
                let size = comm.size();
                let Updates { next: mut nx, later: lt, remote } = batch
                    .par_chunks(1024)
                    .map(|chunk| {
                        let mut out = Updates::new(size);
                        propagate_chunk(n, t as i8, chunk, &part, &mut out);
                        progress(done.fetch_add(chunk.len() as u64, Relaxed) + chunk.len() as u64);
                        out
                    })
                    .reduce(|| Updates::new(size), Updates::merge);
                exchanged += remote.iter().map(|l| 8 * l.len() as u64).sum::<u64>();
                let received = comm.exchange(&remote);
                drop(remote);
                let Updates { next: nx2, later: lt2, .. } = received
                    .par_chunks(4096)
                    .map(|chunk| {
                        let mut out = Updates::new(size);
                        let preds = chunk.iter().map(|&u| ((u >> 1) as u32, u & 1 == 1)).collect();
                        update(t as i8, preds, &part, &mut out);
                        out
                    })
                    .reduce(|| Updates::new(size), Updates::merge);
                nx.extend(nx2);
                next.extend(nx);
                later.extend(lt);
                later.extend(lt2);
            }
            frontier = next;
        }
        for (tt, i) in later {
            state.pending[tt as usize].push(i);
        }
        state.next_t -= 1;
        if state.next_t >= 1 {
            checkpoints.reached(comm, n, b0, &state)?;
        }
    }

    // What is left is held by the cycle: no player can force a capture difference other than 0 (R7).
    let mut stats = LayerStats { entries: index::layer_entries(n), ..LayerStats::default() };
    let PartState { value, count, exit, .. } = state;
    let value: Vec<u8> = value
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
    drop((count, exit));
    let out = fill_both_colours(n, &value, &bounds, comm);
    drop(value);
    // Each B-to-move position stands for itself and its mirror image with A to move.
    stats.positions = 2 * comm.reduce(stats.positions, Reduce::Sum);
    stats.zeros = 2 * comm.reduce(stats.zeros, Reduce::Sum);
    stats.zero_by_quiet_play = 2 * comm.reduce(stats.zero_by_quiet_play, Reduce::Sum);
    stats.exchanged_bytes = comm.reduce(exchanged, Reduce::Sum);
    stats.micros = comm.reduce(start.elapsed().as_micros() as u64, Reduce::Max);
    progress(2 * nb as u64);
    Ok((out, stats))
}

/// Boards whose mirror images' values one exchange of [`fill_both_colours`] carries (8 bytes
/// each: 64 MiB).
const FILL_BATCH: usize = 1 << 23;

/// The part's entries in the layer's order (`2 * board + player`) from its B-to-move `values`
/// (one per board of the part, `bounds[rank]..bounds[rank + 1]`): board `b` with A to move is
/// worth what its mirror image with B to move is. A mirror image that another rank holds comes
/// from that rank: each rank sends `mirror << 8 | value` for its boards whose mirror images lie
/// elsewhere (the mirror is its own inverse, so that rank needs exactly these values).
fn fill_both_colours(n: u32, values: &[u8], bounds: &[u64], comm: &dyn Comm) -> Vec<u8> {
    let (rank, size) = (comm.rank(), comm.size());
    let b0 = bounds[rank];
    let nb = values.len();
    let mut out = vec![0u8; 2 * nb];
    let owner = |i: u64| bounds.partition_point(|&b| b <= i) - 1;
    let batches = comm.reduce(nb.div_ceil(FILL_BATCH) as u64, Reduce::Max) as usize;
    for batch in 0..batches {
        let lo = (batch * FILL_BATCH).min(nb);
        let hi = (lo + FILL_BATCH).min(nb);
        let remote: Vec<Vec<u64>> = out[2 * lo..2 * hi]
            .par_chunks_mut(2 * CHUNK_BOARDS)
            .enumerate()
            .map(|(ci, chunk)| {
                let first = lo + ci * CHUNK_BOARDS;
                let mut remote = vec![Vec::new(); size];
                let mut board = unrank(n, b0 + first as u64);
                for (k, pair) in chunk.chunks_exact_mut(2).enumerate() {
                    if k > 0 {
                        next_board(&mut board);
                    }
                    let v = values[first + k];
                    pair[0] = v;
                    let m = index::rank(&index::mirror(&board));
                    match m.checked_sub(b0).filter(|&o| o < nb as u64) {
                        Some(o) => pair[1] = values[o as usize],
                        None => remote[owner(m)].push(m << 8 | u64::from(v)),
                    }
                }
                remote
            })
            .reduce(
                || vec![Vec::new(); size],
                |mut a, b| {
                    for (x, y) in a.iter_mut().zip(b) {
                        x.extend(y);
                    }
                    a
                },
            );
        for u in comm.exchange(&remote) {
            out[2 * ((u >> 8) - b0) as usize + 1] = u as u8;
        }
    }
    out
}

/// Pass 1 over boards `b0..b1`: every position's best exit (capture) and its number of
/// non-capturing moves; the seeds.
fn first_pass(
    n: u32,
    lower: &[&[u8]],
    b0: u64,
    b1: u64,
    done: &AtomicU64,
    progress: &(dyn Fn(u64) + Sync),
) -> PartState {
    let (b0, nb) = (b0 as usize, (b1 - b0) as usize);
    let value: Vec<AtomicU8> = (0..nb).map(|_| AtomicU8::new(UNDECIDED)).collect();
    let count: Vec<AtomicU8> = (0..nb).map(|_| AtomicU8::new(0)).collect();
    let mut exit = vec![i8::MIN; nb];
    let pending_lists: Vec<Vec<Vec<u32>>> = exit
        .par_chunks_mut(CHUNK_BOARDS)
        .enumerate()
        .map(|(ci, exit_chunk)| {
            // `first` counts from the part's start; `board` is the layer's board `b0 + first`.
            let first = ci * CHUNK_BOARDS;
            let mut pending: Vec<Vec<u32>> = vec![Vec::new(); n as usize + 1];
            let mut board = unrank(n, (b0 + first) as u64);
            let mut caps: Vec<Capture> = Vec::with_capacity(BLOCK_BOARDS * ROW);
            let mut quiet = [0u8; BLOCK_BOARDS];
            let in_chunk = (nb - first).min(CHUNK_BOARDS);
            for block in (0..in_chunk).step_by(BLOCK_BOARDS) {
                let len = (in_chunk - block).min(BLOCK_BOARDS);
                // The block's moves first, then the lookups of their captures' values in the
                // smaller layers, which the processor overlaps (see `propagate_chunk`).
                caps.clear();
                for slot in 0..len {
                    if block + slot > 0 {
                        next_board(&mut board);
                    }
                    // Only B to move: A to move is the mirror image (see the module's docs).
                    exit_chunk[block + slot] = i8::MIN;
                    if board[..ROW].iter().all(|&c| c == 0) {
                        value[first + block + slot].store(NO_POSITION as u8, Relaxed);
                        quiet[slot] = u8::MAX;
                        continue;
                    }
                    quiet[slot] = moves_of(board, Player::B, slot as u16, &mut caps);
                }
                for c in &caps {
                    // The smaller layers hold both colours: a capture is looked up as it is.
                    let cv = lower[c.stones as usize][c.index as usize] as i8;
                    let v = c.captured as i8 + c.sign * cv;
                    let e = &mut exit_chunk[block + c.slot as usize];
                    *e = (*e).max(v);
                }
                for slot in 0..len {
                    if quiet[slot] == u8::MAX {
                        continue;
                    }
                    let li = first + block + slot;
                    let gi = (b0 + li) as u32;
                    let best = exit_chunk[block + slot];
                    count[li].store(quiet[slot], Relaxed);
                    if best >= 1 {
                        pending[best as usize].push(gi);
                    } else if quiet[slot] == 0 && best <= -1 {
                        pending[(-best) as usize].push(gi);
                    }
                }
            }
            progress(done.fetch_add(in_chunk as u64, Relaxed) + in_chunk as u64);
            pending
        })
        .collect();
    let mut pending: Vec<Vec<u32>> = vec![Vec::new(); n as usize + 1];
    for lists in pending_lists {
        for (t, l) in lists.into_iter().enumerate() {
            pending[t].extend(l);
        }
    }
    PartState { next_t: n, value, count, exit, pending }
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

/// What handing on a batch of decisions produced: this rank's newly decided entries, those that
/// wait for a smaller threshold, and the updates for the other ranks' entries
/// (`index << 1 | winner`, one list per rank).
struct Updates {
    next: Vec<u32>,
    later: Vec<(u8, u32)>,
    remote: Vec<Vec<u64>>,
}

impl Updates {
    fn new(ranks: usize) -> Updates {
        Updates { next: Vec::new(), later: Vec::new(), remote: vec![Vec::new(); ranks] }
    }

    fn merge(mut self, other: Updates) -> Updates {
        self.next.extend(other.next);
        self.later.extend(other.later);
        for (a, b) in self.remote.iter_mut().zip(other.remote) {
            a.extend(b);
        }
        self
    }
}

/// Hands the decisions of the entries of `chunk` (decided at threshold `t`) to their predecessors:
/// this rank's are updated here, the others' go to `out.remote` for their ranks.
///
/// In three passes rather than one predecessor at a time, for the memory system: the
/// predecessors' indices first (arithmetic only), then plain loads of their entries, which the
/// processor overlaps since none waits for another, and only then the atomic updates of the few
/// still undecided, whose lines are now in cache. Done one by one, each atomic update (a locked
/// instruction on x86) waits for the cache miss before it, and the misses of the value and count
/// arrays were most of the build's time.
fn propagate_chunk(n: u32, t: i8, chunk: &[u32], part: &Part<'_>, out: &mut Updates) {
    // (index, 1 when the predecessor's mover is the one who forces `t`).
    let mut preds: Vec<(u32, bool)> = Vec::with_capacity(chunk.len() * 8);
    for &x in chunk {
        // `x` is a board with B to move.
        let v =
            part.value[part.local(u64::from(x)).expect("a rank's frontier is its own")].load(Relaxed) as i8;
        // The player who forces at least `t` from `x`.
        let winner = if v > 0 { Player::B } else { Player::A };
        let board = unrank(n, u64::from(x));
        for_each_predecessor(&board, Player::B, |pb, pp| {
            // A predecessor with A to move stands as its mirror image with B to move; whether its
            // mover is the winner does not change with the colours.
            let i = if pp == Player::B { index::rank(pb) } else { index::rank(&index::mirror(pb)) };
            if part.local(i).is_some() {
                preds.push((i as u32, pp == winner));
            } else {
                out.remote[part.owner(i)].push(i << 1 | u64::from(pp == winner));
            }
        });
    }
    debug_assert!(out.remote[part.rank].is_empty());
    update(t, preds, part, out);
}

/// Applies the predecessor updates `preds` (this rank's entries, each with whether its mover is
/// the one who forces `t`): the plain loads first, then the atomic updates of those still
/// undecided (see [`propagate_chunk`]).
fn update(t: i8, mut preds: Vec<(u32, bool)>, part: &Part<'_>, out: &mut Updates) {
    let local = |i: u32| part.local(u64::from(i)).expect("an update of this rank's entry");
    // Plain loads (of the count too, so that its line is in cache for the update).
    let mut touched = 0u8;
    preds.retain(|&(i, _)| {
        let li = local(i);
        touched = touched.wrapping_add(part.count[li].load(Relaxed));
        part.value[li].load(Relaxed) == UNDECIDED
    });
    std::hint::black_box(touched);
    for (i, winner) in preds {
        let li = local(i);
        if part.value[li].load(Relaxed) != UNDECIDED {
            continue;
        }
        if winner {
            if part.value[li].compare_exchange(UNDECIDED, t as u8, Relaxed, Relaxed).is_ok() {
                out.next.push(i);
            }
        } else if part.count[li].fetch_sub(1, Relaxed) == 1 {
            // Every quiet move of `i` now leads where the winner forces `t`: `i` loses `t` unless a
            // capture does better, in which case it waits for that capture's threshold.
            let e = part.exit[li];
            if e <= -t {
                if part.value[li].compare_exchange(UNDECIDED, (-t) as u8, Relaxed, Relaxed).is_ok() {
                    out.next.push(i);
                }
            } else if e <= -1 {
                out.later.push(((-e) as u8, i));
            }
        }
    }
}
