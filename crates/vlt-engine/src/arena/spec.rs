//! The player-spec language: one text names a contestant and its settings, as `vlt match` and
//! the tools take it.
//!
//! A spec is a comma-separated list whose first item names the kind:
//! `random`, `greedy`, `level=N`, `alphabeta` (or `ab`), `mcts`, followed by `key=value` settings
//! (`depth`, `nodes`, `movetime`, `threads`, `hash`; for MCTS also `explore`, `greedy`; for
//! alpha-beta and levels also `weights`, `eval`, `lmr`, `qs`, see [`Tuning`]); or an
//! external program, `engine=CMD ARGS`, which must come last (the command runs to the end of the
//! spec) and may be preceded by limits and protocol options, e.g.
//! `movetime=100,Level=7,engine=vlt engine`.

use super::contestant::{Choice, Contestant, EngineContestant, Greedy, Random};
use crate::{
    Algorithm, Engine, EngineConfig, EvalKind, Level, Limits, MctsConfig, N_FEATURES, Playout, Weights,
};
use std::sync::Arc;
use std::time::Duration;
use vlt_core::playout::SplitMix64;
use vlt_tablebase::Tablebase;

/// Transposition table of built-in players, in MiB, unless the spec says `hash=`: small, because
/// every game makes fresh engines and several games may run at once.
pub const DEFAULT_HASH_MB: usize = 16;
/// The most search threads a spec may ask for.
const MAX_THREADS: usize = 64;
/// The largest table a spec may ask for, in MiB.
const MAX_HASH_MB: usize = 4096;

/// A spec that does not parse: the message names the spec and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SpecError(String);

/// Alpha-beta settings a spec may change, for measuring what each brings: `weights=` (`tuned`,
/// `untuned` or ten numbers `W1/W2/...` in centistones, in [`crate::FEATURE_NAMES`] order),
/// `eval=learned|linear` (the evaluation at the horizon, [`EvalKind`]), `lmr=on|off` (late move
/// reductions), `qs=on|off` (the capture quiescence search).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// The evaluation weights.
    pub weights: Weights,
    /// The evaluation at the horizon (the weights serve [`EvalKind::Linear`] and the stone counts
    /// the learned one does not cover).
    pub eval: EvalKind,
    /// Late move reductions.
    pub reductions: bool,
    /// The quiescence search at the horizon.
    pub quiescence: bool,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning { weights: Weights::default(), eval: EvalKind::default(), reductions: true, quiescence: false }
    }
}

impl Tuning {
    fn apply(&self, e: &mut Engine) {
        e.set_weights(self.weights);
        e.set_eval(self.eval);
        e.set_reductions(self.reductions);
        e.set_quiescence(self.quiescence);
    }
}

fn on_off(key: &str, v: &str) -> Result<bool, SpecError> {
    match v {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(err(format!("player: {key}={v:?} must be on or off"))),
    }
}

fn weights(v: &str) -> Result<Weights, SpecError> {
    let bad = || err(format!("player: weights={v:?} must be tuned, untuned or {N_FEATURES} numbers N/N/..."));
    match v {
        "tuned" => Ok(Weights::TUNED),
        "untuned" => Ok(Weights::UNTUNED),
        _ => {
            let w: Vec<i32> =
                v.split('/').map(|x| x.trim().parse().map_err(|_| bad())).collect::<Result<_, _>>()?;
            Ok(Weights::from_array(w.try_into().map_err(|_| bad())?))
        }
    }
}

fn err(message: String) -> SpecError {
    SpecError(message)
}

/// A contestant as a spec describes it.
#[derive(Clone, Debug, PartialEq)]
pub enum Spec {
    /// Uniformly random legal moves.
    Random,
    /// The move that captures most now (R4), ties broken at random.
    Greedy,
    /// A built-in level; `limits`, when given, replace the level's own (levels 6-10 only).
    Level {
        /// The level.
        level: Level,
        /// Replacement limits.
        limits: Option<Limits>,
        /// Table size in MiB.
        hash: usize,
        /// Evaluation and search settings.
        tuning: Tuning,
    },
    /// A built-in search with explicit limits.
    Search {
        /// Alpha-beta or MCTS.
        algorithm: Algorithm,
        /// The limits of each move.
        limits: Limits,
        /// Search threads.
        threads: usize,
        /// Table size in MiB.
        hash: usize,
        /// MCTS settings (exploration, playout policy), used when `algorithm` is MCTS.
        mcts: MctsConfig,
        /// Evaluation and search settings of alpha-beta.
        tuning: Tuning,
    },
    /// A program speaking the engine protocol (docs/protocol.md), which the front end starts.
    External {
        /// The program and its arguments, as a shell would split them.
        command: String,
        /// The limits of each `go`; none given, a plain `go` plays at the engine's Level.
        limits: Limits,
        /// `setoption` pairs sent after the handshake.
        options: Vec<(String, String)>,
    },
}

fn positive<T: std::str::FromStr + PartialOrd + From<u8>>(key: &str, v: &str) -> Result<T, SpecError> {
    v.parse::<T>()
        .ok()
        .filter(|x| *x >= T::from(1))
        .ok_or_else(|| err(format!("player: {key}={v:?} must be a positive whole number")))
}

impl std::str::FromStr for Spec {
    type Err = SpecError;

    fn from_str(spec: &str) -> Result<Spec, SpecError> {
        // The external program's command line runs to the end and may hold commas.
        let (head, command) = match spec.find("engine=") {
            Some(i) => (spec[..i].trim_end_matches(','), Some(&spec[i + "engine=".len()..])),
            None => (spec, None),
        };
        let items: Vec<&str> = head.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
        let mut limits = Limits::default();
        let mut threads = 1;
        let mut hash = DEFAULT_HASH_MB;
        let mut options = Vec::new();
        let mut kind: Option<&str> = None;
        let mut mcts = MctsConfig::default();
        let mut mcts_keys = false;
        let mut tuning = Tuning::default();
        let mut tuning_keys = false;
        let mut level = None;
        for (i, item) in items.iter().enumerate() {
            let (k, v) = match item.split_once('=') {
                Some((k, v)) => (k.trim(), v.trim()),
                None if i == 0 && command.is_none() => {
                    kind = Some(item);
                    continue;
                }
                None => return Err(err(format!("player {spec:?}: {item:?} should be key=value"))),
            };
            match k {
                "level" if i == 0 && command.is_none() => {
                    let n: u8 = positive("level", v)?;
                    level = Some(Level::new(n).ok_or_else(|| err(format!("player: level {n} is not 1-10")))?);
                    kind = Some("level");
                }
                "depth" => limits.depth = Some(positive("depth", v)?),
                "nodes" => limits.nodes = Some(positive("nodes", v)?),
                "movetime" => limits.movetime = Some(Duration::from_millis(positive("movetime", v)?)),
                "threads" if command.is_none() => threads = positive("threads", v)?,
                "hash" if command.is_none() => hash = positive("hash", v)?,
                // MCTS strength settings: the UCB1 constant and the playout policy.
                "explore" if command.is_none() => {
                    mcts.exploration = v
                        .parse::<f64>()
                        .ok()
                        .filter(|x| x.is_finite() && *x > 0.0 && *x <= 100.0)
                        .ok_or_else(|| err(format!("player: explore={v:?} must be a number in (0, 100]")))?;
                    mcts_keys = true;
                }
                "weights" if command.is_none() => (tuning.weights, tuning_keys) = (weights(v)?, true),
                "eval" if command.is_none() => (tuning.eval, tuning_keys) = (v.parse().map_err(err)?, true),
                "lmr" if command.is_none() => (tuning.reductions, tuning_keys) = (on_off(k, v)?, true),
                "qs" if command.is_none() => (tuning.quiescence, tuning_keys) = (on_off(k, v)?, true),
                "greedy" if command.is_none() => {
                    let p = v
                        .parse::<u8>()
                        .ok()
                        .filter(|p| *p <= 100)
                        .ok_or_else(|| err(format!("player: greedy={v:?} must be a percentage 0-100")))?;
                    mcts.playout = if p == 0 { Playout::Uniform } else { Playout::Greedy(p) };
                    mcts_keys = true;
                }
                _ if command.is_some() => options.push((k.to_string(), v.to_string())),
                _ => return Err(err(format!("player {spec:?}: unknown setting {k:?}"))),
            }
        }
        if threads > MAX_THREADS || hash > MAX_HASH_MB {
            return Err(err(format!("player {spec:?}: threads at most 64, hash at most 4096 MiB")));
        }
        let has_limits = limits != Limits::default();
        if let Some(cmd) = command {
            let command = cmd.trim();
            if command.is_empty() {
                return Err(err(format!("player {spec:?}: engine= needs a program to run")));
            }
            return Ok(Spec::External { command: command.to_string(), limits, options });
        }
        match kind {
            Some("random") if items.len() == 1 => Ok(Spec::Random),
            Some("greedy") if items.len() == 1 => Ok(Spec::Greedy),
            Some("level") => {
                let level = level.expect("set with the kind");
                if has_limits && level.settings().temperature != 0 {
                    return Err(err(format!(
                        "player {spec:?}: levels 1-5 choose with chance and keep their own limits"
                    )));
                }
                Ok(Spec::Level { level, limits: has_limits.then_some(limits), hash, tuning })
            }
            Some(k @ ("alphabeta" | "ab" | "mcts")) => {
                if !has_limits {
                    return Err(err(format!("player {spec:?}: give depth=, nodes= or movetime=")));
                }
                let algorithm = k.parse::<Algorithm>().map_err(err)?;
                if mcts_keys && algorithm != Algorithm::Mcts {
                    return Err(err(format!("player {spec:?}: explore= and greedy= are MCTS settings")));
                }
                if tuning_keys && algorithm == Algorithm::Mcts {
                    return Err(err(format!(
                        "player {spec:?}: weights=, eval=, lmr= and qs= are alpha-beta settings"
                    )));
                }
                Ok(Spec::Search { algorithm, limits, threads, hash, mcts, tuning })
            }
            _ => Err(err(format!(
                "player {spec:?}: expected random, greedy, level=N, alphabeta,…, mcts,… or …engine=CMD"
            ))),
        }
    }
}

impl Spec {
    /// A fresh contestant for one game, `seed` driving its chance; a built-in engine probes
    /// `tablebase` when given. `None` for [`Spec::External`]: the front end starts programs.
    #[must_use]
    pub fn contestant(&self, seed: u64, tablebase: Option<&Arc<Tablebase>>) -> Option<Box<dyn Contestant>> {
        let engine = |algorithm, threads, hash_mb, mut mcts: MctsConfig| {
            mcts.seed = seed;
            let mut e = Engine::new(EngineConfig { hash_mb, threads, algorithm, mcts });
            e.set_tablebase(tablebase.cloned());
            e
        };
        Some(match self {
            Spec::Random => Box::new(Random(SplitMix64(seed))),
            Spec::Greedy => Box::new(Greedy(SplitMix64(seed))),
            Spec::Level { level, limits, hash, tuning } => {
                let choice = limits.map_or(Choice::Level(*level), Choice::Search);
                let mut e = engine(Algorithm::AlphaBeta, 1, *hash, MctsConfig::default());
                tuning.apply(&mut e);
                Box::new(EngineContestant::new(e, choice, seed))
            }
            Spec::Search { algorithm, limits, threads, hash, mcts, tuning } => {
                let mut e = engine(*algorithm, *threads, *hash, *mcts);
                tuning.apply(&mut e);
                Box::new(EngineContestant::new(e, Choice::Search(*limits), seed))
            }
            Spec::External { .. } => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        assert_eq!("random".parse::<Spec>().unwrap(), Spec::Random);
        assert_eq!("greedy".parse::<Spec>().unwrap(), Spec::Greedy);
        let Spec::Level { level, limits: None, hash: 16, .. } = "level=4".parse().unwrap() else { panic!() };
        assert_eq!(level.get(), 4);
        let Spec::Level { limits: Some(l), .. } = "level=10,movetime=200".parse().unwrap() else { panic!() };
        assert_eq!(l.movetime, Some(Duration::from_millis(200)));
        let Spec::Search { algorithm: Algorithm::Mcts, limits, threads: 2, hash: 16, mcts, .. } =
            "mcts,nodes=5000,threads=2,explore=1.5,greedy=0".parse().unwrap()
        else {
            panic!()
        };
        assert_eq!(limits.nodes, Some(5000));
        assert_eq!((mcts.exploration, mcts.playout), (1.5, Playout::Uniform));
        let Spec::External { command, limits, options } =
            "depth=5,Level=3,engine=./vlt engine --flag 'a b,c'".parse().unwrap()
        else {
            panic!()
        };
        assert_eq!(command, "./vlt engine --flag 'a b,c'");
        assert_eq!(limits, Limits { depth: Some(5), ..Limits::default() });
        assert_eq!(options, [("Level".to_string(), "3".to_string())]);
    }

    #[test]
    fn bad_specs_are_refused() {
        for bad in [
            "",
            "level=0",
            "level=11",
            "level=2,depth=3",
            "alphabeta",
            "mcts,depth=x",
            "ab,depth=3,explore=1",
            "mcts,nodes=9,greedy=101",
            "mcts,nodes=9,explore=-1",
            "ab,movetime=0",
            "random,depth=3",
            "greedy,colour=red",
            "stockfish",
            "engine=",
            "depth=2,engine=  ",
            "ab,depth=3,threads=1000",
            "mcts,nodes=9,lmr=off",
            "ab,depth=3,qs=yes",
            "ab,depth=3,weights=1/2/3",
            "ab,depth=3,weights=fast",
        ] {
            assert!(bad.parse::<Spec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn alpha_beta_settings_parse() {
        let Spec::Search { tuning, .. } = "ab,movetime=40,lmr=off,qs=on,weights=untuned".parse().unwrap()
        else {
            panic!()
        };
        assert_eq!(
            tuning,
            Tuning {
                weights: Weights::UNTUNED,
                eval: EvalKind::Learned,
                reductions: false,
                quiescence: true
            }
        );
        let Spec::Search { tuning, .. } = "ab,depth=4,eval=linear".parse().unwrap() else { panic!() };
        assert_eq!(tuning.eval, EvalKind::Linear);
        assert!(
            "ab,depth=4,eval=cubic".parse::<Spec>().unwrap_err().to_string().contains("linear or learned")
        );
        let w = "1/2/3/4/5/6/7/8/9/10";
        let Spec::Level { tuning, .. } = format!("level=7,weights={w}").parse().unwrap() else { panic!() };
        assert_eq!(tuning.weights.as_array(), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        let Spec::Search { tuning, .. } = "ab,depth=2".parse().unwrap() else { panic!() };
        assert_eq!(tuning, Tuning::default());
    }

    #[test]
    fn built_in_specs_make_contestants_that_move() {
        let game = vlt_core::Game::default();
        for spec in [
            "random",
            "greedy",
            "level=1",
            "level=6,depth=2",
            "ab,depth=2,lmr=off,weights=untuned",
            "mcts,nodes=200",
        ] {
            let mut c = spec.parse::<Spec>().unwrap().contestant(3, None).expect("built in");
            let m = c.choose(&game, None).unwrap();
            assert!(game.position().legal_moves().contains(m), "{spec}");
        }
        assert!("engine=vlt engine".parse::<Spec>().unwrap().contestant(3, None).is_none());
    }
}
