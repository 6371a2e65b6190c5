//! Game records: a human-readable text format in the spirit of chess PGN (see `docs/records.md`).
//!
//! ```text
//! [Event "Casual game"]
//! [Date "2026.11.30"]
//! [B "Mawii"]
//! [A "vlt level 5"]
//! [Rules "vlt R1-R7"]
//! [Result "B"]
//! [Score "32-28"]
//! [Termination "empty board"]
//!
//! 1. 3B 2. 4A { a quiet move } 3. 1B …
//! ```

mod read;

pub use read::{MAX_GAME_BYTES, RecordReader};

use crate::game::{GameResult, PlayError};
use crate::{Game, Move, Player, Position};
use std::fmt;
use std::fmt::Write as _;

/// The rules a record follows; written in the `Rules` tag.
pub const RULES_TAG: &str = "vlt R1-R7";

/// Tags derived from the game on writing.
const DERIVED: [&str; 5] = ["Rules", "Start", "Result", "Score", "Termination"];

/// A game with its tags and comments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Tags other than the ones derived from the game (`Rules`, `Start`, `Result`, `Score`,
    /// `Termination`), in order: for example `Event`, `Date`, `B`, `A`.
    pub tags: Vec<(String, String)>,
    /// The game, replayed and validated.
    pub game: Game,
    /// Comments, each after the given number of moves (0 = before the first move).
    pub comments: Vec<(usize, String)>,
}

/// Why a record cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RecordError {
    /// A tag line is malformed.
    BadTag {
        /// The line number in the text (1-based).
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The `Start` tag is not a position string.
    BadStart(crate::ParsePositionError),
    /// A token of the move text is neither a move, a move number nor a comment.
    BadToken {
        /// The line number in the text (1-based).
        line: usize,
        /// The token.
        token: String,
    },
    /// A move number does not match the count of moves before it.
    WrongNumber {
        /// The number expected.
        expected: usize,
        /// The token found.
        found: String,
    },
    /// A move is illegal, or comes after the end of the game.
    IllegalMove {
        /// The move's number (1-based).
        number: usize,
        /// The move.
        mv: Move,
        /// Why it is illegal.
        reason: PlayError,
    },
    /// A comment is not closed.
    UnclosedComment {
        /// The line where it opens.
        line: usize,
    },
    /// The result tags disagree with the replayed game.
    ResultMismatch {
        /// What the tags say.
        tags: String,
        /// What the moves give.
        moves: String,
    },
    /// There is no game in the text.
    Empty,
    /// A game's text is longer than a stream reader takes ([`MAX_GAME_BYTES`]).
    TooLong {
        /// The line the reader had reached.
        line: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// The text is not UTF-8.
    NotUtf8 {
        /// The line of the first byte that is not.
        line: usize,
    },
    /// Reading the stream failed (the message of the I/O error).
    Io(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RecordError::*;
        match self {
            BadTag { line, reason } => write!(f, "record line {line}: bad tag: {reason}"),
            BadStart(e) => write!(f, "record: Start tag: {e}"),
            BadToken { line, token } => {
                let token = shorten(token);
                write!(f, "record line {line}: {token:?} is not a move, a move number or a comment")
            }
            WrongNumber { expected, found } => {
                let found = shorten(found);
                write!(f, "record: move number {found:?} where move {expected} was expected")
            }
            IllegalMove { number, mv, reason } => write!(f, "record: move {number} ({mv}): {reason}"),
            UnclosedComment { line } => write!(f, "record line {line}: comment not closed with '}}'"),
            ResultMismatch { tags, moves } => {
                write!(f, "record: the tags say {tags} but the moves give {moves}")
            }
            Empty => write!(f, "record: no game found"),
            TooLong { line, limit } => {
                write!(f, "record line {line}: the game is longer than {limit} bytes")
            }
            NotUtf8 { line } => write!(f, "record line {line}: the text is not UTF-8"),
            Io(e) => write!(f, "record: {e}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// At most 40 characters of a token quoted in an error, so that the message stays one short line.
fn shorten(token: &str) -> String {
    match token.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &token[..i]),
        None => token.to_string(),
    }
}

fn result_word(r: Option<GameResult>) -> &'static str {
    match r {
        None => "*",
        Some(GameResult { winner: Some(Player::B), .. }) => "B",
        Some(GameResult { winner: Some(Player::A), .. }) => "A",
        Some(GameResult { winner: None, .. }) => "draw",
    }
}

fn quote(value: &str) -> String {
    let mut s = String::with_capacity(value.len() + 2);
    s.push('"');
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                s.push('\\');
                s.push(c);
            }
            '\n' | '\r' => s.push(' '),
            _ => s.push(c),
        }
    }
    s.push('"');
    s
}

impl Record {
    /// A record of `game` with no tags.
    #[must_use]
    pub fn new(game: Game) -> Record {
        Record { tags: Vec::new(), game, comments: Vec::new() }
    }

    /// The value of a tag, if present.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing an earlier value. Tags derived from the game are ignored.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        if DERIVED.contains(&name) {
            return;
        }
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Reads the first game of `text`.
    ///
    /// # Errors
    /// [`RecordError`] naming the line, tag or move number that is wrong.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut all = Record::parse_all(text)?;
        if all.is_empty() { Err(RecordError::Empty) } else { Ok(all.swap_remove(0)) }
    }

    /// Reads every game of `text` (games follow one another, each starting with its tags).
    ///
    /// # Errors
    /// [`RecordError`] for the first game that is wrong.
    pub fn parse_all(text: &str) -> Result<Vec<Record>, RecordError> {
        read::parse_all(text)
    }
}

impl fmt::Display for Record {
    /// Writes the record; reading the text back gives an equal record.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The caller's tags in their order (so reading gives back the same record), then the
        // ones derived from the game.
        let mut tags: Vec<(&str, String)> = Vec::new();
        for (k, v) in &self.tags {
            if !DERIVED.contains(&k.as_str()) {
                tags.push((k, v.clone()));
            }
        }
        tags.push(("Rules", RULES_TAG.to_string()));
        if self.game.start() != Position::START {
            tags.push(("Start", self.game.start().to_string()));
        }
        let result = self.game.result();
        tags.push(("Result", result_word(result).to_string()));
        let score = self.game.position().captures();
        tags.push(("Score", format!("{}-{}", score.b, score.a)));
        tags.push(("Termination", result.map_or("unterminated", |r| r.termination.as_str()).to_string()));
        for (k, v) in tags {
            writeln!(f, "[{k} {}]", quote(&v))?;
        }
        writeln!(f)?;
        let mut line = String::new();
        let flush = |line: &mut String, f: &mut fmt::Formatter<'_>| -> fmt::Result {
            if !line.is_empty() {
                writeln!(f, "{}", line.trim_end())?;
                line.clear();
            }
            Ok(())
        };
        let mut comments = self.comments.iter().peekable();
        for i in 0..=self.game.moves().len() {
            while let Some((at, c)) = comments.peek() {
                if *at != i {
                    break;
                }
                let _ = write!(line, "{{ {} }} ", c.replace('}', ")"));
                comments.next();
            }
            if let Some(mv) = self.game.moves().get(i) {
                let _ = write!(line, "{}. {mv} ", i + 1);
                if line.len() > 72 {
                    flush(&mut line, f)?;
                }
            }
        }
        for (_, c) in comments {
            let _ = write!(line, "{{ {} }} ", c.replace('}', ")"));
        }
        line.push('*');
        flush(&mut line, f)
    }
}
