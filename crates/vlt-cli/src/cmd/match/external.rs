//! An external program as a contestant: it speaks the engine protocol (docs/protocol.md) over
//! its standard input and output, one process for each game.

use crate::error::input;
use anyhow::{Context, anyhow, bail};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::mpsc;
use std::time::Duration;
use vlt_core::{Game, Move, Player};
use vlt_engine::Limits;
use vlt_engine::arena::{Clocks, Contestant, ContestantError};
use vlt_protocol::{Command, Go, Response};

/// How long an external engine may take to answer, beyond its move time.
const ENGINE_GRACE: Duration = Duration::from_secs(30);

/// The `go` a spec's limits ask for: none, a plain `go` that plays at the engine's Level.
fn go_of(limits: &Limits) -> Go {
    Go {
        depth: limits.depth,
        nodes: limits.nodes,
        movetime: limits.movetime.map(|d| d.as_millis() as u64),
        ..Go::default()
    }
}

/// A running engine program.
pub struct External {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    go: Go,
}

impl External {
    /// Starts `command` (split as a shell would), greets it and sends `options`.
    ///
    /// # Errors
    /// An input error when the command does not split or start; an error when the program does
    /// not answer the handshake.
    pub fn start(command: &str, limits: &Limits, options: &[(String, String)]) -> anyhow::Result<External> {
        let argv = shlex::split(command)
            .filter(|a| !a.is_empty())
            .ok_or_else(|| input(format!("engine {command:?}: cannot split the command")))?;
        let go = go_of(limits);
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

impl Contestant for External {
    fn choose(&mut self, game: &Game, clocks: Option<&Clocks>) -> Result<Move, ContestantError> {
        Ok(self.play(game, clocks)?)
    }
}

impl External {
    /// Sends the game and a `go`, and waits for a legal `bestmove`.
    fn play(&mut self, game: &Game, clocks: Option<&Clocks>) -> anyhow::Result<Move> {
        self.send(&Command::Position { start: Some(game.start()), moves: game.moves().to_vec() })?;
        let ms = |d: Duration| d.as_millis() as u64;
        let mut go = self.go;
        let mut budget = ENGINE_GRACE + Duration::from_millis(self.go.movetime.unwrap_or(0));
        if let Some(c) = clocks {
            let (b, a) = (c.of(Player::B), c.of(Player::A));
            (go.btime, go.atime) = (Some(ms(b.remaining)), Some(ms(a.remaining)));
            (go.binc, go.ainc) = (Some(ms(c.increment)), Some(ms(c.increment)));
            // The arena scores a late answer as a time forfeit; the grace only catches a hang.
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
    fn limits_become_the_go_command() {
        assert_eq!(go_of(&Limits::default()).to_string(), "go");
        let l = Limits { depth: Some(5), movetime: Some(Duration::from_millis(250)), ..Limits::default() };
        let go = go_of(&l).to_string();
        assert!(go.starts_with("go ") && go.contains("depth 5") && go.contains("movetime 250"), "{go}");
    }

    #[test]
    fn a_command_that_does_not_split_or_start_is_an_input_error() {
        for bad in ["'unclosed", "/nonexistent/engine"] {
            let Err(e) = External::start(bad, &Limits::default(), &[]) else { panic!("{bad} started") };
            assert_eq!(crate::error::exit_code(&e), 2, "{bad}: {e}");
        }
    }
}
