//! The state of the terminal game and everything that changes it: moves, the computer's replies,
//! undo and redo, hints, the evaluation, menus, save and load, replay. No drawing and no terminal
//! here, so tests drive it directly; time comes in as an argument.

use super::anim::{Anim, Frame};
use super::example::Stepper;
use super::prefs::Prefs;
pub use super::setup::{Opponent, Setup};
use super::words::{describe_move, player_name, replay_text, result_text};
use super::worker::{Job, Request, Worker};
use crate::i18n::Catalog;
use std::time::{Duration, Instant};
use vlt_core::{ByPlayer, Game, HOLES, Hole, Move, PlayError, Player, Position};

mod engine;
mod files;
mod menu;
mod modes;
mod screens;

pub use engine::Eval;
pub use modes::{Action, Elsewhere, MENU_ROWS, MenuRow, Mode, PromptKind, START_ROW};

/// The least time the computer seems to think, so its move does not land before the player has
/// seen their own.
pub const MIN_THINK: Duration = Duration::from_millis(350);

/// How many messages the log keeps.
pub const LOG_LEN: usize = 20;

/// The engine request the app waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pending {
    id: u64,
    job: Job,
    since: Instant,
}

/// The whole state of the terminal game.
pub struct App {
    /// The messages of the chosen language.
    pub cat: Catalog,
    /// The game's setup.
    pub setup: Setup,
    /// The game.
    pub game: Game,
    /// What the screen shows.
    pub mode: Mode,
    /// The hole the arrow keys select.
    pub cursor: Hole,
    /// The last thing that happened, in words.
    pub message: String,
    /// What happened recently, oldest first (the screen shows the last few).
    pub log: Vec<String>,
    /// The move being animated.
    pub anim: Option<Anim>,
    /// Show the evaluation bar.
    pub show_eval: bool,
    /// The evaluation of the current position.
    pub eval: Option<Eval>,
    /// Every position evaluated so far, so that a position shows one value however it is reached
    /// again (undo, redo, replay); a deeper search later would only make the bar jitter.
    pub evals: std::collections::HashMap<Position, Eval>,
    /// The engine's suggestion for each position asked about, for the same reason.
    hints: std::collections::HashMap<Position, Move>,
    /// The engine's suggestion for the current position.
    pub hint: Option<Move>,
    /// True once the user asked to quit.
    pub quit: bool,
    /// The mode the start menu asked for, which the program runs in place of the game until it
    /// is left (then it takes this back and the menu shows again).
    pub elsewhere: Option<Elsewhere>,
    /// Why the mode asked for did not open, shown in the menu until its next key (and logged).
    pub menu_note: Option<String>,
    /// The file name the save and load prompts start with.
    pub file: String,
    /// The size of the screen last drawn, for mouse hit tests.
    pub area: ratatui::layout::Rect,
    /// Counts ticks, for the thinking indicator.
    pub ticks: u64,
    /// The remembered settings.
    pub prefs: Prefs,
    /// Where the settings are remembered (`None`: nowhere, as in tests).
    prefs_path: Option<std::path::PathBuf>,
    /// The screen the settings screen goes back to.
    settings_back: Mode,
    /// The worked example of the rules page shown.
    pub stepper: Option<Stepper>,
    worker: Option<Worker>,
    /// What the animated move did, told once the animation has shown it.
    after_anim: Option<String>,
    pending: Vec<Pending>,
    ready: Option<(Move, Instant)>,
    next_id: u64,
}

/// Whether an [`App`] runs an engine thread (the computer player, hints, evaluation).
pub enum EngineThread {
    /// No engine thread: tests of pure input handling.
    #[cfg(test)]
    Off,
    /// An engine thread, which probes the endgame tables when given (`--tablebase`).
    On(Option<std::sync::Arc<vlt_tablebase::Tablebase>>),
}

impl App {
    /// A new app showing the start menu (or the game, when `menu` is false), with an engine thread
    /// when `engine` is true (tests of pure input handling run without one).
    #[cfg(test)]
    pub fn new(cat: Catalog, setup: Setup, menu: bool, engine: bool) -> App {
        App::with_engine(cat, setup, menu, if engine { EngineThread::On(None) } else { EngineThread::Off })
    }

    /// A new app showing the start menu (or the game, when `menu` is false), with or without an
    /// engine thread.
    pub fn with_engine(cat: Catalog, setup: Setup, menu: bool, engine: EngineThread) -> App {
        let game = Game::new(setup.start());
        let mut app = App {
            cat,
            setup,
            cursor: first_cursor(game.position()),
            game,
            mode: if menu { Mode::Menu(START_ROW) } else { Mode::Play },
            message: String::new(),
            log: Vec::new(),
            anim: None,
            show_eval: false,
            eval: None,
            evals: std::collections::HashMap::new(),
            hints: std::collections::HashMap::new(),
            hint: None,
            quit: false,
            elsewhere: None,
            menu_note: None,
            file: "game.vlt".to_string(),
            area: ratatui::layout::Rect::new(0, 0, 80, 24),
            ticks: 0,
            prefs: Prefs::default(),
            prefs_path: None,
            settings_back: Mode::Play,
            stepper: None,
            worker: match engine {
                #[cfg(test)]
                EngineThread::Off => None,
                EngineThread::On(tables) => Some(Worker::spawn(tables)),
            },
            after_anim: None,
            pending: Vec::new(),
            ready: None,
            next_id: 1,
        };
        if !menu {
            app.new_game(Instant::now());
        }
        app
    }

    /// Takes the remembered settings (read from `path`, where changes are written): the
    /// evaluation bar and the animation follow them. The language is the caller's to choose,
    /// since a command-line flag wins over it.
    pub fn use_prefs(&mut self, prefs: Prefs, path: Option<std::path::PathBuf>) {
        self.show_eval = prefs.eval;
        self.prefs = prefs;
        self.prefs_path = path;
        if self.show_eval && self.eval.is_none() && self.awaiting_human() {
            self.request(Job::Eval, Instant::now());
        }
    }

    /// Where the settings are remembered, if anywhere.
    pub fn prefs_path(&self) -> Option<&std::path::Path> {
        self.prefs_path.as_deref()
    }

    /// Writes the settings where they are remembered; a failure is said, not fatal.
    fn save_prefs(&mut self) {
        let Some(path) = &self.prefs_path else { return };
        if let Err(e) = self.prefs.save(path) {
            self.say(self.cat.f("settings_failed", &[("error", &e)]));
        }
    }

    /// How long animation frames last, in percent of normal; 0 when moves show at once.
    pub fn pace(&self) -> u32 {
        if self.setup.animate { self.prefs.speed.percent() } else { 0 }
    }

    /// Tells the user something: the latest message, kept in the log.
    pub fn say(&mut self, s: String) {
        if self.log.len() >= LOG_LEN {
            self.log.remove(0);
        }
        self.log.push(s.clone());
        self.message = s;
    }

    /// Stops the animation and tells what the move did.
    fn end_anim(&mut self) {
        self.anim = None;
        if let Some(text) = self.after_anim.take() {
            self.say(text);
        }
    }

    /// The name of a player as the screen shows it: "You (B)", "Computer (A)", "Player B".
    pub fn name(&self, p: Player) -> String {
        player_name(&self.cat, &self.setup, p)
    }

    /// The frame of the running animation, if any.
    pub fn frame(&self, now: Instant) -> Option<&Frame> {
        self.anim.as_ref().and_then(|a| a.frame(now))
    }

    /// True while the computer is choosing a move.
    pub fn thinking(&self) -> bool {
        self.ready.is_some() || self.pending.iter().any(|p| matches!(p.job, Job::Play(..)))
    }

    /// True when the user may choose a move now.
    pub fn awaiting_human(&self) -> bool {
        !self.game.is_over() && !self.setup.is_computer(self.game.position().to_move()) && !self.thinking()
    }

    fn request(&mut self, job: Job, now: Instant) {
        let id = self.next_id;
        self.next_id += 1;
        if let Some(w) = &self.worker {
            w.send(Request { id, job, game: self.game.clone() });
            self.pending.push(Pending { id, job, since: now });
        }
    }

    /// Forgets every request in flight: their replies will be ignored.
    fn cancel(&mut self) {
        self.pending.clear();
        self.ready = None;
    }

    /// After any change of the game: clear stale analysis, ask for the computer's move when it is
    /// its turn, refresh the evaluation.
    fn after_change(&mut self, now: Instant) {
        self.cancel();
        self.hint = None;
        let pos = self.game.position();
        self.eval = self.evals.get(&pos).copied();
        if self.game.is_over() {
            return;
        }
        if self.cursor.owner() != pos.to_move() || pos.stones(self.cursor) == 0 {
            self.cursor = first_cursor(pos);
        }
        if let Opponent::Computer(level) = self.setup.opponent {
            if pos.to_move() != self.setup.human {
                let seed = self.setup.seed.wrapping_add(self.game.moves().len() as u64);
                self.request(Job::Play(level, seed), now);
            }
        }
        if self.show_eval && self.eval.is_none() {
            self.request(Job::Eval, now);
        }
    }

    /// Starts a new game from the setup's start position.
    pub fn new_game(&mut self, now: Instant) {
        self.game = Game::new(self.setup.start());
        self.end_anim();
        self.mode = Mode::Play;
        self.cursor = first_cursor(self.game.position());
        let msg = match self.game.result() {
            Some(r) => result_text(&self.cat, &self.setup, &self.game, r),
            None => self.cat.f("new_game", &[("first", &self.name(self.game.position().to_move()))]),
        };
        self.say(msg);
        self.after_change(now);
    }

    /// Plays a move of the player to move (the user's, or the computer's when it arrives).
    pub fn play(&mut self, mv: Move, now: Instant) -> Result<(), PlayError> {
        let before = self.game.position();
        let outcome = self.game.play(mv)?;
        self.end_anim();
        let text = describe_move(&self.cat, &self.setup, &self.game, mv, outcome);
        if self.pace() > 0 {
            self.anim = Some(Anim::new(before, outcome, now, self.pace()));
            self.after_anim = Some(text);
        } else {
            self.say(text);
        }
        self.after_change(now);
        Ok(())
    }

    /// The user chose hole `hole`: play it, or explain why not.
    pub fn choose(&mut self, hole: Hole, now: Instant) {
        let pos = self.game.position();
        if self.game.is_over() {
            self.say(self.cat.t("illegal_over"));
        } else if self.thinking() {
            self.say(self.cat.t("illegal_wait"));
        } else if hole.owner() != pos.to_move() {
            self.say(self.cat.f(
                "illegal_not_yours",
                &[("hole", &hole), ("player", &self.name(pos.to_move())), ("row", &pos.to_move())],
            ));
        } else if pos.stones(hole) == 0 {
            self.cursor = hole;
            self.say(self.cat.f("illegal_empty", &[("hole", &hole)]));
        } else {
            self.cursor = hole;
            self.end_anim();
            // Legal by the checks above; an error here would be a bug in them, so say it plainly.
            if let Err(e) = self.play(Move(hole), now) {
                self.say(e.to_string());
            }
        }
    }

    /// Moves the cursor one hole left or right on the screen, within the row of the player to
    /// move (B's row runs 6B..1B left to right, A's 1A..6A: R1).
    pub fn step_cursor(&mut self, right: bool) {
        let p = self.game.position().to_move();
        let n = i32::from(if self.cursor.owner() == p { self.cursor.number() } else { 1 });
        let up = (p == Player::A) == right;
        let next = (n + if up { 1 } else { -1 }).clamp(1, 6);
        if let Some(h) = Hole::new(p, next as u8) {
            self.cursor = h;
        }
    }

    /// Takes back moves: the last one, and against the computer also its replies, so that the
    /// user is to move again.
    pub fn undo(&mut self, now: Instant) {
        self.end_anim();
        if self.game.undo().is_none() {
            self.say(self.cat.t("nothing_to_undo"));
            return;
        }
        while self.setup.is_computer(self.game.position().to_move()) && !self.game.moves().is_empty() {
            self.game.undo();
        }
        self.say(self.cat.n("undone", self.game.moves().len() as u64, &[]));
        self.after_change(now);
    }

    /// Plays again what undo took back, up to the user's next turn.
    pub fn redo(&mut self, now: Instant) {
        self.end_anim();
        if self.game.redo().is_none() {
            self.say(self.cat.t("nothing_to_redo"));
            return;
        }
        while self.setup.is_computer(self.game.position().to_move()) && !self.game.redo_moves().is_empty() {
            self.game.redo();
        }
        self.say(self.cat.n("redone", self.game.moves().len() as u64, &[]));
        if let Some(r) = self.game.result() {
            self.say(result_text(&self.cat, &self.setup, &self.game, r));
        }
        self.after_change(now);
    }

    /// Handles one action at `now`.
    pub fn act(&mut self, action: Action, now: Instant) {
        // Any key ends a running animation at once (the board jumps to the position after it).
        let running = self.anim.as_ref().is_some_and(|a| a.frame(now).is_some());
        self.end_anim();
        if running && matches!(action, Action::Skip) {
            return;
        }
        match self.mode.clone() {
            Mode::Menu(row) => self.act_menu(row, action, now),
            Mode::Play => self.act_play(action, now),
            Mode::Rules(page) => self.act_rules(page, action, now),
            Mode::Settings(row) => self.act_settings(row, action, now),
            Mode::Prompt(kind, mut text) => match action {
                Action::Char(c) => {
                    text.push(c);
                    self.mode = Mode::Prompt(kind, text);
                }
                Action::Backspace => {
                    text.pop();
                    self.mode = Mode::Prompt(kind, text);
                }
                Action::Enter => {
                    self.mode = Mode::Play;
                    let text = if text.trim().is_empty() { self.file.clone() } else { text };
                    match kind {
                        PromptKind::Save => self.save(&text),
                        PromptKind::Load => self.load(&text, now),
                    }
                }
                Action::Back | Action::Quit => {
                    self.mode = Mode::Play;
                    self.say(self.cat.t("cancelled"));
                }
                _ => {}
            },
            Mode::ConfirmResign => {
                self.mode = Mode::Play;
                if action == Action::Yes {
                    self.resign(now);
                } else {
                    self.say(self.cat.t("cancelled"));
                }
            }
            Mode::Replay(ply) => {
                let last = self.game.moves().len();
                let ply = match action {
                    Action::Left | Action::Up => ply.saturating_sub(1),
                    Action::Right | Action::Down | Action::Enter | Action::Skip => (ply + 1).min(last),
                    Action::Home => 0,
                    Action::End => last,
                    Action::Back | Action::Quit | Action::Replay => {
                        self.mode = Mode::Play;
                        self.say(self.cat.t("replay_done"));
                        return;
                    }
                    _ => ply,
                };
                self.mode = Mode::Replay(ply);
                // The caption is not logged: stepping back and forth would flood the log.
                self.message = replay_text(&self.cat, &self.setup, &self.game, ply);
            }
        }
    }

    fn act_play(&mut self, action: Action, now: Instant) {
        let to_move = self.game.position().to_move();
        match action {
            Action::Hole(n) => match Hole::new(to_move, n) {
                Some(h) => self.choose(h, now),
                None => self.say(self.cat.t("illegal_digit")),
            },
            Action::Left => self.step_cursor(false),
            Action::Right => self.step_cursor(true),
            Action::Enter => self.choose(self.cursor, now),
            Action::Pick(h) => self.choose(h, now),
            // After the end only what still applies: a new game, replay, save, load, rules, quit.
            Action::Undo | Action::Hint | Action::Resign if self.game.is_over() => {
                self.say(self.cat.t("illegal_over"));
            }
            Action::Undo => self.undo(now),
            Action::Redo => self.redo(now),
            Action::Hint => {
                let pos = self.game.position();
                if let (true, Some(&mv), Some(&e)) =
                    (self.awaiting_human(), self.hints.get(&pos), self.evals.get(&pos))
                {
                    self.show_hint(mv, e);
                } else if self.awaiting_human() {
                    self.request(Job::Hint, now);
                    self.say(self.cat.t("hint_wait"));
                } else {
                    self.say(self.cat.t("hint_unavailable"));
                }
            }
            Action::Eval => self.toggle_eval(now),
            Action::Settings => self.open_settings(),
            Action::New => self.mode = Mode::Menu(START_ROW),
            Action::Resign => {
                if self.game.is_over() {
                    self.say(self.cat.t("illegal_over"));
                } else {
                    self.mode = Mode::ConfirmResign;
                    self.say(self.cat.t("resign_confirm"));
                }
            }
            // The prompt starts empty (Enter alone takes the file shown as the default).
            Action::Save => self.mode = Mode::Prompt(PromptKind::Save, String::new()),
            Action::Load => self.mode = Mode::Prompt(PromptKind::Load, String::new()),
            Action::Replay => {
                self.cancel();
                self.mode = Mode::Replay(0);
                self.message = replay_text(&self.cat, &self.setup, &self.game, 0);
            }
            Action::Rules => self.turn_rules(0),
            Action::Quit | Action::Back => self.quit = true,
            _ => {}
        }
    }

    /// Shows or hides the evaluation bar, and remembers the choice.
    fn toggle_eval(&mut self, now: Instant) {
        self.show_eval = !self.show_eval;
        self.prefs.eval = self.show_eval;
        self.save_prefs();
        if self.show_eval && self.eval.is_none() && self.awaiting_human() {
            self.request(Job::Eval, now);
        }
    }

    /// The user (against the computer) or the player to move (two people) resigns.
    pub fn resign(&mut self, now: Instant) {
        let p = match self.setup.opponent {
            Opponent::Computer(_) => self.setup.human,
            Opponent::Human => self.game.position().to_move(),
        };
        if let Ok(r) = self.game.resign(p) {
            self.say(result_text(&self.cat, &self.setup, &self.game, r));
        }
        self.after_change(now);
    }

    /// Advances time: ends a finished animation, plays the computer's move when it is due, and
    /// takes in engine replies.
    pub fn tick(&mut self, now: Instant) {
        self.ticks += 1;
        if let Some(w) = &self.worker {
            let mut replies = Vec::new();
            while let Some(r) = w.try_recv() {
                replies.push(r);
            }
            for r in replies {
                self.on_reply(r);
            }
        }
        if self.anim.as_ref().is_some_and(|a| a.frame(now).is_none()) {
            self.end_anim();
        }
        if self.anim.is_none() && self.mode == Mode::Play {
            if let Some((mv, at)) = self.ready {
                if now >= at {
                    self.ready = None;
                    if let Err(e) = self.play(mv, now) {
                        self.say(e.to_string());
                    }
                }
            }
        }
    }

    /// The position the screen shows: the replayed one in a replay, the game's otherwise.
    pub fn shown_position(&self) -> Position {
        match self.mode {
            Mode::Replay(ply) => self.game.positions()[ply.min(self.game.positions().len() - 1)],
            _ => self.game.position(),
        }
    }

    /// The board to draw: the animation's frame, the replayed position, or the game's position.
    pub fn shown(&self, now: Instant) -> (([u8; HOLES], ByPlayer<u8>), Option<&Frame>) {
        if let Mode::Replay(ply) = self.mode {
            let p = self.game.positions()[ply.min(self.game.positions().len() - 1)];
            return ((p.board(), p.captures()), None);
        }
        match self.frame(now) {
            Some(f) => ((f.board, f.stores), Some(f)),
            None => {
                let p = self.game.position();
                ((p.board(), p.captures()), None)
            }
        }
    }
}

/// The first hole of the player to move that holds stones (1 upwards), for the cursor.
pub fn first_cursor(pos: Position) -> Hole {
    let p = pos.to_move();
    (1..=6)
        .filter_map(|n| Hole::new(p, n))
        .find(|h| pos.stones(*h) > 0)
        .unwrap_or(Hole::new(p, 1).expect("1 is a hole"))
}
