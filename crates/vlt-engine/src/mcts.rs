//! Monte Carlo tree search (UCT): the second algorithm. It grows a tree one node per iteration,
//! choosing children by the UCB1 rule, and values a new node by playing the game out to its end
//! (R6) or to a repetition (R7) with a fast random (optionally capture-greedy) policy.
//!
//! Rewards are game results for the player who made the move into a node: 1 for a win, ½ for a
//! draw, 0 for a loss (R6: more captures wins), plus a small share of the capture difference so that
//! among won lines bigger wins are preferred. R5: the player moving at a node is read from the
//! position, so a side that moves twice in a row is handled without special cases.

use crate::eval::capture_of;
use crate::{SearchInfo, SearchResult, Stop, TimeBudget, to_stones};
use std::time::Instant;
use vlt_core::playout::SplitMix64;
use vlt_core::{Game, Hole, Move, Player, Position};

/// How the random playouts choose moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Playout {
    /// Uniformly random legal moves.
    Uniform,
    /// The biggest capture when one exists, with this chance in percent; otherwise random.
    Greedy(u8),
}

/// MCTS strength settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// The UCB1 exploration constant `c` in `mean + c * sqrt(ln N / n)`.
    pub exploration: f64,
    /// The playout policy.
    pub playout: Playout,
    /// Weight of the capture difference (per stone) added to the 0/½/1 game result.
    pub margin_weight: f64,
    /// Seed of the random playouts: the same seed gives the same search (with a node limit).
    pub seed: u64,
    /// Iterations when the limits give neither nodes nor time.
    pub default_iterations: u64,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: 0.7,
            playout: Playout::Greedy(80),
            margin_weight: 0.01,
            seed: 0x6d63_7473,
            default_iterations: 200_000,
        }
    }
}

// `Eq` for `EngineConfig`: the floats are settings, compared bit for bit.
impl Eq for MctsConfig {}

/// Longest playout, in moves, before it is scored as it stands (R7 normally ends cycles sooner).
const MAX_PLAYOUT_MOVES: u32 = 400;
/// Iterations between clock checks and progress reports.
const CHECK_EVERY: u64 = 256;

#[derive(Clone, Copy)]
struct Node {
    pos: Position,
    /// Index of the first child; children are contiguous. 0 when not expanded.
    first_child: u32,
    children: u8,
    /// The move from the parent (ring index).
    hole: u8,
    /// Stones the move from the parent captured.
    captured: u8,
    /// True when the game ends here (empty board, or R7 repetition on the path).
    terminal: bool,
    visits: u32,
    /// Sum of rewards for the player who moved into this node.
    reward: f64,
    /// Sum of future capture differences (from this node on, including the move into it) for the
    /// player who moved into this node.
    diff: f64,
}

impl Node {
    fn new(pos: Position, hole: u8, captured: u8, terminal: bool) -> Node {
        Node { pos, first_child: 0, children: 0, hole, captured, terminal, visits: 0, reward: 0.0, diff: 0.0 }
    }
}

/// A playout's end from the given start: the capture difference it made for each player.
fn playout(start: Position, rng: &mut SplitMix64, policy: Playout, keys: &mut Vec<u128>) -> Position {
    let mut p = start;
    keys.clear();
    for _ in 0..MAX_PLAYOUT_MOVES {
        let legal = p.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = match policy {
            Playout::Greedy(pct) if rng.below(100) < u32::from(pct) => {
                let board = p.board();
                let best = legal.map(|m| (capture_of(&board, m.hole().index()), m)).max_by_key(|x| x.0);
                match best {
                    Some((c, m)) if c > 0 => m,
                    _ => legal.nth_move(rng.below(legal.len() as u32) as usize).expect("i < len"),
                }
            }
            _ => legal.nth_move(rng.below(legal.len() as u32) as usize).expect("i < len"),
        };
        let (next, taken) = p.play_counting(mv);
        p = next;
        if taken > 0 {
            keys.clear();
        } else {
            let k = p.repetition_key();
            // R7 ends the game on the third occurrence; two earlier ones mean this is it.
            if keys.iter().filter(|&&x| x == k).take(2).count() == 2 {
                break;
            }
            keys.push(k);
        }
    }
    p
}

fn result_for(end: Position, player: Player) -> f64 {
    match end.captured(player).cmp(&end.captured(player.other())) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    }
}

/// The most tree nodes that fit in `memory_mb` MiB (at least the root and its children).
fn tree_capacity(memory_mb: usize) -> usize {
    (memory_mb.saturating_mul(1 << 20) / std::mem::size_of::<Node>()).max(1 + 6)
}

/// Runs UCT on the current position of `game` until the node (iteration) limit, the time budget or
/// `stop`. Node counts are iterations (one playout each). The tree takes at most `memory_mb` MiB
/// (the engine's Hash size): once full it grows no more, and the playouts go on from its leaves.
pub(crate) fn search(
    game: &Game,
    limits: &crate::Limits,
    stop: &Stop,
    cfg: &MctsConfig,
    memory_mb: usize,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    grow(game, limits, stop, cfg, memory_mb, on_info).0
}

/// [`search`], also giving the number of tree nodes it made.
fn grow(
    game: &Game,
    limits: &crate::Limits,
    stop: &Stop,
    cfg: &MctsConfig,
    memory_mb: usize,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> (SearchResult, usize) {
    let start = Instant::now();
    let budget = TimeBudget::from_limits(limits);
    let capacity = tree_capacity(memory_mb);
    // Visit counts are u32: a search ends before they could overflow (hours of playouts).
    let max_iter = limits
        .nodes
        .unwrap_or(if budget.hard.is_some() { u64::MAX } else { cfg.default_iterations })
        .min(u64::from(u32::MAX - 1));
    let history: Vec<u128> = game.since_last_capture().iter().map(|p| p.repetition_key()).collect();
    let root_pos = game.position();
    let mut nodes = vec![Node::new(root_pos, 0, 0, false)];
    let mut rng = SplitMix64(cfg.seed);
    let mut scratch = Vec::new();
    let mut path: Vec<u32> = Vec::new();
    let mut keys: Vec<u128> = Vec::new();
    let mut iterations = 0u64;
    let mut max_depth = 0usize;
    let mut next_report = 1u64;
    while iterations < max_iter.max(1) {
        // Select.
        path.clear();
        path.push(0);
        keys.clear();
        keys.extend_from_slice(&history);
        let mut cur = 0usize;
        loop {
            let n = nodes[cur];
            if n.terminal || n.children == 0 {
                break;
            }
            let ln_n = f64::from(n.visits.max(1)).ln();
            let mut best = (f64::NEG_INFINITY, 0usize);
            let first = n.first_child as usize;
            for (c, ch) in nodes.iter().enumerate().skip(first).take(n.children as usize) {
                let u = if ch.visits == 0 {
                    // Unvisited children first, in ring order (deterministic).
                    f64::INFINITY
                } else {
                    let v = f64::from(ch.visits);
                    ch.reward / v + cfg.exploration * (ln_n / v).sqrt()
                };
                if u > best.0 {
                    best = (u, c);
                }
            }
            cur = best.1;
            if nodes[cur].captured > 0 {
                keys.clear();
            }
            keys.push(nodes[cur].pos.repetition_key());
            path.push(cur as u32);
        }
        // Expand a visited leaf.
        let leaf = nodes[cur];
        let room = nodes.len() + 6 <= capacity;
        if !leaf.terminal && (leaf.visits > 0 || cur == 0) && leaf.children == 0 && room {
            let first = nodes.len() as u32;
            let mut count = 0u8;
            for m in leaf.pos.legal_moves() {
                let (c, k) = leaf.pos.play_counting(m);
                // R7 on the tree path (with the game's history): a repeated position ends the line.
                let key = c.repetition_key();
                let repeated = k == 0 && keys.contains(&key);
                nodes.push(Node::new(c, m.hole().index() as u8, k, c.is_game_over() || repeated));
                count += 1;
            }
            nodes[cur].first_child = first;
            nodes[cur].children = count;
            // Visit the first child now.
            cur = first as usize;
            path.push(cur as u32);
        }
        max_depth = max_depth.max(path.len() - 1);
        // Simulate.
        let node = nodes[cur];
        let end =
            if node.terminal { node.pos } else { playout(node.pos, &mut rng, cfg.playout, &mut scratch) };
        // Back up: each node's reward is for the player who moved into it (its parent's mover).
        for w in (1..path.len()).rev() {
            let (parent, child) = (path[w - 1] as usize, path[w] as usize);
            let mover = nodes[parent].pos.to_move();
            let diff = f64::from(end.capture_diff(mover) - nodes[parent].pos.capture_diff(mover));
            let n = &mut nodes[child];
            n.visits += 1;
            n.reward += result_for(end, mover) + cfg.margin_weight * diff;
            n.diff += diff;
        }
        nodes[0].visits += 1;
        iterations += 1;
        if iterations % CHECK_EVERY == 0 {
            if stop.is_stopped() || budget.hard.is_some_and(|h| start.elapsed() >= h) {
                break;
            }
            if iterations >= next_report {
                next_report = iterations * 2;
                on_info(&info(&nodes, iterations, max_depth, start));
            }
        }
    }
    let info = info(&nodes, iterations, max_depth, start);
    on_info(&info);
    let root = nodes[0];
    let mut moves: Vec<(u32, Move, i32)> = (root.first_child..root.first_child + u32::from(root.children))
        .map(|c| {
            let n = &nodes[c as usize];
            (
                n.visits,
                hole_move(n.hole),
                to_stones((100.0 * n.diff / f64::from(n.visits.max(1))).round() as i32),
            )
        })
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.0));
    let tree = nodes.len();
    (
        SearchResult { best: moves[0].1, info, moves: moves.into_iter().map(|(_, m, s)| (m, s)).collect() },
        tree,
    )
}

fn hole_move(h: u8) -> Move {
    Move(Hole::from_index(h as usize).expect("hole index < 12"))
}

/// The most-visited line, its mean capture difference and the tree's size as a [`SearchInfo`].
fn info(nodes: &[Node], iterations: u64, depth: usize, start: Instant) -> SearchInfo {
    let mut pv = Vec::new();
    let mut cur = 0usize;
    let mut score = 0;
    while nodes[cur].children > 0 {
        let f = nodes[cur].first_child as usize;
        let best = (f..f + nodes[cur].children as usize).max_by_key(|&c| nodes[c].visits).expect("children");
        if nodes[best].visits == 0 {
            break;
        }
        if cur == 0 {
            score = to_stones((100.0 * nodes[best].diff / f64::from(nodes[best].visits)).round() as i32);
        }
        pv.push(hole_move(nodes[best].hole));
        cur = best;
    }
    let elapsed = start.elapsed();
    SearchInfo {
        depth: depth as u32,
        score,
        exact: false,
        nodes: iterations,
        nps: (iterations as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
        elapsed,
        pv,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// However many playouts, the tree stays within its memory, and the search still ends in a
    /// legal move with a full line of play.
    #[test]
    fn the_tree_stays_within_its_memory() {
        let game = Game::new(Position::START);
        let limits = crate::Limits { nodes: Some(60_000), ..crate::Limits::default() };
        let (r, tree) = grow(&game, &limits, &Stop::new(), &MctsConfig::default(), 1, &mut |_| {});
        let cap = tree_capacity(1);
        assert!(tree <= cap && tree > cap / 2, "{tree} nodes in a tree of at most {cap}");
        assert!(Position::START.legal_moves().contains(r.best));
        assert_eq!(r.info.nodes, 60_000, "the playouts go on once the tree is full");
        let (_, big) = grow(&game, &limits, &Stop::new(), &MctsConfig::default(), 64, &mut |_| {});
        assert!(big > cap, "a bigger Hash lets the tree grow: {big}");
    }
}
