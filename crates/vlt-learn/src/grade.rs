//! How a candidate position becomes a puzzle: the tables' verdict on every move, the solution
//! line, and the difficulty measured by how often the engine at low levels misses the move.

use crate::cycle;
use crate::puzzle::{MAX_LINE, Puzzle, Source};
use crate::theme;
use std::collections::HashSet;
use vlt_core::{Game, Move, Position, ROW};
use vlt_engine::{Engine, Level};
use vlt_tablebase::Tablebase;

/// The levels whose choices measure difficulty, and how many choices (seeds) each level makes:
/// levels 1–5 choose among good moves by chance, so each chooses [`SEEDS_PER_LEVEL`] times;
/// level 6 plays its best move and chooses once.
pub const MEASURE_LEVELS: [(u8, u8); 6] = [(1, 8), (2, 8), (3, 8), (4, 8), (5, 8), (6, 1)];
/// Choices made by each level that chooses by chance.
pub const SEEDS_PER_LEVEL: u8 = 8;
/// The longest line followed to find how deep a win is, in plies.
const LINE_LIMIT: usize = 200;

/// The rating of a puzzle (Glicko scale) from what was measured: `800 + 1000·m + 10·min(d, 30) −
/// 20·min(g, 10)`, with `m` the engine's miss rate at low levels, `d` the depth in plies and `g`
/// the stones the second-best move gives away; within 400..=2600 (docs/puzzles.md).
#[must_use]
pub fn rating(miss_rate: f64, depth: u8, gap: i32) -> u16 {
    let r = 800.0 + 1000.0 * miss_rate + 10.0 * f64::from(depth.min(30)) - 20.0 * f64::from(gap.clamp(0, 10));
    r.round().clamp(400.0, 2600.0) as u16
}

/// The tables' verdict on `pos` when it makes a puzzle: the one best move and every move's value.
/// `None` when the position is outside the tables, has fewer than two moves, its best value is
/// below zero (nothing to win or hold) or the second-best move is less than `min_gap` stones worse.
#[must_use]
pub fn verdict(tb: &Tablebase, pos: Position, min_gap: i32) -> Option<(Move, [Option<i8>; ROW])> {
    let moves = tb.probe_moves(pos)?;
    if moves.len() < 2 {
        return None;
    }
    let (best, v) = moves.iter().copied().reduce(|b, m| if m.1 > b.1 { m } else { b })?;
    let second = moves.iter().filter(|m| m.0 != best).map(|m| m.1).max()?;
    if v < 0 || v - second < min_gap {
        return None;
    }
    let mut values = [None; ROW];
    for (m, v) in moves {
        values[m.hole().number() as usize - 1] = Some(v as i8);
    }
    Some((best, values))
}

/// The tables' line from `pos` after `first`: best moves until the board is empty or a position
/// comes back (an endless game, R7), at most [`LINE_LIMIT`] plies. Returns the line, whether it
/// ran into a repetition, and the plies up to its last capture.
#[must_use]
pub fn line(tb: &Tablebase, pos: Position, first: Move) -> (Vec<Move>, bool, u8) {
    let mut seen = HashSet::new();
    let mut out = vec![first];
    let (mut p, k) = pos.play_counting(first);
    let mut last_capture = if k > 0 { 1 } else { 0 };
    let mut endless = false;
    while !p.is_game_over() && out.len() < LINE_LIMIT {
        if !seen.insert(p.repetition_key()) {
            endless = true;
            break;
        }
        let Some((m, _)) = tb.best_move(p) else { break };
        let (next, k) = p.play_counting(m);
        out.push(m);
        if k > 0 {
            last_capture = out.len();
        }
        p = next;
    }
    // A line without a capture is as deep as it is long (the holding play of a cycle).
    let depth = if last_capture == 0 { out.len() } else { last_capture };
    (out, endless, depth.min(usize::from(u8::MAX)) as u8)
}

/// How often the engine at [`MEASURE_LEVELS`] plays something other than `best` in `pos`:
/// `(misses, tries)`. The engine's memory is cleared first, so the count does not depend on what
/// it searched before.
#[must_use]
pub fn engine_misses(engine: &mut Engine, pos: Position, best: Move) -> (u8, u8) {
    engine.clear();
    let game = Game::new(pos);
    let (mut misses, mut tries) = (0, 0);
    for (level, seeds) in MEASURE_LEVELS {
        let level = Level::new(level).expect("a level 1..=10");
        for seed in 0..u64::from(seeds) {
            tries += 1;
            if engine.play_level(&game, level, seed) != best {
                misses += 1;
            }
        }
    }
    (misses, tries)
}

/// True when the endless cycle (R7) decides the puzzle of `pos` with right move `best`: the move
/// holds a 0 that rests on R7, or another move would give the opponent such a defence
/// ([`cycle::role`]).
#[must_use]
pub fn cycle_theme(tb: &Tablebase, pos: Position, best: Move, values: &[Option<i8>; ROW]) -> bool {
    let mover = pos.to_move();
    let moves: Vec<(Move, i32)> = (0..ROW)
        .filter_map(|i| values[i].map(|v| (Move::from(crate::puzzle::own_hole(mover, i)), i32::from(v))))
        .collect();
    cycle::role(pos, best, &moves, |p, pl| cycle::rests_on_cycle(tb, p, pl)).is_some()
}

/// The puzzle of `pos`, when it makes one ([`verdict`]), measured with `engine`.
#[must_use]
pub fn grade(
    tb: &Tablebase,
    engine: &mut Engine,
    pos: Position,
    source: Source,
    min_gap: i32,
) -> Option<Puzzle> {
    let (best, values) = verdict(tb, pos, min_gap)?;
    let (mut full, _, depth) = line(tb, pos, best);
    full.truncate(MAX_LINE);
    let themes = theme::detect(pos, &full, cycle_theme(tb, pos, best, &values));
    let (misses, tries) = engine_misses(engine, pos, best);
    let mut p =
        Puzzle { position: pos, best, values, depth, misses, tries, themes, rating: 0, source, line: full };
    p.rating = rating(f64::from(misses) / f64::from(tries), depth, p.gap());
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_cycle_is_no_cycle_puzzle() {
        use vlt_tablebase::build::build_in_memory;
        let tb = Tablebase::from_layers(build_in_memory(9));
        // RULES.md R7's 12-move cycle exists among the moves of this position, but A does better
        // than circling (+3 by 1A, 2A or 4A; the cycle's 5A is worth +1), and B's -3 after any
        // of them needs no cycle either: no endless-cycle theme.
        let cycle: Position = "1,0,1,0,1,0/1,2,0,1,2,0 A 25 26".parse().unwrap();
        assert_eq!(tb.probe(cycle), Some(3));
        let moves = tb.probe_moves(cycle).unwrap();
        let mut values = [None; ROW];
        for (m, v) in &moves {
            values[m.hole().number() as usize - 1] = Some(*v as i8);
        }
        let best = tb.best_move(cycle).unwrap().0;
        assert!(!cycle_theme(&tb, cycle, best, &values));
    }

    #[test]
    fn rating_rises_with_misses_and_depth_and_falls_with_the_gap() {
        assert!(rating(0.5, 4, 2) > rating(0.1, 4, 2));
        assert!(rating(0.2, 12, 2) > rating(0.2, 2, 2));
        assert!(rating(0.2, 4, 8) < rating(0.2, 4, 2));
        assert_eq!(rating(0.0, 0, 10), 600);
        assert_eq!(rating(1.0, 255, 0), 2100);
    }
}
