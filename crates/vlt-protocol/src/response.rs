//! Responses: the lines the engine sends (docs/protocol.md, "Responses"). `Display` writes them;
//! `FromStr` reads them back, for clients such as the match runner driving an external engine.

use std::fmt;
use std::str::FromStr;
use vlt_core::Move;

/// A line sent by the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Response {
    /// `id name NAME`.
    IdName(String),
    /// `id author AUTHOR`.
    IdAuthor(String),
    /// `option name NAME type …`.
    Option(OptionSpec),
    /// `vltok`: the end of the handshake.
    VltOk,
    /// `readyok`.
    ReadyOk,
    /// `info …`: progress of a search.
    Info(Info),
    /// `bestmove MOVE`, or `bestmove none` when the game is over (no legal move).
    BestMove(Option<Move>),
    /// `error MESSAGE`: the last command was refused; the session carries on unchanged.
    Error(String),
}

/// The progress report of one finished search iteration.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// Depth completed, in plies.
    pub depth: u32,
    /// Score in stones for the player to move: its future captures minus the opponent's.
    pub score: i32,
    /// True when the score is proven (written as the bare word `exact`).
    pub exact: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since `go`.
    pub time_ms: u64,
    /// The principal variation (N1 moves).
    pub pv: Vec<Move>,
}

/// An option offered in the handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The option's name.
    pub name: String,
    /// Its type and range.
    pub kind: OptionKind,
}

/// The type of an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin {
        /// The default.
        default: i64,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// One of a list of words.
    Combo {
        /// The default.
        default: String,
        /// The allowed values.
        vars: Vec<String>,
    },
}

impl fmt::Display for OptionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Spin { default, min, max } => write!(f, "spin default {default} min {min} max {max}"),
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
        }
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "info depth {} score {}", self.depth, self.score)?;
        if self.exact {
            f.write_str(" exact")?;
        }
        write!(f, " nodes {} nps {} time {} pv", self.nodes, self.nps, self.time_ms)?;
        self.pv.iter().try_for_each(|m| write!(f, " {m}"))
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::IdName(s) => write!(f, "id name {s}"),
            Response::IdAuthor(s) => write!(f, "id author {s}"),
            Response::Option(o) => o.fmt(f),
            Response::VltOk => f.write_str("vltok"),
            Response::ReadyOk => f.write_str("readyok"),
            Response::Info(i) => i.fmt(f),
            Response::BestMove(Some(m)) => write!(f, "bestmove {m}"),
            Response::BestMove(None) => f.write_str("bestmove none"),
            // One line always: a message can never break the framing.
            Response::Error(e) => write!(f, "error {}", e.replace(['\n', '\r'], " ")),
        }
    }
}

/// Why an engine's line could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unreadable engine line {line:?}: {reason}")]
pub struct ParseResponseError {
    /// The line (shortened).
    pub line: String,
    /// What is wrong.
    pub reason: String,
}

impl FromStr for Response {
    type Err = ParseResponseError;

    fn from_str(line: &str) -> Result<Response, ParseResponseError> {
        let err = |reason: &str| ParseResponseError {
            line: line.chars().take(80).collect(),
            reason: reason.to_string(),
        };
        let w: Vec<&str> = line.split_whitespace().collect();
        let after = |n: usize| w.get(n..).map(|r| r.join(" ")).unwrap_or_default();
        match w.as_slice() {
            ["vltok"] => Ok(Response::VltOk),
            ["readyok"] => Ok(Response::ReadyOk),
            ["id", "name", ..] => Ok(Response::IdName(after(2))),
            ["id", "author", ..] => Ok(Response::IdAuthor(after(2))),
            ["error", ..] => Ok(Response::Error(after(1))),
            ["bestmove", "none"] => Ok(Response::BestMove(None)),
            ["bestmove", m, ..] => {
                m.parse().map(|m| Response::BestMove(Some(m))).map_err(|_| err("bestmove is not a move"))
            }
            ["info", ..] => parse_info(&w[1..]).map(Response::Info).map_err(|r| err(&r)),
            ["option", ..] => parse_option(&w[1..]).map(Response::Option).map_err(|r| err(&r)),
            _ => Err(err("unknown response")),
        }
    }
}

fn parse_info(w: &[&str]) -> Result<Info, String> {
    let mut i = Info::default();
    let mut it = w.iter();
    while let Some(k) = it.next() {
        let mut num = || it.next().and_then(|v| v.parse::<i64>().ok()).ok_or(format!("{k} needs a number"));
        match *k {
            "depth" => i.depth = u32::try_from(num()?).map_err(|e| e.to_string())?,
            "score" => i.score = i32::try_from(num()?).map_err(|e| e.to_string())?,
            "nodes" => i.nodes = u64::try_from(num()?).map_err(|e| e.to_string())?,
            "nps" => i.nps = u64::try_from(num()?).map_err(|e| e.to_string())?,
            "time" => i.time_ms = u64::try_from(num()?).map_err(|e| e.to_string())?,
            "exact" => i.exact = true,
            "pv" => {
                for m in it.by_ref() {
                    i.pv.push(m.parse().map_err(|_| format!("{m:?} in pv is not a move"))?);
                }
            }
            // Unknown fields are skipped with their value, so engines may add some.
            _ => {
                it.next();
            }
        }
    }
    Ok(i)
}

fn parse_option(w: &[&str]) -> Result<OptionSpec, String> {
    let ti = w.iter().position(|x| *x == "type").ok_or("no type")?;
    if w.first() != Some(&"name") || ti < 2 {
        return Err("no name".into());
    }
    let name = w[1..ti].join(" ");
    let field = |k: &str| w.iter().position(|x| *x == k).and_then(|i| w.get(i + 1)).copied();
    let int = |k: &str| field(k).and_then(|v| v.parse::<i64>().ok()).ok_or(format!("spin needs {k}"));
    let kind = match w.get(ti + 1) {
        Some(&"spin") => OptionKind::Spin { default: int("default")?, min: int("min")?, max: int("max")? },
        Some(&"combo") => OptionKind::Combo {
            default: field("default").ok_or("combo needs default")?.to_string(),
            vars: w.windows(2).filter(|p| p[0] == "var").map(|p| p[1].to_string()).collect(),
        },
        _ => return Err("unknown option type".into()),
    };
    Ok(OptionSpec { name, kind })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_round_trip() {
        let lines = [
            "id name vlt 0.1.0",
            "id author The vlt developers",
            "option name Level type spin default 10 min 1 max 10",
            "option name Algorithm type combo default alphabeta var alphabeta var mcts",
            "vltok",
            "readyok",
            "info depth 3 score -2 nodes 120 nps 5000 time 0 pv 3B 4A 1B",
            "info depth 30 score 4 exact nodes 1 nps 1 time 1 pv 6A",
            "bestmove 3B",
            "bestmove none",
            "error go: depth 0 is out of range 1-1000",
        ];
        for l in lines {
            let r: Response = l.parse().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(r.to_string(), l);
        }
    }

    #[test]
    fn unreadable_lines_are_errors() {
        for l in ["", "bestmove 9Z", "info depth x", "option name X type", "hello"] {
            assert!(l.parse::<Response>().is_err(), "{l}");
        }
    }

    #[test]
    fn error_messages_stay_on_one_line() {
        assert_eq!(Response::Error("a\nb".into()).to_string(), "error a b");
    }
}
