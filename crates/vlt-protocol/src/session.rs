//! The session state machine: what a command does, given the session's state (the options, the
//! game, whether a search runs). It performs no I/O and runs no search: it returns [`Effect`]s,
//! which a host (see [`crate::host`]) carries out. So it can be tested line by line, and any
//! transport (stdio, a WebSocket) drives the same rules.

use crate::command::{Command, Go};
use crate::response::{OptionKind, OptionSpec, Response};
use std::time::Duration;
use vlt_core::{Game, Position};
use vlt_engine::{Algorithm, Clock, EngineConfig, Level, Limits};

/// The largest transposition table a client may ask for, in MiB.
pub const MAX_HASH_MB: usize = 4096;
/// The most search threads a client may ask for.
pub const MAX_THREADS: usize = 64;
/// The longest accepted line in bytes: room for a position and thousands of moves (N1, three
/// characters each), far below what could hurt.
pub const MAX_LINE: usize = 100_000;

/// Something the host must do in answer to a command, in order.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Effect {
    /// Send this line.
    Reply(Response),
    /// Use these engine settings from now on.
    Configure(EngineConfig),
    /// Forget earlier searches (`newgame`).
    Clear,
    /// Start this search on the worker; it reports `info` lines and ends with `bestmove`.
    Search(Job),
    /// Stop the running search; it sends its `bestmove`, and the host returns once it has, so the
    /// next command finds the engine idle.
    Stop,
    /// End the session.
    Quit,
}

/// A search to run.
#[derive(Clone, Debug)]
pub struct Job {
    /// The game, with its history (R7 repetitions count from it).
    pub game: Game,
    /// How to choose the move.
    pub kind: JobKind,
}

/// How a [`Job`] chooses its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// A search within these limits. With `infinite`, the `bestmove` waits for `stop` even when the
    /// search ends by itself (a proven result), as in UCI.
    Search {
        /// The limits.
        limits: Limits,
        /// `go infinite`.
        infinite: bool,
    },
    /// A level's move with some chance in it ([`vlt_engine::Engine::play_level`]); quick, not
    /// interruptible.
    Level {
        /// The level.
        level: Level,
        /// The seed of its choice.
        seed: u64,
    },
}

/// The protocol session: options and the game being analysed.
#[derive(Clone, Debug)]
pub struct Session {
    name: String,
    author: String,
    level: Level,
    config: EngineConfig,
    game: Game,
}

impl Default for Session {
    fn default() -> Self {
        Session::new(concat!("vlt ", env!("CARGO_PKG_VERSION")), "The vlt developers")
    }
}

impl Session {
    /// A session announcing itself with this name and author; level 10, alpha-beta, one thread.
    #[must_use]
    pub fn new(name: &str, author: &str) -> Session {
        Session {
            name: name.to_string(),
            author: author.to_string(),
            level: Level::MAX,
            config: EngineConfig::default(),
            game: Game::new(Position::START),
        }
    }

    /// The engine settings the options give.
    #[must_use]
    pub fn config(&self) -> EngineConfig {
        self.config
    }

    /// The game `go` will search.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The options offered in the handshake, with their current values as defaults.
    #[must_use]
    pub fn options(&self) -> Vec<OptionSpec> {
        let spin = |name: &str, default: usize, min: i64, max: usize| OptionSpec {
            name: name.into(),
            kind: OptionKind::Spin { default: default as i64, min, max: max as i64 },
        };
        vec![
            spin("Level", usize::from(self.level.get()), 1, 10),
            OptionSpec {
                name: "Algorithm".into(),
                kind: OptionKind::Combo {
                    default: self.config.algorithm.name().into(),
                    vars: vec!["alphabeta".into(), "mcts".into()],
                },
            },
            spin("Hash", self.config.hash_mb, 1, MAX_HASH_MB),
            spin("Threads", self.config.threads, 1, MAX_THREADS),
        ]
    }

    /// Handles one input line. Empty lines do nothing; an unreadable line gets an `error` reply.
    /// `busy` tells whether a search is running.
    pub fn handle_line(&mut self, line: &str, busy: bool) -> Vec<Effect> {
        if line.trim().is_empty() {
            return Vec::new();
        }
        if line.len() > MAX_LINE {
            // A transport that reads with `read_line` keeps only the first `MAX_LINE + 1` bytes of
            // a longer line, so its true length is not known here.
            return vec![error(format!("line too long (more than {MAX_LINE} bytes)"))];
        }
        match line.parse::<Command>() {
            Ok(c) => self.handle(c, busy),
            Err(e) => vec![error(e.to_string())],
        }
    }

    /// Handles one command. `busy` tells whether a search is running.
    pub fn handle(&mut self, cmd: Command, busy: bool) -> Vec<Effect> {
        const BUSY: &str = "a search is running: send stop first";
        match cmd {
            Command::Vlt => {
                let mut out = vec![
                    Effect::Reply(Response::IdName(self.name.clone())),
                    Effect::Reply(Response::IdAuthor(self.author.clone())),
                ];
                out.extend(self.options().into_iter().map(|o| Effect::Reply(Response::Option(o))));
                out.push(Effect::Reply(Response::VltOk));
                out
            }
            Command::IsReady => vec![Effect::Reply(Response::ReadyOk)],
            Command::Quit => vec![Effect::Stop, Effect::Quit],
            // Stop while idle is harmless and silent (UCI does the same): the search may have just
            // ended on its own, and the client cannot know.
            Command::Stop => {
                if busy {
                    vec![Effect::Stop]
                } else {
                    Vec::new()
                }
            }
            _ if busy => vec![error(format!("{}: {BUSY}", command_word(&cmd)))],
            Command::NewGame => {
                self.game = Game::new(Position::START);
                vec![Effect::Clear]
            }
            Command::SetOption { name, value } => match self.set_option(&name, value.as_deref()) {
                Ok(()) => vec![Effect::Configure(self.config)],
                Err(e) => vec![error(format!("setoption: {e}"))],
            },
            Command::Position { start, moves } => {
                let mut game = Game::new(start.unwrap_or(Position::START));
                for (i, m) in moves.iter().enumerate() {
                    // The parser checked each move on the board; only R7 can end the game early.
                    if let Err(e) = game.play(*m) {
                        return vec![error(format!("position: move {} ({m}): {e}", i + 1))];
                    }
                }
                self.game = game;
                Vec::new()
            }
            Command::Go(go) => self.go(go),
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let value = value.ok_or_else(|| format!("option {name} needs a value"))?;
        let int = |max: usize| -> Result<usize, String> {
            value
                .parse::<usize>()
                .ok()
                .filter(|v| (1..=max).contains(v))
                .ok_or_else(|| format!("{name} must be a whole number from 1 to {max}, not {value:?}"))
        };
        match name.to_ascii_lowercase().as_str() {
            "level" => {
                let n = int(10)?;
                self.level = Level::new(n as u8).expect("checked range");
            }
            "algorithm" => self.config.algorithm = value.parse::<Algorithm>()?,
            "hash" => self.config.hash_mb = int(MAX_HASH_MB)?,
            "threads" => self.config.threads = int(MAX_THREADS)?,
            _ => {
                return Err(format!(
                    "unknown option {name:?}: the options are Level, Algorithm, Hash, Threads"
                ));
            }
        }
        Ok(())
    }

    fn go(&mut self, go: Go) -> Vec<Effect> {
        let pos = self.game.position();
        if self.game.is_over() || pos.legal_moves().is_empty() {
            return vec![Effect::Reply(Response::BestMove(None))];
        }
        let game = self.game.clone();
        if go.is_plain() {
            let s = self.level.settings();
            let kind = if s.temperature == 0 {
                JobKind::Search { limits: s.limits, infinite: false }
            } else {
                // Same position, same game length: same choice (reproducible test games).
                let seed = pos.zobrist() ^ (game.moves().len() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                JobKind::Level { level: self.level, seed }
            };
            return vec![Effect::Search(Job { game, kind })];
        }
        let ms = Duration::from_millis;
        let (time, inc) = match pos.to_move() {
            vlt_core::Player::B => (go.btime, go.binc),
            vlt_core::Player::A => (go.atime, go.ainc),
        };
        let limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            movetime: go.movetime.map(ms),
            clock: time.map(|t| Clock { remaining: ms(t), increment: ms(inc.unwrap_or(0)) }),
            min_depth: None,
        };
        if !go.infinite && limits == Limits::default() {
            return vec![error(format!(
                "go: no limit for {} to move: give depth, nodes, movetime, {} or infinite",
                pos.to_move(),
                if pos.to_move() == vlt_core::Player::B { "btime" } else { "atime" }
            ))];
        }
        vec![Effect::Search(Job { game, kind: JobKind::Search { limits, infinite: go.infinite } })]
    }
}

fn error(msg: String) -> Effect {
    Effect::Reply(Response::Error(msg))
}

fn command_word(c: &Command) -> String {
    c.to_string().split_whitespace().next().unwrap_or_default().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replies(e: &[Effect]) -> Vec<String> {
        e.iter()
            .filter_map(|e| match e {
                Effect::Reply(r) => Some(r.to_string()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn handshake_lists_options_and_ends_with_vltok() {
        let mut s = Session::default();
        let r = replies(&s.handle_line("vlt", false));
        assert!(r[0].starts_with("id name vlt "));
        assert_eq!(r[2], "option name Level type spin default 10 min 1 max 10");
        assert_eq!(r.last().unwrap(), "vltok");
        assert_eq!(r.len(), 7);
    }

    #[test]
    fn options_change_the_engine_config() {
        let mut s = Session::default();
        assert!(matches!(s.handle_line("setoption name threads value 2", false)[0], Effect::Configure(_)));
        assert!(matches!(
            s.handle_line("setoption name Algorithm value mcts", false)[0],
            Effect::Configure(_)
        ));
        assert_eq!(s.config().threads, 2);
        assert_eq!(s.config().algorithm, Algorithm::Mcts);
        for bad in [
            "setoption name Threads value 0",
            "setoption name Hash value 999999999999999999999999",
            "setoption name Level value 11",
            "setoption name Algorithm value minimax",
            "setoption name Colour value red",
            "setoption name Level",
        ] {
            let r = replies(&s.handle_line(bad, false));
            assert!(r.len() == 1 && r[0].starts_with("error setoption: "), "{bad}: {r:?}");
        }
        assert_eq!(s.config().threads, 2, "a refused option changes nothing");
    }

    #[test]
    fn commands_that_change_state_are_refused_while_searching() {
        let mut s = Session::default();
        s.handle_line("position startpos moves 3B", false);
        for line in ["go depth 3", "position startpos", "setoption name Level value 3", "newgame"] {
            let r = replies(&s.handle_line(line, true));
            assert!(r.len() == 1 && r[0].starts_with("error ") && r[0].contains("send stop first"), "{r:?}");
        }
        assert_eq!(s.game().moves().len(), 1, "the position is unchanged");
        assert!(matches!(s.handle_line("stop", true)[..], [Effect::Stop]));
        assert!(s.handle_line("stop", false).is_empty());
        assert_eq!(replies(&s.handle_line("isready", true)), ["readyok"]);
    }

    #[test]
    fn go_builds_limits_for_the_player_to_move() {
        let mut s = Session::default();
        s.handle_line("position startpos moves 3B", false);
        // A moves now: atime/ainc are its clock (R2: B moved first).
        let e = s.handle_line("go btime 5 atime 60000 ainc 1000", false);
        let [Effect::Search(Job { kind: JobKind::Search { limits, infinite: false }, game })] = &e[..] else {
            panic!("{e:?}")
        };
        assert_eq!(game.moves().len(), 1);
        let c = limits.clock.unwrap();
        assert_eq!((c.remaining.as_millis(), c.increment.as_millis()), (60000, 1000));
        // Only B's clock given while A moves: no limit at all.
        let r = replies(&s.handle_line("go btime 1000", false));
        assert!(r[0].starts_with("error go: no limit for A"), "{r:?}");
    }

    #[test]
    fn plain_go_plays_at_the_level() {
        let mut s = Session::default();
        s.handle_line("setoption name Level value 2", false);
        let e = s.handle_line("go", false);
        assert!(matches!(e[..], [Effect::Search(Job { kind: JobKind::Level { .. }, .. })]));
        s.handle_line("setoption name Level value 7", false);
        let e = s.handle_line("go", false);
        assert!(matches!(e[..], [Effect::Search(Job { kind: JobKind::Search { .. }, .. })]), "{e:?}");
    }

    #[test]
    fn go_on_a_finished_game_answers_bestmove_none() {
        let mut s = Session::default();
        s.handle_line("position 0,0,0,0,0,0/0,0,0,0,0,0 B 30 30", false);
        assert_eq!(replies(&s.handle_line("go depth 3", false)), ["bestmove none"]);
    }

    #[test]
    fn r7_third_occurrence_ends_the_game() {
        // RULES.md R7: this 12-move cycle comes back to its start; the third time ends the game.
        let cycle = "5A 1B 2A 3B 4A 5B 6A 2B 1A 4B 3A 6B";
        let mut s = Session::default();
        let line = format!("position 1,0,1,0,1,0/1,2,0,1,2,0 A 25 26 moves {cycle} {cycle}");
        assert!(replies(&s.handle_line(&line, false)).is_empty());
        assert!(s.game().is_over());
        assert_eq!(replies(&s.handle_line("go depth 2", false)), ["bestmove none"]);
        let r = replies(&s.handle_line(&format!("{line} 5A"), false));
        assert!(r[0].starts_with("error position: move 25 (5A)"), "{r:?}");
    }
}
