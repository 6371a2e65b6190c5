//! The puzzle file: a compact binary set of puzzles with the command that built it
//! (docs/puzzles.md).
//!
//! ```text
//! magic    b"VLTPUZZ"  version u8 (1)
//! command  u16 length, UTF-8 bytes     how the set was built (command line with its seed)
//! count    u32
//! puzzles  count records:
//!   board 12 × u8 (ring order 1B..6A), to move u8 (0 B, 1 A), captured by B u8, by A u8,
//!   best u8 (hole index 0..11), values 6 × i8 (mover's holes 1..6; -128: empty hole),
//!   depth u8, misses u8, tries u8, themes u8, rating u16, source u8,
//!   line length u8, line (hole indices)
//! checksum u64 FNV-1a of every byte before it
//! ```
//! Integers are little-endian. Reading checks every record: the position is one (N2), the best
//! move is legal and strictly the best of the values, the values name exactly the legal moves, and
//! the solution line is legal from the position starting with the best move.

use crate::puzzle::{MAX_LINE, Puzzle, Source, own_hole};
use crate::theme::Themes;
use vlt_core::{ByPlayer, Hole, Move, Player, Position, ROW};

const MAGIC: &[u8; 7] = b"VLTPUZZ";
const VERSION: u8 = 1;
/// The stored value of an empty hole (no move).
const NO_MOVE: i8 = i8::MIN;

/// A puzzle set and how it was built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleSet {
    /// The command that built the set, seed included, so that it can be built again.
    pub command: String,
    /// The puzzles, in the order they are served.
    pub puzzles: Vec<Puzzle>,
}

/// Why bytes are not a puzzle set.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum FormatError {
    /// The file does not start with the magic bytes.
    #[error("not a puzzle file (no VLTPUZZ header)")]
    Magic,
    /// A version this code does not read.
    #[error("puzzle file version {0}, this build reads version 1")]
    Version(u8),
    /// The file ends inside a field.
    #[error("the puzzle file is cut off")]
    Truncated,
    /// The checksum does not match the contents.
    #[error("the puzzle file is damaged (checksum mismatch)")]
    Checksum,
    /// A record is not a valid puzzle.
    #[error("puzzle {index}: {reason}")]
    Bad {
        /// The puzzle's number, from 0.
        index: usize,
        /// What is wrong.
        reason: String,
    },
    /// Bytes after the checksum.
    #[error("the puzzle file has {0} bytes after its end")]
    Trailing(usize),
}

/// FNV-1a, 64 bits: enough to tell a damaged file, with no dependency.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

impl PuzzleSet {
    /// The set as the file's bytes.
    ///
    /// # Panics
    /// When the command is longer than 65,535 bytes, or a puzzle's line longer than [`MAX_LINE`].
    #[must_use]
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(32 + self.puzzles.len() * 40);
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        let cmd = self.command.as_bytes();
        out.extend_from_slice(&u16::try_from(cmd.len()).expect("a command line under 64 KiB").to_le_bytes());
        out.extend_from_slice(cmd);
        out.extend_from_slice(&(self.puzzles.len() as u32).to_le_bytes());
        for p in &self.puzzles {
            out.extend_from_slice(&p.position.board());
            out.push(p.position.to_move() as u8);
            out.push(p.position.captured(Player::B));
            out.push(p.position.captured(Player::A));
            out.push(p.best.hole().index() as u8);
            out.extend(p.values.iter().map(|v| v.unwrap_or(NO_MOVE) as u8));
            out.extend_from_slice(&[p.depth, p.misses, p.tries, p.themes.bits()]);
            out.extend_from_slice(&p.rating.to_le_bytes());
            out.push(p.source as u8);
            assert!(p.line.len() <= MAX_LINE, "a solution line of at most {MAX_LINE} plies");
            out.push(p.line.len() as u8);
            out.extend(p.line.iter().map(|m| m.hole().index() as u8));
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a set from the file's bytes, checking every puzzle (see the module's documentation).
    ///
    /// # Errors
    /// [`FormatError`] naming the first thing wrong.
    pub fn decode(bytes: &[u8]) -> Result<PuzzleSet, FormatError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(FormatError::Magic);
        }
        let mut r = Reader { bytes, at: MAGIC.len() };
        let version = r.u8()?;
        if version != VERSION {
            return Err(FormatError::Version(version));
        }
        let len = usize::from(r.u16()?);
        let command = String::from_utf8(r.take(len)?.to_vec())
            .map_err(|_| FormatError::Bad { index: 0, reason: "the command is not UTF-8".into() })?;
        let count = r.u32()? as usize;
        let mut puzzles = Vec::with_capacity(count.min(bytes.len() / 30));
        for index in 0..count {
            puzzles.push(read_puzzle(&mut r).map_err(|e| match e {
                Field::Cut => FormatError::Truncated,
                Field::Bad(reason) => FormatError::Bad { index, reason },
            })?);
        }
        let body = r.at;
        let sum = u64::from_le_bytes(r.take(8)?.try_into().expect("8 bytes"));
        if sum != fnv1a(&bytes[..body]) {
            return Err(FormatError::Checksum);
        }
        if r.at != bytes.len() {
            return Err(FormatError::Trailing(bytes.len() - r.at));
        }
        Ok(PuzzleSet { command, puzzles })
    }
}

/// What went wrong reading one record.
enum Field {
    Cut,
    Bad(String),
}

impl From<FormatError> for Field {
    fn from(_: FormatError) -> Field {
        Field::Cut
    }
}

fn bad<T>(reason: impl Into<String>) -> Result<T, Field> {
    Err(Field::Bad(reason.into()))
}

fn read_puzzle(r: &mut Reader<'_>) -> Result<Puzzle, Field> {
    let board: [u8; 12] = r.take(12)?.try_into().expect("12 bytes");
    let to_move = match r.u8()? {
        0 => Player::B,
        1 => Player::A,
        b => return bad(format!("player byte {b}")),
    };
    let captured = ByPlayer { b: r.u8()?, a: r.u8()? };
    let position = Position::new(board, to_move, captured).map_err(|e| Field::Bad(e.to_string()))?;
    if position.to_move() != to_move || position.is_game_over() {
        return bad("the player to move cannot move");
    }
    let Some(best) = Hole::from_index(usize::from(r.u8()?)).map(Move::from) else {
        return bad("best move byte out of range");
    };
    let mut values = [None; ROW];
    for (i, v) in values.iter_mut().enumerate() {
        let b = r.u8()? as i8;
        let legal = position.legal_moves().contains(Move::from(own_hole(to_move, i)));
        *v = match (b, legal) {
            (NO_MOVE, false) => None,
            (NO_MOVE, true) => return bad(format!("no value for the legal move {}", own_hole(to_move, i))),
            (_, false) => return bad(format!("a value for the empty hole {}", own_hole(to_move, i))),
            (v, true) if v.unsigned_abs() as u32 > position.stones_on_board() => {
                return bad(format!("value {v} is more than the stones on the board"));
            }
            (v, true) => Some(v),
        };
    }
    let [depth, misses, tries, themes] = [r.u8()?, r.u8()?, r.u8()?, r.u8()?];
    if misses > tries {
        return bad(format!("{misses} misses out of {tries} tries"));
    }
    let Some(themes) = Themes::from_bits(themes) else { return bad(format!("theme bits {themes:#x}")) };
    let rating = r.u16()?;
    let Some(source) = Source::from_byte(r.u8()?) else { return bad("source byte") };
    let n = usize::from(r.u8()?);
    if n == 0 || n > MAX_LINE {
        return bad(format!("a solution line of {n} plies"));
    }
    let mut line = Vec::with_capacity(n);
    let mut p = position;
    for &b in r.take(n)? {
        let Some(mv) = Hole::from_index(usize::from(b)).map(Move::from) else {
            return bad("a line move byte out of range");
        };
        p = p.play(mv).map_err(|e| Field::Bad(format!("solution line: {e}")))?;
        line.push(mv);
    }
    let puzzle = Puzzle { position, best, values, depth, misses, tries, themes, rating, source, line };
    if puzzle.line[0] != best {
        return bad("the solution line does not start with the best move");
    }
    if puzzle.move_values().len() < 2 {
        return bad("fewer than two legal moves");
    }
    if puzzle.value_of(best).is_none() || puzzle.gap() <= 0 {
        return bad("the best move is not the one best");
    }
    Ok(puzzle)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], FormatError> {
        let s = self.bytes.get(self.at..self.at + n).ok_or(FormatError::Truncated)?;
        self.at += n;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, FormatError> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, FormatError> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().expect("2 bytes")))
    }
    fn u32(&mut self) -> Result<u32, FormatError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> PuzzleSet {
        // 7 stones from the rules' first worked example; B's 1B takes 2A. The values are made up
        // for the format's sake (the tables are tested elsewhere).
        let position: Position = "7,2,3,1,4,2/3,0,4,2,1,3 B 14 14".parse().unwrap();
        let mut themes = Themes::default();
        themes.insert(crate::Theme::Chain);
        let p = Puzzle {
            position,
            best: "1B".parse().unwrap(),
            values: [Some(5), Some(1), Some(-3), Some(1), Some(3), Some(-1)],
            depth: 9,
            misses: 4,
            tries: 41,
            themes,
            rating: 1234,
            source: Source::Record,
            line: vec!["1B".parse().unwrap(), "1A".parse().unwrap()],
        };
        PuzzleSet { command: "vlt puzzles build --seed 7".into(), puzzles: vec![p] }
    }

    #[test]
    fn a_set_round_trips() {
        let s = sample();
        assert_eq!(PuzzleSet::decode(&s.encode()), Ok(s));
    }

    #[test]
    fn damage_is_named() {
        let bytes = sample().encode();
        assert_eq!(PuzzleSet::decode(b"nope"), Err(FormatError::Magic));
        assert_eq!(PuzzleSet::decode(&bytes[..bytes.len() - 3]), Err(FormatError::Truncated));
        let mut flipped = bytes.clone();
        flipped[40] ^= 1;
        assert!(PuzzleSet::decode(&flipped).is_err());
        let mut v = bytes.clone();
        v[7] = 2;
        assert_eq!(PuzzleSet::decode(&v), Err(FormatError::Version(2)));
        let mut long = bytes.clone();
        long.push(0);
        assert_eq!(PuzzleSet::decode(&long), Err(FormatError::Trailing(1)));
    }

    #[test]
    fn a_best_move_that_is_not_strictly_best_is_refused() {
        let mut s = sample();
        s.puzzles[0].values[4] = Some(5);
        assert!(matches!(PuzzleSet::decode(&s.encode()), Err(FormatError::Bad { index: 0, .. })));
        let mut s = sample();
        s.puzzles[0].line = vec!["2B".parse().unwrap()];
        assert!(matches!(PuzzleSet::decode(&s.encode()), Err(FormatError::Bad { .. })));
    }
}
