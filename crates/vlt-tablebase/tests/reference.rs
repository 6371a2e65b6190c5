//! The tables against a slow, obviously correct reference: minimax over the game tree in which R7
//! is played literally (a position's third occurrence ends the game with no further captures).

use std::collections::HashMap;
use vlt_core::{ByPlayer, Player, Position, ROW};
use vlt_tablebase::build::build_in_memory;
use vlt_tablebase::index::{boards, index_of, index_of_board, layer_entries, unrank};
use vlt_tablebase::move_value;
use vlt_tablebase::unsow::for_each_predecessor;
use vlt_tablebase::{Tablebase, format::NO_POSITION};

/// The reference search. `history` counts the occurrences of each position (board and mover, R7)
/// on the current path; `fresh` memoises values of positions reached by a capture, which start a
/// fresh history: a position with fewer stones can never repeat one with more.
struct Reference {
    history: HashMap<u128, u8>,
    fresh: HashMap<u128, i32>,
    nodes: u64,
    budget: u64,
    /// R7's threshold: 3 (the rule); 2 to check the claim in docs/tablebase.md that from an empty
    /// history "second occurrence ends" gives the same values.
    occurrences: u8,
    /// How often R7 ended a line.
    repetitions: u64,
    /// Alpha-beta cut-offs (exact at the root either way); without them every line is searched.
    prune: bool,
}

impl Reference {
    fn new(budget: u64, occurrences: u8) -> Self {
        Reference {
            history: HashMap::new(),
            fresh: HashMap::new(),
            nodes: 0,
            budget,
            occurrences,
            repetitions: 0,
            prune: true,
        }
    }

    /// The value for the player to move, or `None` when the node budget ran out.
    fn value(&mut self, pos: Position, mut alpha: i32, beta: i32) -> Option<i32> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        if pos.is_game_over() {
            return Some(0); // R6
        }
        let key = pos.repetition_key();
        let seen = self.history.entry(key).or_insert(0);
        *seen += 1;
        if *seen >= self.occurrences {
            // R7: the game ends here; the stones on the board count for nobody.
            self.repetitions += 1;
            *self.history.get_mut(&key).expect("entered") -= 1;
            return Some(0);
        }
        let mover = pos.to_move();
        let mut best = i32::MIN;
        let mut result = Some(());
        for m in pos.legal_moves() {
            let (child, k) = pos.play_counting(m);
            let cv = if k > 0 {
                let Some(cv) = self.fresh_value(child) else {
                    result = None;
                    break;
                };
                cv
            } else {
                // Same layer: the history goes on. The child's window follows from ours.
                let same = child.to_move() == mover;
                let (a, b) = if same { (alpha, beta) } else { (-beta, -alpha) };
                let Some(cv) = self.value(child, a, b) else {
                    result = None;
                    break;
                };
                cv
            };
            let mv = i32::from(move_value(mover, k, child, cv as i8));
            best = best.max(mv);
            alpha = alpha.max(mv);
            if self.prune && alpha >= beta {
                break;
            }
        }
        *self.history.get_mut(&key).expect("entered") -= 1;
        result.map(|()| best)
    }

    fn fresh_value(&mut self, pos: Position) -> Option<i32> {
        let key = pos.repetition_key();
        if let Some(&v) = self.fresh.get(&key) {
            return Some(v);
        }
        // A position after a capture: nothing on the current path can recur (fewer stones), so a
        // search from it with an empty history gives its value; the full window keeps it exact.
        let saved = std::mem::take(&mut self.history);
        let v = self.value(pos, -100, 100);
        self.history = saved;
        if let Some(v) = v {
            self.fresh.insert(key, v);
        }
        v
    }
}

fn position(n: u32, r: u64, p: Player) -> Option<Position> {
    let b = unrank(n, r);
    let row = p.index() * ROW;
    if n > 0 && b[row..row + ROW].iter().all(|&c| c == 0) {
        return None;
    }
    Some(Position::new(b, p, ByPlayer::new(0, 0)).expect("valid"))
}

/// Layers up to 7 stones, every position: exactly the reference's values.
#[test]
fn small_layers_equal_minimax_with_r7() {
    let tb = Tablebase::from_layers(build_in_memory(7));
    let mut r7 = Reference::new(u64::MAX, 3);
    for n in 0..=7 {
        for r in 0..boards(n) {
            for p in Player::BOTH {
                let Some(pos) = position(n, r, p) else { continue };
                let want = r7.fresh_value(pos).expect("no budget");
                assert_eq!(tb.probe(pos), Some(want), "{pos}");
            }
        }
    }
}

/// The entries of layer `n` from which quiet play (moves without capture) can go on for ever: those
/// that can reach a cycle. Found by peeling off, from the positions without quiet moves backwards,
/// every position all of whose quiet moves lead to peeled ones.
fn can_reach_cycle(n: u32) -> Vec<u64> {
    let entries = layer_entries(n) as usize;
    let mut quiet = vec![0u8; entries];
    let mut stack = Vec::new();
    for r in 0..boards(n) {
        for p in Player::BOTH {
            let Some(pos) = position(n, r, p) else { continue };
            let i = index_of(pos) as usize;
            quiet[i] = pos.legal_moves().filter(|&m| pos.play_counting(m).1 == 0).count() as u8;
            if quiet[i] == 0 {
                stack.push(i);
            }
        }
    }
    let mut peeled = vec![false; entries];
    while let Some(i) = stack.pop() {
        peeled[i] = true;
        let board = unrank(n, i as u64 / 2);
        for_each_predecessor(&board, Player::from_index(i), |pb, pp| {
            let j = index_of_board(pb, pp) as usize;
            quiet[j] -= 1;
            if quiet[j] == 0 {
                stack.push(j);
            }
        });
    }
    (0..entries)
        .filter(|&i| !peeled[i] && position(n, i as u64 / 2, Player::from_index(i)).is_some())
        .map(|i| i as u64)
        .collect()
}

/// RULES.md: the smallest cycles have 9 stones.
#[test]
fn cycles_start_at_nine_stones() {
    for n in 1..=8 {
        assert!(can_reach_cycle(n).is_empty(), "layer {n} has a cycle");
    }
    let nine = can_reach_cycle(9);
    assert!(!nine.is_empty());
    let pos: Position = "1,0,1,0,1,0/1,2,0,1,2,0 A 25 26".parse().expect("position");
    assert!(nine.contains(&index_of(pos)), "the R7 example lies on a cycle");
}

/// Layers 8 to 10 (cycles from 9 stones, R7): sampled positions, each searched with the literal
/// third-occurrence rule within a node budget; in 9 and 10, sampled among the positions from which
/// quiet play can go on for ever, where R7 matters.
#[test]
fn cyclic_layers_equal_minimax_with_r7() {
    let tb = Tablebase::from_layers(build_in_memory(10));
    let mut checked = 0;
    let mut zeros = 0;
    let mut repetitions = 0;
    for n in 8..=10u32 {
        let candidates: Vec<u64> = if n == 8 { (0..layer_entries(n)).collect() } else { can_reach_cycle(n) };
        let step = candidates.len() / 150 + 1;
        eprintln!("layer {n}: {} candidates", candidates.len());
        for &i in candidates.iter().step_by(step) {
            {
                let Some(pos) = position(n, i / 2, Player::from_index(i as usize)) else { continue };
                // A fresh reference each time keeps memory small; its memo only covers captures.
                let mut r7 = Reference::new(if n == 8 { 3_000_000 } else { 400_000 }, 3);
                // Plain minimax where cycles are: every line is played until R7 ends it.
                r7.prune = n == 8;
                if let Some(want) = r7.fresh_value(pos) {
                    assert_eq!(tb.probe(pos), Some(want), "{pos}");
                    checked += 1;
                    zeros += usize::from(want == 0);
                    repetitions += u64::from(r7.repetitions > 0);
                }
            }
        }
    }
    assert!(checked >= 150, "only {checked} positions within the budget");
    assert!(zeros > 0, "some sampled positions should be worth 0");
    // The sample really exercises R7: some searches met third occurrences.
    assert!(repetitions >= 20, "only {repetitions} searches met a repetition");
    eprintln!("{checked} positions checked, {zeros} worth 0, {repetitions} searches met R7");
}

/// The R7 example of RULES.md: the 9-stone cycle. Its value by the literal rule and by the tables.
#[test]
fn the_rules_cycle_position() {
    let tb = Tablebase::from_layers(build_in_memory(9));
    let pos: Position = "1,0,1,0,1,0/1,2,0,1,2,0 A 25 26".parse().expect("position");
    let mut r7 = Reference::new(u64::MAX, 3);
    let want = r7.fresh_value(pos).expect("no budget");
    assert_eq!(tb.probe(pos), Some(want));
    // And "second occurrence ends" agrees from an empty history (docs/tablebase.md).
    let mut r2 = Reference::new(u64::MAX, 2);
    assert_eq!(r2.fresh_value(pos), Some(want));
}

/// The second-occurrence variant gives the same values from an empty history (the argument in
/// docs/tablebase.md), on sampled 9- and 10-stone positions.
#[test]
fn second_occurrence_agrees_from_an_empty_history() {
    let tb = Tablebase::from_layers(build_in_memory(10));
    let mut checked = 0;
    for n in 9..=10u32 {
        let step = boards(n) / 200 + 1;
        let mut r = 3;
        while r < boards(n) {
            for p in Player::BOTH {
                let Some(pos) = position(n, r, p) else { continue };
                let mut r2 = Reference::new(2_000_000, 2);
                if let Some(v) = r2.fresh_value(pos) {
                    assert_eq!(tb.probe(pos), Some(v), "{pos}");
                    checked += 1;
                }
            }
            r += step;
        }
    }
    assert!(checked >= 300, "only {checked}");
}

/// RULES.md's facts: with an odd number of stones no position is worth 0; the tables mark exactly
/// the non-positions (mover with an empty row) and nothing else.
#[test]
fn odd_layers_have_no_zero_and_non_positions_are_marked() {
    let layers = build_in_memory(11);
    for (n, layer) in layers.iter().enumerate() {
        for (i, &v) in layer.iter().enumerate() {
            let p = Player::from_index(i);
            let is_position = position(n as u32, i as u64 / 2, p).is_some();
            assert_eq!(v as i8 != NO_POSITION, is_position, "layer {n} entry {i}");
            if is_position {
                assert!((v as i8).unsigned_abs() as usize <= n);
                if n % 2 == 1 {
                    assert_ne!(v, 0, "layer {n} entry {i}: an odd layer has no 0");
                }
            }
        }
    }
}
