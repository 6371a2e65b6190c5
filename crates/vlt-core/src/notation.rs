//! The position string (N2): `<1B,…,6B>/<1A,…,6A> <to move> <captured by B> <captured by A>`.

use crate::hole::{HOLES, ROW};
use crate::position::{InvalidPositionError, TOTAL_STONES};
use crate::{ByPlayer, Player, Position};
use std::fmt;
use std::str::FromStr;

/// The fields of a position string, named as error messages name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The first field: both rows.
    Board,
    /// B's row, before the `/`.
    RowB,
    /// A's row, after the `/`.
    RowA,
    /// The player to move.
    ToMove,
    /// B's captures.
    CapturedB,
    /// A's captures.
    CapturedA,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::Board => "board",
            Field::RowB => "row B",
            Field::RowA => "row A",
            Field::ToMove => "player to move",
            Field::CapturedB => "captured by B",
            Field::CapturedA => "captured by A",
        })
    }
}

/// Why a position string does not parse (N2). Each case names the field and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParsePositionError {
    /// A field is missing.
    MissingField(Field),
    /// There is text after the four fields.
    ExtraField(String),
    /// The board field is not two rows separated by one `/`.
    RowSeparator,
    /// A row does not have exactly six counts.
    RowLength {
        /// Which row.
        field: Field,
        /// How many counts it has.
        found: usize,
    },
    /// A count is not a whole number.
    BadCount {
        /// Which field.
        field: Field,
        /// The text found.
        text: String,
    },
    /// The player to move is not `A` or `B`.
    BadPlayer(String),
    /// Stones on the board plus both captures exceed 60.
    TooManyStones(u32),
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ParsePositionError::*;
        match self {
            MissingField(field) => write!(f, "position: missing field: {field}"),
            ExtraField(text) => write!(f, "position: unexpected text after the four fields: {text:?}"),
            RowSeparator => write!(f, "position: board: expected two rows of six counts separated by '/'"),
            RowLength { field, found } => {
                write!(f, "position: {field}: expected 6 counts, found {found}")
            }
            BadCount { field, text } => {
                write!(f, "position: {field}: {text:?} is not a whole number")
            }
            BadPlayer(text) => write!(f, "position: player to move: expected A or B, found {text:?}"),
            TooManyStones(n) => {
                write!(f, "position: {n} stones in all (board and captures); at most 60")
            }
        }
    }
}

impl std::error::Error for ParsePositionError {}

fn parse_count(text: &str, field: Field) -> Result<u32, ParsePositionError> {
    let bad = || ParsePositionError::BadCount { field, text: text.to_string() };
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    // A count too large for u32 is certainly too many stones.
    Ok(text.parse().unwrap_or(u32::MAX))
}

fn parse_row(text: &str, field: Field, out: &mut [u32]) -> Result<(), ParsePositionError> {
    let counts: Vec<&str> = text.split(',').collect();
    if counts.len() != ROW {
        return Err(ParsePositionError::RowLength { field, found: counts.len() });
    }
    for (slot, c) in out.iter_mut().zip(counts) {
        *slot = parse_count(c, field)?;
    }
    Ok(())
}

impl FromStr for Position {
    type Err = ParsePositionError;

    /// Parses a position string (N2), applying its normalisation: when the player to move has an
    /// empty row and the board is not empty, the turn passes (R5). Surrounding whitespace and runs
    /// of spaces between fields are accepted.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut fields = s.split_whitespace();
        let board = fields.next().ok_or(ParsePositionError::MissingField(Field::Board))?;
        let mut counts = [0u32; HOLES];
        let (row_b, row_a) = board.split_once('/').ok_or(ParsePositionError::RowSeparator)?;
        if row_a.contains('/') {
            return Err(ParsePositionError::RowSeparator);
        }
        parse_row(row_b, Field::RowB, &mut counts[..ROW])?;
        parse_row(row_a, Field::RowA, &mut counts[ROW..])?;
        let to_move = fields.next().ok_or(ParsePositionError::MissingField(Field::ToMove))?;
        let to_move: Player =
            to_move.parse().map_err(|_| ParsePositionError::BadPlayer(to_move.to_string()))?;
        let cb = fields.next().ok_or(ParsePositionError::MissingField(Field::CapturedB))?;
        let cb = parse_count(cb, Field::CapturedB)?;
        let ca = fields.next().ok_or(ParsePositionError::MissingField(Field::CapturedA))?;
        let ca = parse_count(ca, Field::CapturedA)?;
        let rest: Vec<&str> = fields.collect();
        if !rest.is_empty() {
            return Err(ParsePositionError::ExtraField(rest.join(" ")));
        }
        let total = counts.iter().chain([&cb, &ca]).fold(0u32, |t, &c| t.saturating_add(c));
        if total > TOTAL_STONES {
            return Err(ParsePositionError::TooManyStones(total));
        }
        let board = counts.map(|c| c as u8); // each count is at most the total, 60
        Position::new(board, to_move, ByPlayer::new(cb as u8, ca as u8)).map_err(|e| match e {
            InvalidPositionError::TooManyStones(n) => ParsePositionError::TooManyStones(n),
        })
    }
}

impl fmt::Display for Position {
    /// The position string (N2).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.board();
        for (i, c) in b.iter().enumerate() {
            let sep = match i {
                0 => "",
                ROW => "/",
                _ => ",",
            };
            write!(f, "{sep}{c}")?;
        }
        write!(f, " {} {} {}", self.to_move(), self.captured(Player::B), self.captured(Player::A))
    }
}
