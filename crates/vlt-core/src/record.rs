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
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RecordError::*;
        match self {
            BadTag { line, reason } => write!(f, "record line {line}: bad tag: {reason}"),
            BadStart(e) => write!(f, "record: Start tag: {e}"),
            BadToken { line, token } => {
                write!(f, "record line {line}: {token:?} is not a move, a move number or a comment")
            }
            WrongNumber { expected, found } => {
                write!(f, "record: move number {found:?} where move {expected} was expected")
            }
            IllegalMove { number, mv, reason } => write!(f, "record: move {number} ({mv}): {reason}"),
            UnclosedComment { line } => write!(f, "record line {line}: comment not closed with '}}'"),
            ResultMismatch { tags, moves } => {
                write!(f, "record: the tags say {tags} but the moves give {moves}")
            }
            Empty => write!(f, "record: no game found"),
        }
    }
}

impl std::error::Error for RecordError {}

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
        let mut records = Vec::new();
        let mut parser = Parser { text, pos: 0, line: 1 };
        while let Some(r) = parser.game()? {
            records.push(r);
        }
        Ok(records)
    }
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

enum Token<'a> {
    Tag(String, String),
    Comment(String),
    Word(&'a str),
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while let Some(c) = self.peek() {
            if c == ';' {
                while self.peek().is_some_and(|c| c != '\n') {
                    self.bump();
                }
            } else if c.is_whitespace() {
                self.bump();
            } else {
                break;
            }
        }
    }

    fn peek_is_tag(&mut self) -> bool {
        self.skip_space();
        self.peek() == Some('[')
    }

    fn token(&mut self) -> Result<Option<(usize, Token<'a>)>, RecordError> {
        self.skip_space();
        let line = self.line;
        match self.peek() {
            None => Ok(None),
            Some('[') => {
                self.bump();
                let start = self.pos;
                while self.peek().is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    self.bump();
                }
                let name = self.text[start..self.pos].to_string();
                if name.is_empty() {
                    return Err(RecordError::BadTag { line, reason: "missing tag name".into() });
                }
                while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
                    self.bump();
                }
                if self.bump() != Some('"') {
                    return Err(RecordError::BadTag {
                        line,
                        reason: format!("tag {name}: value must be quoted"),
                    });
                }
                let mut value = String::new();
                loop {
                    match self.bump() {
                        Some('"') => break,
                        Some('\\') => match self.bump() {
                            Some(c @ ('"' | '\\')) => value.push(c),
                            _ => {
                                return Err(RecordError::BadTag {
                                    line,
                                    reason: format!("tag {name}: bad escape"),
                                });
                            }
                        },
                        Some('\n') | None => {
                            return Err(RecordError::BadTag {
                                line,
                                reason: format!("tag {name}: value not closed"),
                            });
                        }
                        Some(c) => value.push(c),
                    }
                }
                while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
                    self.bump();
                }
                if self.bump() != Some(']') {
                    return Err(RecordError::BadTag { line, reason: format!("tag {name}: missing ']'") });
                }
                Ok(Some((line, Token::Tag(name, value))))
            }
            Some('{') => {
                self.bump();
                let start = self.pos;
                while self.peek().is_some_and(|c| c != '}') {
                    self.bump();
                }
                if self.peek().is_none() {
                    return Err(RecordError::UnclosedComment { line });
                }
                let body = self.text[start..self.pos].split_whitespace().collect::<Vec<_>>().join(" ");
                self.bump();
                Ok(Some((line, Token::Comment(body))))
            }
            Some(_) => {
                let start = self.pos;
                while self.peek().is_some_and(|c| !c.is_whitespace() && !matches!(c, '{' | '[' | ';')) {
                    self.bump();
                }
                Ok(Some((line, Token::Word(&self.text[start..self.pos]))))
            }
        }
    }

    fn game(&mut self) -> Result<Option<Record>, RecordError> {
        let mut tags: Vec<(String, String)> = Vec::new();
        let mut derived: Vec<(String, String)> = Vec::new();
        let mut first = None;
        loop {
            match self.token()? {
                None => break,
                Some((_, Token::Tag(k, v))) => {
                    if DERIVED.contains(&k.as_str()) {
                        derived.push((k, v));
                    } else {
                        tags.push((k, v));
                    }
                }
                Some(other) => {
                    first = Some(other);
                    break;
                }
            }
        }
        if tags.is_empty() && derived.is_empty() && first.is_none() {
            return Ok(None);
        }
        let get = |name: &str| derived.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
        let start = match get("Start") {
            Some(s) => s.parse::<Position>().map_err(RecordError::BadStart)?,
            None => Position::START,
        };
        let mut game = Game::new(start);
        let mut comments = Vec::new();
        let mut next = first;
        while let Some((line, tok)) = next.take() {
            match tok {
                Token::Tag(..) => unreachable!("tags end the move text before they are read"),
                Token::Comment(c) => comments.push((game.moves().len(), c)),
                Token::Word("*") => break, // the end of the game's move text
                Token::Word(w) => {
                    let played = game.moves().len();
                    match w.strip_suffix('.') {
                        Some(num) if !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()) => {
                            if num.parse::<usize>().ok() != Some(played + 1) {
                                return Err(RecordError::WrongNumber {
                                    expected: played + 1,
                                    found: w.to_string(),
                                });
                            }
                        }
                        _ => {
                            let mv = Move::parse_with(w, None)
                                .map_err(|_| RecordError::BadToken { line, token: w.to_string() })?;
                            game.play(mv).map_err(|reason| RecordError::IllegalMove {
                                number: played + 1,
                                mv,
                                reason,
                            })?;
                        }
                    }
                }
            }
            if !self.peek_is_tag() {
                next = self.token()?;
            }
        }
        // A forfeit cannot be seen in the moves: take it from the tags.
        let termination = get("Termination").unwrap_or("");
        let tag_result = get("Result").unwrap_or("*");
        if game.result().is_none() && matches!(termination, "resignation" | "time forfeit") {
            let loser = match tag_result {
                "B" => Player::A,
                "A" => Player::B,
                other => {
                    return Err(RecordError::ResultMismatch {
                        tags: format!("{termination} with result {other:?}"),
                        moves: "a game still in progress".into(),
                    });
                }
            };
            let r = if termination == "resignation" { game.resign(loser) } else { game.lose_on_time(loser) };
            r.expect("the game was not over");
        }
        if get("Result").is_some() && tag_result != result_word(game.result()) {
            return Err(RecordError::ResultMismatch {
                tags: format!("result {tag_result:?}"),
                moves: game
                    .result()
                    .map_or_else(|| "a game still in progress".to_string(), |r| r.to_string()),
            });
        }
        Ok(Some(Record { tags, game, comments }))
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
