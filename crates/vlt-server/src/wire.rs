//! The JSON bodies of requests to create games, and the seat handed back.

use crate::kinds::{Mode, Side};
use crate::seat::Seat;
use crate::view::GameView;
use serde::{Deserialize, Serialize};

/// What creating a game asks for.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// How it is played (default: against the computer).
    pub mode: Option<Mode>,
    /// The computer's level, 1–10 (default 3).
    pub level: Option<u8>,
    /// The creator's seat (default B). In `local` games the token holds both.
    pub side: Option<Side>,
    /// Who moves first (R2: B by default). Ignored when `position` is given.
    pub first: Option<Side>,
    /// A custom start position (N2), e.g. a study with few stones.
    pub position: Option<String>,
    /// A time control (online games only).
    pub clock: Option<crate::clock::TimeControl>,
    /// Whether the result changes the players' ratings (online games between named players).
    pub rated: Option<bool>,
}

/// A seat handed out: the token to keep secret and the game.
#[derive(Clone, Debug, Serialize)]
pub struct Seated {
    /// The seat.
    pub seat: Seat,
    /// The secret that holds the seat.
    pub token: String,
    /// The game.
    pub game: GameView,
}

/// What an import made: the first game's seat, and every game's id in the record's order (one
/// token holds both seats of each).
#[derive(Clone, Debug, Serialize)]
pub struct Imported {
    /// The first game, as creating it would answer.
    #[serde(flatten)]
    pub seated: Seated,
    /// Every imported game's id, the first one first.
    pub games: Vec<String>,
}
