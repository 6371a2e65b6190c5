//! Openings: where the games of a match start. Random balanced ones by default, or a list read
//! from text (one N2 position a line).

use crate::{Engine, EngineConfig, Limits, Stop};
use std::collections::HashSet;
use vlt_core::playout::SplitMix64;
use vlt_core::{Game, Player, Position};

/// The depth of the search that checks a random opening is balanced.
const BALANCE_DEPTH: u32 = 6;
/// Random openings tried before giving up on finding enough distinct balanced ones.
const OPENING_TRIES: u32 = 100_000;
/// The probe's table: a depth-6 search needs little.
const PROBE_HASH_MB: usize = 4;

/// Not enough distinct balanced openings exist (or were found) for the settings.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "found only {found} distinct balanced openings of {plies} plies within {balance} stones; \
     try more plies or a larger balance"
)]
pub struct TooFewOpenings {
    /// How many were found.
    pub found: usize,
    /// The random moves of each.
    pub plies: u32,
    /// The balance asked for, in stones.
    pub balance: i32,
}

/// A line of an openings text that is not a playable position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningsError {
    /// The line is not a position (N2).
    #[error("line {line}: {message}")]
    Syntax {
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The game is already over there.
    #[error("line {line}: the game is over there")]
    Over {
        /// The line number, from 1.
        line: usize,
    },
    /// No position in the whole text.
    #[error("no opening found")]
    Empty,
}

/// `n` distinct random openings: `plies` random moves from the start, without a capture (so both
/// sides start level), that a depth-6 search scores within `balance` stones for the player to
/// move. Deterministic in `seed`.
///
/// # Errors
/// [`TooFewOpenings`] when fewer than `n` turn up in many tries.
pub fn random_openings(
    n: usize,
    plies: u32,
    balance: i32,
    seed: u64,
) -> Result<Vec<Position>, TooFewOpenings> {
    let mut rng = SplitMix64(seed);
    let mut probe = Engine::new(EngineConfig { hash_mb: PROBE_HASH_MB, ..EngineConfig::default() });
    let limits = Limits { depth: Some(BALANCE_DEPTH), ..Limits::default() };
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(n);
    for _ in 0..OPENING_TRIES {
        if out.len() == n {
            return Ok(out);
        }
        let mut p = Position::START;
        for _ in 0..plies {
            let m = p.legal_moves();
            if m.is_empty() {
                break;
            }
            p = p.play_unchecked(m.nth_move(rng.below(m.len() as u32) as usize).expect("non-empty"));
        }
        if p.is_game_over() || p.captured(Player::B) + p.captured(Player::A) > 0 || !seen.insert(p) {
            continue;
        }
        probe.clear();
        let r = probe.search(&Game::new(p), &limits, &Stop::new(), &mut |_| {});
        if r.is_some_and(|r| r.info.score.abs() <= balance) {
            out.push(p);
        }
    }
    if out.len() == n {
        return Ok(out);
    }
    Err(TooFewOpenings { found: out.len(), plies, balance })
}

/// The openings of a text: one N2 position (or `startpos`) a line; blank lines and `#` comments
/// skipped.
///
/// # Errors
/// [`OpeningsError`] naming the first bad line, or saying there is none.
pub fn parse_openings(text: &str) -> Result<Vec<Position>, OpeningsError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let p = if l == "startpos" {
            Position::START
        } else {
            l.parse::<Position>()
                .map_err(|e| OpeningsError::Syntax { line: i + 1, message: e.to_string() })?
        };
        if p.is_game_over() {
            return Err(OpeningsError::Over { line: i + 1 });
        }
        out.push(p);
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_distinct_quiet_and_reproducible() {
        let a = random_openings(6, 4, 1, 9).unwrap();
        assert_eq!(a, random_openings(6, 4, 1, 9).unwrap());
        assert_ne!(a, random_openings(6, 4, 1, 10).unwrap(), "the seed matters");
        let set: HashSet<_> = a.iter().collect();
        assert_eq!(set.len(), 6);
        for p in &a {
            // Four moves from the start without a capture: all 60 stones still on the board (R1).
            assert_eq!(p.stones_on_board(), 60);
        }
    }

    #[test]
    fn zero_plies_give_only_one_opening() {
        let e = random_openings(2, 0, 1, 1).unwrap_err();
        assert_eq!(e, TooFewOpenings { found: 1, plies: 0, balance: 1 });
    }

    #[test]
    fn openings_text_parses_and_bad_lines_are_named() {
        let o = parse_openings("# two\nstartpos\n\n5,5,0,6,6,6/6,6,5,5,5,5 A 0 0\n").unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0], Position::START);
        assert!(matches!(parse_openings("startpos\nnonsense\n"), Err(OpeningsError::Syntax { line: 2, .. })));
        assert_eq!(parse_openings("0,0,0,0,0,0/0,0,0,0,0,0 B 30 30"), Err(OpeningsError::Over { line: 1 }));
        assert_eq!(parse_openings("# nothing\n\n"), Err(OpeningsError::Empty));
    }
}
