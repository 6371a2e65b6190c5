//! Predecessors by un-sowing (R3, R4, R5, N3): the positions of the same layer from which a move
//! without capture leads to a given position. The builder walks the move graph backwards with this
//! instead of storing it (a stored graph costs tens of bytes a position).

use vlt_core::{HOLES, Player, ROW};

/// Calls `f(board, player)` for every non-capturing move `(board, player) → (child, child_mover)`,
/// once per move (two moves of one position that lead to the same child are two calls).
///
/// `child` must be a valid layer entry: `child_mover` has a stone in its row.
#[inline]
pub fn for_each_predecessor(
    child: &[u8; HOLES],
    child_mover: Player,
    mut f: impl FnMut(&[u8; HOLES], Player),
) {
    let n: u32 = child.iter().map(|&c| u32::from(c)).sum();
    if n == 0 {
        return;
    }
    // N3: after a move the opponent is to move, unless its row is empty (R5): then the mover again.
    let opponent = child_mover.other();
    unsow(child, opponent, n, &mut f);
    let opp_row = opponent.index() * ROW;
    if child[opp_row..opp_row + ROW].iter().all(|&c| c == 0) {
        unsow(child, child_mover, n, &mut f);
    }
}

/// The boards from which `mover` sowing one of its holes, without capture, gives `child`.
#[inline]
fn unsow(child: &[u8; HOLES], mover: Player, n: u32, f: &mut impl FnMut(&[u8; HOLES], Player)) {
    // A sowing of 12 stones or more drops one into every hole: only possible when none is empty.
    let full = child.iter().all(|&c| c > 0);
    for h in mover.index() * ROW..mover.index() * ROW + ROW {
        if child[h] == 0 {
            // Sowings shorter than a lap leave `h` empty and take one stone from each of the next
            // `s` holes, so a predecessor moves one more stone back to `h` at each step, and the
            // first empty hole ends the run. (A lap would drop a stone into `h` itself.)
            let mut p = *child;
            let mut j = h;
            for s in 1..HOLES as u8 {
                j = if j + 1 == HOLES { 0 } else { j + 1 };
                if child[j] == 0 {
                    break;
                }
                p[j] -= 1;
                p[h] = s;
                // The last hole must not hold a single stone, which would be a capture (R4).
                if child[j] != 1 {
                    f(&p, mover);
                }
            }
        } else if full {
            unsow_laps(child, mover, h, n, f);
        }
    }
}

/// The predecessors by a sowing from `h` of at least a lap (R3: laps include `h`), the only ones
/// when `child[h]` is not empty; also finds any shorter ones, by the definition itself.
#[cold]
fn unsow_laps(
    child: &[u8; HOLES],
    mover: Player,
    h: usize,
    n: u32,
    f: &mut impl FnMut(&[u8; HOLES], Player),
) {
    // `need[j]`: stones that sowing `s` from `h` drops into hole `j`.
    let mut need = [0u8; HOLES];
    for s in 1..=n as usize {
        let j = (h + s) % HOLES;
        need[j] += 1;
        if need[j] > child[j] {
            break; // sowing more only drops more
        }
        // The start hole was emptied, so it holds exactly its laps; the last hole must not hold a
        // single stone, which would be a capture (R4).
        if child[h] == need[h] && child[j] != 1 {
            let mut p = [0u8; HOLES];
            for k in 0..HOLES {
                p[k] = child[k] - need[k];
            }
            p[h] = s as u8;
            f(&p, mover);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{boards, unrank};
    use vlt_core::{ByPlayer, Position};

    /// Every non-capturing move found forwards is found backwards, and nothing else.
    #[test]
    fn unsowing_inverts_non_capturing_moves() {
        use std::collections::HashMap;
        for n in 1..=7u32 {
            let mut forward: HashMap<(u128, u128), u32> = HashMap::new();
            let mut backward: HashMap<(u128, u128), u32> = HashMap::new();
            for r in 0..boards(n) {
                let b = unrank(n, r);
                for p in Player::BOTH {
                    let row = p.index() * ROW;
                    if b[row..row + ROW].iter().all(|&c| c == 0) {
                        continue;
                    }
                    let pos = Position::new(b, p, ByPlayer::new(0, 0)).expect("valid");
                    for m in pos.legal_moves() {
                        let (c, k) = pos.play_counting(m);
                        if k == 0 {
                            *forward.entry((pos.repetition_key(), c.repetition_key())).or_default() += 1;
                        }
                    }
                    for_each_predecessor(&b, p, |pb, pp| {
                        let pred = Position::new(*pb, pp, ByPlayer::new(0, 0)).expect("valid");
                        assert_eq!(pred.to_move(), pp, "a predecessor's mover has stones");
                        *backward.entry((pred.repetition_key(), pos.repetition_key())).or_default() += 1;
                    });
                }
            }
            assert_eq!(forward, backward, "n = {n}");
        }
    }

    /// Large layers, where sowings go round the ring (R3 laps), sampled: both directions agree.
    #[test]
    fn unsowing_agrees_on_sampled_large_layers() {
        for n in [11u32, 12, 13, 14, 24, 30] {
            let step = (boards(n) / 3000).max(1);
            let mut r = 0;
            let mut checked = 0;
            while r < boards(n) {
                let b = unrank(n, r);
                r += step;
                for p in Player::BOTH {
                    let row = p.index() * ROW;
                    if b[row..row + ROW].iter().all(|&c| c == 0) {
                        continue;
                    }
                    let pos = Position::new(b, p, ByPlayer::new(0, 0)).expect("valid");
                    // Backwards then forwards: each predecessor reaches `pos` by as many moves as it
                    // was reported.
                    let mut preds: Vec<Position> = Vec::new();
                    for_each_predecessor(&b, p, |pb, pp| {
                        preds.push(Position::new(*pb, pp, ByPlayer::new(0, 0)).expect("valid"));
                    });
                    for &pred in &preds {
                        let reported = preds.iter().filter(|&&q| q == pred).count();
                        let moves = pred.legal_moves().filter(|&m| pred.play_counting(m) == (pos, 0)).count();
                        assert_eq!(reported, moves, "{pred} -> {pos}");
                    }
                    // Forwards then backwards.
                    for m in pos.legal_moves() {
                        let (c, k) = pos.play_counting(m);
                        if k == 0 {
                            let mut found = 0;
                            for_each_predecessor(&c.board(), c.to_move(), |pb, pp| {
                                found += usize::from(*pb == b && pp == p);
                            });
                            let moves =
                                pos.legal_moves().filter(|&m2| pos.play_counting(m2) == (c, 0)).count();
                            assert_eq!(found, moves, "{pos} -> {c}");
                            checked += 1;
                        }
                    }
                }
            }
            assert!(checked > 1000, "n = {n}: only {checked} moves checked");
        }
    }
}
