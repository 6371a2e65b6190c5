//! The independent checker: the rules of `vlt-core` and a table probe, no search.
//!
//! Each node's argument is checked on its own (its moves replayed, the claims they need compared
//! with those of the nodes they lead to), then the whole: the nodes whose claims endless play
//! does not satisfy (they must make progress) may not lead back to one of their positions, or a
//! player could keep the game from ever reaching what the claim needs (R7). Everything is
//! iterative, so a deep or hostile certificate cannot overflow the stack.

use super::{Certificate, CertificateError, Claim, Node, Proof, Step};
use crate::probe::Tablebase;
use std::collections::HashMap;
use vlt_core::{Hole, Move, Position};

/// What a checked certificate proves, with its counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The root's value for its mover.
    pub value: i32,
    /// Nodes checked.
    pub nodes: u64,
    /// Of them, leaves proven by the tables.
    pub table_leaves: u64,
    /// Moves that end the game.
    pub ends: u64,
}

/// Checks that `cert` proves its root's value: `tb` must hold the positions of its table leaves.
///
/// # Errors
/// The first argument that does not hold, naming its node.
pub fn check(cert: &Certificate, tb: Option<&Tablebase>) -> Result<Checked, CertificateError> {
    let nodes = &cert.nodes;
    let len = nodes.len() as u64;
    let root_key = cert.root.repetition_key();
    let stones = cert.root.stones_on_board() as i32;
    let bad = |i: u32, reason: String| CertificateError::Invalid {
        node: i,
        pos: nodes.get(i as usize).map_or_else(|| cert.root.to_string(), |n| n.pos.to_string()),
        reason,
    };
    if cert.value.abs() > stones {
        return Err(bad(cert.lower, format!("value {} beyond ±{stones} stones", cert.value)));
    }
    for (i, want) in
        [(cert.lower, Claim::AtLeast(cert.value as i8)), (cert.upper, Claim::AtMost(cert.value as i8))]
    {
        let n = nodes.get(i as usize).ok_or_else(|| bad(i, format!("no node {i} (of {len})")))?;
        if n.pos.repetition_key() != root_key {
            return Err(bad(i, format!("a root node of another position than {}", cert.root)));
        }
        if n.claim != want {
            return Err(bad(i, format!("a root node claiming {}, not {want}", n.claim)));
        }
    }
    let mut out = Checked { value: cert.value, nodes: len, table_leaves: 0, ends: 0 };
    for (i, n) in nodes.iter().enumerate() {
        let i = i as u32;
        local(cert, i, n, tb, &mut out).map_err(|e| match e {
            Local::Reason(r) => bad(i, r),
            Local::Tables(stones, have) => CertificateError::NeedsTables { node: i, stones, have },
        })?;
    }
    progress(nodes)?;
    Ok(out)
}

/// Why one node's argument fails.
enum Local {
    Reason(String),
    Tables(u32, String),
}

impl From<String> for Local {
    fn from(s: String) -> Local {
        Local::Reason(s)
    }
}

/// Checks node `i` alone: its leaf, or its moves against the nodes they lead to.
fn local(
    cert: &Certificate,
    i: u32,
    n: &Node,
    tb: Option<&Tablebase>,
    out: &mut Checked,
) -> Result<(), Local> {
    let pos = n.pos;
    if pos.is_game_over() {
        return Err("a node whose board is empty (a move that ends the game is `$`)".to_string().into());
    }
    let s = pos.stones_on_board() as i32;
    match n.proof {
        Proof::Table(v) => {
            let Some(tb) = tb else {
                return Err(Local::Tables(s as u32, "and no tables were given (--tablebase)".into()));
            };
            if s as u32 > tb.max_stones() {
                return Err(Local::Tables(s as u32, format!("the tables go up to {}", tb.max_stones())));
            }
            let Some(have) = tb.probe(pos) else {
                return Err(Local::Tables(s as u32, "and the tables do not hold the position".into()));
            };
            if have != i32::from(v) {
                return Err(format!("the tables give {have:+}, not {v:+}").into());
            }
            if !n.claim.holds_for(have) {
                return Err(format!("the tables' value {have:+} does not satisfy {}", n.claim).into());
            }
            out.table_leaves += 1;
        }
        Proof::Bound => {
            // Every value lies within ± the stones on the board.
            let holds = n.claim.holds_for(-s) && n.claim.holds_for(s);
            if !holds {
                return Err(format!("{} is not implied by |value| ≤ {s}", n.claim).into());
            }
        }
        Proof::Choice(hole, step) => {
            if !matches!(n.claim, Claim::AtLeast(_)) {
                return Err("one move proves only a lower bound (>=)".to_string().into());
            }
            let mv = Move(Hole::new(pos.to_move(), hole).ok_or_else(|| format!("no hole {hole}"))?);
            if pos.check(mv).is_err() {
                return Err(format!("{mv} is not a legal move").into());
            }
            follow(cert, pos, n.claim, mv, step, out)?;
        }
        Proof::Every(steps) => {
            if !matches!(n.claim, Claim::AtMost(_)) {
                return Err("every move answered proves only an upper bound (<=)".to_string().into());
            }
            let moves: Vec<Move> = pos.legal_moves().collect();
            if moves.len() != steps.as_slice().len() {
                return Err(
                    format!("{} steps for {} legal moves", steps.as_slice().len(), moves.len()).into()
                );
            }
            for (&mv, &step) in moves.iter().zip(steps.as_slice()) {
                follow(cert, pos, n.claim, mv, step, out)?;
            }
        }
    }
    let _ = i;
    Ok(())
}

/// The claim the position after `mv` (capturing `k`) must satisfy for `claim` to hold through
/// that move: the move is worth `k + c` when the mover moves again (R5), else `k − c`, for a child
/// worth `c` to its own mover.
fn needed(claim: Claim, k: i32, same_mover: bool) -> Claim {
    let clamp = |x: i32| x.clamp(-100, 100) as i8;
    match (claim, same_mover) {
        (Claim::AtLeast(a), true) => Claim::AtLeast(clamp(i32::from(a) - k)),
        (Claim::AtLeast(a), false) => Claim::AtMost(clamp(k - i32::from(a))),
        (Claim::AtMost(b), true) => Claim::AtMost(clamp(i32::from(b) - k)),
        (Claim::AtMost(b), false) => Claim::AtLeast(clamp(k - i32::from(b))),
    }
}

/// Checks one move of a node: where its step leads and what that claims.
fn follow(
    cert: &Certificate,
    pos: Position,
    claim: Claim,
    mv: Move,
    step: Step,
    out: &mut Checked,
) -> Result<(), String> {
    let (child, k) = pos.play_counting(mv);
    let k = i32::from(k);
    match step {
        Step::End => {
            if !child.is_game_over() {
                return Err(format!("{mv} does not end the game"));
            }
            // R6: the move is worth its capture.
            if !claim.holds_for(k) {
                return Err(format!("{mv} ends the game worth {k:+}, which does not satisfy {claim}"));
            }
            out.ends += 1;
        }
        Step::Node(j) => {
            if child.is_game_over() {
                return Err(format!("{mv} ends the game (its step must be `$`)"));
            }
            let c = cert.nodes.get(j as usize).ok_or_else(|| format!("no node {j}"))?;
            if c.pos.repetition_key() != child.repetition_key() {
                return Err(format!("{mv} leads to {child}, not to node {j}'s position {}", c.pos));
            }
            let need = needed(claim, k, child.to_move() == pos.to_move());
            if !c.claim.implies(need) {
                return Err(format!("{mv} needs {need} of node {j}, which claims {}", c.claim));
            }
        }
    }
    Ok(())
}

/// The nodes whose claims endless play does not satisfy must not lead back to one of their
/// positions: contracted by position, their edges among themselves must be acyclic (Kahn's
/// algorithm). Those that endless play satisfies may cycle (R7 ends such play with 0).
fn progress(nodes: &[Node]) -> Result<(), CertificateError> {
    let needs = |n: &Node| !n.claim.accepts_endless_play();
    let mut class: HashMap<u128, u32> = HashMap::new();
    let mut of = vec![u32::MAX; nodes.len()];
    let mut first = Vec::new(); // a node of each class, for the error
    for (i, n) in nodes.iter().enumerate() {
        if needs(n) {
            let next = class.len() as u32;
            let c = *class.entry(n.pos.repetition_key()).or_insert(next);
            if c == next {
                first.push(i as u32);
            }
            of[i] = c;
        }
    }
    let classes = class.len();
    drop(class);
    let mut edges: Vec<(u32, u32)> = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        if of[i] == u32::MAX {
            continue;
        }
        let steps: &[Step] = match &n.proof {
            Proof::Choice(_, s) => std::slice::from_ref(s),
            Proof::Every(s) => s.as_slice(),
            Proof::Table(_) | Proof::Bound => &[],
        };
        for s in steps {
            if let Step::Node(j) = *s {
                let cj = of[j as usize];
                if cj != u32::MAX {
                    edges.push((of[i], cj));
                }
            }
        }
    }
    edges.sort_unstable();
    edges.dedup();
    let mut indegree = vec![0u32; classes];
    let mut start = vec![0usize; classes + 1];
    for &(a, b) in &edges {
        indegree[b as usize] += 1;
        start[a as usize + 1] += 1;
    }
    for c in 0..classes {
        start[c + 1] += start[c];
    }
    let mut ready: Vec<u32> = (0..classes as u32).filter(|&c| indegree[c as usize] == 0).collect();
    let mut done = 0;
    while let Some(c) = ready.pop() {
        done += 1;
        for &(_, b) in &edges[start[c as usize]..start[c as usize + 1]] {
            indegree[b as usize] -= 1;
            if indegree[b as usize] == 0 {
                ready.push(b);
            }
        }
    }
    if done < classes {
        let c = indegree.iter().position(|&d| d > 0).expect("a class left on a cycle");
        let node = first[c];
        return Err(CertificateError::Cycle { node, pos: nodes[node as usize].pos.to_string() });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::certificate::Steps;

    /// The rules' R7 cycle as nodes each choosing the move to the next (the movers alternate),
    /// with the lower bound `t` for A's side: only a claim that endless play (0) satisfies may
    /// stand on it.
    fn cycle(t: i8) -> Vec<Node> {
        let mut pos: Position = "1,0,1,0,1,0/1,2,0,1,2,0 A 0 0".parse().expect("position");
        let moves = ["5A", "1B", "2A", "3B", "4A", "5B", "6A", "2B", "1A", "4B", "3A", "6B"];
        let mut out = Vec::new();
        for (i, mv) in moves.iter().enumerate() {
            let mv: Move = mv.parse().expect("move");
            let claim = if i % 2 == 0 { Claim::AtLeast(t) } else { Claim::AtMost(-t) };
            let next = Step::Node(((i + 1) % moves.len()) as u32);
            let hole = (mv.hole().index() % vlt_core::ROW) as u8 + 1;
            let proof =
                if i % 2 == 0 { Proof::Choice(hole, next) } else { Proof::Every(Steps::new(&[next])) };
            out.push(Node { pos, claim, proof });
            pos = pos.play(mv).expect("legal");
        }
        out
    }

    #[test]
    fn a_cycle_stands_only_under_claims_that_endless_play_satisfies() {
        assert!(progress(&cycle(0)).is_ok());
        assert!(progress(&cycle(-3)).is_ok());
        assert!(matches!(progress(&cycle(1)), Err(CertificateError::Cycle { .. })));
        // Two nodes of one position with different claims on one path are a return too (R7).
        let mut c = cycle(1);
        c[11].proof = Proof::Every(Steps::new(&[Step::Node(12)]));
        let mut again = c[0];
        again.claim = Claim::AtLeast(2);
        again.proof = Proof::Choice(5, Step::Node(1));
        c.push(again);
        assert!(matches!(progress(&c), Err(CertificateError::Cycle { .. })));
    }
}
