//! The built-in opponents of the environments: uniformly random, greedy (the move that captures
//! most, R4), an engine level, and perfect play from the endgame tables.

use crate::engine::level_arg;
use crate::value_error;
use pyo3::PyResult;
use std::sync::Arc;
use vlt_core::playout::SplitMix64;
use vlt_core::{Game, Move, Position};
use vlt_engine::{Engine, EngineConfig, Level, Stop};
use vlt_tablebase::Tablebase;

/// A policy that picks moves for one side.
pub(crate) enum Opponent {
    /// Any legal move, uniformly.
    Random,
    /// A move capturing the most stones (R4), uniformly among the best.
    Greedy,
    /// The engine at a level (1-10).
    Level(Level, Box<Engine>),
    /// The tables' best move where they cover the position; elsewhere the engine at level 9
    /// with the tables, which values exactly every line that reaches them.
    Perfect(Arc<Tablebase>, Box<Engine>),
}

impl Opponent {
    /// An opponent from its name: `random`, `greedy`, `level:N` (or `N`), `perfect` (which needs
    /// the tables).
    pub(crate) fn parse(spec: &str, tablebase: Option<Arc<Tablebase>>) -> PyResult<Opponent> {
        let engine = |tb: Option<Arc<Tablebase>>| {
            let mut e = Engine::new(EngineConfig { hash_mb: 16, ..EngineConfig::default() });
            e.set_tablebase(tb);
            Box::new(e)
        };
        let s = spec.trim().to_ascii_lowercase();
        let level = s.strip_prefix("level:").or_else(|| s.strip_prefix("level")).unwrap_or(&s);
        Ok(match s.as_str() {
            "random" => Opponent::Random,
            "greedy" => Opponent::Greedy,
            "perfect" => {
                let tb = tablebase
                    .ok_or_else(|| value_error("opponent \"perfect\" needs tablebase=vlt.Tablebase(...)"))?;
                Opponent::Perfect(Arc::clone(&tb), engine(Some(tb)))
            }
            _ => match level.parse::<i64>() {
                Ok(n) => Opponent::Level(level_arg(n)?, engine(tablebase)),
                Err(_) => {
                    return Err(value_error(format!(
                        "unknown opponent {spec:?}: expected random, greedy, level:1 … level:10 or perfect"
                    )));
                }
            },
        })
    }

    /// True for the engine's opponents, whose searches need the game's history (R7).
    pub(crate) fn needs_history(&self) -> bool {
        matches!(self, Opponent::Level(..) | Opponent::Perfect(..))
    }

    /// The move this opponent makes in `pos` (not over), the position of `game` (which the
    /// opponents that `needs_history` are given).
    pub(crate) fn choose(&mut self, pos: Position, game: Option<&Game>, rng: &mut SplitMix64) -> Move {
        let history = || game.expect("the engine's opponents are given the game");
        match self {
            Opponent::Random => random_move(pos, rng),
            Opponent::Greedy => greedy_move(pos, rng),
            Opponent::Level(level, engine) => engine.play_level(history(), *level, rng.next_u64()),
            Opponent::Perfect(tb, engine) => match tb.best_move(pos) {
                Some((m, _)) => m,
                None => {
                    engine
                        .search(
                            history(),
                            &Level::new(9).expect("level 9").limits(),
                            &Stop::new(),
                            &mut |_| {},
                        )
                        .expect("the game is not over")
                        .best
                }
            },
        }
    }
}

/// A uniformly random legal move of `pos` (not over).
pub(crate) fn random_move(pos: Position, rng: &mut SplitMix64) -> Move {
    let m = pos.legal_moves();
    m.nth_move(rng.below(m.len() as u32) as usize).expect("the game is not over")
}

/// A move capturing the most stones, uniformly among the best.
pub(crate) fn greedy_move(pos: Position, rng: &mut SplitMix64) -> Move {
    let mut best = [Move(vlt_core::Hole::ALL[0]); 6];
    let (mut n, mut most) = (0, 0u8);
    for m in pos.legal_moves() {
        let k = pos.play_counting(m).1;
        if k > most || n == 0 {
            (n, most) = (0, k);
        }
        if k == most {
            best[n] = m;
            n += 1;
        }
    }
    best[rng.below(n as u32) as usize]
}
