//! Reading records: one parser over a buffer that a source fills, so a string and a stream
//! (`vlt replay`, a file of any size) are read by the same code. From a stream only the game being
//! read is held, and at most [`MAX_GAME_BYTES`] of it.

use super::{DERIVED, Record, RecordError, result_word};
use crate::{Game, Move, Player, Position};
use std::io::{self, BufRead};

/// The longest text of one game a [`RecordReader`] accepts (tags, moves and comments): far more
/// than any real game (a few kilobytes), small enough that an endless input costs little memory.
pub const MAX_GAME_BYTES: usize = 1 << 20;

/// Where the parser's text comes from.
trait Source {
    /// Appends more text to `buf`, whole characters only; false at the end.
    fn more(&mut self, buf: &mut String) -> Result<bool, RecordError>;
}

/// All of a string at once.
struct Text<'a>(Option<&'a str>);

impl Source for Text<'_> {
    fn more(&mut self, buf: &mut String) -> Result<bool, RecordError> {
        Ok(self.0.take().map(|t| buf.push_str(t)).is_some())
    }
}

/// A byte stream, decoded as UTF-8 a chunk at a time.
struct Stream<R> {
    input: R,
    /// The start of a character split between two chunks.
    pending: Vec<u8>,
    /// The newlines handed out so far, to name the line of a byte that is not UTF-8.
    lines: usize,
}

impl<R: BufRead> Source for Stream<R> {
    fn more(&mut self, buf: &mut String) -> Result<bool, RecordError> {
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(RecordError::Io(e.to_string())),
            };
            if chunk.is_empty() {
                return if self.pending.is_empty() {
                    Ok(false)
                } else {
                    Err(RecordError::NotUtf8 { line: self.lines + 1 })
                };
            }
            let n = chunk.len();
            self.pending.extend_from_slice(chunk);
            self.input.consume(n);
            let valid = match std::str::from_utf8(&self.pending) {
                Ok(s) => s.len(),
                // A character cut at the end of the chunk: the rest comes with the next one.
                Err(e) if e.error_len().is_none() => e.valid_up_to(),
                Err(e) => {
                    let before = &self.pending[..e.valid_up_to()];
                    let line = self.lines + 1 + before.iter().filter(|&&b| b == b'\n').count();
                    return Err(RecordError::NotUtf8 { line });
                }
            };
            if valid == 0 {
                continue;
            }
            let text = std::str::from_utf8(&self.pending[..valid]).expect("checked above");
            self.lines += text.bytes().filter(|&b| b == b'\n').count();
            buf.push_str(text);
            self.pending.drain(..valid);
            return Ok(true);
        }
    }
}

/// The games of a byte stream, read one at a time: each item is the next game, or the error that
/// ends the reading (a bad game, text that is not UTF-8, a game longer than [`MAX_GAME_BYTES`], a
/// failed read). Memory holds one game, whatever the length of the input.
///
/// ```
/// use vlt_core::record::RecordReader;
///
/// let text = "[Event \"one\"]\n1. 3B 2. 4A *\n[Event \"two\"]\n1. 1B *\n";
/// let games: Vec<_> = RecordReader::new(text.as_bytes()).collect::<Result<_, _>>().unwrap();
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[1].tag("Event"), Some("two"));
/// ```
pub struct RecordReader<R> {
    parser: Parser<Stream<R>>,
    done: bool,
}

impl<R: BufRead> RecordReader<R> {
    /// Reads the games of `input`.
    pub fn new(input: R) -> RecordReader<R> {
        let source = Stream { input, pending: Vec::new(), lines: 0 };
        RecordReader { parser: Parser::new(source, MAX_GAME_BYTES), done: false }
    }
}

impl<R: BufRead> Iterator for RecordReader<R> {
    type Item = Result<Record, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let r = self.parser.game().transpose();
        self.done = !matches!(r, Some(Ok(_)));
        r
    }
}

/// Every game of `text` (see [`Record::parse_all`]).
pub(super) fn parse_all(text: &str) -> Result<Vec<Record>, RecordError> {
    let mut parser = Parser::new(Text(Some(text)), usize::MAX);
    let mut records = Vec::new();
    while let Some(r) = parser.game()? {
        records.push(r);
    }
    Ok(records)
}

struct Parser<S> {
    source: S,
    /// The text of the game being read (from a stream, only that), from its first byte.
    buf: String,
    pos: usize,
    line: usize,
    /// Where the current game's text starts in `buf`.
    start: usize,
    /// Between two games: the text skipped is nobody's, and can go as it is read.
    between: bool,
    /// The most text one game may have.
    limit: usize,
    end: bool,
    /// What ended the text early (a read error, invalid UTF-8, a game too long): the parser then
    /// sees the end of the text, and this error replaces whatever that leads to.
    failed: Option<RecordError>,
}

enum Token {
    Tag(String, String),
    Comment(String),
    Word(String),
}

impl<S: Source> Parser<S> {
    fn new(source: S, limit: usize) -> Parser<S> {
        Parser {
            source,
            buf: String::new(),
            pos: 0,
            line: 1,
            start: 0,
            between: true,
            limit,
            end: false,
            failed: None,
        }
    }

    /// Asks the source for more text, first dropping what no game needs any more.
    fn refill(&mut self) {
        if self.between {
            self.compact();
        }
        if self.buf.len() - self.start > self.limit {
            self.failed = Some(RecordError::TooLong { line: self.line, limit: self.limit });
            return;
        }
        match self.source.more(&mut self.buf) {
            Ok(more) => self.end = !more,
            Err(e) => self.failed = Some(e),
        }
    }

    /// Drops the text before `pos`, once it is at least half the buffer (so a long string read
    /// whole is copied a bounded number of times in all). Only between games: within one, a token
    /// being read points into the buffer.
    fn compact(&mut self) {
        if self.pos > 0 && self.pos >= self.buf.len() / 2 {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        self.start = self.pos;
    }

    fn peek(&mut self) -> Option<char> {
        loop {
            if let Some(c) = self.buf[self.pos..].chars().next() {
                return Some(c);
            }
            if self.end || self.failed.is_some() {
                return None;
            }
            self.refill();
        }
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

    /// The next game, or `None` at the end of the text.
    fn game(&mut self) -> Result<Option<Record>, RecordError> {
        self.between = true;
        self.skip_space();
        self.between = false;
        self.compact();
        let r = self.game_text();
        match self.failed.take() {
            Some(e) => Err(e),
            None => r,
        }
    }
    fn token(&mut self) -> Result<Option<(usize, Token)>, RecordError> {
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
                let name = self.buf[start..self.pos].to_string();
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
                let body = self.buf[start..self.pos].split_whitespace().collect::<Vec<_>>().join(" ");
                self.bump();
                Ok(Some((line, Token::Comment(body))))
            }
            Some(_) => {
                let start = self.pos;
                while self.peek().is_some_and(|c| !c.is_whitespace() && !matches!(c, '{' | '[' | ';')) {
                    self.bump();
                }
                Ok(Some((line, Token::Word(self.buf[start..self.pos].to_string()))))
            }
        }
    }

    fn game_text(&mut self) -> Result<Option<Record>, RecordError> {
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
                Token::Word(w) if w == "*" => break, // the end of the game's move text
                Token::Word(w) => {
                    let played = game.moves().len();
                    match w.strip_suffix('.') {
                        Some(num) if !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()) => {
                            if num.parse::<usize>().ok() != Some(played + 1) {
                                return Err(RecordError::WrongNumber {
                                    expected: played + 1,
                                    found: w.clone(),
                                });
                            }
                        }
                        _ => {
                            let mv = Move::parse_with(&w, None)
                                .map_err(|_| RecordError::BadToken { line, token: w.clone() })?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out its bytes a few at a time, splitting characters, as a pipe may.
    struct Trickle<'a>(&'a [u8], usize);

    impl io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(buf.len()).min(self.1);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn stream(text: &[u8], step: usize) -> RecordReader<io::BufReader<Trickle<'_>>> {
        RecordReader::new(io::BufReader::with_capacity(5, Trickle(text, step)))
    }

    const GAMES: &str = "[Event \"Ŝŧŕëàm\"]\n\n1. 3B { ŝŏme çomment } 2. 4A ; ignored\n*\n\
                         [Event \"two\"]\n[Start \"1,0,1,0,1,0/1,2,0,1,2,0 A 25 26\"]\n5A 1B *\n  \n1. 1B\n";

    #[test]
    fn a_stream_reads_as_the_whole_text_does() {
        let whole = Record::parse_all(GAMES).expect("valid");
        assert_eq!(whole.len(), 3);
        for step in [1, 2, 3, 7, 1000] {
            let streamed: Vec<Record> =
                stream(GAMES.as_bytes(), step).collect::<Result<_, _>>().expect("valid");
            assert_eq!(streamed, whole, "read {step} bytes at a time");
        }
    }

    #[test]
    fn errors_end_the_stream_and_name_the_line() {
        let bad = GAMES.replace("2. 4A", "2. 9A");
        let mut r = stream(bad.as_bytes(), 3);
        assert!(matches!(r.next(), Some(Err(RecordError::BadToken { line: 3, .. }))));
        assert!(r.next().is_none(), "nothing after an error");
        let mut bytes = GAMES.as_bytes().to_vec();
        bytes.splice(60..60, [0xff, b'\n']);
        let line = 1 + GAMES[..60].matches('\n').count();
        let got: Vec<_> = stream(&bytes, 4).collect();
        assert!(matches!(got.last(), Some(Err(RecordError::NotUtf8 { line: l })) if *l == line), "{got:?}");
        // A character cut off by the end of the input is not UTF-8 either.
        let cut = &"1. 3B { é }".as_bytes()[..9];
        assert!(matches!(stream(cut, 1).next(), Some(Err(RecordError::NotUtf8 { line: 1 }))));
    }

    /// A game longer than the limit is refused once the limit is passed, without reading on: an
    /// endless input ends, in bounded memory.
    #[test]
    fn an_endless_game_is_cut_at_the_limit() {
        let mut r = RecordReader::new(io::BufReader::new(io::repeat(0)));
        let e = r.next().expect("an item").expect_err("too long");
        assert!(matches!(e, RecordError::TooLong { line: 1, limit: MAX_GAME_BYTES }), "{e:?}");
        assert!(r.parser.buf.capacity() <= 4 * MAX_GAME_BYTES, "{}", r.parser.buf.capacity());
        let comment = format!("1. 3B {{ {} }} *\n", "x".repeat(MAX_GAME_BYTES));
        assert!(matches!(stream(comment.as_bytes(), 4096).next(), Some(Err(RecordError::TooLong { .. }))));
        assert_eq!(Record::parse_all(&comment).expect("a string has no limit").len(), 1);
    }

    /// Many games in a row: only about one is held at a time.
    #[test]
    fn memory_holds_one_game() {
        let one = "[Event \"e\"]\n1. 3B 2. 4A 3. 1B *\n";
        let text = one.repeat(5000);
        let mut r = RecordReader::new(io::BufReader::with_capacity(64, text.as_bytes()));
        let mut n = 0;
        while let Some(g) = r.next() {
            g.expect("valid");
            n += 1;
            assert!(r.parser.buf.len() <= 4 * one.len() + 64, "{} bytes held", r.parser.buf.len());
        }
        assert_eq!(n, 5000);
    }
}
