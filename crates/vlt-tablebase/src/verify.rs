//! Verification of finished tables: checksums, and every stored value against its successors.

use crate::build::solve_layer;
use crate::error::TbError;
use crate::format::{self, NO_POSITION};
use crate::index::{self, boards, next_board, unrank};
use crate::integrity::{self, CheckedLayer};
use crate::manifest::Manifest;
use crate::value::move_value;
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use vlt_core::{ByPlayer, Player, Position, ROW};

/// What verifying one layer found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayerReport {
    /// Stones on the board.
    pub stones: u32,
    /// Positions checked.
    pub positions: u64,
    /// The checksum matched.
    pub checksum_ok: bool,
    /// Milliseconds it took.
    pub millis: u64,
}

/// Checks, in every entry of `layer` (layer `n`, with `lower[k]` layer `k` for `k < n`), that the
/// stored value is the best over its moves of the stones captured plus the child's value from the
/// mover's side (R4, R5, N3), that non-positions are marked as such and positions are not, and that
/// values lie within `-n..=n`. Returns the number of positions and the first disagreement.
///
/// This local (Bellman) check is what the values must satisfy. On its own it cannot tell a
/// cycle's R7 value from a made-up one (a cycle whose positions all claim +2 is locally
/// consistent); [`rebuild_matches`] closes that gap by solving the layer again.
#[must_use]
pub fn check_layer(
    n: u32,
    layer: &[u8],
    lower: &[&[u8]],
    progress: &(dyn Fn(u64) + Sync),
) -> (u64, u64, Option<String>) {
    const CHUNK: usize = 1 << 12;
    let nb = boards(n) as usize;
    let done = AtomicU64::new(0);
    let (positions, bad, first) = (0..nb.div_ceil(CHUNK))
        .into_par_iter()
        .map(|ci| {
            let first = ci * CHUNK;
            let mut board = unrank(n, first as u64);
            let (mut positions, mut bad, mut first_bad) = (0u64, 0u64, None);
            for b in 0..(nb - first).min(CHUNK) {
                if b > 0 {
                    next_board(&mut board);
                }
                for p in Player::BOTH {
                    let idx = 2 * (first + b) + p.index();
                    let stored = layer[idx] as i8;
                    let row = p.index() * ROW;
                    let empty_row = board[row..row + ROW].iter().all(|&c| c == 0);
                    let expected = if n > 0 && empty_row {
                        NO_POSITION
                    } else if n == 0 {
                        0
                    } else {
                        positions += 1;
                        let pos = Position::new(board, p, ByPlayer::new(0, 0)).expect("at most 60 stones");
                        pos.legal_moves()
                            .map(|m| {
                                let (child, k) = pos.play_counting(m);
                                let cn = child.stones_on_board() as usize;
                                let data = if cn == n as usize { layer } else { lower[cn] };
                                move_value(p, k, child, data[index::index_of(child) as usize] as i8)
                            })
                            .max()
                            .expect("a position has a move")
                    };
                    let in_range = stored == NO_POSITION || stored.unsigned_abs() as u32 <= n;
                    if stored != expected || !in_range {
                        bad += 1;
                        if first_bad.is_none() {
                            let name = Position::new(board, p, ByPlayer::new(0, 0))
                                .map_or_else(|_| format!("{board:?}"), |q| q.to_string());
                            first_bad = Some(format!("{name}: stored {stored}, successors give {expected}"));
                        }
                    }
                }
            }
            progress(done.fetch_add(2 * CHUNK as u64, Relaxed) + 2 * CHUNK as u64);
            (positions, bad, first_bad)
        })
        .reduce(|| (0, 0, None), |a, b| (a.0 + b.0, a.1 + b.1, a.2.or(b.2)));
    (positions, bad, first.map(|f| format!("{f} ({bad} bad)")))
}

/// Solves layer `n` again from the stored smaller layers and compares it byte for byte: the check
/// that also covers the R7 values of cycles. Returns the number of entries that differ.
#[must_use]
pub fn rebuild_matches(n: u32, layer: &[u8], lower: &[&[u8]]) -> u64 {
    let (fresh, _) = solve_layer(n, lower, &|_| {});
    fresh.par_iter().zip(layer.par_iter()).filter(|(a, b)| a != b).count() as u64
}

/// Verifies every layer in `dir`: the files against the folder's manifest where there is one
/// ([`Manifest::check_files`]), each layer's header, length, checksum and value range in full
/// (whatever its verified stamp says), then [`check_layer`], and with `rebuild` also
/// [`rebuild_matches`]. `report` is called after each layer.
///
/// # Errors
/// [`TbError::BadFile`] on a bad manifest, header, length, checksum or value; [`TbError::Mismatch`] when values
/// disagree; [`TbError::NoTables`] when there is no layer 0.
pub fn verify(
    dir: &Path,
    rebuild: bool,
    progress: &(dyn Fn(u32, u64, u64) + Sync),
    report: &mut dyn FnMut(LayerReport),
) -> Result<Vec<LayerReport>, TbError> {
    verify_from(dir, 0, rebuild, progress, report)
}

/// Like [`verify`], for the layers of `from` stones and more only (after a build has added them):
/// the smaller ones are only read, as the successors of the checked ones, with their header and
/// length checked. The layers are memory-mapped, so the memory needed is the page cache's.
///
/// # Errors
/// As [`verify`]; [`TbError::NoLayersFrom`] when no layer of `from` stones or more exists.
pub fn verify_from(
    dir: &Path,
    from: u32,
    rebuild: bool,
    progress: &(dyn Fn(u32, u64, u64) + Sync),
    report: &mut dyn FnMut(LayerReport),
) -> Result<Vec<LayerReport>, TbError> {
    if let Some(m) = Manifest::read(dir)? {
        m.check_files(dir)?;
    }
    let mut layers: Vec<CheckedLayer> = Vec::new();
    let mut out = Vec::new();
    for n in 0..=index::MAX_LAYER {
        if !format::layer_path(dir, n).exists() {
            break;
        }
        let start = std::time::Instant::now();
        if n < from {
            layers.push(integrity::open_layer(dir, n)?);
            continue;
        }
        // The full check (checksum, value range) whatever the stamp says; it renews the stamp.
        let layer = integrity::open_layer_with(dir, n, 0, true)?;
        let data = layer.entries();
        let lower: Vec<&[u8]> = layers.iter().map(CheckedLayer::entries).collect();
        let entries = data.len() as u64;
        let (positions, bad, first) = check_layer(n, data, &lower, &|d| progress(n, d.min(entries), entries));
        if bad > 0 {
            return Err(TbError::Mismatch {
                stones: n,
                bad,
                checked: positions,
                first: first.unwrap_or_default(),
            });
        }
        if rebuild {
            let differ = rebuild_matches(n, data, &lower);
            if differ > 0 {
                return Err(TbError::Mismatch {
                    stones: n,
                    bad: differ,
                    checked: positions,
                    first: "solving the layer again gives different values".into(),
                });
            }
        }
        let r = LayerReport {
            stones: n,
            positions,
            checksum_ok: true,
            millis: start.elapsed().as_millis() as u64,
        };
        report(r);
        out.push(r);
        layers.push(layer);
    }
    match (out.is_empty(), layers.len()) {
        (true, 0) => Err(TbError::NoTables(dir.to_path_buf())),
        (true, n) => Err(TbError::NoLayersFrom { dir: dir.to_path_buf(), from, top: n as u32 - 1 }),
        (false, _) => Ok(out),
    }
}
