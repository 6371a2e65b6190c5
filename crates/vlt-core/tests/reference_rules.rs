//! The table-and-bit-trick move against a plain reading of R3–R5 and N3, one stone at a time, on
//! random positions (proptest), heavy holes and laps included.

use proptest::prelude::*;
use vlt_core::{ByPlayer, HOLES, Hole, Move, Player, Position, ROW};

/// R3–R5, N3 stone by stone: the board after, the stones captured and the player to move next.
fn reference(p: Position, mv: Move) -> ([u8; HOLES], u8, Player) {
    let mut board = p.board();
    let from = mv.hole().index();
    let stones = board[from];
    board[from] = 0;
    let mut at = from;
    for _ in 0..stones {
        at = (at + 1) % HOLES;
        board[at] += 1;
    }
    let mut taken = 0;
    if board[at] == 1 {
        let mut h = at;
        while board[h] == 1 && taken < HOLES as u8 {
            board[h] = 0;
            taken += 1;
            h = (h + HOLES - 1) % HOLES;
        }
    }
    let mover = p.to_move();
    let row = |pl: Player| board[pl.index() * ROW..][..ROW].iter().any(|&c| c > 0);
    let next = if !row(mover.other()) && row(mover) { mover } else { mover.other() };
    (board, taken, next)
}

/// Valid positions with stones heaped in a few holes, so that laps (12 stones and more) are common.
fn position() -> impl Strategy<Value = Position> {
    (prop::collection::vec((0usize..HOLES, 1u8..=30), 0..8), any::<bool>(), 0u8..=20).prop_map(
        |(heaps, a, captured)| {
            let mut board = [0u8; HOLES];
            let mut left = 60 - u32::from(captured);
            for (h, n) in heaps {
                let n = u32::from(n).min(left);
                left -= n;
                board[h] += n as u8;
            }
            let to_move = if a { Player::A } else { Player::B };
            Position::new(board, to_move, ByPlayer::new(captured, 0)).expect("at most 60 stones")
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn moves_match_the_stone_by_stone_rules(p in position()) {
        let legal: Vec<Move> = p.legal_moves().collect();
        let by_hole: Vec<Move> = Hole::ALL.iter().map(|&h| Move(h)).filter(|&m| p.check(m).is_ok()).collect();
        prop_assert_eq!(&legal, &by_hole);
        for mv in legal {
            let (board, taken, next) = reference(p, mv);
            let (after, captured, moves) = p.play_with_moves(mv);
            prop_assert_eq!(after.board(), board, "{} {}", p, mv);
            prop_assert_eq!(captured, taken, "{} {}", p, mv);
            prop_assert_eq!(after.to_move(), next, "{} {}", p, mv);
            prop_assert_eq!(after.captured(p.to_move()), p.captured(p.to_move()) + taken);
            prop_assert_eq!(after.captured(p.to_move().other()), p.captured(p.to_move().other()));
            prop_assert_eq!(moves, after.legal_moves());
        }
    }
}
