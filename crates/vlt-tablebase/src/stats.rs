//! What a layer's values look like: how many positions the mover wins, draws and loses, the
//! distribution of values, and whether each value has the parity of the stone count.
//!
//! **The parity of values.** A value is a capture difference `a − b` over the rest of the game, with
//! `a + b = n − r` for `n` stones on the board and `r` stones left on it for ever by R7; so the
//! value has the parity of `n` exactly when `r` is even. Nothing in the rules forces that (the
//! smallest endless cycles hold 9 stones), yet every position of layers 1 to 26 has a value with
//! the parity of its stone count (docs/tablebase.md): optimal play never ends in an endless game
//! with an odd number of stones left. [`ValueStats::other_parity`] counts the exceptions.

use crate::format::NO_POSITION;

/// Counts over one layer's positions (entries marked [`NO_POSITION`] are not positions and are
/// left out).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ValueStats {
    /// Stones on the board.
    pub stones: u32,
    /// Positions (board and player to move, R5's normalised ones only; none with 0 stones).
    pub positions: u64,
    /// `counts[i]`: positions whose value for the player to move is `i − stones`.
    pub counts: Vec<u64>,
}

impl ValueStats {
    /// Positions the player to move wins (value above 0: more future captures than the opponent).
    #[must_use]
    pub fn wins(&self) -> u64 {
        self.counts.iter().skip(self.stones as usize + 1).sum()
    }

    /// Positions worth exactly 0 to the player to move.
    #[must_use]
    pub fn draws(&self) -> u64 {
        self.counts.get(self.stones as usize).copied().unwrap_or(0)
    }

    /// Positions the player to move loses.
    #[must_use]
    pub fn losses(&self) -> u64 {
        self.counts.iter().take(self.stones as usize).sum()
    }

    /// Each value that occurs, with its number of positions, lowest value first.
    pub fn values(&self) -> impl Iterator<Item = (i32, u64)> + '_ {
        let n = self.stones as i32;
        self.counts.iter().enumerate().filter(|(_, c)| **c > 0).map(move |(i, &c)| (i as i32 - n, c))
    }

    /// Mean value for the player to move (0 for an empty layer).
    #[must_use]
    pub fn mean(&self) -> f64 {
        if self.positions == 0 {
            return 0.0;
        }
        let sum: i64 = self.values().map(|(v, c)| i64::from(v) * c as i64).sum();
        sum as f64 / self.positions as f64
    }

    /// Positions whose value does not have the parity of the stone count.
    #[must_use]
    pub fn other_parity(&self) -> u64 {
        // counts[i] is value i − n, of n's parity exactly when i is even.
        self.counts.iter().skip(1).step_by(2).sum()
    }
}

/// The value distribution of layer `n` from its raw entries (one `i8` an entry, [`crate::format`]).
///
/// # Panics
/// When an entry lies outside `-n..=n` and is not [`NO_POSITION`]: not a layer of `n` stones.
#[must_use]
pub fn layer_stats(n: u32, entries: &[u8]) -> ValueStats {
    if n == 0 {
        // The empty board is where games end, not a position to move from.
        return ValueStats { stones: 0, positions: 0, counts: vec![0] };
    }
    // Counted by byte first (no bounds arithmetic in the loop), folded into values after.
    let counts = crate::integrity::byte_counts(entries);
    let mut out = ValueStats { stones: n, positions: 0, counts: vec![0; 2 * n as usize + 1] };
    for (byte, &c) in counts.iter().enumerate() {
        let v = byte as u8 as i8;
        if c == 0 || v == NO_POSITION {
            continue;
        }
        assert!(v.unsigned_abs() as u32 <= n, "value {v} in a layer of {n} stones");
        out.counts[(i32::from(v) + n as i32) as usize] += c;
        out.positions += c;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::build_in_memory;
    use crate::index::boards;
    use crate::verify::check_layer;

    #[test]
    fn counts_every_position_once_and_sums_up() {
        let layers = build_in_memory(9);
        for (n, layer) in layers.iter().enumerate() {
            let n = n as u32;
            let s = layer_stats(n, layer);
            let lower: Vec<&[u8]> = layers[..n as usize].iter().map(Vec::as_slice).collect();
            let (positions, bad, _) = check_layer(n, layer, &lower, &|_| {});
            assert_eq!(bad, 0);
            assert_eq!(s.positions, positions, "layer {n}");
            assert_eq!(s.wins() + s.draws() + s.losses(), s.positions);
            assert!(s.positions <= 2 * boards(n));
        }
    }

    /// The parity of values (see the module docs), exhaustively on the small layers; `vlt tb stats`
    /// shows it on bigger ones. Were an odd number of stones ever left to R7 by optimal play, this
    /// would fail.
    #[test]
    fn every_value_has_the_parity_of_the_stone_count() {
        for (n, layer) in build_in_memory(12).iter().enumerate() {
            let s = layer_stats(n as u32, layer);
            assert_eq!(s.other_parity(), 0, "layer {n}");
            if n % 2 == 1 {
                assert_eq!(s.draws(), 0, "an odd layer has no value 0");
            }
        }
    }

    #[test]
    fn known_small_layers() {
        let layers = build_in_memory(2);
        // One stone: whoever can sow it into an empty hole takes it (R4), the mover always can.
        let one = layer_stats(1, &layers[1]);
        assert_eq!((one.positions, one.wins(), one.draws(), one.losses()), (12, 12, 0, 0));
        assert!((one.mean() - 1.0).abs() < 1e-12);
        assert_eq!(one.values().collect::<Vec<_>>(), vec![(1, 12)]);
        assert_eq!(layer_stats(0, &layers[0]).positions, 0);
    }
}
