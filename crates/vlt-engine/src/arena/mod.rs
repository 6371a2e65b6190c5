//! The arena: games between two contestants, for matches and tuning. It owns the openings
//! (random balanced ones, or a list), the game loop (clocks, adjudication, a move cap), and the
//! statistics (wins, draws and losses, the score, the Elo difference with its 95% interval, an
//! SPRT to stop early). Front ends parse and print; `vlt match` is one.
//!
//! Contestants are anything that implements [`Contestant`]; [`Spec`] is the text that names the
//! built-in ones (and external programs, which the front end starts).
//!
//! ```
//! use vlt_engine::arena::{MatchConfig, Role, Spec, play_match, random_openings};
//!
//! let (first, second): (Spec, Spec) = ("greedy".parse().unwrap(), "random".parse().unwrap());
//! let openings = random_openings(2, 4, 1, 7).unwrap();
//! let config = MatchConfig { games: 4, ..MatchConfig::default() };
//! let make = |role: Role, seed| {
//!     let spec = if role == Role::First { &first } else { &second };
//!     Ok(spec.contestant(seed, None).expect("built in"))
//! };
//! let summary = play_match::<vlt_engine::arena::ArenaError>(&openings, &config, &make, |_, _| Ok(()))
//!     .unwrap();
//! assert_eq!(summary.tally.games(), 4);
//! ```

mod clock;
mod contestant;
mod game;
mod openings;
mod runner;
mod spec;
mod stats;

pub use clock::{Clocks, TimeControl};
pub use contestant::{Choice, Contestant, ContestantError, EngineContestant, Greedy, Random};
pub use game::{Ending, GameRules, Played, decided, play_game, score_for};
pub use openings::{OpeningsError, TooFewOpenings, parse_openings, random_openings};
pub use runner::{GameReport, Maker, MatchConfig, Role, RoleStats, Summary, play_match};
pub use spec::{DEFAULT_HASH_MB, Spec, SpecError, Tuning};
pub use stats::{Sprt, Tally, Verdict, elo, expected_score};

use vlt_core::{Move, PlayError, Player};

/// Why a game or a match could not be played.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ArenaError {
    /// A contestant could not be made (an external program that does not start).
    #[error("{0}")]
    Start(ContestantError),
    /// A contestant could not move.
    #[error("player {side}: {error}")]
    Contestant {
        /// The side it played.
        side: Player,
        /// What went wrong.
        error: ContestantError,
    },
    /// A contestant answered a move the rules refuse.
    #[error("player {side} chose {mv}: {error}")]
    IllegalMove {
        /// The side it played.
        side: Player,
        /// The move.
        mv: Move,
        /// Why it is illegal.
        error: PlayError,
    },
}
