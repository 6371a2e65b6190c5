//! Certificates: the proof of a solved value, written out so that it can be checked without the
//! solver (docs/solver.md).
//!
//! A value `v` for the mover of a position is proved by two graphs of claims, one that the value is
//! at least `v` and one that it is at most `v`. A node claims a bound on its position's value for
//! its mover and says why: the tables hold the position, the stones on the board bound it, one move
//! (for a lower bound: the mover chooses) or every move (for an upper bound: each is answered)
//! leads to positions whose claims imply it. A move that empties the board is worth its capture.
//!
//! The checker ([`check`]) uses only the rules of `vlt-core` and, for table leaves, a probe: no
//! search. A graph may return to a position without captures (R7); such a cycle is sound only when
//! endless play, worth 0 for the rest of the game, satisfies the claims on it, so the checker asks
//! that the nodes whose claims 0 does not satisfy never repeat a position along their edges.

mod check;
mod format;

pub use check::{Checked, check};
pub use format::{MAX_LINE, MAX_NODES, parse, write};

use vlt_core::Position;

/// A bound on a position's value for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Claim {
    /// The value is at least this: the mover has a move that keeps it.
    AtLeast(i8),
    /// The value is at most this: every move of the mover is answered.
    AtMost(i8),
}

impl Claim {
    /// Whether a value of `v` satisfies the claim.
    #[must_use]
    pub fn holds_for(self, v: i32) -> bool {
        match self {
            Claim::AtLeast(a) => v >= i32::from(a),
            Claim::AtMost(b) => v <= i32::from(b),
        }
    }

    /// Whether endless play (worth 0 for the rest of the game, R7) satisfies the claim: only such
    /// claims may stand on a cycle.
    #[must_use]
    pub fn accepts_endless_play(self) -> bool {
        self.holds_for(0)
    }

    /// Whether this claim implies `other` (on the same position).
    #[must_use]
    pub fn implies(self, other: Claim) -> bool {
        match (self, other) {
            (Claim::AtLeast(a), Claim::AtLeast(b)) => a >= b,
            (Claim::AtMost(a), Claim::AtMost(b)) => a <= b,
            _ => false,
        }
    }
}

/// As the format writes it: `>=a` or `<=b`.
impl std::fmt::Display for Claim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Claim::AtLeast(a) => write!(f, ">={a}"),
            Claim::AtMost(b) => write!(f, "<={b}"),
        }
    }
}

/// Where a move leads in a certificate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The move empties the board: the game is over (R6), the move is worth its capture.
    End,
    /// The node with this index, whose position the move reaches.
    Node(u32),
}

/// Why a node's claim holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The tables hold the position with this value.
    Table(i8),
    /// The value of a position lies within ± its stones on the board.
    Bound,
    /// Of a lower bound: this move of the mover (its hole number, 1–6) and where it leads.
    Choice(u8, Step),
    /// Of an upper bound: every legal move of the mover, in hole order, and where each leads.
    Every(Steps),
}

/// The steps of [`Proof::Every`], one per legal move (at most six, R3), without a heap allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Steps {
    len: u8,
    steps: [Step; 6],
}

impl Steps {
    /// Steps from a slice of at most six.
    ///
    /// # Panics
    /// When given more than six.
    #[must_use]
    pub fn new(steps: &[Step]) -> Steps {
        let mut out = Steps { len: steps.len() as u8, steps: [Step::End; 6] };
        out.steps[..steps.len()].copy_from_slice(steps);
        out
    }

    /// The steps, in hole order.
    #[must_use]
    pub fn as_slice(&self) -> &[Step] {
        &self.steps[..usize::from(self.len)]
    }
}

/// A node: a position, a claim about its value and why it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// The board and the player to move (the captures so far are not part of a value).
    pub pos: Position,
    /// The bound claimed.
    pub claim: Claim,
    /// Why.
    pub proof: Proof,
}

/// The proof that `root` is worth `value` for its mover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The position solved.
    pub root: Position,
    /// Its value for the player to move.
    pub value: i32,
    /// The largest stone count of the tables the proof's table leaves need.
    pub tables: u32,
    /// The nodes claiming `value ≥ v` and `value ≤ v` of the root.
    pub lower: u32,
    /// See [`Certificate::lower`].
    pub upper: u32,
    /// Every node.
    pub nodes: Vec<Node>,
}

/// Why a certificate is refused.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CertificateError {
    /// Reading the file failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The text is not a certificate in this format.
    #[error("line {line}: {reason}")]
    Syntax {
        /// The line, from 1.
        line: u64,
        /// What is wrong with it.
        reason: String,
    },
    /// More nodes than a certificate may have.
    #[error("more than {} nodes", MAX_NODES)]
    TooLarge,
    /// A node's argument does not hold.
    #[error("node {node} ({pos}): {reason}")]
    Invalid {
        /// The node.
        node: u32,
        /// Its position (N2).
        pos: String,
        /// What does not hold.
        reason: String,
    },
    /// The proof's lines repeat a position where endless play does not satisfy the claim (R7).
    #[error("node {node} ({pos}): its claim needs progress, but the proof can return to the position")]
    Cycle {
        /// A node on the cycle.
        node: u32,
        /// Its position (N2).
        pos: String,
    },
    /// The certificate needs table values that the given tables do not hold.
    #[error("node {node}: the proof needs tables of {stones} stones, {have}")]
    NeedsTables {
        /// The node.
        node: u32,
        /// Its stones.
        stones: u32,
        /// What tables there are.
        have: String,
    },
}
