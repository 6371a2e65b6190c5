//! The certificate's text format (docs/solver.md): a header, then one line a node.
//!
//! ```text
//! vlt certificate 1
//! root 0,1,2,0,1,0/2,0,1,3,0,2 B 20 18
//! value -4
//! tables 8
//! roots 0 17
//! nodes 35
//! B012010201302 >=-4 m3 1
//! A002010201300 <=3 * 2 $ 3
//! A000000100300 >=-1 t2
//! …
//! ```
//!
//! A node is its mover and its twelve holes in ring order (`1B`…`6B`, `1A`…`6A`), each one
//! character of `0-9a-zA-Z` (0–61 stones), its claim (`>=a` or `<=b` on the value for the mover)
//! and its proof: `t` and the tables' value, `b` (the stones bound it), `m` and a hole number with
//! the step it leads to, or `*` and one step for every legal move in hole order. A step is a
//! node's index or `$` (the move empties the board).
//!
//! Reading is bounded: at most [`MAX_NODES`] nodes of at most [`MAX_LINE`] bytes; nothing is
//! allocated from a count the file states beyond what its lines then hold.

use super::{Certificate, CertificateError, Claim, Node, Proof, Step, Steps};
use std::io::{BufRead, Write};
use vlt_core::{ByPlayer, Player, Position};

/// The most nodes a certificate may have (about 50 bytes each in memory).
pub const MAX_NODES: u64 = 10_000_000;
/// The longest line read.
pub const MAX_LINE: u64 = 256;
/// The first line.
const MAGIC: &str = "vlt certificate 1";
/// One character a hole: 0–61 stones.
const DIGITS: &[u8; 62] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// Writes `cert` in the text format.
///
/// # Errors
/// What writing to `out` gives.
pub fn write(cert: &Certificate, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out, "{MAGIC}")?;
    writeln!(out, "root {}", cert.root)?;
    writeln!(out, "value {}", cert.value)?;
    writeln!(out, "tables {}", cert.tables)?;
    writeln!(out, "roots {} {}", cert.lower, cert.upper)?;
    writeln!(out, "nodes {}", cert.nodes.len())?;
    let step = |s: &Step| match s {
        Step::End => "$".to_string(),
        Step::Node(i) => i.to_string(),
    };
    for n in &cert.nodes {
        let mut line = String::with_capacity(40);
        line.push(n.pos.to_move().letter());
        line.extend(n.pos.board().iter().map(|&c| char::from(DIGITS[usize::from(c)])));
        line.push_str(&format!(" {}", n.claim));
        match n.proof {
            Proof::Table(v) => line.push_str(&format!(" t{v}")),
            Proof::Bound => line.push_str(" b"),
            Proof::Choice(hole, s) => line.push_str(&format!(" m{hole} {}", step(&s))),
            Proof::Every(steps) => {
                line.push_str(" *");
                for s in steps.as_slice() {
                    line.push(' ');
                    line.push_str(&step(s));
                }
            }
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Reads lines of at most [`MAX_LINE`] bytes, numbering them.
struct Lines<R> {
    input: R,
    line: u64,
    buf: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    fn syntax(&self, reason: impl Into<String>) -> CertificateError {
        CertificateError::Syntax { line: self.line, reason: reason.into() }
    }

    /// The next line without its end, or `None` at the end of the input.
    fn next(&mut self) -> Result<Option<&str>, CertificateError> {
        self.buf.clear();
        self.line += 1;
        let n = std::io::Read::take(&mut self.input, MAX_LINE + 1).read_until(b'\n', &mut self.buf)?;
        if n == 0 {
            return Ok(None);
        }
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
        } else if n as u64 > MAX_LINE {
            return Err(self.syntax(format!("longer than {MAX_LINE} bytes")));
        }
        let line = std::str::from_utf8(&self.buf)
            .map_err(|_| CertificateError::Syntax { line: self.line, reason: "not UTF-8 text".into() })?;
        Ok(Some(line))
    }

    /// The next line, which must exist.
    fn need(&mut self, what: &str) -> Result<String, CertificateError> {
        match self.next()? {
            Some(l) => Ok(l.to_string()),
            None => Err(self.syntax(format!("the file ends before {what}"))),
        }
    }

    /// A header line `NAME VALUE`.
    fn field(&mut self, name: &str) -> Result<String, CertificateError> {
        let l = self.need(&format!("the {name} line"))?;
        match l.strip_prefix(name).and_then(|r| r.strip_prefix(' ')) {
            Some(rest) => Ok(rest.to_string()),
            None => Err(self.syntax(format!("expected `{name} …`"))),
        }
    }
}

fn number<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    s.parse().map_err(|_| format!("{what} {s:?} is not a number in range"))
}

/// Reads a certificate, refusing anything not in the format (never panicking) and keeping memory
/// within what [`MAX_NODES`] allows.
///
/// # Errors
/// [`CertificateError::Syntax`] naming the line, [`CertificateError::TooLarge`], or a read error.
pub fn parse(input: impl BufRead) -> Result<Certificate, CertificateError> {
    let mut lines = Lines { input, line: 0, buf: Vec::new() };
    if lines.need("the first line")? != MAGIC {
        return Err(lines.syntax(format!("not a certificate (expected `{MAGIC}`)")));
    }
    let root = lines.field("root")?;
    let root: Position = root.parse().map_err(|e| lines.syntax(format!("root: {e}")))?;
    let value = lines.field("value")?;
    let value: i32 = number(&value, "value").map_err(|e| lines.syntax(e))?;
    let tables = lines.field("tables")?;
    let tables: u32 = number(&tables, "tables").map_err(|e| lines.syntax(e))?;
    let roots = lines.field("roots")?;
    let (lower, upper) = roots
        .split_once(' ')
        .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)))
        .ok_or_else(|| lines.syntax("expected `roots LOWER UPPER`"))?;
    let count = lines.field("nodes")?;
    let count: u64 = number(&count, "nodes").map_err(|e| lines.syntax(e))?;
    if count > MAX_NODES {
        return Err(CertificateError::TooLarge);
    }
    // Grows with the lines read, not with the count the header states.
    let mut nodes = Vec::with_capacity(count.min(1 << 16) as usize);
    while (nodes.len() as u64) < count {
        let Some(line) = lines.next()? else {
            return Err(lines.syntax(format!("the file ends after {} of {count} nodes", nodes.len())));
        };
        let node = node(line, count).map_err(|e| lines.syntax(e))?;
        nodes.push(node);
    }
    if let Some(extra) = lines.next()? {
        if !extra.is_empty() || lines.next()?.is_some() {
            return Err(lines.syntax(format!("more than the {count} nodes the header states")));
        }
    }
    Ok(Certificate { root, value, tables, lower, upper, nodes })
}

/// One node's line; `count` bounds its steps' indices.
fn node(line: &str, count: u64) -> Result<Node, String> {
    let mut words = line.split(' ');
    let pos = words.next().ok_or("an empty line")?;
    let pos = position(pos)?;
    let claim = words.next().ok_or("no claim")?;
    let claim = if let Some(a) = claim.strip_prefix(">=") {
        Claim::AtLeast(number(a, "bound")?)
    } else if let Some(b) = claim.strip_prefix("<=") {
        Claim::AtMost(number(b, "bound")?)
    } else {
        return Err(format!("claim {claim:?} is neither >=N nor <=N"));
    };
    let step = |w: Option<&str>| -> Result<Step, String> {
        match w.ok_or("a move without its step")? {
            "$" => Ok(Step::End),
            w => {
                let i: u32 = number(w, "node")?;
                if u64::from(i) >= count {
                    return Err(format!("node {i} does not exist (the certificate has {count})"));
                }
                Ok(Step::Node(i))
            }
        }
    };
    let kind = words.next().ok_or("no proof")?;
    let proof = if let Some(v) = kind.strip_prefix('t') {
        Proof::Table(number(v, "table value")?)
    } else if kind == "b" {
        Proof::Bound
    } else if let Some(h) = kind.strip_prefix('m') {
        let hole: u8 = number(h, "hole")?;
        if !(1..=6).contains(&hole) {
            return Err(format!("hole {hole} is not 1-6"));
        }
        Proof::Choice(hole, step(words.next())?)
    } else if kind == "*" {
        let mut steps = Vec::with_capacity(6);
        for w in words.by_ref() {
            if steps.len() == 6 {
                return Err("more than six moves".into());
            }
            steps.push(step(Some(w))?);
        }
        Proof::Every(Steps::new(&steps))
    } else {
        return Err(format!("proof {kind:?} is none of t, b, m, *"));
    };
    if words.next().is_some() {
        return Err("more words than the proof has".into());
    }
    Ok(Node { pos, claim, proof })
}

/// A node's position: the mover, then twelve holes.
fn position(s: &str) -> Result<Position, String> {
    let b = s.as_bytes();
    if b.len() != 13 {
        return Err(format!("position {s:?} is not a mover and 12 holes"));
    }
    let mover = match b[0] {
        b'A' => Player::A,
        b'B' => Player::B,
        _ => return Err(format!("position {s:?} does not start with the mover, A or B")),
    };
    let mut board = [0u8; 12];
    for (cell, &c) in board.iter_mut().zip(&b[1..]) {
        *cell = DIGITS
            .iter()
            .position(|&d| d == c)
            .ok_or_else(|| format!("hole {:?} is not 0-9a-zA-Z", char::from(c)))? as u8;
    }
    let pos = Position::new(board, mover, ByPlayer::new(0, 0)).map_err(|e| e.to_string())?;
    if pos.to_move() != mover {
        return Err(format!("position {s:?}: {mover} has no stone to move (R5)"));
    }
    Ok(pos)
}
