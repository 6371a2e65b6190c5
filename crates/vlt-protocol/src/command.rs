//! Commands: the lines a front end sends to the engine (docs/protocol.md, "Commands").
//!
//! Parsing checks everything that can be checked without the session: syntax, number ranges,
//! the position string (N2) and the legality of the moves after it (N1, R3). `Display` writes the
//! canonical form, so a client (the match runner) formats commands with the same code.

use std::fmt;
use std::str::FromStr;
use vlt_core::{Move, ParseHoleError, Position};

/// The largest accepted depth (plies); deeper requests are refused rather than silently clamped.
pub const MAX_DEPTH: u32 = 1000;

/// A command sent to the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Command {
    /// `vlt`: the handshake; the engine answers `id`, `option` lines and `vltok`.
    Vlt,
    /// `isready`: answered by `readyok`, also while searching.
    IsReady,
    /// `setoption name NAME [value VALUE]`.
    SetOption {
        /// The option's name as sent (matched case-insensitively).
        name: String,
        /// The value, if any.
        value: Option<String>,
    },
    /// `newgame`: forget earlier searches, back to the start position.
    NewGame,
    /// `position startpos|<N2> [moves M…]`.
    Position {
        /// The start position; `None` for `startpos`.
        start: Option<Position>,
        /// Moves played from it, each legal where it is played (checked when parsed).
        moves: Vec<Move>,
    },
    /// `go …`: search the current position.
    Go(Go),
    /// `stop`: end the search now; the engine answers with its `bestmove`.
    Stop,
    /// `quit`: end the session.
    Quit,
}

/// The limits of a `go` command. Times are in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `depth D`: plies, 1 to [`MAX_DEPTH`].
    pub depth: Option<u32>,
    /// `nodes N`: at least 1.
    pub nodes: Option<u64>,
    /// `movetime MS`: at least 1.
    pub movetime: Option<u64>,
    /// `btime MS`: B's clock.
    pub btime: Option<u64>,
    /// `atime MS`: A's clock.
    pub atime: Option<u64>,
    /// `binc MS`: B's increment.
    pub binc: Option<u64>,
    /// `ainc MS`: A's increment.
    pub ainc: Option<u64>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
}

impl Go {
    /// True when no limit at all was given (a plain `go`: the engine plays at its `Level`).
    #[must_use]
    pub fn is_plain(&self) -> bool {
        *self == Go::default()
    }
}

/// Why a line is not a valid command. The message is what the engine sends after `error `.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseCommandError {
    /// The line is empty (engines ignore empty lines; this is for callers that parse one).
    #[error("empty command")]
    Empty,
    /// The first word is no command.
    #[error("unknown command {0:?}")]
    Unknown(String),
    /// The command is known but its arguments are wrong.
    #[error("{command}: {reason}")]
    Bad {
        /// The command word.
        command: &'static str,
        /// What is wrong.
        reason: String,
    },
}

fn bad(command: &'static str, reason: impl Into<String>) -> ParseCommandError {
    ParseCommandError::Bad { command, reason: reason.into() }
}

/// Parses a decimal number, naming the field in the error (huge numbers are an error, not a wrap).
fn number<T: FromStr>(command: &'static str, field: &str, s: Option<&str>) -> Result<T, ParseCommandError> {
    let s = s.ok_or_else(|| bad(command, format!("{field} needs a value")))?;
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad(command, format!("{field} {:?} is not a whole number", shorten(s))));
    }
    s.parse().map_err(|_| bad(command, format!("{field} {} is too large", shorten(s))))
}

/// At most 20 characters of an echoed token, so that an error line stays short.
fn shorten(s: &str) -> String {
    if s.chars().count() > 20 {
        format!("{}…", s.chars().take(20).collect::<String>())
    } else {
        s.to_string()
    }
}

impl FromStr for Command {
    type Err = ParseCommandError;

    fn from_str(line: &str) -> Result<Command, ParseCommandError> {
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else { return Err(ParseCommandError::Empty) };
        let rest: Vec<&str> = words.collect();
        let no_args = |c: Command, name: &'static str| {
            if rest.is_empty() { Ok(c) } else { Err(bad(name, format!("unexpected {:?}", rest.join(" ")))) }
        };
        match first {
            "vlt" => no_args(Command::Vlt, "vlt"),
            "isready" => no_args(Command::IsReady, "isready"),
            "newgame" => no_args(Command::NewGame, "newgame"),
            "stop" => no_args(Command::Stop, "stop"),
            "quit" => no_args(Command::Quit, "quit"),
            "setoption" => parse_setoption(&rest),
            "position" => parse_position(&rest),
            "go" => parse_go(&rest).map(Command::Go),
            other => Err(ParseCommandError::Unknown(other.chars().take(40).collect())),
        }
    }
}

fn parse_setoption(w: &[&str]) -> Result<Command, ParseCommandError> {
    const C: &str = "setoption";
    if w.first() != Some(&"name") {
        return Err(bad(C, "expected \"name\""));
    }
    // Names and values may hold spaces (UCI): the name runs up to the word `value`.
    let vi = w.iter().position(|x| *x == "value");
    let name_words = &w[1..vi.unwrap_or(w.len())];
    if name_words.is_empty() {
        return Err(bad(C, "the option name is missing"));
    }
    let value = match vi {
        Some(i) if i + 1 < w.len() => Some(w[i + 1..].join(" ")),
        Some(_) => return Err(bad(C, "\"value\" needs a value")),
        None => None,
    };
    Ok(Command::SetOption { name: name_words.join(" "), value })
}

fn parse_position(w: &[&str]) -> Result<Command, ParseCommandError> {
    const C: &str = "position";
    let mi = w.iter().position(|x| *x == "moves");
    let head = &w[..mi.unwrap_or(w.len())];
    let start = match head {
        [] => return Err(bad(C, "expected \"startpos\" or a position string")),
        ["startpos"] => None,
        // N2 is four space-separated fields.
        _ => Some(head.join(" ").parse::<Position>().map_err(|e| {
            let m = e.to_string();
            // The position parser names itself already ("position: …").
            bad(C, m.strip_prefix("position: ").unwrap_or(&m).to_string())
        })?),
    };
    let mut moves = Vec::new();
    if let Some(i) = mi {
        let mut pos = start.unwrap_or(Position::START);
        for (n, s) in w[i + 1..].iter().enumerate() {
            // The rules' own message, about the text cut short (a line may be long).
            let mv = Move::parse_with(s, Some(pos.to_move()))
                .map_err(|_| bad(C, format!("move {}: {}", n + 1, ParseHoleError::Syntax(shorten(s)))))?;
            pos = pos.play(mv).map_err(|e| bad(C, format!("move {} ({mv}): {e}", n + 1)))?;
            moves.push(mv);
        }
    }
    Ok(Command::Position { start, moves })
}

fn parse_go(w: &[&str]) -> Result<Go, ParseCommandError> {
    const C: &str = "go";
    let mut g = Go::default();
    let mut it = w.iter().copied();
    while let Some(key) = it.next() {
        let slot: &mut Option<u64> = match key {
            "infinite" => {
                g.infinite = true;
                continue;
            }
            "depth" => {
                let d: u32 = number(C, key, it.next())?;
                if !(1..=MAX_DEPTH).contains(&d) {
                    return Err(bad(C, format!("depth {d} is out of range 1-{MAX_DEPTH}")));
                }
                g.depth = Some(d);
                continue;
            }
            "nodes" => &mut g.nodes,
            "movetime" => &mut g.movetime,
            "btime" => &mut g.btime,
            "atime" => &mut g.atime,
            "binc" => &mut g.binc,
            "ainc" => &mut g.ainc,
            other => {
                return Err(bad(
                    C,
                    format!("unknown limit {:?}", other.chars().take(40).collect::<String>()),
                ));
            }
        };
        let v: u64 = number(C, key, it.next())?;
        // Durations beyond ~31 years are certainly mistakes; refusing them keeps arithmetic safe.
        if v > MAX_NUMBER {
            return Err(bad(C, format!("{key} {v} is too large")));
        }
        if v == 0 && matches!(key, "nodes" | "movetime") {
            return Err(bad(C, format!("{key} must be at least 1")));
        }
        *slot = Some(v);
    }
    if g.infinite && (g.depth.is_some() || g.nodes.is_some() || g.movetime.is_some()) {
        return Err(bad(C, "infinite cannot be combined with depth, nodes or movetime"));
    }
    Ok(g)
}

/// The largest accepted count or time in milliseconds (2^40, about 35 years in ms).
pub const MAX_NUMBER: u64 = 1 << 40;

impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if let Some(d) = self.depth {
            write!(f, " depth {d}")?;
        }
        for (k, v) in [
            ("nodes", self.nodes),
            ("movetime", self.movetime),
            ("btime", self.btime),
            ("atime", self.atime),
            ("binc", self.binc),
            ("ainc", self.ainc),
        ] {
            if let Some(v) = v {
                write!(f, " {k} {v}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        Ok(())
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Vlt => f.write_str("vlt"),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value: Some(v) } => write!(f, "setoption name {name} value {v}"),
            Command::SetOption { name, value: None } => write!(f, "setoption name {name}"),
            Command::NewGame => f.write_str("newgame"),
            Command::Position { start, moves } => {
                match start {
                    None => f.write_str("position startpos")?,
                    Some(p) => write!(f, "position {p}")?,
                }
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    for m in moves {
                        write!(f, " {m}")?;
                    }
                }
                Ok(())
            }
            Command::Go(g) => g.fmt(f),
            Command::Stop => f.write_str("stop"),
            Command::Quit => f.write_str("quit"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Command, ParseCommandError> {
        s.parse()
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse("vlt"), Ok(Command::Vlt));
        assert_eq!(parse("  isready  "), Ok(Command::IsReady));
        assert_eq!(parse(""), Err(ParseCommandError::Empty));
        assert!(matches!(parse("isready now"), Err(ParseCommandError::Bad { .. })));
        assert!(matches!(parse("uci"), Err(ParseCommandError::Unknown(_))));
    }

    #[test]
    fn position_with_moves_resolves_bare_digits_by_the_mover() {
        // N1: a bare digit is the hole of the player to move; B moves first (R2).
        let c = parse("position startpos moves 3 4 1b").unwrap();
        let Command::Position { start: None, moves } = &c else { panic!("{c:?}") };
        let names: Vec<String> = moves.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["3B", "4A", "1B"]);
        assert_eq!(c.to_string(), "position startpos moves 3B 4A 1B");
    }

    #[test]
    fn position_string_and_illegal_moves() {
        let c = parse("position 1,0,1,0,1,0/1,2,0,1,2,0 A 25 26 moves 5A").unwrap();
        assert_eq!(c.to_string(), "position 1,0,1,0,1,0/1,2,0,1,2,0 A 25 26 moves 5A");
        // 2A is empty there (R3: a move sows from a hole with stones).
        let e = parse("position 1,0,1,0,1,0/1,2,0,1,2,0 A 25 26 moves 3A").unwrap_err();
        assert!(e.to_string().starts_with("position: move 1 (3A)"), "{e}");
        // It is A's turn: a B hole is not A's move.
        assert!(parse("position 1,0,1,0,1,0/1,2,0,1,2,0 A 25 26 moves 1B").is_err());
        assert!(parse("position 5,5,5/5,5,5 B 0 0").is_err());
        assert!(parse("position").is_err());
        assert!(parse("position startpos moves 7").is_err());
    }

    #[test]
    fn go_limits_round_trip() {
        let g = parse("go depth 7 nodes 1000 btime 60000 atime 59000 binc 1000 ainc 1000").unwrap();
        assert_eq!(g.to_string(), "go depth 7 nodes 1000 btime 60000 atime 59000 binc 1000 ainc 1000");
        assert_eq!(parse("go infinite").unwrap().to_string(), "go infinite");
        let Command::Go(plain) = parse("go").unwrap() else { panic!() };
        assert!(plain.is_plain());
    }

    #[test]
    fn go_rejects_bad_numbers() {
        for bad in [
            "go depth",
            "go depth 0",
            "go depth -3",
            "go depth 1001",
            "go depth 99999999999999999999999",
            "go nodes 0",
            "go movetime 1x",
            "go movetime 999999999999999",
            "go wtime 100",
            "go infinite depth 3",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn setoption_names_and_values() {
        assert_eq!(
            parse("setoption name Level value 5"),
            Ok(Command::SetOption { name: "Level".into(), value: Some("5".into()) })
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption { name: "Clear Hash".into(), value: None })
        );
        assert!(parse("setoption Level 5").is_err());
        assert!(parse("setoption name Level value").is_err());
        assert!(parse("setoption name value 3").is_err());
    }
}
