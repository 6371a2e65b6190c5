//! The engine on its own thread, as front ends use it: [`EngineThread::go`] starts a task and
//! returns at once, progress and the result arrive through callbacks, [`EngineThread::stop`]
//! ends what runs, [`EngineThread::wait`] waits for it. The protocol host, the terminal game and
//! the web server all drive the engine so (as Stockfish's engine owns its search threads).

use crate::{Clock, Engine, EngineConfig, Level, Limits, SearchInfo, SearchResult, Stop};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;
use vlt_core::{Game, Move};

/// How often a finished infinite search looks for its stop.
const INFINITE_POLL: Duration = Duration::from_millis(2);

/// What the engine is asked to do.
#[derive(Clone, Debug)]
pub enum Task {
    /// [`Engine::search`] within `limits`. With `infinite`, the result waits for
    /// [`EngineThread::stop`] even when the search ends by itself (a proven result), as UCI's
    /// `go infinite` does.
    Search {
        /// The game (its history matters for R7).
        game: Game,
        /// The limits.
        limits: Limits,
        /// Hold the result until stopped.
        infinite: bool,
    },
    /// [`Engine::analyse`]: every move's exact value.
    Analyse {
        /// The game.
        game: Game,
        /// The limits.
        limits: Limits,
    },
    /// [`Engine::play_level`] (on a clock, [`Engine::play_level_on_clock`]). A level's own limits
    /// bound it; a stop does not end it sooner.
    Level {
        /// The game.
        game: Game,
        /// The level.
        level: Level,
        /// The seed of its choices.
        seed: u64,
        /// The mover's clock, if it plays on one.
        clock: Option<Clock>,
    },
}

/// What a task ended with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Finished {
    /// The move chosen; `None` when the game is over (or its mover has no move).
    pub best: Option<Move>,
    /// The search's result, for [`Task::Search`] and [`Task::Analyse`].
    pub result: Option<SearchResult>,
}

type OnInfo = Box<dyn FnMut(&SearchInfo) + Send>;
type OnDone = Box<dyn FnOnce(Finished) + Send>;

enum Msg {
    Configure(EngineConfig),
    Clear,
    Go { id: u64, task: Task, stop: Stop, on_info: OnInfo, on_done: OnDone },
}

/// What the caller and the thread share.
#[derive(Default)]
struct State {
    /// Tasks given and not yet finished (their result not yet reported), with their stop flags.
    running: Vec<(u64, Stop)>,
    /// Tasks whose `on_done` has not returned yet.
    unfinished: usize,
    /// Ids handed out.
    next_id: u64,
    /// The thread has ended (only by a panic, before the handle is dropped).
    gone: bool,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    idle: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Marks the thread gone however it ends, so that [`EngineThread::wait`] never waits for a task
/// a panic has lost.
struct Gone(Arc<Shared>);

impl Drop for Gone {
    fn drop(&mut self) {
        let mut st = self.0.lock();
        st.gone = true;
        st.running.clear();
        st.unfinished = 0;
        self.0.idle.notify_all();
    }
}

/// An engine running on its own thread. Tasks run one after another in the order given;
/// settings and [`EngineThread::clear`] apply in that order too.
///
/// ```
/// use std::sync::mpsc::channel;
/// use vlt_core::Game;
/// use vlt_engine::{Engine, EngineThread, Limits, Task};
///
/// let thread = EngineThread::new(Engine::new(Default::default()));
/// let (tx, rx) = channel();
/// let task = Task::Search { game: Game::default(), limits: Limits::default(), infinite: false };
/// thread.go(task, |_| {}, move |done| tx.send(done.best).unwrap());
/// thread.stop(); // no limits: it would search until stopped
/// assert!(rx.recv().unwrap().is_some());
/// ```
pub struct EngineThread {
    tx: Option<Sender<Msg>>,
    shared: Arc<Shared>,
    handle: Option<JoinHandle<()>>,
}

impl EngineThread {
    /// Moves `engine` onto a new thread.
    #[must_use]
    pub fn new(mut engine: Engine) -> EngineThread {
        let (tx, rx) = channel::<Msg>();
        let shared = Arc::new(Shared::default());
        let gone = Gone(Arc::clone(&shared));
        let handle = std::thread::spawn(move || {
            let gone = gone;
            // The loop ends when the handle drops its sender.
            for msg in rx {
                match msg {
                    Msg::Configure(c) => engine.set_config(c),
                    Msg::Clear => engine.clear(),
                    Msg::Go { id, task, stop, mut on_info, on_done } => {
                        let done = run(&mut engine, &task, &stop, &mut *on_info);
                        // No longer searching before the result is out: a caller that answers
                        // it at once with a new task must find the engine idle.
                        gone.0.lock().running.retain(|r| r.0 != id);
                        on_done(done);
                        let mut st = gone.0.lock();
                        st.unfinished -= 1;
                        gone.0.idle.notify_all();
                    }
                }
            }
        });
        EngineThread { tx: Some(tx), shared, handle: Some(handle) }
    }

    fn send(&self, msg: Msg) -> bool {
        self.tx.as_ref().is_some_and(|tx| tx.send(msg).is_ok())
    }

    /// Uses these settings for the tasks given after this call.
    pub fn configure(&self, config: EngineConfig) {
        self.send(Msg::Configure(config));
    }

    /// Forgets earlier searches (the transposition table) before the next task.
    pub fn clear(&self) {
        self.send(Msg::Clear);
    }

    /// Starts `task` after those already given: `on_info` hears each finished iteration,
    /// `on_done` the result (both on the engine's thread). A thread that has died (a panic)
    /// calls neither.
    pub fn go(
        &self,
        task: Task,
        on_info: impl FnMut(&SearchInfo) + Send + 'static,
        on_done: impl FnOnce(Finished) + Send + 'static,
    ) {
        let stop = Stop::new();
        let id = {
            let mut st = self.shared.lock();
            if st.gone {
                return;
            }
            st.next_id += 1;
            let id = st.next_id;
            st.running.push((id, stop.clone()));
            st.unfinished += 1;
            id
        };
        let msg = Msg::Go { id, task, stop, on_info: Box::new(on_info), on_done: Box::new(on_done) };
        if !self.send(msg) {
            let mut st = self.shared.lock();
            st.running.retain(|r| r.0 != id);
            st.unfinished -= 1;
        }
    }

    /// Ends every task given so far: a search returns its best so far, an infinite one stops
    /// holding its result. Returns at once; [`EngineThread::wait`] waits for the results.
    pub fn stop(&self) {
        for (_, s) in &self.shared.lock().running {
            s.stop();
        }
    }

    /// True from [`EngineThread::go`] until the task's result is reported (for every task given).
    #[must_use]
    pub fn is_searching(&self) -> bool {
        !self.shared.lock().running.is_empty()
    }

    /// Waits until every task given has finished and its `on_done` has returned. A search
    /// without limits, or an infinite one, must be stopped first, or this waits for ever.
    pub fn wait(&self) {
        let mut st = self.shared.lock();
        while st.unfinished > 0 && !st.gone {
            st = self.shared.idle.wait(st).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Stops every task and ends the thread, waiting for it. Dropping the handle does the same.
    pub fn shutdown(&mut self) {
        self.stop();
        self.tx = None;
        if let Some(h) = self.handle.take() {
            // A callback that drops the last handle runs on the thread itself: it cannot wait for
            // itself, and the thread ends by itself once the loop sees the channel closed.
            if h.thread().id() != std::thread::current().id() {
                let _ = h.join();
            }
        }
    }
}

impl Drop for EngineThread {
    fn drop(&mut self) {
        self.shutdown();
    }
}

impl std::fmt::Debug for EngineThread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineThread").field("searching", &self.is_searching()).finish_non_exhaustive()
    }
}

/// Runs one task.
fn run(engine: &mut Engine, task: &Task, stop: &Stop, on_info: &mut dyn FnMut(&SearchInfo)) -> Finished {
    let game = match task {
        Task::Search { game, .. } | Task::Analyse { game, .. } | Task::Level { game, .. } => game,
    };
    if !crate::has_moves(game) {
        return Finished::default();
    }
    match task {
        Task::Search { game, limits, infinite } => {
            let result = engine.search(game, limits, stop, on_info);
            while *infinite && !stop.is_stopped() {
                std::thread::sleep(INFINITE_POLL);
            }
            Finished { best: result.as_ref().map(|r| r.best), result }
        }
        Task::Analyse { game, limits } => {
            let result = engine.analyse(game, limits, stop, on_info);
            Finished { best: result.as_ref().map(|r| r.best), result }
        }
        Task::Level { game, level, seed, clock } => {
            let mv = match clock {
                Some(c) => engine.play_level_on_clock(game, *level, *seed, *c),
                None => engine.play_level(game, *level, *seed),
            };
            Finished { best: Some(mv), result: None }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::Receiver;
    use std::time::Instant;

    fn thread() -> EngineThread {
        EngineThread::new(Engine::new(EngineConfig { hash_mb: 4, ..EngineConfig::default() }))
    }

    fn search(limits: Limits, infinite: bool) -> Task {
        Task::Search { game: Game::default(), limits, infinite }
    }

    /// Starts `task`, with its results and the number of info lines sent to channels.
    fn go(t: &EngineThread, task: Task) -> (Receiver<Finished>, Receiver<u32>) {
        let (done_tx, done) = channel();
        let (info_tx, info) = channel();
        t.go(
            task,
            move |i| {
                let _ = info_tx.send(i.depth);
            },
            move |f| {
                let _ = done_tx.send(f);
            },
        );
        (done, info)
    }

    #[test]
    fn stop_ends_a_search_without_limits() {
        let t = thread();
        let (done, info) = go(&t, search(Limits::default(), false));
        // It searches on by itself: no result yet, but progress.
        assert!(info.recv_timeout(Duration::from_secs(10)).is_ok(), "an iteration ends");
        assert!(done.recv_timeout(Duration::from_millis(50)).is_err(), "no limit: it goes on");
        assert!(t.is_searching());
        let asked = Instant::now();
        t.stop();
        let f = done.recv_timeout(Duration::from_secs(5)).expect("stopped");
        assert!(asked.elapsed() < Duration::from_secs(2), "{:?}", asked.elapsed());
        let r = f.result.expect("a search result");
        assert_eq!(f.best, Some(r.best));
        assert!(Game::default().position().legal_moves().contains(r.best));
        t.wait();
        assert!(!t.is_searching());
    }

    #[test]
    fn go_after_stop_runs_a_new_search() {
        let t = thread();
        let (done, _) = go(&t, search(Limits::default(), true));
        t.stop();
        t.wait();
        assert!(done.try_recv().is_ok(), "the stopped search reported before wait returned");
        // The stop was for the first task only: the next one runs to its own limit.
        let (done, info) = go(&t, search(Limits { depth: Some(5), ..Limits::default() }, false));
        t.wait();
        let f = done.try_recv().expect("finished");
        assert_eq!(f.result.expect("a result").info.depth, 5);
        assert_eq!(info.try_iter().collect::<Vec<_>>(), [1, 2, 3, 4, 5]);
    }

    #[test]
    fn an_infinite_search_holds_its_result_until_stopped() {
        let t = thread();
        // Depth 1 ends at once, but an infinite task reports only when stopped.
        let (done, _) = go(&t, search(Limits { depth: Some(1), ..Limits::default() }, true));
        assert!(done.recv_timeout(Duration::from_millis(100)).is_err());
        assert!(t.is_searching());
        t.stop();
        assert!(done.recv_timeout(Duration::from_secs(5)).expect("stopped").best.is_some());
    }

    #[test]
    fn tasks_run_in_order_and_settings_between_them_apply() {
        let t = thread();
        let game = Game::default();
        let (a, _) =
            go(&t, Task::Level { game: game.clone(), level: Level::new(3).unwrap(), seed: 7, clock: None });
        t.configure(EngineConfig { hash_mb: 1, ..EngineConfig::default() });
        t.clear();
        let (b, _) = go(
            &t,
            Task::Analyse { game: game.clone(), limits: Limits { depth: Some(3), ..Limits::default() } },
        );
        t.wait();
        // The same task on a plain engine gives the same move: the thread adds nothing of its own.
        let mut e = Engine::new(EngineConfig { hash_mb: 4, ..EngineConfig::default() });
        assert_eq!(a.try_recv().unwrap().best, Some(e.play_level(&game, Level::new(3).unwrap(), 7)));
        let r = b.try_recv().unwrap().result.expect("analysis");
        assert_eq!(r.moves.len(), game.position().legal_moves().len(), "every move valued");
    }

    #[test]
    fn a_finished_game_has_no_move() {
        let t = thread();
        let over = Game::new("0,0,0,0,0,0/0,0,0,0,0,0 B 30 30".parse().unwrap());
        let (done, _) = go(&t, Task::Level { game: over, level: Level::MAX, seed: 1, clock: None });
        assert_eq!(done.recv_timeout(Duration::from_secs(5)).unwrap(), Finished::default());
    }

    #[test]
    fn dropping_the_handle_stops_the_search() {
        let t = thread();
        let (done, info) = go(&t, search(Limits::default(), true));
        info.recv_timeout(Duration::from_secs(10)).expect("it searches");
        let asked = Instant::now();
        drop(t);
        assert!(asked.elapsed() < Duration::from_secs(2), "{:?}", asked.elapsed());
        assert!(done.try_recv().is_ok(), "the result was reported before the thread ended");
    }
}
