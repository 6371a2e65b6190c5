//! Engine settings: the table size, threads and the search algorithm.

use crate::MctsConfig;

/// Which search algorithm the engine runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Algorithm {
    /// Iterative-deepening alpha-beta (negamax, PVS) with a transposition table.
    #[default]
    AlphaBeta,
    /// Monte Carlo tree search (UCT) with random playouts; settings in [`MctsConfig`].
    Mcts,
}

impl Algorithm {
    /// The name used in options and on the command line: `alphabeta`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Mcts => "mcts",
        }
    }
}

impl std::str::FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "alphabeta" | "ab" => Ok(Algorithm::AlphaBeta),
            "mcts" | "uct" => Ok(Algorithm::Mcts),
            _ => Err(format!("unknown algorithm {s:?}: expected alphabeta or mcts")),
        }
    }
}

/// Engine settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads (Lazy SMP: helpers share the table; results are deterministic only with one).
    pub threads: usize,
    /// The search algorithm.
    pub algorithm: Algorithm,
    /// Settings of [`Algorithm::Mcts`].
    pub mcts: MctsConfig,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig { hash_mb: 64, threads: 1, algorithm: Algorithm::AlphaBeta, mcts: MctsConfig::default() }
    }
}
