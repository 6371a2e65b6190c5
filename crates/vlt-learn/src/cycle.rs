//! Endless-cycle defence (R7): where a player's value rests on R7 scoring an endless game 0.
//!
//! The tables' values assume R7: play that never captures again ends with no further captures.
//! For a player `X`, compare the value `X` gets when it must *end* the play itself, an endless game
//! counting as a loss for `X`: the most `t` such that `X` can force a capture line worth at least
//! `t` to `X`. Where that is below the tables' value, `X` holds its value only because the other
//! player cannot escape an endless cycle without conceding more: `X`'s defence is the cycle. This
//! can only be so where `X`'s value is 0 or less (a winner forces its captures without repeating a
//! position, docs/tablebase.md).
//!
//! The computation is the tables' own (an attractor per threshold, thresholds falling), run forward
//! over the positions that quiet moves reach from a start, where `X`'s value is at most 0: captures
//! and moves into positions worth 1 or more to `X` end the walk with the tables' exact values.

use std::collections::HashMap;
use vlt_core::{ByPlayer, Move, Player, Position};
use vlt_tablebase::{Tablebase, index, move_value};

/// Not decided: `X` cannot force a capture line at any threshold (only endless play is left).
const ENDLESS: i8 = i8::MIN;

/// The positions around some starts where `X`'s value lies in `floor..=0`, their quiet moves
/// between one another, and what every other move ends in.
struct Region {
    player: Player,
    floor: i32,
    positions: Vec<Position>,
    nodes: HashMap<u128, u32>,
    /// The tables' value of each node for `X`.
    value: Vec<i8>,
    /// The best (for `X` to move) or worst (for the other) of the node's moves that leave the
    /// region, for `X`: captures and moves to positions valued outside `floor..=0`.
    leave: Vec<i8>,
    /// `edges[start[i]..start[i + 1]]`: the nodes after node `i`'s quiet moves inside the region.
    start: Vec<u32>,
    edges: Vec<u32>,
}

/// `v`, a value for the player to move of `p`, seen by `x`.
fn seen_by(p: Position, x: Player, v: i32) -> i32 {
    if p.to_move() == x { v } else { -v }
}

impl Region {
    /// The region of `x` from `starts` (those valued outside `floor..=0` for `x` are skipped), or
    /// `None` when it grows past `limit` positions or leaves the tables.
    fn explore(
        tb: &Tablebase,
        x: Player,
        floor: i32,
        starts: impl IntoIterator<Item = Position>,
        limit: usize,
    ) -> Option<Region> {
        let mut r = Region {
            player: x,
            floor,
            positions: Vec::new(),
            nodes: HashMap::new(),
            value: Vec::new(),
            leave: Vec::new(),
            start: vec![0],
            edges: Vec::new(),
        };
        let inside = |v: i32| (floor..=0).contains(&v);
        for p in starts {
            if p.is_game_over() {
                continue;
            }
            let v = seen_by(p, x, tb.probe(p)?);
            if inside(v) {
                r.intern(p, v);
            }
        }
        // Nodes are expanded in the order they were met, each appending its edges.
        let mut next = 0;
        while next < r.positions.len() {
            if r.positions.len() > limit {
                return None;
            }
            let p = r.positions[next];
            let mover = p.to_move();
            let own = mover == x;
            let mut leave = if own { i32::MIN } else { i32::MAX };
            for m in p.legal_moves() {
                let (child, k) = p.play_counting(m);
                let cv = tb.probe(child)?;
                let mv = seen_by(p, x, i32::from(move_value(mover, k, child, cv as i8)));
                let child_v = if child.is_game_over() { 0 } else { seen_by(child, x, cv) };
                let stays = k == 0 && !child.is_game_over() && inside(child_v);
                if stays {
                    let c = r.intern(child, child_v);
                    r.edges.push(c);
                } else {
                    leave = if own { leave.max(mv) } else { leave.min(mv) };
                }
            }
            r.leave.push(leave.clamp(-127, 127) as i8);
            r.start.push(r.edges.len() as u32);
            next += 1;
        }
        Some(r)
    }

    fn intern(&mut self, p: Position, v: i32) -> u32 {
        let next = self.positions.len() as u32;
        *self.nodes.entry(p.repetition_key()).or_insert_with(|| {
            self.positions.push(p);
            self.value.push(v as i8);
            next
        })
    }

    fn quiet(&self, i: usize) -> &[u32] {
        &self.edges[self.start[i] as usize..self.start[i + 1] as usize]
    }

    /// What `X` gets at each node when it must end the play: thresholds from 0 down to the floor,
    /// each the attractor of "a capture line worth at least `t`" ([`ENDLESS`] where none is).
    /// A node of `X` enters at `t` when a move leaving the region is worth `t` or a quiet move goes
    /// into the set; a node of the other player when all its quiet moves went in, at the least of
    /// `t` and its worst move out.
    fn solve(&self) -> Vec<i8> {
        let n = self.positions.len();
        // Predecessors, compressed like the edges: `pred[pstart[c]..pstart[c + 1]]`.
        let mut pstart = vec![0u32; n + 1];
        for &c in &self.edges {
            pstart[c as usize + 1] += 1;
        }
        for i in 0..n {
            pstart[i + 1] += pstart[i];
        }
        let mut fill = pstart.clone();
        let mut pred = vec![0u32; self.edges.len()];
        for i in 0..n {
            for &c in self.quiet(i) {
                pred[fill[c as usize] as usize] = i as u32;
                fill[c as usize] += 1;
            }
        }
        let levels = (-self.floor) as usize + 1;
        let slot = |t: i32| (-t.min(0)) as usize; // threshold t is pending[-t]
        let mut pending: Vec<Vec<u32>> = vec![Vec::new(); levels];
        let mut left: Vec<usize> = (0..n).map(|i| self.quiet(i).len()).collect();
        let own = |i: usize| self.positions[i].to_move() == self.player;
        for (i, &left_i) in left.iter().enumerate() {
            let leave = i32::from(self.leave[i]);
            if (own(i) || left_i == 0) && leave >= self.floor {
                pending[slot(leave)].push(i as u32);
            }
        }
        let mut got = vec![ENDLESS; n];
        for s in 0..levels {
            let t = -(s as i32);
            let mut queue = std::mem::take(&mut pending[s]);
            while let Some(c) = queue.pop() {
                let c = c as usize;
                if got[c] != ENDLESS {
                    continue;
                }
                got[c] = t as i8;
                for &p in &pred[pstart[c] as usize..pstart[c + 1] as usize] {
                    let p = p as usize;
                    if got[p] != ENDLESS {
                        continue;
                    }
                    if own(p) {
                        queue.push(p as u32);
                        continue;
                    }
                    left[p] -= 1;
                    if left[p] == 0 {
                        let leave = i32::from(self.leave[p]);
                        if leave >= t {
                            queue.push(p as u32);
                        } else if leave >= self.floor {
                            pending[slot(leave)].push(p as u32);
                        }
                    }
                }
            }
        }
        got
    }

    /// True at node `i` when `X` gets less by ending the play than the tables give it.
    fn rests(&self, solved: &[i8], i: usize) -> bool {
        solved[i] < self.value[i]
    }
}

/// The most positions [`rests_on_cycle`] explores around one position.
pub const LOCAL_LIMIT: usize = 100_000;

/// True when `player`'s value at `pos` rests on R7: were an endless game a loss for `player`, the
/// other could keep the stones circling and `player` would get less than the tables' value.
/// `Some(false)` also where that value is above 0 (a winner never needs a cycle). `None` beyond the
/// tables or when the play around `pos` passes [`LOCAL_LIMIT`] positions.
#[must_use]
pub fn rests_on_cycle(tb: &Tablebase, pos: Position, player: Player) -> Option<bool> {
    if pos.is_game_over() {
        return Some(false);
    }
    let v = seen_by(pos, player, tb.probe(pos)?);
    if v > 0 {
        return Some(false);
    }
    let r = Region::explore(tb, player, v, [pos], LOCAL_LIMIT)?;
    Some(r.rests(&r.solve(), 0))
}

/// What makes the right move of a puzzle a matter of the endless cycle (R7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CycleRole {
    /// The right move holds the value (0) only by R7: after it, were an endless game scored
    /// against the mover, it would lose; the opponent cannot break out of the circling without
    /// conceding, and every other move loses.
    Holds,
    /// Another move would let the opponent hold the mover to less by circling for ever (its value
    /// there rests on R7); the right move is the one that gives it no endless defence.
    Breaks,
}

/// How R7 decides the puzzle of `pos` whose right move is `best`, given every legal move's value
/// (`values`) and an answer to [`rests_on_cycle`] (`rests`); `None` where it plays no part.
pub fn role(
    pos: Position,
    best: Move,
    values: &[(Move, i32)],
    rests: impl Fn(Position, Player) -> Option<bool>,
) -> Option<CycleRole> {
    let mover = pos.to_move();
    let best_value = values.iter().find(|m| m.0 == best)?.1;
    if best_value == 0 && rests(pos.play_unchecked(best), mover) == Some(true) {
        return Some(CycleRole::Holds);
    }
    values
        .iter()
        .filter(|m| m.0 != best && (0..best_value).contains(&m.1))
        .any(|m| rests(pos.play_unchecked(m.0), mover.other()) == Some(true))
        .then_some(CycleRole::Breaks)
}

/// Every position of layer `n` (both players to move) that the tables hold, the captured stones
/// split evenly between the players (they change no value).
pub fn layer_positions(n: u32) -> impl Iterator<Item = Position> {
    let captured = (60 - n.min(60)) as u8;
    let split = ByPlayer { b: captured.div_ceil(2), a: captured / 2 };
    let mut board = index::unrank(n, 0);
    let mut more = true;
    std::iter::from_fn(move || {
        if !more {
            return None;
        }
        let b = board;
        more = index::next_board(&mut board);
        Some(b)
    })
    .flat_map(move |b| {
        Player::BOTH.into_iter().filter_map(move |pl| {
            let p = Position::new(b, pl, split).expect("at most 60 stones");
            // A board whose player to move has an empty row is the other player's entry (R5).
            (p.to_move() == pl && !p.is_game_over()).then_some(p)
        })
    })
}

/// How R7 matters in one layer of the tables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayerCycles {
    /// Positions of the layer (both players to move).
    pub positions: u64,
    /// Positions where the player to move's value rests on R7 ([`rests_on_cycle`]).
    pub mover_rests: u64,
    /// Positions where the other player's value rests on R7.
    pub other_rests: u64,
}

/// The answers of [`rests_on_cycle`] for a whole layer at once: one region per player, from every
/// position of the layer.
pub struct LayerAnswers {
    stones: u32,
    regions: ByPlayer<(Region, Vec<i8>)>,
}

impl LayerAnswers {
    /// Solves layer `n` of `tb`; `None` beyond the tables.
    #[must_use]
    pub fn solve(tb: &Tablebase, n: u32) -> Option<LayerAnswers> {
        let region = |x| {
            let r = Region::explore(tb, x, -(n as i32), layer_positions(n), usize::MAX)?;
            let s = r.solve();
            Some((r, s))
        };
        Some(LayerAnswers { stones: n, regions: ByPlayer { b: region(Player::B)?, a: region(Player::A)? } })
    }

    /// [`rests_on_cycle`] for a position of the layer; `None` for other positions.
    #[must_use]
    pub fn rests_on_cycle(&self, pos: Position, player: Player) -> Option<bool> {
        let (r, s) = &self.regions[player];
        match r.nodes.get(&pos.repetition_key()) {
            Some(&i) => Some(r.rests(s, i as usize)),
            // Outside the region: valued above 0 for `player` (or not of this layer).
            None => (pos.stones_on_board() == self.stones).then_some(false),
        }
    }

    /// The layer's counts.
    #[must_use]
    pub fn counts(&self) -> LayerCycles {
        let mut out = LayerCycles::default();
        for p in layer_positions(self.stones) {
            out.positions += 1;
            let mover = p.to_move();
            out.mover_rests += u64::from(self.rests_on_cycle(p, mover) == Some(true));
            out.other_rests += u64::from(self.rests_on_cycle(p, mover.other()) == Some(true));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vlt_tablebase::build::build_in_memory;

    /// A region of `X` = B by hand: `movers[i]` moves at node `i`, `values[i]` is its value for B,
    /// `leave[i]` what its moves out of the region give B, `quiet[i]` its quiet moves.
    fn region(movers: &[Player], values: &[i8], leave: &[i8], quiet: &[&[u32]]) -> Region {
        let b: Position = "1,0,0,0,0,0/1,0,0,0,0,0 B 0 0".parse().unwrap();
        let a: Position = "1,0,0,0,0,0/1,0,0,0,0,0 A 0 0".parse().unwrap();
        let mut r = Region {
            player: Player::B,
            floor: -4,
            positions: movers.iter().map(|&m| if m == Player::B { b } else { a }).collect(),
            nodes: HashMap::new(),
            value: values.to_vec(),
            leave: leave.to_vec(),
            start: vec![0],
            edges: Vec::new(),
        };
        for q in quiet {
            r.edges.extend_from_slice(q);
            r.start.push(r.edges.len() as u32);
        }
        r
    }

    #[test]
    fn a_defender_that_can_only_circle_rests_on_the_cycle() {
        // B (node 0) can circle with A (node 1) or capture for -2; A can circle back or capture
        // giving B +2. The tables' value is 0 for both (the endless game), but ending it costs B 2.
        let r = region(&[Player::B, Player::A], &[0, 0], &[-2, 2], &[&[1], &[0]]);
        let got = r.solve();
        assert_eq!(got, vec![-2, -2]);
        assert!(r.rests(&got, 0) && r.rests(&got, 1));
        // With a capture worth 0 to B the cycle is not needed: B ends it at its value.
        let r = region(&[Player::B, Player::A], &[0, 0], &[0, 2], &[&[1], &[0]]);
        let got = r.solve();
        assert_eq!(got, vec![0, 0]);
        assert!(!r.rests(&got, 0) && !r.rests(&got, 1));
        // When A's only way out of the circle hands B the value, A cannot hold B in it either.
        let r = region(&[Player::B, Player::A], &[0, 0], &[-4, 0], &[&[1], &[]]);
        assert_eq!(r.solve(), vec![0, 0]);
    }

    #[test]
    fn no_position_of_up_to_ten_stones_rests_on_r7_and_local_answers_agree_with_the_layer() {
        let tb = Tablebase::from_layers(build_in_memory(10));
        // The rules' R7 cycle: A is worth +3 there and B -3; B's -3 needs no cycle either.
        let cycle: Position = "1,0,1,0,1,0/1,2,0,1,2,0 A 25 26".parse().unwrap();
        assert_eq!(rests_on_cycle(&tb, cycle, Player::A), Some(false));
        assert_eq!(rests_on_cycle(&tb, cycle, Player::B), Some(false));
        for n in [9, 10] {
            let layer = LayerAnswers::solve(&tb, n).unwrap();
            let c = layer.counts();
            assert_eq!((c.mover_rests, c.other_rests), (0, 0), "layer {n}");
            assert_eq!(
                c.positions,
                tb.layer(n).unwrap().iter().filter(|&&v| v as i8 != i8::MIN).count() as u64
            );
            for p in layer_positions(n).step_by(997) {
                for pl in Player::BOTH {
                    assert_eq!(layer.rests_on_cycle(p, pl), rests_on_cycle(&tb, p, pl), "{p}");
                }
            }
        }
    }

    #[test]
    fn the_detector_flags_a_move_resting_on_r7_and_not_an_ordinary_one() {
        let tb = Tablebase::from_layers(build_in_memory(10));
        type Want<'a> = &'a dyn Fn(i32, &[(Move, i32)]) -> bool;
        let puzzle = |want: Want| {
            layer_positions(10)
                .find_map(|p| {
                    let (best, _) = crate::grade::verdict(&tb, p, 2)?;
                    let moves = tb.probe_moves(p)?;
                    let v = moves.iter().find(|m| m.0 == best)?.1;
                    want(v, &moves).then_some((p, best, moves))
                })
                .expect("such a puzzle at 10 stones")
        };
        // A "hold the balance" puzzle: by the tables nothing rests on R7, so no theme.
        let (p, best, moves) = puzzle(&|v, _| v == 0);
        assert_eq!(role(p, best, &moves, |q, pl| rests_on_cycle(&tb, q, pl)), None);
        // The same puzzle where the 0 after the right move is constructed to rest on R7: it holds.
        let after = p.play_unchecked(best);
        let constructed = |q: Position, pl: Player| Some(q == after && pl == p.to_move());
        assert_eq!(role(p, best, &moves, constructed), Some(CycleRole::Holds));
        // A winning puzzle with another move worth 0: constructed so that the opponent's 0 after
        // that move rests on R7, the right move breaks the defence; with the tables, no theme.
        let (p, best, moves) = puzzle(&|v, m| v > 0 && m.iter().any(|m| m.1 == 0));
        assert_eq!(role(p, best, &moves, |q, pl| rests_on_cycle(&tb, q, pl)), None);
        let zero = moves.iter().find(|m| m.1 == 0).unwrap().0;
        let after = p.play_unchecked(zero);
        let constructed = |q: Position, pl: Player| Some(q == after && pl == p.to_move().other());
        assert_eq!(role(p, best, &moves, constructed), Some(CycleRole::Breaks));
        // The mover's own 0 resting on R7 after a losing move is no theme: that move is not played.
        let constructed = |q: Position, pl: Player| Some(q == after && pl == p.to_move());
        assert_eq!(role(p, best, &moves, constructed), None);
    }
}
