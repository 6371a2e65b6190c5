//! Writing out the proof of a solved value as a [`Certificate`]: the solver's proved bounds and
//! threshold tests serve as an oracle that says which claims hold; a depth-first walk keeps, for
//! each claim, one good move (a lower bound) or every move (an upper bound), down to the tables,
//! the stones' bound or the end of the game.
//!
//! **Cycles (R7).** A claim that endless play satisfies may rest on a return to a position on the
//! walk's path (a back edge): endless play gives it 0. A claim that endless play does not satisfy
//! must make progress, so the walk never gives it a back edge; every cycle of a depth-first graph
//! has a back edge, so such claims end up on none. When all good moves of such a claim are back
//! edges, or lead only to claims that failed that way, the claim fails on this path: the walk
//! removes what it built below it and tries its parent's next move (with the tables' values a
//! good move that makes progress always exists, so the search is complete; it is rare).

use super::{SolveError, Solver};
use crate::certificate::{Certificate, Claim, MAX_NODES, Node, Proof, Step, Steps};
use std::collections::HashMap;
use vlt_core::{ByPlayer, Move, Position};

/// Where a certificate node stands in the walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// On the walk's path: its proof is being built.
    Open,
    /// Its proof is complete.
    Done,
}

/// One node being proved: its moves to try and what it has so far.
struct Frame {
    id: u32,
    /// Lower bounds: the candidate good moves, best first; upper bounds: every move.
    moves: Vec<Move>,
    at: usize,
    /// Of an upper bound: the steps of the moves done.
    steps: Vec<Step>,
    /// The move whose new node is being proved above this frame.
    pending: Option<Move>,
}

/// The graph being built.
struct Graph {
    nodes: Vec<Node>,
    state: Vec<State>,
    by_claim: HashMap<(u128, Claim), u32>,
}

/// What a move's claim leads to.
enum Resolved {
    /// A node whose proof is complete, or a permitted back edge.
    Done(u32),
    /// A new node to prove.
    New(u32),
    /// A back edge that the claim may not take.
    Blocked,
}

/// The claim the position after a move capturing `k` must satisfy (the move is worth `k + c` when
/// the mover moves again, R5, else `k − c`).
fn needed(claim: Claim, k: i8, same_mover: bool) -> Claim {
    match (claim, same_mover) {
        (Claim::AtLeast(a), true) => Claim::AtLeast(a - k),
        (Claim::AtLeast(a), false) => Claim::AtMost(k - a),
        (Claim::AtMost(b), true) => Claim::AtMost(b - k),
        (Claim::AtMost(b), false) => Claim::AtLeast(k - b),
    }
}

impl Solver<'_> {
    /// The exact value of `pos` with its proof: [`Solver::value`], then a certificate that
    /// [`check`](crate::certificate::check) accepts.
    ///
    /// # Errors
    /// [`SolveError::NodeLimit`] when the solve or the proof's claims exceed the limit,
    /// [`SolveError::CertificateTooLarge`], or [`SolveError::GameOver`] for an empty board.
    pub fn certificate(&mut self, pos: Position) -> Result<Certificate, SolveError> {
        if pos.is_game_over() {
            return Err(SolveError::GameOver);
        }
        let value = self.value(pos)?;
        let mut g = Graph { nodes: Vec::new(), state: Vec::new(), by_claim: HashMap::new() };
        let root = |s: &mut Solver<'_>, g: &mut Graph, claim| match s.resolve(g, pos, claim)? {
            Resolved::Done(id) => Ok(id),
            Resolved::New(id) => {
                if s.prove(g, id)? {
                    Ok(id)
                } else {
                    Err(SolveError::Unprovable)
                }
            }
            Resolved::Blocked => Err(SolveError::Unprovable),
        };
        let lower = root(self, &mut g, Claim::AtLeast(value as i8))?;
        let upper = root(self, &mut g, Claim::AtMost(value as i8))?;
        let tables = g
            .nodes
            .iter()
            .filter(|n| matches!(n.proof, Proof::Table(_)))
            .map(|n| n.pos.stones_on_board())
            .max()
            .unwrap_or(0);
        Ok(Certificate { root: pos, value, tables, lower, upper, nodes: g.nodes })
    }

    /// Whether `claim` holds of `pos` (the oracle: tables, bounds, else a threshold test).
    fn holds(&mut self, pos: Position, claim: Claim) -> Result<bool, SolveError> {
        match claim {
            Claim::AtLeast(a) => self.at_least(pos, a),
            Claim::AtMost(b) => Ok(!self.at_least(pos, b + 1)?),
        }
    }

    /// The leaf proof of `claim` about `pos`, when the tables or the stones give one.
    fn leaf(&self, pos: Position, claim: Claim) -> Option<Proof> {
        if let Some(v) = self.tb.probe(pos) {
            return claim.holds_for(v).then_some(Proof::Table(v as i8));
        }
        let s = pos.stones_on_board() as i32;
        (claim.holds_for(-s) && claim.holds_for(s)).then_some(Proof::Bound)
    }

    /// The node for `claim` about `pos`: an existing one, a new leaf, or a new node to prove.
    fn resolve(&mut self, g: &mut Graph, pos: Position, claim: Claim) -> Result<Resolved, SolveError> {
        let key = (pos.repetition_key(), claim);
        if let Some(&id) = g.by_claim.get(&key) {
            return Ok(match g.state[id as usize] {
                State::Done => Resolved::Done(id),
                State::Open if claim.accepts_endless_play() => Resolved::Done(id),
                State::Open => Resolved::Blocked,
            });
        }
        if g.nodes.len() as u64 >= MAX_NODES {
            return Err(SolveError::CertificateTooLarge(MAX_NODES));
        }
        let id = g.nodes.len() as u32;
        g.by_claim.insert(key, id);
        // The captures so far are no part of a value: nodes hold the board and the mover only.
        let pos = Position::new(pos.board(), pos.to_move(), ByPlayer::new(0, 0)).expect("a smaller total");
        let leaf = self.leaf(pos, claim);
        g.nodes.push(Node { pos, claim, proof: leaf.unwrap_or(Proof::Bound) });
        g.state.push(if leaf.is_some() { State::Done } else { State::Open });
        Ok(if leaf.is_some() { Resolved::Done(id) } else { Resolved::New(id) })
    }

    /// The candidate good moves of a lower bound, best first: those that end the game, reach a
    /// leaf or a proved node, then those the bounds already settle, then the rest, bigger captures
    /// first. Moves known to be bad are left out.
    fn candidates(&mut self, g: &Graph, pos: Position, claim: Claim) -> Vec<Move> {
        let mut ranked: Vec<(u8, std::cmp::Reverse<u8>, Move)> = Vec::new();
        for mv in pos.legal_moves() {
            let (c, k) = pos.play_counting(mv);
            let need = needed(claim, k as i8, c.to_move() == pos.to_move());
            let rank = if c.is_game_over() {
                if !claim.holds_for(i32::from(k)) {
                    continue;
                }
                0
            } else if let Some(v) = self.tb.probe(c) {
                if !need.holds_for(v) {
                    continue;
                }
                1
            } else if g
                .by_claim
                .get(&(c.repetition_key(), need))
                .is_some_and(|&id| g.state[id as usize] == State::Done)
            {
                2
            } else {
                let t = match need {
                    Claim::AtLeast(a) => a,
                    Claim::AtMost(b) => b + 1,
                };
                match self.known(c, t) {
                    Some((v, _)) if v == matches!(need, Claim::AtLeast(_)) => 3,
                    Some(_) => continue,
                    None => 4,
                }
            };
            ranked.push((rank, std::cmp::Reverse(k), mv));
        }
        ranked.sort();
        ranked.into_iter().map(|(_, _, m)| m).collect()
    }

    /// Proves node `id` (open, not a leaf) with an explicit stack; false when it fails on this path
    /// (its nodes built since are removed).
    fn prove(&mut self, g: &mut Graph, id: u32) -> Result<bool, SolveError> {
        let mut stack = vec![self.frame(g, id)];
        let mut returned: Option<bool> = None;
        while let Some(top) = stack.last_mut() {
            let node = g.nodes[top.id as usize];
            let (pos, claim) = (node.pos, node.claim);
            let lower = matches!(claim, Claim::AtLeast(_));
            let mut outcome: Option<Result<Proof, ()>> = None;
            if let Some(ok) = returned.take() {
                let mv = top.pending.take().expect("a child was being proved");
                match (ok, lower) {
                    (true, true) => {
                        let child = child_id(g, pos, claim, mv);
                        outcome = Some(Ok(Proof::Choice(hole_number(mv), Step::Node(child))));
                    }
                    (true, false) => {
                        top.steps.push(Step::Node(child_id(g, pos, claim, mv)));
                        top.at += 1;
                    }
                    (false, true) => top.at += 1,
                    (false, false) => outcome = Some(Err(())),
                }
            }
            while outcome.is_none() && top.pending.is_none() {
                let Some(&mv) = top.moves.get(top.at) else {
                    outcome = Some(if lower { Err(()) } else { Ok(Proof::Every(Steps::new(&top.steps))) });
                    break;
                };
                let (c, k) = pos.play_counting(mv);
                if c.is_game_over() {
                    if lower {
                        outcome = Some(Ok(Proof::Choice(hole_number(mv), Step::End)));
                    } else {
                        debug_assert!(claim.holds_for(i32::from(k)), "an upper bound {claim:?} of {pos}");
                        top.steps.push(Step::End);
                        top.at += 1;
                    }
                    continue;
                }
                let need = needed(claim, k as i8, c.to_move() == pos.to_move());
                if lower && !self.holds(c, need)? {
                    top.at += 1;
                    continue;
                }
                match self.resolve(g, c, need)? {
                    Resolved::Done(j) if lower => {
                        outcome = Some(Ok(Proof::Choice(hole_number(mv), Step::Node(j))))
                    }
                    Resolved::Done(j) => {
                        top.steps.push(Step::Node(j));
                        top.at += 1;
                    }
                    Resolved::Blocked if lower => top.at += 1,
                    Resolved::Blocked => outcome = Some(Err(())),
                    Resolved::New(_) => top.pending = Some(mv),
                }
            }
            match outcome {
                None => {
                    // A new node to prove above this frame: the last one created.
                    let j = (g.nodes.len() - 1) as u32;
                    debug_assert_eq!(g.state[j as usize], State::Open);
                    let f = self.frame(g, j);
                    stack.push(f);
                }
                Some(Ok(proof)) => {
                    let id = top.id as usize;
                    g.nodes[id].proof = proof;
                    g.state[id] = State::Done;
                    stack.pop();
                    returned = Some(true);
                }
                Some(Err(())) => {
                    let id = top.id as usize;
                    for n in g.nodes.drain(id..) {
                        g.by_claim.remove(&(n.pos.repetition_key(), n.claim));
                    }
                    g.state.truncate(id);
                    stack.pop();
                    returned = Some(false);
                }
            }
        }
        Ok(returned.expect("the walk ends with its first node's outcome"))
    }

    fn frame(&mut self, g: &Graph, id: u32) -> Frame {
        let n = g.nodes[id as usize];
        let moves = match n.claim {
            Claim::AtLeast(_) => self.candidates(g, n.pos, n.claim),
            Claim::AtMost(_) => n.pos.legal_moves().collect(),
        };
        Frame { id, moves, at: 0, steps: Vec::new(), pending: None }
    }
}

/// The node a move's claim resolved to (it exists: it was just proved).
fn child_id(g: &Graph, pos: Position, claim: Claim, mv: Move) -> u32 {
    let (c, k) = pos.play_counting(mv);
    let need = needed(claim, k as i8, c.to_move() == pos.to_move());
    g.by_claim[&(c.repetition_key(), need)]
}

/// A move's hole number in its mover's row, 1–6 (N1).
fn hole_number(mv: Move) -> u8 {
    (mv.hole().index() % vlt_core::ROW) as u8 + 1
}
