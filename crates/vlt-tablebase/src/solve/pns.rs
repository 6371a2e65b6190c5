//! One threshold test as a single best-first proof-number search over every layer beyond the tables.
//!
//! A node `(P, t)` asks "can the player to move in `P` force a future capture difference of at least
//! `t`?". Each node is an OR node from its mover's side: a move capturing `k` into `P'` with the
//! opponent next is good when the opponent cannot force `k − t + 1` in `P'` (a negated child); with
//! the same player next (R5) when the mover can force `t − k` in `P'` (a plain child); a quiet move
//! is the case `k = 0`. Children that the tables, the trivial bounds `|value| ≤ stones on board`
//! or the proved bounds settle are decided when their parent is expanded. A child whose position
//! is on the path from the root is a repetition: endless play scores 0 (R7), so it is true exactly
//! when `t ≤ 0`.
//!
//! **Graph-history interaction.** The search is a tree (each node has one path), so a repetition is
//! judged against that node's own path and every decision inside the tree is right *for that path*.
//! A decided node records the depth of the shallowest ancestor whose repetition its argument uses
//! (`dep`). Only a node whose argument uses no ancestor above itself is path-independent; only those
//! become proved bounds, shared across tests, thresholds and mirror images. Why a decision with
//! `dep ≥` its own depth is right with any history: a repetition is a win for the player for whom
//! endless play is good enough (the *defender*, who needs ≤ 0); the attacker's proofs never contain
//! a repetition (they follow captures), and a defender's argument whose repetitions are all of
//! positions inside it is a strategy that keeps play inside it for ever or leaves through a capture
//! that does not reach the threshold: the least fixed point of the layer's reachability game, as in
//! the builder (docs/tablebase.md). Repetitions happen only on quiet moves, inside one layer, so a
//! capture child never depends on anything above it.
//!
//! The tree keeps only undecided nodes' children: a decided node's subtree is freed at once.

use super::bounds::bounds_key;
use super::tree::{MAX_MOVES, NONE, Node, Path, Status, Tree, conclude, path_entry, repetition};
use super::{SolveError, Solver};
use vlt_core::sowing::capture_of;
use vlt_core::{HOLES, Hole, Player, Position};

/// A leaf's initial proof (disproof) number is multiplied by this for every stone by which its
/// threshold lies above (below) the solver's estimate of its value: a test costs about half as
/// much for every two stones it lies from the value on its easy side (docs/tablebase.md).
const THRESHOLD_BASE: f32 = 1.5;
/// With the estimate, the threshold base's excess over 1 grows by this share for every stone a leaf
/// has above the tables' edge (from 1.5 one stone above to 1.75 six above): higher up a test that
/// misses the value by a stone opens a bigger game, so the numbers should part faster.
/// Measured on 24-stone positions over 18-stone tables (with [`ESTIMATE_STRETCH`]): medians −4 to
/// −7 % on four samples of 100 (docs/solver.md).
const THRESHOLD_SLOPE_PER_STONE: f32 = 0.1;
/// The threshold base stops steepening this many stones above the tables, so that far above them
/// the numbers still differ by their thresholds before [`MAX_INITIAL`] cuts them.
const MAX_SLOPE_HEIGHT: u32 = 6;
/// The estimate is stretched by this factor away from 0 before it centres the threshold term: a
/// least-squares fit shrinks its predictions towards the mean, and values far from 0 are
/// underestimated.
const ESTIMATE_STRETCH: f32 = 1.15;
/// The same without an estimate, from the middle of the proved bounds: a poor guess of the value,
/// so a gentler slope.
const THRESHOLD_BASE_BLIND: f32 = 1.15;
/// Initial numbers are multiplied by this for every stone a leaf has above the tables: the game
/// below it grows about geometrically with them. Tuned together with the descent's tie-break by
/// disproof numbers (which favours deeper leaves less than the proof numbers alone).
const HEIGHT_BASE: f32 = 1.9;
/// The initial numbers of a leaf on the tables' edge whose threshold lies at its estimate (they are
/// rounded to integers, so not 1).
const UNIT: f32 = 4.0;
/// A leaf's initial proof number is multiplied by this for every one of its mover's moves that
/// captures: a capture leads towards the tables, so a proof with captures to choose from is
/// smaller. Fitted on the sizes of the proofs found at 24 stones over 18-stone tables (log size
/// falls by about 0.37 a capturing move), then tuned with [`CAPTURE_DISPROOF`]: medians −6 to
/// −18 % on six samples of 100 (docs/solver.md).
const CAPTURE_PROOF: f32 = 0.9;
/// The same for the initial disproof number: a refutation must answer every move, and a capture's
/// answer lies nearer the tables (log size −0.43 a capturing move in the same fit).
const CAPTURE_DISPROOF: f32 = 0.8;
/// A leaf's initial proof number is multiplied by this for every non-empty hole in the opponent's
/// row: each is a reply the proof may have to answer after the mover's move. Fitted (log proof
/// size +0.17 a hole in the fit of [`CAPTURE_PROOF`]), then tuned on its own: medians −2 to −5 %
/// on six samples of 100 (docs/solver.md). The same factor on the disproof number (0.9) costs
/// nodes.
const OPPONENT_HOLE_PROOF: f32 = 1.05;
/// A leaf's initial proof number is multiplied by this (on top of [`CAPTURE_PROOF`]) for every
/// capture of its mover that reaches the tables: that move's answer is known when the leaf is
/// expanded, so a proof through it ends there. Tuned on two samples of 100 and held out on four:
/// 24-stone medians −2 to −6 % on five of six samples and the same on the sixth (docs/solver.md);
/// the same idea on the disproof number (0.8 to 1.25) costs nodes.
const TABLE_CAPTURE_PROOF: f32 = 0.8;
/// A leaf's initial disproof number is multiplied by this for every move of the opponent that
/// would capture were it to move now: a refutation answers the mover's moves, and a threat that
/// survives the move is an answer towards the tables. Tuned on two samples of 100 (0.8 and 0.7
/// gained less, 1.1 cost 8–12 %) and held out on four: 24-stone totals −3 to −6 % on all six, medians
/// 0 to −6 % (docs/solver.md); the same idea on the proof number (0.9, 1.1) costs nodes.
const OPPONENT_CAPTURE_DISPROOF: f32 = 0.9;
/// A leaf's initial proof number is multiplied by this for every empty hole on the board: a
/// sowing that ends in an empty hole captures (R4), so empty holes are captures to come and a
/// proof has ways down towards the tables. Tuned on two samples of 100 (0.9 and 0.85 gained less,
/// 1.05 cost 1–5 %) and held out on four: 24-stone medians −3 % on average over the six, totals
/// −2 % to +1 % (docs/solver.md); the same factor on the disproof number (0.95, 1.05) gave nothing.
const EMPTY_HOLE_PROOF: f32 = 0.95;
/// Larger initial numbers are cut to this (far below [`INF`](super::tree::INF), which only decided nodes have).
const MAX_INITIAL: f32 = 1e9;
/// The height term stops growing this many stones above the tables, so that the numbers of a
/// position far above them (which no search reaches the bottom of anyway) still differ by their
/// thresholds instead of all being cut to [`MAX_INITIAL`].
const MAX_HEIGHT: u32 = 20;

impl Solver<'_> {
    /// Whether the mover of `root` can force a future capture difference of at least `t`, by one
    /// proof-number search across all layers beyond the tables.
    pub(super) fn pns(&mut self, root: Position, t: i8) -> Result<bool, SolveError> {
        self.stats.tests += 1;
        let stones = root.stones_on_board();
        let mut tree = Tree::new(Node::leaf(root, t, 0));
        // The positions on the path from the root to `cur`, by depth (R7 repetitions).
        let mut on_path: Path = vec![path_entry(root)];
        let mut cur = 0u32;
        loop {
            // Down to the most-proving leaf: at each node the child that proves it most cheaply
            // (ties: the one nearest its refutation).
            while tree.nodes[cur as usize].first != NONE {
                cur = tree.most_proving_child(cur);
                let c = tree.nodes[cur as usize];
                debug_assert_eq!(c.depth as usize, on_path.len());
                on_path.push(path_entry(c.pos));
            }
            self.expand(&mut tree, cur, &on_path, stones)?;
            // Back up: ancestors change until one does not; the next descent starts there.
            let mut x = cur;
            loop {
                let (pn, dn) = (tree.nodes[x as usize].pn, tree.nodes[x as usize].dn);
                let changed = x == cur || tree.recompute(x);
                if changed && x != cur {
                    tree.hint(x);
                }
                if tree.nodes[x as usize].decided() {
                    tree.release(x, pn, dn);
                    self.finish(&mut tree, x);
                }
                if x == 0 || !changed {
                    break;
                }
                on_path.pop();
                x = tree.nodes[x as usize].parent;
            }
            cur = x;
            if tree.nodes[0].decided() {
                if self.proof_sizes.is_some() {
                    self.stats.proof_nodes += u64::from(tree.nodes[0].size);
                }
                return Ok(tree.nodes[0].status() == Status::Proved);
            }
        }
    }

    /// A decided node: its dependency, the bound it proves when it holds on every path, and its
    /// subtree freed.
    fn finish(&mut self, tree: &mut Tree, x: u32) {
        let s = tree.nodes[x as usize].pos.stones_on_board() as i8;
        if tree.nodes[x as usize].first != NONE {
            let (dep, b) = tree.decided_by(x);
            if self.proof_sizes.is_some() {
                tree.nodes[x as usize].size = tree.proof_size(x);
            }
            let n = &mut tree.nodes[x as usize];
            n.dep = dep;
            n.b = b.clamp(-i32::from(s), i32::from(s)) as i8;
            debug_assert_eq!(n.status() == Status::Proved, n.b >= n.t);
            tree.free_below(x);
        }
        let n = &mut tree.nodes[x as usize];
        if n.dep != NONE && n.dep < n.depth {
            self.stats.path_dependent += 1;
            return; // rests on a repetition of an ancestor: right on this path only
        }
        n.dep = NONE;
        let (pos, b, proved) = (n.pos, n.b, n.status() == Status::Proved);
        if let Some(sizes) = &mut self.proof_sizes {
            sizes.insert(bounds_key(pos), n.size);
        }
        if proved { self.learn(pos, b, s) } else { self.learn(pos, -s, b) }
    }

    /// When profiling: the size of the proof behind `pos`'s proved bound (0 for the tables).
    fn reused_proof_size(&self, pos: Position) -> u32 {
        self.proof_sizes.as_ref().and_then(|m| m.get(&bounds_key(pos)).copied()).unwrap_or(0)
    }

    /// Whether the tables or the proved bounds settle `(pos, t)`, with the bound that does.
    pub(super) fn known(&mut self, pos: Position, t: i8) -> Option<(bool, i8)> {
        if let Some(v) = self.tb.probe(pos) {
            self.stats.probes += 1;
            return Some((v >= i32::from(t), v as i8));
        }
        let (lo, hi) = self.bounds_of(pos);
        if lo >= t {
            Some((true, lo))
        } else if hi < t {
            Some((false, hi))
        } else {
            None
        }
    }

    /// Expands leaf `x`: generates its moves and makes them children, deciding at once those the
    /// tables, the bounds or a repetition settle (and `x` itself when one of them does).
    fn expand(
        &mut self,
        tree: &mut Tree,
        x: u32,
        on_path: &Path,
        root_stones: u32,
    ) -> Result<(), SolveError> {
        let node = tree.nodes[x as usize];
        let (pos, t) = (node.pos, node.t);
        // Another branch may have proved a bound on this position since the node was made.
        if let Some((v, b)) = self.known(pos, t) {
            tree.nodes[x as usize].set(v, b, NONE);
            tree.nodes[x as usize].size = self.reused_proof_size(pos);
            return Ok(());
        }
        self.count_node(pos, pos.stones_on_board() < root_stones)?;
        let mover = pos.to_move();
        let mut kids = [node; MAX_MOVES];
        let mut taken = [0u8; MAX_MOVES];
        // Of each open child: its mover's number of moves, and the numbers of a transposition.
        let mut opened = [None; MAX_MOVES];
        let mut len = 0;
        for m in pos.legal_moves() {
            let (c, k, moves) = pos.play_with_moves(m);
            let mut kid = Node {
                pos: c,
                parent: x,
                first: NONE,
                depth: node.depth + 1,
                count: 0,
                size: 0,
                owns: false,
                ..node
            };
            if c.is_game_over() {
                // The move's value is its capture (R6): as a child worth exactly 0 after it.
                (kid.t, kid.neg) = (t - k as i8, false);
                kid.set(0 >= kid.t, 0, NONE);
            } else {
                let k = k as i8;
                // R5: the same player moves again, or the opponent moves next.
                (kid.t, kid.neg) = if c.to_move() == mover { (t - k, false) } else { (k - t + 1, true) };
                if let Some((v, b)) = self.known(c, kid.t) {
                    kid.set(v, b, NONE);
                    kid.size = self.reused_proof_size(c);
                } else if let Some(d) = (k == 0).then(|| repetition(on_path, c)).flatten() {
                    // R7: endless play scores 0 for the rest of the game.
                    kid.set(kid.t <= 0, 0, d);
                    self.stats.repetitions += 1;
                } else {
                    // Open: its numbers come below, unless a sure move makes them needless. A fit
                    // records the leaves that need an estimate, whether or not it is asked.
                    let hint = tree.hinted(c.repetition_key(), kid.t);
                    if let (None, Some(leaves)) = (hint, &mut self.leaves) {
                        leaves.push(c);
                    }
                    opened[len] = Some((moves.len() as u32, hint));
                }
            }
            kids[len] = kid;
            taken[len] = k;
            len += 1;
        }
        // A good move that holds whatever the path: nothing else is needed (the best such move
        // gives the bound).
        let sure: Vec<Node> =
            kids[..len].iter().copied().filter(|c| c.cost_true() == 0 && c.dep == NONE).collect();
        if !sure.is_empty() {
            // A quarter of all expansions end here: skipping the open children's estimates saves
            // about a tenth of the time.
            let (_, b) = conclude(true, t, &sure);
            let s = i32::from(pos.stones_on_board() as i8);
            tree.nodes[x as usize].set(true, b.clamp(-s, s) as i8, NONE);
            tree.nodes[x as usize].size = 1 + sure.iter().map(|c| c.size).min().unwrap_or(0);
            return Ok(());
        }
        // One good move proves a node, all its moves are needed to refute it.
        for (kid, open) in kids[..len].iter_mut().zip(opened) {
            if let Some((moves, hint)) = open {
                (kid.pn, kid.dn) = hint.unwrap_or_else(|| self.initial(kid.pos, kid.t, moves));
            }
        }
        // Among equally promising children, the biggest capture first.
        let mut order: [usize; MAX_MOVES] = [0, 1, 2, 3, 4, 5];
        order[..len].sort_by_key(|&i| std::cmp::Reverse(taken[i]));
        let sorted: Vec<Node> = order[..len].iter().map(|&i| kids[i]).collect();
        let first = tree.alloc(&sorted);
        let n = &mut tree.nodes[x as usize];
        n.first = first;
        n.count = len as u8;
        tree.recompute(x);
        tree.hint(x);
        Ok(())
    }

    /// Initial proof and disproof numbers of a new leaf `(pos, t)` whose mover has `moves` moves.
    ///
    /// Cheap signs of how hard a node is: one good move proves it, all its moves are needed to
    /// refute it (mobility); a threshold above what the position is estimated to be worth is hard
    /// to reach, one below easy, by a factor [`THRESHOLD_BASE`] a stone (the estimate is the
    /// solver's [`Estimator`](super::estimate::Estimator), kept within the proved bounds, or
    /// without one the middle of those bounds); a position with more stones above the tables
    /// has a bigger game below it ([`HEIGHT_BASE`] a stone), which makes captures look cheaper
    /// than quiet moves; and each capture the leaf's mover can make shortens both its proof and
    /// its refutation ([`CAPTURE_PROOF`], [`CAPTURE_DISPROOF`]), a proof the more when the
    /// capture reaches the tables ([`TABLE_CAPTURE_PROOF`]); each reply the opponent has
    /// lengthens its proof ([`OPPONENT_HOLE_PROOF`]) and each capture it threatens shortens its
    /// refutation ([`OPPONENT_CAPTURE_DISPROOF`]); each empty hole, a capture to come, shortens a
    /// proof ([`EMPTY_HOLE_PROOF`]). Geometric terms replaced linear
    /// ones (`1 + distance`, `1 + 6 × height`): on 300 positions of 24 stones over 18-stone
    /// tables, 12 % fewer nodes (geometric mean); docs/tablebase.md says how the bases were chosen.
    fn initial(&self, pos: Position, t: i8, moves: u32) -> (u32, u32) {
        let (lo, hi) = self.bounds_of(pos);
        // Unrounded: a fraction of a stone orders leaves that would otherwise tie (1 % fewer
        // nodes than the rounded estimate).
        let above = pos.stones_on_board().saturating_sub(self.tb.max_stones()).min(MAX_HEIGHT);
        let (mid, base) = match self.estimator {
            Some(e) => {
                let steeper =
                    THRESHOLD_SLOPE_PER_STONE * above.clamp(1, MAX_SLOPE_HEIGHT).saturating_sub(1) as f32;
                let mid = (e.value(pos) * ESTIMATE_STRETCH).clamp(f32::from(lo), f32::from(hi));
                (mid, 1.0 + (THRESHOLD_BASE - 1.0) * (1.0 + steeper))
            }
            None => (((i32::from(lo) + i32::from(hi)) / 2) as f32, THRESHOLD_BASE_BLIND),
        };
        let t = f32::from(t);
        let unit = UNIT * HEIGHT_BASE.powi(above as i32);
        let board = pos.board();
        let stones = pos.stones_on_board();
        let (mut captures, mut into_tables) = (0, 0);
        for m in pos.legal_moves() {
            let k = capture_of(&board, m.hole().index());
            if k > 0 {
                captures += 1;
                into_tables += i32::from(stones - k <= self.tb.max_stones());
            }
        }
        let pn = unit * base.powf((t - mid).max(0.0)) * CAPTURE_PROOF.powi(captures);
        let dn = moves as f32 * unit * base.powf((mid + 1.0 - t).max(0.0)) * CAPTURE_DISPROOF.powi(captures);
        let opponent = pos.to_move().other();
        let threats = threats(&board, opponent);
        let replies =
            Hole::ALL.iter().filter(|&&h| h.owner() == opponent && pos.stones(h) > 0).count() as i32;
        let pn = pn * OPPONENT_HOLE_PROOF.powi(replies) * TABLE_CAPTURE_PROOF.powi(into_tables);
        let dn = dn * OPPONENT_CAPTURE_DISPROOF.powi(threats);
        let empty = board.iter().filter(|&&c| c == 0).count() as i32;
        let pn = pn * EMPTY_HOLE_PROOF.powi(empty);
        // At least 1: a leaf is never decided.
        let round = |x: f32| (x.min(MAX_INITIAL) as u32).max(1);
        (round(pn), round(dn))
    }
}

/// The moves of `player` that would capture on `board` were it to move (R4, without sowing).
fn threats(board: &[u8; HOLES], player: Player) -> i32 {
    Hole::ALL.iter().filter(|h| h.owner() == player && capture_of(board, h.index()) > 0).count() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::build_in_memory;
    use crate::probe::Tablebase;
    use vlt_core::ByPlayer;

    /// The threat count agrees with playing every move of the player (R4's sowing and chain).
    #[test]
    fn threats_are_the_moves_that_capture() {
        let mut rng = vlt_core::playout::SplitMix64(7);
        let mut seen = 0;
        // Holes of 12 (always captures) and 13 (never), which greedy games rarely hold.
        let big = [[12, 0, 0, 0, 0, 0, 13, 1, 0, 0, 0, 0], [0, 13, 2, 0, 0, 1, 0, 12, 0, 0, 3, 0]];
        let big = big.map(|b| Position::new(b, Player::B, ByPlayer { b: 0, a: 0 }).expect("valid"));
        for n in 1..=40 {
            for pos in (0..50).filter_map(|_| vlt_core::playout::greedy_position(n, &mut rng)).chain(big) {
                for player in [Player::A, Player::B] {
                    let played = Position::new(pos.board(), player, pos.captures())
                        .ok()
                        .filter(|q| q.to_move() == player)
                        .map_or(0, |q| q.legal_moves().filter(|&m| q.play_counting(m).1 > 0).count());
                    assert_eq!(threats(&pos.board(), player), played as i32, "{pos} {player:?}");
                    seen += usize::from(played > 0);
                }
            }
        }
        assert!(seen > 500, "{seen} positions with a threat");
    }

    /// The rules' R7 cycle: 12 positions, each followed by the next through a quiet move.
    fn cycle() -> Vec<Position> {
        let mut pos: Position = "1,0,1,0,1,0/1,2,0,1,2,0 A 25 26".parse().expect("position");
        let mut out = Vec::new();
        for mv in ["5A", "1B", "2A", "3B", "4A", "5B", "6A", "2B", "1A", "4B", "3A", "6B"] {
            out.push(pos);
            pos = pos.play(mv.parse().expect("move")).expect("legal");
        }
        out
    }

    /// Expanding the last position of the cycle, with the cycle as its path: the quiet move back to
    /// the first position is a repetition, scored 0 (R7) and marked as resting on depth 0.
    #[test]
    fn a_move_back_onto_the_path_is_a_repetition_worth_0() {
        let tb = Tablebase::from_layers(build_in_memory(5));
        let cyc = cycle();
        let on_path: Path = cyc.iter().map(|&p| path_entry(p)).collect();
        for t in [1i8, 0] {
            let mut solver = Solver::new(&tb, u64::MAX);
            let mut tree = Tree::new(Node::leaf(cyc[11], t, 11));
            solver.expand(&mut tree, 0, &on_path, 9).expect("within the limit");
            assert_eq!(solver.stats.repetitions, 1);
            let x = tree.nodes[0];
            assert_ne!(x.first, NONE, "the node stays open: its other moves are not settled");
            let kids = &tree.nodes[x.first as usize..(x.first + u32::from(x.count)) as usize];
            let back = kids.iter().find(|c| c.pos.repetition_key() == cyc[0].repetition_key()).expect("6B");
            // The opponent moves next: its threshold is 1 − t, and endless play gives it 0.
            assert!(back.neg && back.t == 1 - t && back.dep == 0 && back.b == 0);
            assert_eq!(back.status() == Status::Proved, back.t <= 0);
        }
    }

    /// Far above the tables the initial numbers still grow with the threshold's distance from the
    /// estimate (the height term stops at [`MAX_HEIGHT`] instead of cutting every leaf's numbers
    /// to [`MAX_INITIAL`]).
    #[test]
    fn far_above_the_tables_thresholds_still_differ() {
        let tb = Tablebase::from_layers(build_in_memory(2));
        let mut solver = Solver::new(&tb, u64::MAX);
        solver.set_estimator(None); // the estimate is then the middle of the bounds ±48: 0
        let pos: Position = "4,4,4,4,4,4/4,4,4,4,4,4 A 6 6".parse().expect("position");
        let pn = |s: &mut Solver, t| s.initial(pos, t, 6).0;
        let dn = |s: &mut Solver, t| s.initial(pos, t, 6).1;
        let (p1, p15, p20) = (pn(&mut solver, 1), pn(&mut solver, 15), pn(&mut solver, 20));
        assert!(p1 < p15 && p15 < p20, "{p1} {p15} {p20}");
        assert!(dn(&mut solver, -20) > dn(&mut solver, -15));
        assert!(f64::from(p20) < f64::from(MAX_INITIAL), "{p20}");
    }

    /// What a decision rests on: a proof takes its least dependent good child, a disproof every
    /// child; only a decision resting on nothing above its own node becomes a bound.
    #[test]
    fn path_dependent_decisions_are_not_kept() {
        let tb = Tablebase::from_layers(build_in_memory(5));
        let cyc = cycle();
        let mut solver = Solver::new(&tb, u64::MAX);
        // A node at depth 3 (threshold 1) whose children are all refuted, one of them by a
        // repetition of the position at depth 1.
        let mut kids = [Node::leaf(cyc[5], 0, 4), Node::leaf(cyc[6], 0, 4)];
        kids[0].neg = true;
        kids[0].set(true, 0, 1); // the opponent holds 0 by repeating depth 1
        kids[1].neg = true;
        kids[1].set(true, 3, NONE); // the opponent can force 3
        assert_eq!(conclude(false, 1, &kids), (1, 0), "rests on depth 1; worth at most 0 to the node");
        let mut tree = Tree::new(Node::leaf(cyc[4], 1, 3));
        let first = tree.alloc(&kids);
        tree.nodes[0].first = first;
        tree.nodes[0].count = 2;
        assert!(tree.recompute(0) && tree.nodes[0].status() == Status::Disproved);
        solver.finish(&mut tree, 0);
        assert_eq!(solver.stats.path_dependent, 1);
        assert_eq!(solver.bounds_of(cyc[4]), (-9, 9), "nothing learned");
        // The same refutation with the repetition at the node's own depth holds on every path.
        tree.nodes[0].depth = 1;
        tree.nodes[0].first = tree.alloc(&kids);
        solver.finish(&mut tree, 0);
        assert_eq!(solver.stats.path_dependent, 1);
        assert_eq!(solver.bounds_of(cyc[4]), (-9, 0));
        // A proof picks the good child that rests on nothing, and its bound.
        let mut good = kids;
        good[0].set(false, -1, 1);
        good[1].set(false, -3, NONE);
        assert_eq!(conclude(true, 1, &good), (NONE, 3));
    }

    /// The descent takes the child that proves its parent most cheaply; between children that
    /// tie on that, the one nearest its refutation; between full ties, the first.
    #[test]
    fn the_most_proving_child_breaks_ties_by_the_disproof_number() {
        let cyc = cycle();
        let mut kids = [
            Node::leaf(cyc[1], 0, 1),
            Node::leaf(cyc[2], 0, 1),
            Node::leaf(cyc[3], 0, 1),
            Node::leaf(cyc[4], 0, 1),
        ];
        for (k, (pn, dn)) in kids.iter_mut().zip([(9, 1), (4, 30), (4, 7), (4, 7)]) {
            (k.pn, k.dn) = (pn, dn);
        }
        let mut tree = Tree::new(Node::leaf(cyc[0], 0, 0));
        let first = tree.alloc(&kids);
        tree.nodes[0].first = first;
        tree.nodes[0].count = 4;
        assert_eq!(tree.most_proving_child(0), first + 2);
        // A negated edge: proving the parent means refuting the child, so the roles swap.
        for c in first..first + 4 {
            let n = &mut tree.nodes[c as usize];
            n.neg = true;
            (n.pn, n.dn) = (n.dn, n.pn);
        }
        assert_eq!(tree.most_proving_child(0), first + 2);
        tree.nodes[first as usize + 1].pn = 6; // its refutation is now the cheaper one
        assert_eq!(tree.most_proving_child(0), first + 1);
    }

    /// A node that a sure move proves at once asks no estimates for its other children, but a
    /// solver recording leaves (for fitting an estimate) still records them, in move order, as
    /// when it asked: the leaves a fit sees do not depend on this saving.
    #[test]
    fn a_sure_move_skips_the_estimates_but_not_the_recorded_leaves() {
        let tb = Tablebase::from_layers(build_in_memory(8));
        let mut rng = vlt_core::playout::SplitMix64(5);
        let mut checked = 0;
        for _ in 0..200 {
            let Some(pos) = vlt_core::playout::greedy_position(11, &mut rng) else { continue };
            for t in -4..=4 {
                let mut solver = Solver::new(&tb, u64::MAX);
                solver.record_leaves(true);
                let mut tree = Tree::new(Node::leaf(pos, t, 0));
                solver.expand(&mut tree, 0, &vec![path_entry(pos)], 11).expect("within the limit");
                let sure = tree.nodes[0].status() == Status::Proved
                    && tree.nodes[0].first == NONE
                    && solver.stats.nodes == 1;
                if !sure {
                    continue;
                }
                // The children that are neither settled nor a repetition: those asked about.
                let mut open = Vec::new();
                for m in pos.legal_moves() {
                    let (c, k) = pos.play_counting(m);
                    let k = k as i8;
                    let ct = if c.to_move() == pos.to_move() { t - k } else { k - t + 1 };
                    if !c.is_game_over() && solver.known(c, ct).is_none() {
                        open.push(c);
                    }
                }
                assert_eq!(solver.take_leaves(), open, "{pos} t={t}");
                checked += usize::from(!open.is_empty());
            }
        }
        assert!(checked > 10, "{checked}");
    }
}
