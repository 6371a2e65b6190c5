//! The rule texts' three worked examples (RULES.md, "Test vectors"), as named tests.

use vlt_core::examples::WORKED_EXAMPLES;
use vlt_core::{Move, Position};

fn run(id: &str) -> (Position, Position, Vec<String>, u8) {
    let ex = WORKED_EXAMPLES.iter().find(|e| e.id == id).unwrap();
    let pos: Position = ex.position.parse().unwrap();
    let mv: Move = ex.mv.parse().unwrap();
    let (after, o) = pos.play_traced(mv).unwrap();
    let holes: Vec<String> = o.capture.holes().map(|h| h.to_string()).collect();
    assert_eq!(holes, ex.captured_holes, "{id}: the listed captured holes");
    (pos, after, holes, o.capture.stones)
}

/// Seed example 1: seven stones from 1B end in the empty 2A and capture it (R3, R4).
#[test]
fn seven_stones_from_1b_end_in_2a_and_capture_one() {
    let (pos, after, holes, n) = run("seven-stones");
    assert_eq!(pos.stones("1B".parse().unwrap()), 7);
    assert_eq!(pos.stones("2A".parse().unwrap()), 0);
    assert_eq!(holes, ["2A"]);
    assert_eq!(n, 1);
    assert_eq!(after.to_string(), "0,3,4,2,5,3/4,0,4,2,1,3 A 15 14");
}

/// Seed example 2: twelve stones from 4B go once round, end in 4B and capture 4B, 3B, 2B (R3, R4).
#[test]
fn twelve_stones_from_4b_lap_and_capture_4b_3b_2b() {
    let (pos, after, holes, n) = run("twelve-stones");
    assert_eq!(pos.stones("4B".parse().unwrap()), 12);
    assert_eq!(holes, ["4B", "3B", "2B"]);
    assert_eq!(n, 3);
    assert_eq!(after.to_string(), "3,0,0,0,2,4/3,2,4,1,3,2 A 19 17");
}

/// Seed example 3: five stones from 2B end in 1A and capture across the rows (R4).
#[test]
fn five_stones_from_2b_capture_1a_6b_5b_4b_3b() {
    let (pos, after, holes, n) = run("chain-across");
    assert_eq!(pos.stones("2B".parse().unwrap()), 5);
    assert_eq!(holes, ["1A", "6B", "5B", "4B", "3B"]);
    assert_eq!(n, 5);
    assert_eq!(after.to_string(), "1,0,0,0,0,0/0,2,1,3,0,2 A 27 24");
}
