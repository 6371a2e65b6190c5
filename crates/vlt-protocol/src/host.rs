//! The host: carries out a session's [`Effect`]s with a real [`Engine`] on its own thread (an
//! [`EngineThread`]), so that `stop` and `isready` are answered while it thinks. Output goes to a
//! [`Sink`], a callback that any transport provides (stdout for `vlt engine`, a channel for a
//! WebSocket).

use crate::response::{Info, Response};
use crate::session::{Effect, Job, JobKind, Session};
use std::sync::Arc;
use vlt_engine::{Engine, EngineConfig, EngineThread, SearchInfo, Task};
use vlt_tablebase::Tablebase;

/// Where the engine's lines go. Called from the caller's thread and from the engine's.
pub type Sink = Arc<dyn Fn(Response) + Send + Sync>;

/// Runs an engine on its own thread.
pub struct Host {
    engine: EngineThread,
    sink: Sink,
}

impl Host {
    /// Starts an engine of this configuration.
    #[must_use]
    pub fn new(config: EngineConfig, sink: Sink) -> Host {
        Host::with_tablebase(config, None, sink)
    }

    /// Starts an engine of this configuration that values positions within `tablebase` exactly
    /// (its `info` lines then say `exact` as soon as every line reaches the tables). The tables
    /// stay across `setoption`.
    #[must_use]
    pub fn with_tablebase(config: EngineConfig, tablebase: Option<Arc<Tablebase>>, sink: Sink) -> Host {
        let mut engine = Engine::new(config);
        engine.set_tablebase(tablebase);
        Host { engine: EngineThread::new(engine), sink }
    }

    /// True while a search runs (from `go` until its `bestmove` is sent).
    #[must_use]
    pub fn is_busy(&self) -> bool {
        self.engine.is_searching()
    }

    /// Carries out one effect. Returns false for [`Effect::Quit`].
    pub fn apply(&mut self, effect: Effect) -> bool {
        match effect {
            Effect::Reply(r) => (self.sink)(r),
            Effect::Configure(c) => self.engine.configure(c),
            Effect::Clear => self.engine.clear(),
            Effect::Search(job) => {
                let (info, done) = (Arc::clone(&self.sink), Arc::clone(&self.sink));
                self.engine.go(
                    task(job),
                    move |i| info(Response::Info(self::info(i))),
                    move |f| done(Response::BestMove(f.best)),
                );
            }
            // Waits for the `bestmove`: after `stop` the search is over, so the next command (a
            // `go`, or `isready` whose `readyok` promises that) finds the engine idle.
            Effect::Stop => {
                self.engine.stop();
                self.engine.wait();
            }
            Effect::Quit => return false,
        }
        true
    }

    /// Stops any search and waits for the engine's thread to end.
    pub fn shutdown(&mut self) {
        self.engine.shutdown();
    }

    /// Waits until the running search (if any) has sent its `bestmove`; a `go infinite` must be
    /// stopped first or this waits for ever.
    pub fn wait(&self) {
        self.engine.wait();
    }
}

/// The engine's task for a job.
fn task(job: Job) -> Task {
    match job.kind {
        JobKind::Level { level, seed } => Task::Level { game: job.game, level, seed, clock: None },
        JobKind::Search { limits, infinite } => Task::Search { game: job.game, limits, infinite },
    }
}

/// The protocol form of the engine's progress report.
#[must_use]
pub fn info(i: &SearchInfo) -> Info {
    Info {
        depth: i.depth,
        score: i.score,
        exact: i.exact,
        nodes: i.nodes,
        nps: i.nps,
        time_ms: i.elapsed.as_millis() as u64,
        pv: i.pv.clone(),
    }
}

/// A session and its host together: feed it lines, it answers through the sink.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use vlt_protocol::{Server, Response};
///
/// let out = Arc::new(Mutex::new(Vec::new()));
/// let o = out.clone();
/// let mut server = Server::new(Arc::new(move |r: Response| o.lock().unwrap().push(r.to_string())));
/// server.line("position startpos moves 3B");
/// server.line("go depth 2");
/// server.finish();
/// let out = out.lock().unwrap();
/// assert!(out.last().unwrap().starts_with("bestmove "));
/// assert!(out.iter().any(|l| l.starts_with("info depth 2 ")));
/// ```
pub struct Server {
    session: Session,
    host: Host,
    infinite: bool,
}

impl Server {
    /// A default session (level 10, alpha-beta, one thread) answering through `sink`.
    #[must_use]
    pub fn new(sink: Sink) -> Server {
        Server::with_tablebase(None, sink)
    }

    /// A default session whose engine probes `tablebase` (see [`Host::with_tablebase`]).
    #[must_use]
    pub fn with_tablebase(tablebase: Option<Arc<Tablebase>>, sink: Sink) -> Server {
        let session = Session::default();
        Server { host: Host::with_tablebase(session.config(), tablebase, sink), session, infinite: false }
    }

    /// Handles one input line. Returns false after `quit`.
    pub fn line(&mut self, line: &str) -> bool {
        let effects = self.session.handle_line(line, self.host.is_busy());
        for e in effects {
            if let Effect::Search(Job { kind: JobKind::Search { infinite, .. }, .. }) = &e {
                self.infinite = *infinite;
            }
            if !self.host.apply(e) {
                return false;
            }
        }
        true
    }

    /// The end of input: waits for a running finite search to send its `bestmove` (so
    /// `echo "go depth 8" | vlt engine` prints one); an infinite one is stopped first.
    pub fn finish(&mut self) {
        if self.infinite && self.host.is_busy() {
            self.host.apply(Effect::Stop);
        }
        self.host.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Mutex, mpsc};
    use vlt_tablebase::build::build_in_memory;

    /// The responses of one `go` from `pos`, through a [`Server`] with or without tables.
    fn go(tb: Option<Arc<Tablebase>>, pos: &str, go: &str) -> Vec<Response> {
        let (tx, rx) = mpsc::channel();
        let tx = Mutex::new(tx);
        let mut server = Server::with_tablebase(
            tb,
            Arc::new(move |r| {
                let _ = tx.lock().expect("sink").send(r);
            }),
        );
        assert!(server.line(&format!("position {pos}")));
        assert!(server.line(go));
        server.finish();
        drop(server);
        rx.iter().collect()
    }

    /// With tables the engine knows an endgame's exact value after one ply, and says so; without
    /// them a one-ply search is a guess.
    #[test]
    fn an_engine_with_tables_reports_exact_endgame_values() {
        let tb = Arc::new(Tablebase::from_layers(build_in_memory(7)));
        let pos = "0,0,1,2,0,0/1,0,0,2,0,1 B 20 33";
        let value = tb.probe(pos.parse().expect("position")).expect("7 stones");
        let info = |rs: &[Response]| {
            rs.iter().rev().find_map(|r| if let Response::Info(i) = r { Some(i.clone()) } else { None })
        };
        let with = go(Some(tb.clone()), pos, "go depth 1");
        let i = info(&with).expect("an info line");
        assert!(i.exact && i.score == value, "{with:?}");
        assert!(matches!(with.last(), Some(Response::BestMove(Some(_)))));
        let without = go(None, pos, "go depth 1");
        assert!(!info(&without).expect("an info line").exact, "{without:?}");
    }
}
