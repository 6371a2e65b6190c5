//! The solver against the tables: positions beyond small tables solved by search must get the
//! values that bigger tables give.

use vlt_core::{ByPlayer, Player, Position, ROW};
use vlt_tablebase::Tablebase;
use vlt_tablebase::build::build_in_memory;
use vlt_tablebase::index::{boards, unrank};
use vlt_tablebase::solve::{SolveError, Solver};

fn position(n: u32, r: u64, p: Player) -> Option<Position> {
    let b = unrank(n, r);
    let row = p.index() * ROW;
    if b[row..row + ROW].iter().all(|&c| c == 0) {
        return None;
    }
    Some(Position::new(b, p, ByPlayer::new(0, 0)).expect("valid"))
}

#[test]
fn solver_agrees_with_bigger_tables() {
    let full = build_in_memory(11);
    for small in [4usize, 7] {
        let tb = Tablebase::from_layers(full[..=small].to_vec());
        let big = Tablebase::from_layers(full.clone());
        let mut solver = Solver::new(&tb, u64::MAX);
        let mut checked = 0;
        for n in small as u32 + 1..=11 {
            let step = boards(n) / 60 + 1;
            let mut r = 11;
            while r < boards(n) {
                for p in Player::BOTH {
                    if let Some(pos) = position(n, r, p) {
                        assert_eq!(
                            solver.value(pos).map(i64::from),
                            Ok(i64::from(big.probe(pos).expect("in"))),
                            "{pos}"
                        );
                        checked += 1;
                    }
                }
                r += step;
            }
        }
        assert!(checked > 300, "{checked}");
        assert!(solver.stats().nodes > 0);
    }
}

#[test]
fn solver_handles_the_rules_cycle_and_move_values() {
    let full = build_in_memory(9);
    let tb = Tablebase::from_layers(full[..=5].to_vec());
    let big = Tablebase::from_layers(full);
    let pos: Position = "1,0,1,0,1,0/1,2,0,1,2,0 A 25 26".parse().expect("position");
    let mut solver = Solver::new(&tb, u64::MAX);
    assert_eq!(solver.value(pos), Ok(big.probe(pos).expect("in")));
    let moves = solver.move_values(pos).expect("solved");
    assert_eq!(moves, big.probe_moves(pos).expect("in"));
}

#[test]
fn node_limit_is_an_error() {
    let tb = Tablebase::from_layers(build_in_memory(2));
    let mut solver = Solver::new(&tb, 5);
    let pos: Position = "2,2,2,2,2,2/2,2,2,2,2,2 B 0 0".parse().expect("position");
    assert_eq!(solver.value(pos), Err(SolveError::NodeLimit(5)));
}
