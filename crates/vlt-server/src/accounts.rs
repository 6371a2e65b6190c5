//! The players as the store keeps them: names, token hashes, optional accounts (argon2 hashes),
//! ratings with their history, and the rating update a rated game's end makes (each store applies
//! it inside that ending's transaction).

use crate::kinds::{Mode, Side};
use crate::view::ResultView;
use serde::Serialize;
use vlt_core::{GameResult, Player};
use vlt_rating::{Outcome, Rating};

/// A player as others see them.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PlayerCard {
    /// The player's public id.
    pub id: String,
    /// The chosen name (escape it when showing it).
    pub name: String,
    /// The Glicko-2 rating, rounded.
    pub rating: i64,
    /// True while the rating is provisional (deviation above 110).
    pub provisional: bool,
    /// Rated games played.
    pub rated_games: i64,
    /// Whether the player has an account (a password).
    pub account: bool,
}

/// A player's row.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRow {
    /// Public id.
    pub id: String,
    /// Name.
    pub name: String,
    /// The account's login key, once a password is set.
    pub login: Option<String>,
    /// The rating.
    pub rating: Rating,
    /// Rated games played.
    pub rated_games: i64,
}

impl PlayerRow {
    /// The card others see.
    #[must_use]
    pub fn card(&self) -> PlayerCard {
        PlayerCard {
            id: self.id.clone(),
            name: self.name.clone(),
            rating: self.rating.rating.round() as i64,
            provisional: self.rating.is_provisional(),
            rated_games: self.rated_games,
            account: self.login.is_some(),
        }
    }
}

/// One point of a rating history: after game `game`, at time `at`.
#[derive(Clone, Debug, Serialize)]
pub struct RatingPoint {
    /// The game that changed it.
    pub game: String,
    /// The rating after it, rounded.
    pub rating: i64,
    /// Its deviation, rounded.
    pub deviation: i64,
    /// Seconds since the epoch.
    pub at: i64,
}

/// A past game of a player, for the player page.
#[derive(Clone, Debug, Serialize)]
pub struct PlayedGame {
    /// The game's id.
    pub id: String,
    /// How it was played.
    pub mode: Mode,
    /// Whether it was rated.
    pub rated: bool,
    /// The player's side in it.
    pub side: Side,
    /// The opponent, if known.
    pub opponent: Option<PlayerCard>,
    /// The result, once over.
    pub outcome: Option<ResultView>,
    /// Whether it was aborted.
    pub aborted: bool,
    /// Last change, seconds since the epoch.
    pub updated: i64,
}

/// Why renaming or making an account failed.
#[derive(Debug, PartialEq, Eq)]
pub enum Taken {
    /// Another account has that name.
    Name,
}

/// The players' new ratings, B then A, after a rated game between them ended in `result`.
#[must_use]
pub fn rated(b: Rating, a: Rating, result: GameResult) -> (Rating, Rating) {
    let outcome = match result.winner {
        Some(Player::B) => Outcome::Win,
        Some(Player::A) => Outcome::Loss,
        None => Outcome::Draw,
    };
    vlt_rating::rate_game(b, a, outcome)
}
