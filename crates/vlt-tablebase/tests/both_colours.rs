//! The builder solves only the B-to-move entries and fills the A-to-move ones from their mirror
//! images. Here a straightforward solve over both colours, by forward sweeps and without
//! un-sowing, must give the same bytes on every small layer (cycles start at 9 stones).

use vlt_core::{ByPlayer, Player, Position, ROW};
use vlt_tablebase::build::build_in_memory;
use vlt_tablebase::format::NO_POSITION;
use vlt_tablebase::index::{boards, index_of, mirror, rank, unrank};
use vlt_tablebase::move_value;

/// One move of a position: its value when it leaves the layer, or the quiet child it leads to.
enum Move {
    Exit(i8),
    /// The child's entry in the same layer, and whether the mover moves again (R5, N3).
    Quiet(usize, bool),
}

/// Layer `n` over both colours: for each threshold `t` from `n` down to 1, sweeps the undecided
/// positions until none changes, entering a position at `t` when some move is known to give it at
/// least `t`, at `−t` when every move is known to give at most `−t`; what is left is worth 0 (R7).
fn solve_both_colours(n: u32, lower: &[Vec<u8>]) -> Vec<u8> {
    let entries = 2 * boards(n) as usize;
    if n == 0 {
        return vec![0; entries];
    }
    let mut value = vec![None::<i8>; entries];
    let mut moves: Vec<Vec<Move>> = (0..entries).map(|_| Vec::new()).collect();
    let mut open = Vec::new();
    for r in 0..boards(n) {
        let board = unrank(n, r);
        for p in Player::BOTH {
            let i = 2 * r as usize + p.index();
            let row = p.index() * ROW;
            if board[row..row + ROW].iter().all(|&c| c == 0) {
                value[i] = Some(NO_POSITION);
                continue;
            }
            let pos = Position::new(board, p, ByPlayer::new(0, 0)).expect("a position");
            for m in pos.legal_moves() {
                let (child, k) = pos.play_counting(m);
                let ci = index_of(child) as usize;
                moves[i].push(if k == 0 {
                    Move::Quiet(ci, child.to_move() == p)
                } else {
                    let cv = lower[child.stones_on_board() as usize][ci] as i8;
                    Move::Exit(move_value(p, k, child, cv))
                });
            }
            open.push(i);
        }
    }
    for t in (1..=n as i8).rev() {
        loop {
            let before = open.len();
            open.retain(|&i| {
                let (mut best, mut all_known) = (i8::MIN, true);
                for m in &moves[i] {
                    let v = match *m {
                        Move::Exit(v) => Some(v),
                        Move::Quiet(c, again) => value[c].map(|cv| if again { cv } else { -cv }),
                    };
                    match v {
                        Some(v) => best = best.max(v),
                        None => all_known = false,
                    }
                }
                if best >= t {
                    value[i] = Some(t);
                } else if all_known && best <= -t {
                    value[i] = Some(-t);
                } else {
                    return true;
                }
                false
            });
            if open.len() == before {
                break;
            }
        }
    }
    value.into_iter().map(|v| v.unwrap_or(0) as u8).collect()
}

#[test]
fn symmetric_build_equals_a_build_over_both_colours() {
    let built = build_in_memory(9);
    let mut lower: Vec<Vec<u8>> = Vec::new();
    for n in 0..=9u32 {
        let straight = solve_both_colours(n, &lower);
        assert_eq!(straight.len(), built[n as usize].len(), "layer {n}");
        let first_diff = straight.iter().zip(&built[n as usize]).position(|(a, b)| a != b);
        assert_eq!(first_diff, None, "layer {n}: the builds differ at this entry");
        lower.push(straight);
    }
    // The reference is not symmetric by construction: check that it found the symmetry too.
    let n = 9;
    let layer = &lower[n as usize];
    for r in (0..boards(n)).step_by(7) {
        let m = rank(&mirror(&unrank(n, r)));
        assert_eq!(layer[2 * r as usize + 1], layer[2 * m as usize], "board {r} of layer {n}");
    }
}
