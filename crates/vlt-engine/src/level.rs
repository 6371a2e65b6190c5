//! Playing levels 1–10: how deep each level searches and how much it lets chance pick among good
//! moves. Low levels see little and choose loosely, so they make natural mistakes (missing a capture
//! two moves away, walking into a chain) rather than random ones; high levels search deep and pick
//! the best move.

use crate::{Clock, Engine, Limits, Stop};
use std::time::Duration;
use vlt_core::Game;
use vlt_core::Move;
use vlt_core::playout::SplitMix64;

/// A playing level, 1 (beginner) to 10 (strongest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The strongest level.
    pub const MAX: Level = Level(10);
    /// Level `n`, 1..=10.
    #[must_use]
    pub fn new(n: u8) -> Option<Level> {
        (1..=10).contains(&n).then_some(Level(n))
    }
    /// The level's number.
    #[must_use]
    pub fn get(self) -> u8 {
        self.0
    }
}

/// Level 9's depth, also the least level 10 searches.
const LEVEL_9_DEPTH: u32 = 14;

/// What a level does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSettings {
    /// Search limits.
    pub limits: Limits,
    /// Softmax temperature in centistones: the chance of a move is proportional to
    /// `exp(score / temperature)`; 0 plays the best move.
    pub temperature: i32,
}

impl Level {
    /// The settings of this level.
    #[must_use]
    pub fn settings(self) -> LevelSettings {
        let depth = |d: u32| Limits { depth: Some(d), ..Limits::default() };
        let (limits, temperature) = match self.get() {
            1 => (depth(1), 120),
            2 => (depth(2), 80),
            3 => (depth(3), 50),
            4 => (depth(4), 30),
            5 => (depth(6), 15),
            6 => (depth(8), 0),
            7 => (depth(10), 0),
            // Two plies a step: one ply was too small a step to be sure of 60 % (measured).
            8 => (depth(12), 0),
            9 => (depth(LEVEL_9_DEPTH), 0),
            // A second a move, but never shallower than level 9: on a busy machine a second may
            // not reach 14 plies, and the strongest level must not play worse than the one below.
            _ => (
                Limits {
                    movetime: Some(Duration::from_secs(1)),
                    min_depth: Some(LEVEL_9_DEPTH),
                    ..Limits::default()
                },
                0,
            ),
        };
        LevelSettings { limits, temperature }
    }

    /// The search limits of this level.
    #[must_use]
    pub fn limits(self) -> Limits {
        self.settings().limits
    }

    /// The limits of this level playing on `clock`: its depth (levels 1–9) still caps the search,
    /// and the clock's budget replaces level 10's fixed second a move (and its least depth: on a
    /// clock, time comes first).
    #[must_use]
    pub fn limits_on_clock(self, clock: Clock) -> Limits {
        Limits { movetime: None, clock: Some(clock), min_depth: None, ..self.limits() }
    }
}

pub(crate) fn play(engine: &mut Engine, game: &Game, level: Level, seed: u64, limits: &Limits) -> Move {
    // A forced move needs no thought (R5 passes never reach here: the game moves on by itself).
    let moves = game.position().legal_moves();
    if moves.len() == 1 {
        return moves.nth_move(0).expect("one legal move");
    }
    let s = level.settings();
    let stop = Stop::new();
    if s.temperature == 0 {
        return engine.search(game, limits, &stop, &mut |_| {}).expect("the game is not over").best;
    }
    let r = engine.analyse(game, limits, &stop, &mut |_| {}).expect("the game is not over");
    // The softmax works on the exact root values in centistones, finer than the result's stones.
    let cs = engine.last_root_centistones().to_vec();
    let best = cs.iter().copied().max().unwrap_or(0);
    let weights: Vec<f64> =
        cs.iter().map(|&v| (f64::from(v - best) / f64::from(s.temperature)).exp()).collect();
    let total: f64 = weights.iter().sum();
    let mut rng = SplitMix64(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return r.moves[i].0;
        }
        x -= w;
    }
    r.best
}
