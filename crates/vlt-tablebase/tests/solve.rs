//! The solver against the tables: positions beyond small tables solved by search must get the
//! values that bigger tables give.

use vlt_core::{ByPlayer, Player, Position, ROW};
use vlt_tablebase::Tablebase;
use vlt_tablebase::build::build_in_memory;
use vlt_tablebase::index::{boards, unrank};
use vlt_tablebase::solve::estimate::{Estimator, N_FEATURES};
use vlt_tablebase::solve::{SolveError, Solver};

fn position(n: u32, r: u64, p: Player) -> Option<Position> {
    let b = unrank(n, r);
    let row = p.index() * ROW;
    if b[row..row + ROW].iter().all(|&c| c == 0) {
        return None;
    }
    Some(Position::new(b, p, ByPlayer::new(0, 0)).expect("valid"))
}

/// The layers of the 12-stone tables, built once for the tests that solve over their smaller
/// layers and check against all of them.
fn layers_to_12() -> &'static [Vec<u8>] {
    static LAYERS: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    LAYERS.get_or_init(|| build_in_memory(12))
}

/// The 8-stone tables to solve over and the 12-stone tables to check against.
fn tables_8_and_12() -> (Tablebase, Tablebase) {
    let full = layers_to_12();
    (Tablebase::from_layers(full[..=8].to_vec()), Tablebase::from_layers(full.to_vec()))
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

/// Profiling only watches: the same values and nodes with it on, a proof of at least one expanded
/// node for every test that expanded any (each test ends with a proof or refutation), and nodes by
/// stone count that add up.
#[test]
fn profiling_counts_proofs_without_changing_the_search() {
    let full = build_in_memory(10);
    let tb = Tablebase::from_layers(full[..=6].to_vec());
    let big = Tablebase::from_layers(full);
    for pos in sample(10, 6) {
        let mut plain = Solver::new(&tb, u64::MAX);
        let mut watched = Solver::new(&tb, u64::MAX);
        watched.set_profile(true);
        let v = plain.value(pos).expect("no limit");
        assert_eq!(watched.value(pos), Ok(v), "{pos}");
        assert_eq!(Some(v), big.probe(pos), "{pos}");
        assert_eq!(watched.proved_bounds(pos), (v, v), "{pos}: a finished solve has proved the value");
        let (p, w) = (plain.stats(), watched.stats());
        assert_eq!((p.nodes, p.tests, p.proof_nodes), (w.nodes, w.tests, 0), "{pos}");
        if w.nodes > 0 {
            assert!(w.proof_nodes >= 1, "{pos}: {w:?}");
            assert!(w.distinct >= 1 && w.distinct <= w.nodes, "{pos}: {w:?}");
        }
        // Every expansion is of a position beyond the tables (7 to 10 stones here).
        let by = watched.nodes_by_stones().expect("profiling");
        assert_eq!(by.iter().sum::<u64>(), w.nodes, "{pos}");
        assert!(by[..=6].iter().chain(&by[11..]).all(|&c| c == 0), "{pos}: {by:?}");
        assert!(plain.nodes_by_stones().is_none());
    }
}

/// Positions of `n` stones spread over the layer (about `per_player` for each player to move).
fn sample(n: u32, per_player: u64) -> Vec<Position> {
    let step = boards(n) / per_player + 1;
    let mut out = Vec::new();
    let mut r = 7;
    while r < boards(n) {
        out.extend(Player::BOTH.into_iter().filter_map(|p| position(n, r, p)));
        r += step;
    }
    out
}

/// Positions from which quiet play can go on for ever (R7): the 12 positions of the rules' cycle
/// and positions worth 0 in even layers that no capture settles at once.
fn cycle_positions(big: &Tablebase, n: u32, want: usize) -> Vec<Position> {
    let mut out = Vec::new();
    let mut pos: Position = "1,0,1,0,1,0/1,2,0,1,2,0 A 25 26".parse().expect("position");
    for mv in ["5A", "1B", "2A", "3B", "4A", "5B", "6A", "2B", "1A", "4B", "3A", "6B"] {
        out.push(pos);
        pos = pos.play(mv.parse().expect("move")).expect("legal");
    }
    assert_eq!(pos.repetition_key(), out[0].repetition_key(), "R7's example is a cycle");
    let mut found = 0;
    let mut r = 3;
    while r < boards(n) && found < want {
        for p in Player::BOTH {
            if let Some(pos) = position(n, r, p) {
                let quiet = pos.legal_moves().filter(|&m| pos.play_counting(m).1 == 0).count();
                if big.probe(pos) == Some(0) && quiet > 0 {
                    out.push(pos);
                    found += 1;
                }
            }
        }
        r += 97;
    }
    out
}

#[test]
fn solver_over_8_stone_tables_agrees_with_12_stone_tables() {
    let (tb, big) = tables_8_and_12();
    let mut positions = cycle_positions(&big, 10, 60);
    positions.extend(cycle_positions(&big, 12, 60));
    for n in 9..=12 {
        positions.extend(sample(n, 40));
    }
    assert!(positions.len() > 400, "{}", positions.len());
    // One solver for all (its kept bounds must stay right from position to position), and a
    // fresh one for every third.
    let mut shared = Solver::new(&tb, u64::MAX);
    for (i, &pos) in positions.iter().enumerate() {
        let want = Ok(big.probe(pos).expect("in the big tables"));
        assert_eq!(shared.value(pos), want, "shared solver: {pos}");
        if i % 3 == 0 {
            let mut fresh = Solver::new(&tb, u64::MAX);
            assert_eq!(fresh.value(pos), want, "fresh solver: {pos}");
        }
    }
    let s = shared.stats();
    assert!(s.nested_nodes > 0 && s.nodes > s.nested_nodes, "{s:?}");
}

/// One threshold test answers "can the mover force at least t?" as the tables do, for thresholds
/// around the value (where tests are hardest) and beyond the stones on the board (no search), and
/// costs less than the exact value on the positions that need a search.
#[test]
fn can_force_agrees_with_the_tables_and_costs_less_than_the_value() {
    let (tb, big) = tables_8_and_12();
    let mut positions = cycle_positions(&big, 12, 20);
    positions.extend(sample(11, 15));
    positions.extend(sample(12, 15));
    let (mut test_nodes, mut value_nodes) = (0, 0);
    for &pos in &positions {
        let v = big.probe(pos).expect("in the big tables");
        let n = pos.stones_on_board() as i32;
        let mut shared = Solver::new(&tb, u64::MAX);
        for t in [v - 2, v - 1, v, v + 1, v + 2, n + 1, -n] {
            assert_eq!(shared.can_force(pos, t), Ok(t <= v), "{pos} (value {v:+}), at least {t:+}");
        }
        assert_eq!(Solver::new(&tb, 0).can_force(pos, n + 1), Ok(false), "no search beyond the stones");
        let mut one = Solver::new(&tb, u64::MAX);
        assert_eq!(one.can_force(pos, 1), Ok(1 <= v), "{pos}");
        test_nodes += one.stats().nodes;
        let mut exact = Solver::new(&tb, u64::MAX);
        assert_eq!(exact.value(pos), Ok(v));
        value_nodes += exact.stats().nodes;
    }
    assert!(positions.len() > 60, "{}", positions.len());
    assert!(test_nodes > 0 && test_nodes < value_nodes, "one test {test_nodes} nodes, values {value_nodes}");
}

/// The estimate orders the search and nothing else: without one, and with a perverse one (every
/// position worth everything to its mover), the solver gives the same values as the tables; and
/// the shipped one saves work against both.
#[test]
fn the_estimate_changes_the_work_not_the_values() {
    let (tb, big) = tables_8_and_12();
    let mut positions = cycle_positions(&big, 10, 20);
    for n in 9..=12 {
        positions.extend(sample(n, 15));
    }
    // b2 = 60 and nothing else: "every position is worth everything" (clamped to ±stones).
    let perverse = Estimator::new(8, vec![0.0; 8 * N_FEATURES], vec![0.0; 8], vec![0.0; 8], 60.0);
    let mut nodes = Vec::new();
    for estimate in [Some(Estimator::builtin()), None, Some(&perverse)] {
        let mut solver = Solver::new(&tb, u64::MAX);
        solver.set_estimator(estimate);
        let mut total = 0;
        for &pos in &positions {
            let mut fresh = Solver::new(&tb, u64::MAX);
            fresh.set_estimator(estimate);
            assert_eq!(fresh.value(pos), Ok(big.probe(pos).expect("in")), "fresh, {estimate:?}: {pos}");
            total += fresh.stats().nodes;
            assert_eq!(solver.value(pos), Ok(big.probe(pos).expect("in")), "shared: {pos}");
        }
        nodes.push(total);
    }
    assert!(nodes[0] < nodes[1] && nodes[0] < nodes[2], "builtin, none, perverse: {nodes:?}");
}

/// The solver records the leaves it asks the estimate about when told to (for fitting one): every
/// one beyond the tables, none after they are taken.
#[test]
fn leaves_are_recorded_on_request() {
    let tb = Tablebase::from_layers(build_in_memory(6));
    let pos: Position = "1,0,1,0,1,0/1,2,0,1,2,0 A 25 26".parse().expect("R7's cycle");
    let mut solver = Solver::new(&tb, u64::MAX);
    solver.value(pos).expect("solved");
    assert!(solver.take_leaves().is_empty(), "not recorded unless asked");
    let mut solver = Solver::new(&tb, u64::MAX);
    solver.record_leaves(true);
    solver.value(pos).expect("solved");
    let leaves = solver.take_leaves();
    assert!(!leaves.is_empty());
    assert!(leaves.iter().all(|p| p.stones_on_board() > 6 && !p.is_game_over()));
    assert!(solver.take_leaves().is_empty());
}

/// Graph-history interaction (R7): the positions of the rules' cycle are solved by one solver in
/// the cycle's order, by another in the reverse order, and by a third after 68 positions worth 0
/// with quiet moves, each reusing the bounds the earlier ones left. (The proof-number search seldom
/// meets a repetition at all: none in these, nor in 20,000 sampled positions of 3–12 stones; the
/// unit tests in `solve/pns.rs` drive its repetition rule directly.)
#[test]
fn repetitions_do_not_leak_between_paths() {
    let full = layers_to_12();
    let big = Tablebase::from_layers(full.to_vec());
    let mut cycle = cycle_positions(&big, 10, 0);
    assert_eq!(cycle.len(), 12);
    let zeros = cycle_positions(&big, 12, 80).split_off(12);
    for small in [5usize, 8] {
        let tb = Tablebase::from_layers(full[..=small].to_vec());
        let mut forward = Solver::new(&tb, u64::MAX);
        let mut backward = Solver::new(&tb, u64::MAX);
        let mut after_zeros = Solver::new(&tb, u64::MAX);
        for &pos in &zeros {
            assert_eq!(after_zeros.value(pos), Ok(big.probe(pos).expect("in")), "{pos}");
        }
        for &pos in &cycle {
            let want = Ok(big.probe(pos).expect("in"));
            assert_eq!(forward.value(pos), want, "forward, over {small}: {pos}");
            assert_eq!(after_zeros.value(pos), want, "after the zeros, over {small}: {pos}");
            assert_eq!(after_zeros.move_values(pos), Ok(big.probe_moves(pos).expect("in")), "{pos}");
        }
        cycle.reverse();
        for &pos in &cycle {
            assert_eq!(backward.value(pos), Ok(big.probe(pos).expect("in")), "backward: {pos}");
        }
    }
}

#[test]
fn move_values_agree_beyond_the_tables() {
    let full = build_in_memory(11);
    let tb = Tablebase::from_layers(full[..=7].to_vec());
    let big = Tablebase::from_layers(full);
    let mut solver = Solver::new(&tb, u64::MAX);
    for pos in sample(11, 15) {
        assert_eq!(solver.move_values(pos), Ok(big.probe_moves(pos).expect("in")), "{pos}");
    }
}

mod random {
    use super::*;
    use proptest::prelude::*;
    use std::sync::OnceLock;

    fn tables() -> &'static (Tablebase, Tablebase) {
        static T: OnceLock<(Tablebase, Tablebase)> = OnceLock::new();
        T.get_or_init(|| {
            let full = build_in_memory(11);
            (Tablebase::from_layers(full[..=6].to_vec()), Tablebase::from_layers(full))
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]
        /// Any position of 7 to 11 stones, solved over 6-stone tables, as the 11-stone tables say.
        #[test]
        fn solver_matches_tables(n in 7u32..=11, r in any::<u64>(), a_moves in any::<bool>()) {
            let (small, big) = tables();
            let p = if a_moves { Player::A } else { Player::B };
            if let Some(pos) = position(n, r % boards(n), p) {
                let mut solver = Solver::new(small, u64::MAX);
                prop_assert_eq!(solver.value(pos), Ok(big.probe(pos).expect("in")), "{}", pos);
            }
        }
    }
}

/// The work of the default search on a fixed sample, pinned: a change meant to keep the search as
/// it is (a refactoring) must not move these counts; a change to the search updates them.
#[test]
fn the_search_work_is_pinned() {
    let (tb, big) = tables_8_and_12();
    let mut positions = cycle_positions(&big, 10, 10);
    positions.extend(sample(11, 6));
    positions.extend(sample(12, 6));
    let mut shared = Solver::new(&tb, u64::MAX);
    let (mut nodes, mut tests, mut guess) = (0, 0, 0);
    for &pos in &positions {
        let mut fresh = Solver::new(&tb, u64::MAX);
        assert_eq!(fresh.value(pos), Ok(big.probe(pos).expect("in")), "{pos}");
        let s = fresh.stats();
        (nodes, tests, guess) = (nodes + s.nodes, tests + s.tests, guess + s.guess_nodes);
        assert_eq!(shared.value(pos), Ok(big.probe(pos).expect("in")), "{pos}");
    }
    let s = shared.stats();
    let mut beyond = Solver::new(&tb, u64::MAX);
    let far: Vec<i32> = sample(15, 2).into_iter().map(|p| beyond.value(p).expect("no limit")).collect();
    let b = beyond.stats();
    assert_eq!(positions.len(), 46);
    assert_eq!((nodes, tests, guess), (796, 92, 305), "fresh solvers");
    assert_eq!((s.nodes, s.tests, s.nested_nodes, s.known), (781, 81, 570, 669), "one solver");
    assert_eq!(far, [5, -3, -1, -3]);
    assert_eq!((b.nodes, b.tests, b.guess_nodes), (5233, 8, 43), "15 stones over 8-stone tables");
}
