//! The players of a match: specs (parsed from the command line) and the players they make.
//!
//! A spec is a comma-separated list whose first item names the kind:
//! `random`, `greedy`, `level=N`, `alphabeta` (or `ab`), `mcts`, followed by `key=value` settings
//! (`depth`, `nodes`, `movetime`, `threads`, `hash`; for MCTS also `explore`, `greedy`); or an
//! external program, `engine=CMD ARGS`, which must come last (the command runs to the end of the
//! spec) and may be preceded by limits and protocol options, e.g.
//! `movetime=100,Level=7,engine=vlt engine`.

use crate::error::input;
use anyhow::{Context, anyhow, bail};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::{Arc, mpsc};
use std::time::Duration;
use vlt_core::playout::SplitMix64;
use vlt_core::{Game, Move, Player as Side};
use vlt_engine::{Algorithm, Clock, Engine, EngineConfig, Level, Limits, MctsConfig, Playout, Stop};
use vlt_protocol::{Command, Go, Response};
use vlt_tablebase::Tablebase;

/// Transposition table of built-in players, in MiB, unless the spec says `hash=`: small, because
/// every game makes fresh engines and several games may run at once.
const DEFAULT_HASH_MB: usize = 16;

/// A player as the command line describes it.
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
    },
    /// A program speaking the engine protocol.
    External {
        /// The program and its arguments.
        argv: Vec<String>,
        /// The `go` to send (a plain `go` plays at the engine's Level).
        go: Go,
        /// `setoption` pairs sent after the handshake.
        options: Vec<(String, String)>,
    },
}

fn positive<T: std::str::FromStr + PartialOrd + From<u8>>(key: &str, v: &str) -> anyhow::Result<T> {
    v.parse::<T>()
        .ok()
        .filter(|x| *x >= T::from(1))
        .ok_or_else(|| input(format!("player: {key}={v:?} must be a positive whole number")))
}

impl std::str::FromStr for Spec {
    type Err = anyhow::Error;

    fn from_str(spec: &str) -> anyhow::Result<Spec> {
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
        let mut level = None;
        for (i, item) in items.iter().enumerate() {
            let (k, v) = match item.split_once('=') {
                Some((k, v)) => (k.trim(), v.trim()),
                None if i == 0 && command.is_none() => {
                    kind = Some(item);
                    continue;
                }
                None => return Err(input(format!("player {spec:?}: {item:?} should be key=value"))),
            };
            match k {
                "level" if i == 0 && command.is_none() => {
                    let n: u8 = positive("level", v)?;
                    level =
                        Some(Level::new(n).ok_or_else(|| input(format!("player: level {n} is not 1-10")))?);
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
                        .ok_or_else(|| {
                            input(format!("player: explore={v:?} must be a number in (0, 100]"))
                        })?;
                    mcts_keys = true;
                }
                "greedy" if command.is_none() => {
                    let p =
                        v.parse::<u8>().ok().filter(|p| *p <= 100).ok_or_else(|| {
                            input(format!("player: greedy={v:?} must be a percentage 0-100"))
                        })?;
                    mcts.playout = if p == 0 { Playout::Uniform } else { Playout::Greedy(p) };
                    mcts_keys = true;
                }
                _ if command.is_some() => options.push((k.to_string(), v.to_string())),
                _ => return Err(input(format!("player {spec:?}: unknown setting {k:?}"))),
            }
        }
        if threads > 64 || hash > 4096 {
            return Err(input(format!("player {spec:?}: threads at most 64, hash at most 4096 MiB")));
        }
        let has_limits = limits != Limits::default();
        if let Some(cmd) = command {
            let argv = shlex::split(cmd)
                .filter(|a| !a.is_empty())
                .ok_or_else(|| input(format!("player {spec:?}: cannot split the engine command {cmd:?}")))?;
            let go = Go {
                depth: limits.depth,
                nodes: limits.nodes,
                movetime: limits.movetime.map(|d| d.as_millis() as u64),
                ..Go::default()
            };
            return Ok(Spec::External { argv, go, options });
        }
        match kind {
            Some("random") if items.len() == 1 => Ok(Spec::Random),
            Some("greedy") if items.len() == 1 => Ok(Spec::Greedy),
            Some("level") => {
                let level = level.expect("set with the kind");
                if has_limits && level.settings().temperature != 0 {
                    return Err(input(format!(
                        "player {spec:?}: levels 1-5 choose with chance and keep their own limits"
                    )));
                }
                Ok(Spec::Level { level, limits: has_limits.then_some(limits), hash })
            }
            Some(k @ ("alphabeta" | "ab" | "mcts")) => {
                if !has_limits {
                    return Err(input(format!("player {spec:?}: give depth=, nodes= or movetime=")));
                }
                let algorithm = k.parse::<Algorithm>().map_err(input)?;
                if mcts_keys && algorithm != Algorithm::Mcts {
                    return Err(input(format!("player {spec:?}: explore= and greedy= are MCTS settings")));
                }
                Ok(Spec::Search { algorithm, limits, threads, hash, mcts })
            }
            _ => Err(input(format!(
                "player {spec:?}: expected random, greedy, level=N, alphabeta,…, mcts,… or …engine=CMD"
            ))),
        }
    }
}

impl Spec {
    /// Makes a fresh player for one game; `seed` drives its chance. A built-in engine probes
    /// `tablebase` when given (an external engine brings its own).
    pub fn make(&self, seed: u64, tablebase: Option<&Arc<Tablebase>>) -> anyhow::Result<Box<dyn Player>> {
        let engine = |algorithm, threads, hash, mcts: MctsConfig| {
            // `..default()` although every field is given today: settings the engine adds later
            // keep their defaults.
            #[allow(clippy::needless_update)]
            let mut config =
                EngineConfig { hash_mb: hash, threads, algorithm, mcts, ..EngineConfig::default() };
            config.mcts.seed = seed;
            let mut e = Engine::new(config);
            e.set_tablebase(tablebase.cloned());
            e
        };
        Ok(match self {
            Spec::Random => Box::new(Random(SplitMix64(seed))),
            Spec::Greedy => Box::new(Greedy(SplitMix64(seed))),
            Spec::Level { level, limits, hash } => Box::new(Builtin {
                engine: engine(Algorithm::AlphaBeta, 1, *hash, MctsConfig::default()),
                how: match limits {
                    Some(l) => How::Search(*l),
                    None => How::Level(*level),
                },
                rng: SplitMix64(seed),
            }),
            Spec::Search { algorithm, limits, threads, hash, mcts } => Box::new(Builtin {
                engine: engine(*algorithm, *threads, *hash, *mcts),
                how: How::Search(*limits),
                rng: SplitMix64(seed),
            }),
            Spec::External { argv, go, options } => Box::new(External::start(argv, *go, options)?),
        })
    }
}

/// A time control: every player starts with `base` and gains `increment` after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time on each clock at the start.
    pub base: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

impl std::str::FromStr for TimeControl {
    type Err = anyhow::Error;

    /// `BASE[+INCREMENT]` in seconds, e.g. `60+1` or `5+0.05`.
    fn from_str(s: &str) -> anyhow::Result<TimeControl> {
        let secs = |x: &str, what: &str| {
            x.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && (0.0..=86_400.0).contains(v))
                .map(Duration::from_secs_f64)
                .ok_or_else(|| input(format!("time control {s:?}: {what} {x:?} is not 0-86400 seconds")))
        };
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let tc = TimeControl { base: secs(base, "base")?, increment: secs(inc, "increment")? };
        if tc.base.is_zero() {
            return Err(input(format!("time control {s:?}: the base time must be above 0")));
        }
        Ok(tc)
    }
}

/// Both clocks of a game played on a time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// Time left, B's then A's.
    pub remaining: [Duration; 2],
    /// Time added after each move.
    pub increment: Duration,
}

impl Clocks {
    /// Both clocks at the start of a game.
    pub fn new(tc: TimeControl) -> Clocks {
        Clocks { remaining: [tc.base; 2], increment: tc.increment }
    }

    /// `side`'s clock, as the engine sees it.
    pub fn of(&self, side: Side) -> Clock {
        Clock { remaining: self.remaining[side.index()], increment: self.increment }
    }

    /// Charges `side` for a move that took `used`: false when its time ran out (a time forfeit).
    pub fn charge(&mut self, side: Side, used: Duration) -> bool {
        let left = &mut self.remaining[side.index()];
        if used > *left {
            *left = Duration::ZERO;
            return false;
        }
        *left = *left - used + self.increment;
        true
    }
}

/// Something that picks moves.
pub trait Player {
    /// The move to play in `game` (not over); `clocks` when the game has a time control.
    ///
    /// # Errors
    /// An external engine that fails, hangs or answers an illegal move.
    fn choose(&mut self, game: &Game, clocks: Option<&Clocks>) -> anyhow::Result<Move>;
}

struct Random(SplitMix64);

impl Player for Random {
    fn choose(&mut self, game: &Game, _: Option<&Clocks>) -> anyhow::Result<Move> {
        let m = game.position().legal_moves();
        m.nth_move(self.0.below(m.len() as u32) as usize).ok_or_else(|| anyhow!("no legal move"))
    }
}

struct Greedy(SplitMix64);

impl Player for Greedy {
    fn choose(&mut self, game: &Game, _: Option<&Clocks>) -> anyhow::Result<Move> {
        let pos = game.position();
        let scored: Vec<(Move, u8)> = pos.legal_moves().map(|m| (m, pos.play_counting(m).1)).collect();
        let best = scored.iter().map(|s| s.1).max().ok_or_else(|| anyhow!("no legal move"))?;
        let top: Vec<Move> = scored.iter().filter(|s| s.1 == best).map(|s| s.0).collect();
        Ok(top[self.0.below(top.len() as u32) as usize])
    }
}

enum How {
    Level(Level),
    Search(Limits),
}

struct Builtin {
    engine: Engine,
    how: How,
    rng: SplitMix64,
}

impl Player for Builtin {
    fn choose(&mut self, game: &Game, clocks: Option<&Clocks>) -> anyhow::Result<Move> {
        let clock = clocks.map(|c| c.of(game.position().to_move()));
        Ok(match (&self.how, clock) {
            (How::Level(l), None) => self.engine.play_level(game, *l, self.rng.next_u64()),
            (How::Level(l), Some(c)) => self.engine.play_level_on_clock(game, *l, self.rng.next_u64(), c),
            (How::Search(l), clock) => {
                // On a clock, the clock's budget applies on top of the spec's own limits.
                let limits = Limits { clock: clock.or(l.clock), ..*l };
                self.engine
                    .search(game, &limits, &Stop::new(), &mut |_| {})
                    .ok_or_else(|| anyhow!("game over"))?
                    .best
            }
        })
    }
}

/// How long an external engine may take to answer, beyond its move time.
const ENGINE_GRACE: Duration = Duration::from_secs(30);

struct External {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    go: Go,
}

impl External {
    fn start(argv: &[String], go: Go, options: &[(String, String)]) -> anyhow::Result<External> {
        let name = argv.join(" ");
        let mut child = Process::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| input(format!("engine {name:?}: cannot start: {e}")))?;
        let stdin = child.stdin.take().context("engine stdin")?;
        let stdout = child.stdout.take().context("engine stdout")?;
        let (tx, rx) = mpsc::channel();
        // A reader thread, so that a silent engine can be timed out rather than block the match.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = External { name, child, stdin, lines: rx, go };
        e.send(&Command::Vlt)?;
        e.wait_for(|r| matches!(r, Response::VltOk), ENGINE_GRACE)?;
        for (k, v) in options {
            e.send(&Command::SetOption { name: k.clone(), value: Some(v.clone()) })?;
        }
        e.send(&Command::NewGame)?;
        e.send(&Command::IsReady)?;
        e.wait_for(|r| matches!(r, Response::ReadyOk), ENGINE_GRACE)?;
        Ok(e)
    }

    fn send(&mut self, c: &Command) -> anyhow::Result<()> {
        writeln!(self.stdin, "{c}")
            .and_then(|()| self.stdin.flush())
            .with_context(|| format!("engine {:?}: cannot send {c}", self.name))
    }

    /// Reads lines until `want` matches; an `error` line is fatal.
    fn wait_for(&mut self, want: impl Fn(&Response) -> bool, timeout: Duration) -> anyhow::Result<Response> {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let line = self.lines.recv_timeout(left).map_err(|e| match e {
                mpsc::RecvTimeoutError::Timeout => {
                    anyhow!("engine {:?}: no answer within {timeout:?}", self.name)
                }
                mpsc::RecvTimeoutError::Disconnected => anyhow!("engine {:?}: exited", self.name),
            })?;
            match line.parse::<Response>() {
                Ok(Response::Error(e)) => bail!("engine {:?}: error {e}", self.name),
                Ok(r) if want(&r) => return Ok(r),
                // Info lines, unknown lines and anything else: skipped, as UCI GUIs do.
                _ => {}
            }
        }
    }
}

impl Player for External {
    fn choose(&mut self, game: &Game, clocks: Option<&Clocks>) -> anyhow::Result<Move> {
        self.send(&Command::Position { start: Some(game.start()), moves: game.moves().to_vec() })?;
        let ms = |d: Duration| d.as_millis() as u64;
        let mut go = self.go;
        let mut budget = ENGINE_GRACE + Duration::from_millis(self.go.movetime.unwrap_or(0));
        if let Some(c) = clocks {
            let (b, a) = (c.of(Side::B), c.of(Side::A));
            (go.btime, go.atime) = (Some(ms(b.remaining)), Some(ms(a.remaining)));
            (go.binc, go.ainc) = (Some(ms(c.increment)), Some(ms(c.increment)));
            // The runner scores a late answer as a time forfeit; the grace only catches a hang.
            budget += c.of(game.position().to_move()).remaining;
        }
        self.send(&Command::Go(go))?;
        let r = self.wait_for(|r| matches!(r, Response::BestMove(_)), budget)?;
        match r {
            Response::BestMove(Some(m)) if game.position().legal_moves().contains(m) => Ok(m),
            other => bail!("engine {:?}: {other} is not a legal move in {}", self.name, game.position()),
        }
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.send(&Command::Quit);
        // Give it a moment to exit on its own, then make sure it is gone.
        for _ in 0..50 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        assert_eq!("random".parse::<Spec>().unwrap(), Spec::Random);
        assert_eq!("greedy".parse::<Spec>().unwrap(), Spec::Greedy);
        let Spec::Level { level, limits: None, hash: 16 } = "level=4".parse().unwrap() else { panic!() };
        assert_eq!(level.get(), 4);
        let Spec::Level { limits: Some(l), .. } = "level=10,movetime=200".parse().unwrap() else { panic!() };
        assert_eq!(l.movetime, Some(Duration::from_millis(200)));
        let Spec::Search { algorithm: Algorithm::Mcts, limits, threads: 2, hash: 16, mcts } =
            "mcts,nodes=5000,threads=2,explore=1.5,greedy=0".parse().unwrap()
        else {
            panic!()
        };
        assert_eq!(limits.nodes, Some(5000));
        assert_eq!((mcts.exploration, mcts.playout), (1.5, Playout::Uniform));
        let Spec::External { argv, go, options } =
            "depth=5,Level=3,engine=./vlt engine --flag 'a b,c'".parse().unwrap()
        else {
            panic!()
        };
        assert_eq!(argv, ["./vlt", "engine", "--flag", "a b,c"]);
        assert_eq!(go.to_string(), "go depth 5");
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
            "ab,depth=3,threads=1000",
        ] {
            assert!(bad.parse::<Spec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn time_controls_parse_and_clocks_run() {
        let tc: TimeControl = "5+0.25".parse().unwrap();
        assert_eq!(tc, TimeControl { base: Duration::from_secs(5), increment: Duration::from_millis(250) });
        assert_eq!("60".parse::<TimeControl>().unwrap().increment, Duration::ZERO);
        for bad in ["", "0", "x+1", "5+", "-1+0", "5+1+2", "inf", "1e9"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        let mut c = Clocks::new(tc);
        assert!(c.charge(Side::B, Duration::from_secs(1)));
        assert_eq!(c.of(Side::B).remaining, Duration::from_millis(4250));
        assert_eq!(c.of(Side::A).remaining, Duration::from_secs(5), "only the mover's clock runs");
        assert!(!c.charge(Side::A, Duration::from_millis(5001)), "over the time left is a forfeit");
        assert_eq!(c.of(Side::A).remaining, Duration::ZERO);
    }

    #[test]
    fn a_level_on_a_clock_plays_within_it() {
        // Level 10 alone would think until its fixed second is used up; on a clock it budgets a
        // small share of the time left (a quarter at most), so it answers well inside 1 s.
        let mut p = "level=10".parse::<Spec>().unwrap().make(1, None).unwrap();
        let tc = TimeControl { base: Duration::from_millis(1000), increment: Duration::ZERO };
        let game = Game::default();
        let t = std::time::Instant::now();
        let m = p.choose(&game, Some(&Clocks::new(tc))).unwrap();
        assert!(t.elapsed() < Duration::from_millis(1000), "took {:?}", t.elapsed());
        assert!(game.position().legal_moves().contains(m));
    }

    #[test]
    fn greedy_takes_the_biggest_capture() {
        // The rule texts' worked example: 2B (5 stones) captures 1A, 6B, 5B, 4B, 3B (R4) — five stones.
        let ex = &vlt_core::examples::WORKED_EXAMPLES;
        let mut g = Greedy(SplitMix64(1));
        for e in ex.iter() {
            let pos: vlt_core::Position = e.position.parse().unwrap();
            let m = g.choose(&Game::new(pos), None).unwrap();
            let best = pos.legal_moves().map(|m| pos.play_counting(m).1).max().unwrap();
            assert_eq!(pos.play_counting(m).1, best, "{}", e.id);
            assert!(best > 0, "each worked example has a capture or a sowing to show: {}", e.id);
        }
    }
}
