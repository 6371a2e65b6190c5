//! The words of the API and the database that mean one of a few things, as types: a game's mode, a
//! side, how a game ended, a forfeit. Each is (de)serialised as a short key on the wire and stored
//! as the same text as before in SQLite, so bad input is refused at the edge (serde, `FromSql`)
//! and the page receives keys it translates, never English sentences.

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use serde::{Deserialize, Serialize};
use vlt_core::{ByPlayer, GameResult, Player, Termination};

/// Implements `ToSql`/`FromSql` for a type stored as the text of its `as_str`/`from_key`.
macro_rules! sql_text {
    ($t:ty) => {
        impl ToSql for $t {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::from(self.as_str()))
            }
        }
        impl FromSql for $t {
            fn column_result(v: ValueRef<'_>) -> FromSqlResult<Self> {
                let s = v.as_str()?;
                <$t>::from_key(s)
                    .ok_or_else(|| FromSqlError::Other(format!("not a {}: {s:?}", stringify!($t)).into()))
            }
        }
    };
}

/// How a game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Against the computer.
    #[default]
    Computer,
    /// Two people on one screen (and imported games).
    Local,
    /// Two people, each on their own device.
    Online,
}

impl Mode {
    /// The key: `computer`, `local`, `online`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Computer => "computer",
            Mode::Local => "local",
            Mode::Online => "online",
        }
    }

    /// The mode with key `s`.
    #[must_use]
    pub fn from_key(s: &str) -> Option<Mode> {
        [Mode::Computer, Mode::Local, Mode::Online].into_iter().find(|m| m.as_str() == s)
    }
}
sql_text!(Mode);

/// One of the two players (R1), as `"B"` or `"A"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    /// The player moving first by default (R2).
    B,
    /// The other player.
    A,
}

impl Side {
    /// The key: `B` or `A`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Side::B => "B",
            Side::A => "A",
        }
    }

    /// The side with key `s` (exactly `B` or `A`).
    #[must_use]
    pub fn from_key(s: &str) -> Option<Side> {
        match s {
            "B" => Some(Side::B),
            "A" => Some(Side::A),
            _ => None,
        }
    }

    /// The other side.
    #[must_use]
    pub fn other(self) -> Side {
        Player::from(self).other().into()
    }
}
sql_text!(Side);

impl From<Player> for Side {
    fn from(p: Player) -> Side {
        match p {
            Player::B => Side::B,
            Player::A => Side::A,
        }
    }
}

impl From<Side> for Player {
    fn from(s: Side) -> Player {
        match s {
            Side::B => Player::B,
            Side::A => Player::A,
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a game ended, as the page's key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// The board is empty (R6).
    EmptyBoard,
    /// The third occurrence of a position (R7).
    Repetition,
    /// A player resigned.
    Resignation,
    /// A player's clock ran out.
    Time,
    /// Nobody made the first move in time: the game ended without a result.
    Aborted,
    /// A way of ending that this build of the server has no key for.
    Other,
}

impl From<Termination> for End {
    fn from(t: Termination) -> End {
        match t {
            Termination::EmptyBoard => End::EmptyBoard,
            Termination::Repetition => End::Repetition,
            Termination::Resignation(_) => End::Resignation,
            Termination::TimeForfeit(_) => End::Time,
            _ => End::Other,
        }
    }
}

/// Why a seat lost without the board deciding: stored in the `resigned` column as `B`/`A` for a
/// resignation, `B:time`/`A:time` when the clock ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Forfeit {
    /// The seat that lost.
    pub side: Side,
    /// True when its time ran out, false when it resigned.
    pub time: bool,
}

impl Forfeit {
    /// The stored text.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match (self.side, self.time) {
            (Side::B, false) => "B",
            (Side::A, false) => "A",
            (Side::B, true) => "B:time",
            (Side::A, true) => "A:time",
        }
    }

    /// The forfeit stored as `s`.
    #[must_use]
    pub fn from_key(s: &str) -> Option<Forfeit> {
        let (side, time) = s.split_once(':').map_or((s, false), |(p, why)| (p, why == "time"));
        if s.contains(':') && !time {
            return None;
        }
        Some(Forfeit { side: Side::from_key(side)?, time })
    }

    /// The forfeit that ended a game this way, if it was one.
    #[must_use]
    pub fn of(t: Termination) -> Option<Forfeit> {
        match t {
            Termination::Resignation(p) => Some(Forfeit { side: p.into(), time: false }),
            Termination::TimeForfeit(p) => Some(Forfeit { side: p.into(), time: true }),
            _ => None,
        }
    }
}
sql_text!(Forfeit);

/// A result as stored in the `result` column: vlt-core's notation of it (`B wins 32-28 (empty
/// board)`, `A wins 1-0 (resignation), B resigned`), which records use too, read back typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredResult(pub GameResult);

impl StoredResult {
    /// Reads vlt-core's notation of a result.
    #[must_use]
    pub fn parse(text: &str) -> Option<GameResult> {
        let (head, rest) = text.split_once(" (")?;
        let (termination, tail) = rest.split_once(')')?;
        let mut words = head.split(' ');
        let winner = match words.next()? {
            "draw" => None,
            p @ ("A" | "B") if words.next()? == "wins" => Some(p.parse::<Player>().ok()?),
            _ => return None,
        };
        let (b, a) = words.next()?.split_once('-')?;
        let named = tail
            .strip_prefix(", ")
            .and_then(|t| t.split(' ').next())
            .and_then(|p| Side::from_key(p).map(Player::from));
        // A forfeit names the loser, who is always the winner's opponent.
        let loser = named.or(winner.map(Player::other));
        let termination = match termination {
            "empty board" => Termination::EmptyBoard,
            "repetition" => Termination::Repetition,
            "resignation" => Termination::Resignation(loser?),
            "time forfeit" => Termination::TimeForfeit(loser?),
            _ => return None,
        };
        Some(GameResult { winner, score: ByPlayer::new(b.parse().ok()?, a.parse().ok()?), termination })
    }
}

impl ToSql for StoredResult {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.0.to_string()))
    }
}

impl FromSql for StoredResult {
    fn column_result(v: ValueRef<'_>) -> FromSqlResult<Self> {
        let s = v.as_str()?;
        StoredResult::parse(s)
            .map(StoredResult)
            .ok_or_else(|| FromSqlError::Other(format!("not a result: {s:?}").into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_result_text_reads_back_into_the_same_result() {
        for (winner, score, termination) in [
            (Some(Player::B), (32, 28), Termination::EmptyBoard),
            (None, (25, 25), Termination::Repetition),
            (Some(Player::A), (0, 1), Termination::Resignation(Player::B)),
            (Some(Player::B), (10, 12), Termination::TimeForfeit(Player::A)),
        ] {
            let r = GameResult { winner, score: ByPlayer::new(score.0, score.1), termination };
            assert_eq!(StoredResult::parse(&r.to_string()), Some(r), "{r}");
        }
        assert_eq!(StoredResult::parse("nonsense"), None);
        assert_eq!(StoredResult::parse("C wins 1-2 (empty board)"), None);
        assert_eq!(StoredResult::parse("B wins 1-2 (boredom)"), None);
    }

    #[test]
    fn keys_round_trip_and_strangers_are_refused() {
        for m in [Mode::Computer, Mode::Local, Mode::Online] {
            assert_eq!(Mode::from_key(m.as_str()), Some(m));
            assert_eq!(serde_json::to_value(m).unwrap(), m.as_str());
        }
        assert_eq!(Mode::from_key("chess"), None);
        assert!(serde_json::from_str::<Side>("\"b\"").is_err());
        for f in ["B", "A", "B:time", "A:time"] {
            assert_eq!(Forfeit::from_key(f).map(Forfeit::as_str), Some(f));
        }
        assert_eq!(Forfeit::from_key("B:boredom"), None);
        assert_eq!(Forfeit::from_key("C"), None);
        assert_eq!(serde_json::to_value(End::from(Termination::TimeForfeit(Player::A))).unwrap(), "time");
        assert_eq!(serde_json::to_value(End::EmptyBoard).unwrap(), "empty_board");
    }
}
