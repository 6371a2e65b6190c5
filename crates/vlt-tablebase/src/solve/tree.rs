//! The tree of one proof-number search: nodes with their proof and disproof numbers, in an arena
//! whose freed blocks are reused; the numbers of transpositions; what decided children prove; and
//! the path from the root (for R7's repetitions).

use super::bounds::KeyMap;
use vlt_core::Position;

/// Proof or disproof number of a decided node's other side.
pub(super) const INF: u32 = u32::MAX;
/// No index / no dependency.
pub(super) const NONE: u32 = u32::MAX;
/// At most six legal moves (R3: one per hole of the mover's row).
pub(super) const MAX_MOVES: usize = 6;

/// What a node's numbers say about its question ("can the mover force at least `t`?").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Status {
    /// Neither proved nor disproved yet (both numbers are positive).
    Open,
    /// The mover can (proof number 0).
    Proved,
    /// The mover cannot (disproof number 0).
    Disproved,
}

/// A node of the search tree.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) pos: Position,
    /// Cost (leaves to expand, estimated) to prove that the mover can force `t`; 0: proved.
    pub(super) pn: u32,
    /// Cost to prove that the mover cannot; 0: disproved.
    pub(super) dn: u32,
    /// Of a decided node: the depth of the shallowest ancestor whose repetition the decision uses
    /// (`NONE` when it uses none above itself: then it holds whatever the path).
    pub(super) dep: u32,
    pub(super) parent: u32,
    /// First child in the arena (`NONE`: not expanded, or decided).
    pub(super) first: u32,
    /// Distance from the root.
    pub(super) depth: u32,
    pub(super) t: i8,
    /// Of a decided node: what it proves about its position's value, a lower bound (`≥ t`) when
    /// true, an upper bound (`< t`) when false; its decision may show more than the threshold
    /// asked, and the stronger bound serves other thresholds.
    pub(super) b: i8,
    /// The child's mover is the parent's opponent: the edge is good for the parent when the child
    /// is false.
    pub(super) neg: bool,
    /// Number of children.
    pub(super) count: u8,
    /// The hints entry of this node's position and threshold reads this node's numbers (see
    /// [`Tree::hint`]).
    pub(super) owns: bool,
    /// Of a decided node, when profiling: the expanded nodes of its proof or refutation.
    pub(super) size: u32,
}

impl Node {
    /// An open node at `depth` asking whether the mover of `pos` can force `t`, before its first
    /// numbers are set.
    pub(super) fn leaf(pos: Position, t: i8, depth: u32) -> Node {
        Node {
            pos,
            pn: 1,
            dn: 1,
            dep: NONE,
            parent: NONE,
            first: NONE,
            depth,
            t,
            b: 0,
            neg: false,
            count: 0,
            size: 0,
            owns: false,
        }
    }

    pub(super) fn status(&self) -> Status {
        if self.pn == 0 {
            Status::Proved
        } else if self.dn == 0 {
            Status::Disproved
        } else {
            Status::Open
        }
    }

    pub(super) fn decided(&self) -> bool {
        self.status() != Status::Open
    }

    /// What proving the parent through this edge costs.
    pub(super) fn cost_true(&self) -> u32 {
        if self.neg { self.dn } else { self.pn }
    }

    /// What refuting this edge costs (the parent needs every edge refuted).
    pub(super) fn cost_false(&self) -> u32 {
        if self.neg { self.pn } else { self.dn }
    }

    pub(super) fn set(&mut self, value: bool, bound: i8, dep: u32) {
        debug_assert_eq!(value, bound >= self.t);
        (self.pn, self.dn) = if value { (0, INF) } else { (INF, 0) };
        self.b = bound;
        self.dep = dep;
    }

    /// For a decided child of a node with threshold `t`: the bound its decision puts on the value
    /// of the move to it, a lower bound when the move is good for the parent, else an upper bound.
    pub(super) fn edge_bound(&self, t: i8) -> i32 {
        let (t, tc, b) = (i32::from(t), i32::from(self.t), i32::from(self.b));
        // The stones the move took, from the child's threshold: k − t + 1 (opponent next) or
        // t − k (the same player again, R5); the move is worth k − v or k + v.
        if self.neg { (tc + t - 1) - b } else { (t - tc) + b }
    }
}

/// The latest numbers of an expanded node with a given position and threshold.
#[derive(Clone, Copy)]
pub(super) enum Hint {
    /// Those of this open node, which [`Node::owns`] the entry: read from the node itself.
    Open(u32),
    /// The last ones, of a node decided or freed since.
    Last(u32, u32),
}

/// The search tree: an arena of nodes whose children lie next to each other, with the blocks of
/// freed subtrees reused by size.
pub(super) struct Tree {
    pub(super) nodes: Vec<Node>,
    /// The latest numbers of expanded nodes by position and threshold.
    pub(super) hints: KeyMap<(u128, i8), Hint>,
    pub(super) free: [Vec<u32>; MAX_MOVES + 1],
}

impl Tree {
    /// A tree of one node, the root.
    pub(super) fn new(root: Node) -> Tree {
        Tree { nodes: vec![root], hints: KeyMap::default(), free: Default::default() }
    }

    pub(super) fn alloc(&mut self, kids: &[Node]) -> u32 {
        let first = match self.free[kids.len()].pop() {
            Some(f) => f,
            None => {
                let f = self.nodes.len() as u32;
                self.nodes.extend_from_slice(kids);
                return f;
            }
        };
        self.nodes[first as usize..first as usize + kids.len()].copy_from_slice(kids);
        first
    }

    /// Remembers an open node's numbers, which just changed, for the same position and threshold
    /// met elsewhere in the tree (a transposition): a better start than [`Solver::initial`]'s
    /// guess. Only open nodes: a decided node's numbers may rest on its path (a repetition), and a
    /// leaf must never start decided. The entry points at the node, so its numbers can change
    /// again without touching the map (which took a quarter of the solver's time when every change
    /// was written), until another node with the same key changes, or this one is decided or freed
    /// ([`Tree::release`]).
    pub(super) fn hint(&mut self, x: u32) {
        let n = self.nodes[x as usize];
        if n.decided() || n.owns {
            return;
        }
        if let Some(Hint::Open(y)) = self.hints.insert((n.pos.repetition_key(), n.t), Hint::Open(x)) {
            self.nodes[y as usize].owns = false;
        }
        self.nodes[x as usize].owns = true;
    }

    /// Node `x` is decided or freed: its entry keeps the numbers `(pn, dn)` it had last while open.
    pub(super) fn release(&mut self, x: u32, pn: u32, dn: u32) {
        let n = &mut self.nodes[x as usize];
        if n.owns {
            debug_assert!(pn != 0 && dn != 0, "an open node's numbers");
            n.owns = false;
            let key = (n.pos.repetition_key(), n.t);
            self.hints.insert(key, Hint::Last(pn, dn));
        }
    }

    /// The latest numbers of an expanded node with this position and threshold, if any.
    pub(super) fn hinted(&self, key: u128, t: i8) -> Option<(u32, u32)> {
        match *self.hints.get(&(key, t))? {
            Hint::Open(y) => {
                let n = &self.nodes[y as usize];
                debug_assert!(n.owns && !n.decided() && n.t == t && n.pos.repetition_key() == key);
                Some((n.pn, n.dn))
            }
            Hint::Last(pn, dn) => Some((pn, dn)),
        }
    }

    /// Frees every descendant of `x` (decided: nothing below it is needed any more).
    pub(super) fn free_below(&mut self, x: u32) {
        let mut stack = vec![x];
        while let Some(y) = stack.pop() {
            let n = self.nodes[y as usize];
            if n.first == NONE {
                continue;
            }
            self.release(y, n.pn, n.dn);
            stack.extend(n.first..n.first + u32::from(n.count));
            self.free[n.count as usize].push(n.first);
            self.nodes[y as usize].first = NONE;
        }
    }

    /// The child of expanded node `x` to descend into: one that proves it most cheaply, and among
    /// those the one nearest its refutation. Proof numbers tie often (leaves share their terms,
    /// and a node inherits its cheapest child's number); the proof and disproof numbers together
    /// point at the leaf whose expansion settles most, and on 600 positions of 24 stones this
    /// tie-break saved 5–6 % of the nodes (docs/tablebase.md). Among full ties, the
    /// first (the biggest capture).
    pub(super) fn most_proving_child(&self, x: u32) -> u32 {
        let n = self.nodes[x as usize];
        let kids = n.first..n.first + u32::from(n.count);
        kids.min_by_key(|&c| {
            let c = &self.nodes[c as usize];
            (c.cost_true(), c.cost_false())
        })
        .expect("an expanded node has children")
    }

    /// Recomputes an expanded node's numbers from its children; true when they changed.
    pub(super) fn recompute(&mut self, x: u32) -> bool {
        let n = self.nodes[x as usize];
        let (mut pn, mut dn) = (INF, 0u32);
        for c in &self.nodes[n.first as usize..(n.first + u32::from(n.count)) as usize] {
            pn = pn.min(c.cost_true());
            dn = add(dn, c.cost_false());
        }
        if pn == 0 {
            dn = INF;
        }
        let node = &mut self.nodes[x as usize];
        let changed = (pn, dn) != (node.pn, node.dn);
        (node.pn, node.dn) = (pn, dn);
        changed
    }

    /// The size of a node's proof (it is proved) or refutation from its decided children: itself,
    /// plus its cheapest good child, or plus every child.
    pub(super) fn proof_size(&self, x: u32) -> u32 {
        let n = self.nodes[x as usize];
        let kids = &self.nodes[n.first as usize..(n.first + u32::from(n.count)) as usize];
        let below = if n.status() == Status::Proved {
            kids.iter().filter(|c| c.cost_true() == 0).map(|c| c.size).min().unwrap_or(0)
        } else {
            kids.iter().fold(0u32, |a, c| a.saturating_add(c.size))
        };
        below.saturating_add(1)
    }

    /// The dependency and bound of a node decided by its children.
    pub(super) fn decided_by(&self, x: u32) -> (u32, i32) {
        let n = self.nodes[x as usize];
        conclude(
            n.status() == Status::Proved,
            n.t,
            &self.nodes[n.first as usize..(n.first + u32::from(n.count)) as usize],
        )
    }
}

/// What the decided children `kids` of a node with threshold `t` prove about it: the dependency and
/// the bound. A proof needs one good child (the least dependent one, then the best bound); a
/// disproof needs every child, the best of them bounding the node from above.
pub(super) fn conclude(proved: bool, t: i8, kids: &[Node]) -> (u32, i32) {
    if proved {
        let good = kids.iter().filter(|c| c.cost_true() == 0);
        good.map(|c| (c.dep, c.edge_bound(t))).max().expect("a good child")
    } else {
        let dep = kids.iter().map(|c| c.dep).min().unwrap_or(NONE);
        (dep, kids.iter().map(|c| c.edge_bound(t)).max().expect("a child"))
    }
}

/// The positions on the path from the root to the current node, by depth, as their repetition
/// keys and stone counts.
pub(super) type Path = Vec<(u128, u32)>;

pub(super) fn path_entry(pos: Position) -> (u128, u32) {
    (pos.repetition_key(), pos.stones_on_board())
}

/// The depth at which `pos`, reached from the path's last node by a quiet move, stands on the
/// path, if it does. Quiet moves keep the stones on the board and captures lower them, so only the
/// end of the path with the last node's stone count can hold it: a short scan, cheaper than a hash
/// map. (A capture never leads back onto the path.)
pub(super) fn repetition(on_path: &Path, pos: Position) -> Option<u32> {
    let (key, stones) = (pos.repetition_key(), on_path.last()?.1);
    let mut same_layer = on_path.iter().rev().take_while(|e| e.1 == stones);
    let back = same_layer.position(|e| e.0 == key)?;
    Some((on_path.len() - 1 - back) as u32)
}

/// Proof-number sum: saturates below `INF`, which only a refuted edge contributes.
pub(super) fn add(a: u32, b: u32) -> u32 {
    if a == INF || b == INF { INF } else { a.saturating_add(b).min(INF - 1) }
}
