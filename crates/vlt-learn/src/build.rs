//! Building a puzzle set: positions from games (the engine's own at playing levels, and games read
//! from records), kept where the tables give one best move, graded, deduplicated.

use crate::grade;
use crate::puzzle::{Puzzle, Source};
use rayon::prelude::*;
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use vlt_core::playout::SplitMix64;
use vlt_core::{Game, Position};
use vlt_engine::{Engine, EngineConfig, Level};
use vlt_tablebase::Tablebase;

/// What to build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildConfig {
    /// Games the engine plays against itself.
    pub games: usize,
    /// The seed of the games' levels and choices: the same seed, tables and records build the same set.
    pub seed: u64,
    /// The levels the self-play games are played at (each side draws one per game).
    pub levels: std::ops::RangeInclusive<u8>,
    /// The least stones the second-best move must give away.
    pub min_gap: i32,
    /// The fewest stones on the board of a puzzle (smaller endings are too plain).
    pub min_stones: u32,
    /// Keep at most this many puzzles (the first ones met).
    pub max_puzzles: usize,
}

impl Default for BuildConfig {
    fn default() -> Self {
        BuildConfig { games: 600, seed: 1, levels: 1..=6, min_gap: 2, min_stones: 8, max_puzzles: usize::MAX }
    }
}

/// Progress of a build, for a bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildEvent {
    /// Self-play games played so far.
    Games {
        /// Done.
        done: usize,
        /// In all.
        total: usize,
    },
    /// Candidate positions graded so far.
    Grading {
        /// Done.
        done: usize,
        /// In all.
        total: usize,
    },
}

/// Why a set cannot be built.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildError {
    /// The tables are too small to hold positions of `min_stones`.
    #[error("the tables reach {tables} stones, fewer than the {wanted} stones of the smallest puzzle")]
    TablesTooSmall {
        /// The tables' stones.
        tables: u32,
        /// The configured least stones.
        wanted: u32,
    },
    /// A level outside 1..=10.
    #[error("level {0} is not a level (1-10)")]
    BadLevel(u8),
}

fn engine() -> Engine {
    // Small and single-threaded: many short searches, deterministic.
    Engine::new(EngineConfig { hash_mb: 4, threads: 1, ..EngineConfig::default() })
}

/// The positions of one self-play game that the tables hold (from `min_stones` stones up).
fn self_play(engine: &mut Engine, cfg: &BuildConfig, max_stones: u32, index: usize) -> Vec<Position> {
    let mut rng = SplitMix64(cfg.seed ^ (index as u64).wrapping_mul(0xd1b5_4a32_d192_ed03));
    let span = u64::from(cfg.levels.end() - cfg.levels.start()) + 1;
    let mut pick = || Level::new(cfg.levels.start() + (rng.next_u64() % span) as u8).expect("levels checked");
    let levels = [pick(), pick()];
    let mut game = Game::default();
    let mut out = Vec::new();
    engine.clear();
    while !game.is_over() {
        let pos = game.position();
        if pos.stones_on_board() < cfg.min_stones {
            break;
        }
        if pos.stones_on_board() <= max_stones {
            out.push(pos);
        }
        let seed = rng.next_u64();
        let mv = engine.play_level(&game, levels[pos.to_move() as usize], seed);
        game.play(mv).expect("the engine plays legal moves");
    }
    out
}

/// Builds the puzzles: the positions of `records` first (as [`Source::Record`]), then those of
/// `cfg.games` self-play games, each position once (board and player to move), kept when
/// [`grade::verdict`] gives one best move. Deterministic for the same tables, records and config.
///
/// # Errors
/// [`BuildError`] when the tables cannot hold any puzzle or a level is out of range.
pub fn build(
    tb: &Tablebase,
    records: &[Game],
    cfg: &BuildConfig,
    progress: &(dyn Fn(BuildEvent) + Sync),
) -> Result<Vec<Puzzle>, BuildError> {
    let max = tb.max_stones();
    if max < cfg.min_stones {
        return Err(BuildError::TablesTooSmall { tables: max, wanted: cfg.min_stones });
    }
    for l in [*cfg.levels.start(), *cfg.levels.end()] {
        if Level::new(l).is_none() {
            return Err(BuildError::BadLevel(l));
        }
    }
    let done = AtomicUsize::new(0);
    let played: Vec<Vec<Position>> = (0..cfg.games)
        .into_par_iter()
        .map_init(engine, |e, i| {
            let v = self_play(e, cfg, max, i);
            progress(BuildEvent::Games { done: done.fetch_add(1, Ordering::Relaxed) + 1, total: cfg.games });
            v
        })
        .collect();

    let mut seen = HashSet::new();
    let mut candidates = Vec::new();
    let from_records = records.iter().flat_map(|g| g.positions().iter().map(|&p| (p, Source::Record)));
    let from_play = played.iter().flatten().map(|&p| (p, Source::SelfPlay));
    for (p, source) in from_records.chain(from_play) {
        let n = p.stones_on_board();
        if p.is_game_over() || n < cfg.min_stones || n > max || !seen.insert(p.repetition_key()) {
            continue;
        }
        // The cheap test first, so that only puzzles pay for the engine's measurement.
        if grade::verdict(tb, p, cfg.min_gap).is_some() {
            candidates.push((p, source));
        }
    }
    candidates.truncate(cfg.max_puzzles);

    let done = AtomicUsize::new(0);
    let total = candidates.len();
    let puzzles = candidates
        .par_iter()
        .map_init(engine, |e, &(p, source)| {
            let z = grade::grade(tb, e, p, source, cfg.min_gap);
            progress(BuildEvent::Grading { done: done.fetch_add(1, Ordering::Relaxed) + 1, total });
            z
        })
        .collect::<Vec<_>>();
    Ok(puzzles.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use vlt_tablebase::build::build_in_memory;

    #[test]
    fn a_small_build_gives_unique_best_moves_and_is_deterministic() {
        let tb = Tablebase::from_layers(build_in_memory(10));
        let cfg = BuildConfig { games: 12, levels: 1..=2, min_stones: 6, ..BuildConfig::default() };
        let a = build(&tb, &[], &cfg, &|_| {}).unwrap();
        assert!(!a.is_empty(), "twelve games meet some puzzle");
        for p in &a {
            let moves = tb.probe_moves(p.position).unwrap();
            let best = moves.iter().map(|m| m.1).max().unwrap();
            let at_best: Vec<_> = moves.iter().filter(|m| m.1 == best).collect();
            assert_eq!(at_best.len(), 1);
            assert_eq!(at_best[0].0, p.best);
            assert_eq!(p.value(), best);
            assert!(p.gap() >= 2);
        }
        assert_eq!(build(&tb, &[], &cfg, &|_| {}).unwrap(), a);
    }

    #[test]
    fn tables_smaller_than_the_puzzles_are_refused() {
        let tb = Tablebase::from_layers(build_in_memory(4));
        let cfg = BuildConfig::default();
        assert_eq!(build(&tb, &[], &cfg, &|_| {}), Err(BuildError::TablesTooSmall { tables: 4, wanted: 8 }));
        let cfg = BuildConfig { levels: 0..=3, min_stones: 2, ..cfg };
        assert_eq!(build(&tb, &[], &cfg, &|_| {}), Err(BuildError::BadLevel(0)));
    }
}
