//! Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2012), for players of rated games
//! and for puzzles, which are rated like players: a solved puzzle is a win for the solver and a
//! loss for the puzzle.
//!
//! The arithmetic is the `skillratings` crate's; this crate fixes the system's constants for the
//! whole project (τ = 0.5, new ratings 1500 ± 350 with volatility 0.06) and gives the rating one
//! serialisable type.
//!
//! ```
//! use vlt_rating::{Outcome, Rating};
//! let (winner, loser) = vlt_rating::rate_game(Rating::default(), Rating::default(), Outcome::Win);
//! assert!(winner.rating > 1500.0 && loser.rating < 1500.0);
//! assert!(winner.deviation < 350.0);
//! ```

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating};

/// A Glicko-2 rating on the familiar (Glicko-1) scale.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating: 1500 for a newcomer.
    pub rating: f64,
    /// The rating deviation: how uncertain the rating is (350 for a newcomer, smaller with games).
    pub deviation: f64,
    /// The volatility: how erratic the player's results are (0.06 for a newcomer).
    pub volatility: f64,
}

/// A rating whose deviation is above this is provisional: shown with a `?`, and kept off the
/// leaderboard.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

impl Default for Rating {
    fn default() -> Self {
        Rating::from(Glicko2Rating::new())
    }
}

impl Rating {
    /// Whether the rating is still provisional (too few games to say much).
    #[must_use]
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The interval that holds the player's true strength with 95 % confidence.
    #[must_use]
    pub fn interval95(&self) -> (f64, f64) {
        skillratings::glicko2::confidence_interval(&(*self).into())
    }

    /// Whether every field is a finite number in its range (for values read from outside).
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.rating.is_finite()
            && self.deviation.is_finite()
            && self.deviation > 0.0
            && self.volatility.is_finite()
            && self.volatility > 0.0
    }
}

impl From<Glicko2Rating> for Rating {
    fn from(g: Glicko2Rating) -> Self {
        Rating { rating: g.rating, deviation: g.deviation, volatility: g.volatility }
    }
}

impl From<Rating> for Glicko2Rating {
    fn from(r: Rating) -> Self {
        Glicko2Rating { rating: r.rating, deviation: r.deviation, volatility: r.volatility }
    }
}

/// A game's result for the first player named.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The first player won.
    Win,
    /// The first player lost.
    Loss,
    /// Neither won.
    Draw,
}

impl Outcome {
    /// The same result seen from the other player.
    #[must_use]
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
        }
    }
}

impl From<Outcome> for Outcomes {
    fn from(o: Outcome) -> Self {
        match o {
            Outcome::Win => Outcomes::WIN,
            Outcome::Loss => Outcomes::LOSS,
            Outcome::Draw => Outcomes::DRAW,
        }
    }
}

fn config() -> Glicko2Config {
    Glicko2Config::new()
}

/// Both players' new ratings after one game between them, `outcome` being the first player's.
#[must_use]
pub fn rate_game(first: Rating, second: Rating, outcome: Outcome) -> (Rating, Rating) {
    let (a, b) = skillratings::glicko2::glicko2(&first.into(), &second.into(), &outcome.into(), &config());
    (a.into(), b.into())
}

/// A player's new rating after a rating period with `results` (each opponent's rating at the start
/// of the period and the player's outcome); with no results the deviation grows, as for a period
/// without games.
#[must_use]
pub fn rate_period(player: Rating, results: &[(Rating, Outcome)]) -> Rating {
    let results: Vec<(Glicko2Rating, Outcomes)> =
        results.iter().map(|&(r, o)| (r.into(), o.into())).collect();
    skillratings::glicko2::glicko2_rating_period(&player.into(), &results, &config()).into()
}

/// The first player's expected score against the second (1 a certain win, 0 a certain loss).
#[must_use]
pub fn expected(first: Rating, second: Rating) -> f64 {
    skillratings::glicko2::expected_score(&first.into(), &second.into()).0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating { rating, deviation, volatility: 0.06 }
    }

    /// The worked example of Glickman's paper: 1500 ± 200 beats 1400 ± 30, loses to 1550 ± 100 and
    /// to 1700 ± 300, and comes out at 1464.06 ± 151.52, volatility 0.05999.
    #[test]
    fn the_papers_worked_example() {
        let out = rate_period(
            r(1500.0, 200.0),
            &[
                (r(1400.0, 30.0), Outcome::Win),
                (r(1550.0, 100.0), Outcome::Loss),
                (r(1700.0, 300.0), Outcome::Loss),
            ],
        );
        assert!((out.rating - 1464.06).abs() < 0.01, "{out:?}");
        assert!((out.deviation - 151.52).abs() < 0.01, "{out:?}");
        assert!((out.volatility - 0.05999).abs() < 0.00001, "{out:?}");
    }

    #[test]
    fn one_game_moves_both_ratings_oppositely_and_surely_more_for_the_uncertain() {
        let (w, l) = rate_game(Rating::default(), Rating::default(), Outcome::Win);
        assert!((w.rating - 1500.0 - (1500.0 - l.rating)).abs() < 1e-9, "{w:?} {l:?}");
        assert!(w.rating > 1600.0, "a newcomer's first win counts for much: {w:?}");
        let (d1, d2) = rate_game(r(1500.0, 50.0), r(1500.0, 300.0), Outcome::Draw);
        assert!((d1.rating - 1500.0).abs() < 1e-9 && (d2.rating - 1500.0).abs() < 1e-9);
        let (s, _) = rate_game(r(1500.0, 50.0), r(1500.0, 300.0), Outcome::Loss);
        let (u, _) = rate_game(r(1500.0, 300.0), r(1500.0, 50.0), Outcome::Win);
        assert!(1500.0 - s.rating < u.rating - 1500.0, "the settled rating moves less: {s:?} {u:?}");
        assert!(Rating::default().is_provisional() && !r(1500.0, 60.0).is_provisional());
        assert!(expected(r(1700.0, 50.0), r(1500.0, 50.0)) > 0.7);
        assert_eq!(Outcome::Win.reversed(), Outcome::Loss);
    }

    #[test]
    fn an_idle_period_widens_the_deviation_and_ratings_serialise_by_name() {
        let idle = rate_period(r(1500.0, 60.0), &[]);
        assert!(idle.deviation > 60.0 && idle.rating == 1500.0);
        let json = serde_json::to_value(Rating::default()).unwrap();
        assert_eq!(json, serde_json::json!({"rating": 1500.0, "deviation": 350.0, "volatility": 0.06}));
        assert!(!Rating { rating: f64::NAN, ..Rating::default() }.is_valid());
        assert!(Rating::default().is_valid());
        let (lo, hi) = Rating::default().interval95();
        assert!(lo < 1500.0 && hi > 1500.0);
    }
}
