//! Contestants: whatever picks the moves of one side in an arena game. The built-in ones are here
//! (random, greedy, the engine at a level or within limits); a front end adds its own, such as an
//! external program speaking the engine protocol.

use super::clock::Clocks;
use crate::{Engine, Level, Limits, Stop};
use vlt_core::playout::SplitMix64;
use vlt_core::{Game, Move};

/// Why a contestant could not move: an external engine that failed, hung or answered nonsense.
pub type ContestantError = Box<dyn std::error::Error + Send + Sync>;

/// Something that picks the moves of one side.
pub trait Contestant {
    /// The move to play in `game` (not over); `clocks` when the game has a time control.
    ///
    /// # Errors
    /// When no move can be had (an external engine that fails, hangs or answers an illegal move).
    fn choose(&mut self, game: &Game, clocks: Option<&Clocks>) -> Result<Move, ContestantError>;
}

/// Uniformly random legal moves.
#[derive(Clone, Debug)]
pub struct Random(pub SplitMix64);

impl Contestant for Random {
    fn choose(&mut self, game: &Game, _: Option<&Clocks>) -> Result<Move, ContestantError> {
        let m = game.position().legal_moves();
        m.nth_move(self.0.below(m.len() as u32) as usize).ok_or_else(|| "no legal move".into())
    }
}

/// The move that captures most now (R4), ties broken at random.
#[derive(Clone, Debug)]
pub struct Greedy(pub SplitMix64);

impl Contestant for Greedy {
    fn choose(&mut self, game: &Game, _: Option<&Clocks>) -> Result<Move, ContestantError> {
        let pos = game.position();
        let scored: Vec<(Move, u8)> = pos.legal_moves().map(|m| (m, pos.play_counting(m).1)).collect();
        let best = scored.iter().map(|s| s.1).max().ok_or("no legal move")?;
        let top: Vec<Move> = scored.iter().filter(|s| s.1 == best).map(|s| s.0).collect();
        Ok(top[self.0.below(top.len() as u32) as usize])
    }
}

/// How an [`EngineContestant`] chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// [`Engine::play_level`] (on a clock, [`Engine::play_level_on_clock`]).
    Level(Level),
    /// The best move of a search within these limits (on a clock, its budget applies too).
    Search(Limits),
}

/// The engine as a contestant.
#[derive(Debug)]
pub struct EngineContestant {
    /// The engine, with its settings and tables.
    pub engine: Engine,
    /// How it chooses.
    pub choice: Choice,
    rng: SplitMix64,
}

impl EngineContestant {
    /// `engine` choosing by `choice`; `seed` drives a level's chance.
    #[must_use]
    pub fn new(engine: Engine, choice: Choice, seed: u64) -> EngineContestant {
        EngineContestant { engine, choice, rng: SplitMix64(seed) }
    }
}

impl Contestant for EngineContestant {
    fn choose(&mut self, game: &Game, clocks: Option<&Clocks>) -> Result<Move, ContestantError> {
        if game.is_over() {
            return Err("the game is over".into());
        }
        let clock = clocks.map(|c| c.of(game.position().to_move()));
        Ok(match (self.choice, clock) {
            (Choice::Level(l), None) => self.engine.play_level(game, l, self.rng.next_u64()),
            (Choice::Level(l), Some(c)) => self.engine.play_level_on_clock(game, l, self.rng.next_u64(), c),
            (Choice::Search(l), clock) => {
                let limits = Limits { clock: clock.or(l.clock), ..l };
                self.engine.search(game, &limits, &Stop::new(), &mut |_| {}).ok_or("no legal move")?.best
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::TimeControl;
    use std::time::{Duration, Instant};

    #[test]
    fn greedy_takes_the_biggest_capture() {
        // The rules' worked examples each have a capture or a sowing to show.
        let ex = &vlt_core::examples::WORKED_EXAMPLES;
        let mut g = Greedy(SplitMix64(1));
        for e in ex.iter() {
            let pos: vlt_core::Position = e.position.parse().unwrap();
            let m = g.choose(&Game::new(pos), None).unwrap();
            let best = pos.legal_moves().map(|m| pos.play_counting(m).1).max().unwrap();
            assert_eq!(pos.play_counting(m).1, best, "{}", e.id);
            assert!(best > 0, "{}", e.id);
        }
    }

    #[test]
    fn a_level_on_a_clock_plays_within_it() {
        // Level 10 alone would think until its fixed second is used up; on a clock it budgets a
        // small share of the time left (a quarter at most), so it answers well inside 1 s.
        let engine = Engine::new(crate::EngineConfig { hash_mb: 16, ..crate::EngineConfig::default() });
        let mut p = EngineContestant::new(engine, Choice::Level(Level::MAX), 1);
        let tc = TimeControl { base: Duration::from_millis(1000), increment: Duration::ZERO };
        let game = Game::default();
        let t = Instant::now();
        let m = p.choose(&game, Some(&Clocks::new(tc))).unwrap();
        assert!(t.elapsed() < Duration::from_millis(1000), "took {:?}", t.elapsed());
        assert!(game.position().legal_moves().contains(m));
    }
}
