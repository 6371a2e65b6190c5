//! The shipped puzzle set: at least 1,000 puzzles, each with a unique best move by the tables.
//!
//! The tables are built here in memory. Optimised (scripts/test.sh's profile) they reach the set's
//! largest puzzle, so every puzzle is checked against them; in a debug build, where 16 stones take
//! minutes, they reach 10 stones and the larger puzzles are checked against their recorded values.

use std::collections::HashSet;
use vlt_learn::{Theme, shipped};
use vlt_tablebase::Tablebase;
use vlt_tablebase::build::build_in_memory;

#[test]
fn the_set_holds_a_thousand_distinct_puzzles_built_by_a_pinned_command() {
    let set = shipped::set();
    assert!(set.puzzles.len() >= 1000, "{} puzzles", set.puzzles.len());
    assert!(
        set.command.starts_with("vlt puzzles build ") && set.command.contains("--seed"),
        "{}",
        set.command
    );
    let keys: HashSet<_> = set.puzzles.iter().map(|p| p.position.repetition_key()).collect();
    assert_eq!(keys.len(), set.puzzles.len(), "every position once");
    // No position of up to 16 stones has a value resting on R7, so no puzzle has the cycle theme
    // (docs/puzzles.md, crates/vlt-learn/src/cycle.rs); the other themes all occur.
    for t in [Theme::Chain, Theme::Lap, Theme::Starve] {
        assert!(set.puzzles.iter().any(|p| p.themes.contains(t)), "some puzzle shows {}", t.name());
    }
}

#[test]
fn every_puzzle_has_one_best_move_by_the_tables() {
    let set = shipped::set();
    let largest = set.puzzles.iter().map(|p| p.position.stones_on_board()).max().unwrap();
    let reach = if cfg!(debug_assertions) { largest.min(10) } else { largest };
    let tb = Tablebase::from_layers(build_in_memory(reach));
    let mut checked = 0;
    for (i, p) in set.puzzles.iter().enumerate() {
        // Recorded: the best move's value is above every other move's.
        let others = p.move_values().into_iter().filter(|m| m.0 != p.best).map(|m| m.1);
        assert!(others.clone().all(|v| v < p.value()), "puzzle {}", i + 1);
        assert_eq!(p.line[0], p.best);
        let Some(moves) = tb.probe_moves(p.position) else { continue };
        assert_eq!(moves, p.move_values(), "puzzle {}: the tables' values", i + 1);
        let best = moves.iter().map(|m| m.1).max().unwrap();
        let at_best: Vec<_> = moves.iter().filter(|m| m.1 == best).map(|m| m.0).collect();
        assert_eq!(at_best, vec![p.best], "puzzle {}: {}", i + 1, p.position);
        checked += 1;
    }
    assert!(checked >= 100, "only {checked} puzzles within {reach} stones");
    if !cfg!(debug_assertions) {
        assert_eq!(checked, set.puzzles.len());
    }
}
