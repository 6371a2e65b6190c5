//! The analysis mode of `vlt play` (`--analyse`): set up any position, play moves freely, and see
//! every legal move's value, the best line and, inside the endgame tables, the exact value with
//! the moves to the end — what the page's analysis board shows. State and keys here (no drawing,
//! no terminal, so tests drive it directly); `analysis_view` draws it, `keys_term` runs it.

use crate::i18n::Catalog;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;
use vlt_core::{Game, HOLES, Hole, Move, Player, Position};
use vlt_engine::{Engine, EngineConfig, EngineThread, Finished, Limits, PerfectLine, Task, perfect_line};
use vlt_tablebase::Tablebase;

/// The search time for each position shown.
pub const THINK: Duration = Duration::from_millis(400);
/// The engine's table, MiB.
const HASH_MB: usize = 32;

/// Playing moves, or setting up the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Keys 1-6 and Enter play moves; the analysis follows.
    Play,
    /// Keys change the stones, the captures and who moves.
    Setup,
    /// A position string being typed.
    Paste(String),
}

/// What the analysis of the position shown says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    /// The position analysed.
    pub position: Position,
    /// Every legal move with its value for the player to move, best first.
    pub moves: Vec<(Move, i32)>,
    /// The best move's value.
    pub score: i32,
    /// Proven (tables, or a search to the end on every line).
    pub exact: bool,
    /// Depth reached.
    pub depth: u32,
    /// The best line.
    pub pv: Vec<Move>,
    /// The tables' perfect line to the end, inside the tables.
    pub tables: Option<PerfectLine>,
}

/// The analysis board.
pub struct Analysis {
    /// The messages of the chosen language.
    pub cat: Catalog,
    /// The position set up; `game` plays on from it.
    pub start: Position,
    /// The moves played from `start` (their history counts for R7).
    pub game: Game,
    /// What the keys do.
    pub tool: Tool,
    /// The selected hole.
    pub cursor: Hole,
    /// The analysis of the current position, once it has come.
    pub shown: Option<Shown>,
    /// The last message (a refused key, a bad position).
    pub message: String,
    /// True once the user asked to leave.
    pub quit: bool,
    tablebase: Option<Arc<Tablebase>>,
    engine: EngineThread,
    tx: Sender<(u64, Finished)>,
    rx: Receiver<(u64, Finished)>,
    asked: u64,
}

impl Analysis {
    /// A board showing `start`, valued exactly within `tablebase`; the first analysis starts.
    pub fn new(cat: Catalog, start: Position, tablebase: Option<Arc<Tablebase>>) -> Analysis {
        let mut engine = Engine::new(EngineConfig { hash_mb: HASH_MB, ..EngineConfig::default() });
        engine.set_tablebase(tablebase.clone());
        let (tx, rx) = channel();
        let mut a = Analysis {
            cat,
            start,
            game: Game::new(start),
            tool: Tool::Play,
            cursor: first_hole(start),
            shown: None,
            message: String::new(),
            quit: false,
            tablebase,
            engine: EngineThread::new(engine),
            tx,
            rx,
            asked: 0,
        };
        a.ask();
        a
    }

    /// The position shown: after the moves played, or the one being set up.
    pub fn position(&self) -> Position {
        self.game.position()
    }

    /// Starts the analysis of the current position (an older one still running is dropped).
    fn ask(&mut self) {
        self.shown = None;
        self.engine.stop();
        self.asked += 1;
        if self.game.is_over() || self.position().legal_moves().is_empty() {
            return;
        }
        let (id, tx) = (self.asked, self.tx.clone());
        let limits = Limits { movetime: Some(THINK), ..Limits::default() };
        self.engine.go(
            Task::Analyse { game: self.game.clone(), limits },
            |_| {},
            move |f| {
                let _ = tx.send((id, f));
            },
        );
    }

    /// Takes in the engine's answers; true when the screen changed.
    pub fn poll(&mut self) -> bool {
        let mut changed = false;
        while let Ok((id, f)) = self.rx.try_recv() {
            if id != self.asked {
                continue;
            }
            if let Some(r) = f.result {
                let tables =
                    self.tablebase.as_deref().and_then(|tb| perfect_line(tb, self.game.since_last_capture()));
                self.shown = Some(Shown {
                    position: self.position(),
                    moves: r.moves,
                    score: r.info.score,
                    exact: r.info.exact,
                    depth: r.info.depth,
                    pv: r.info.pv,
                    tables,
                });
                changed = true;
            }
        }
        changed
    }

    /// Waits for the analysis under way (tests).
    #[cfg(test)]
    pub fn wait(&mut self) {
        let deadline = std::time::Instant::now() + THINK * 20;
        while self.shown.is_none() && !self.game.is_over() && std::time::Instant::now() < deadline {
            self.poll();
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Acts on a key.
    pub fn key(&mut self, k: KeyEvent) {
        self.message.clear();
        if k.modifiers.contains(KeyModifiers::CONTROL) && k.code == KeyCode::Char('c') {
            self.quit = true;
            return;
        }
        match self.tool.clone() {
            Tool::Play => self.play_key(k.code),
            Tool::Setup => self.setup_key(k.code),
            Tool::Paste(text) => self.paste_key(k.code, text),
        }
    }

    fn play_key(&mut self, code: KeyCode) {
        let me = self.position().to_move();
        match code {
            KeyCode::Char(c @ '1'..='6') => {
                let h = Hole::new(me, c as u8 - b'0').expect("1-6");
                self.cursor = h;
                self.play(Move(h));
            }
            KeyCode::Enter | KeyCode::Char(' ') => self.play(Move(self.cursor)),
            KeyCode::Left => self.cursor = step_in_row(self.cursor, me, -1),
            KeyCode::Right => self.cursor = step_in_row(self.cursor, me, 1),
            KeyCode::Backspace | KeyCode::Char('u') => self.take_back(),
            KeyCode::Char('e') => {
                // Set up from the position reached.
                self.start = self.position();
                self.game = Game::new(self.start);
                self.tool = Tool::Setup;
            }
            KeyCode::Char('p') => self.tool = Tool::Paste(String::new()),
            KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
            _ => {}
        }
    }

    fn play(&mut self, mv: Move) {
        match self.game.play(mv) {
            Ok(_) => {
                self.cursor = first_hole(self.position());
                self.ask();
            }
            Err(e) => self.message = e.to_string(),
        }
    }

    fn take_back(&mut self) {
        if self.game.undo().is_some() {
            self.ask();
        }
    }

    fn setup_key(&mut self, code: KeyCode) {
        let p = self.start;
        let mut board = p.board();
        let mut caps = [p.captured(Player::B), p.captured(Player::A)];
        let mut to_move = p.to_move();
        let i = self.cursor.index();
        match code {
            KeyCode::Left => self.cursor = screen_step(self.cursor, -1),
            KeyCode::Right => self.cursor = screen_step(self.cursor, 1),
            KeyCode::Up | KeyCode::Down => self.cursor = across(self.cursor),
            KeyCode::Char('+' | '=') => board[i] = board[i].saturating_add(1),
            KeyCode::Char('-') => board[i] = board[i].saturating_sub(1),
            KeyCode::Char('t') => to_move = to_move.other(),
            KeyCode::Char('b') => caps[0] = caps[0].saturating_add(1),
            KeyCode::Char('B') => caps[0] = caps[0].saturating_sub(1),
            KeyCode::Char('a') => caps[1] = caps[1].saturating_add(1),
            KeyCode::Char('A') => caps[1] = caps[1].saturating_sub(1),
            KeyCode::Char('c') => (board, caps) = ([0; HOLES], [0, 0]),
            KeyCode::Char('s') => {
                self.set_start(Position::START);
                return;
            }
            KeyCode::Char('p') => {
                self.tool = Tool::Paste(String::new());
                return;
            }
            KeyCode::Enter | KeyCode::Esc | KeyCode::Char('e') => {
                self.tool = Tool::Play;
                self.cursor = first_hole(self.start);
                self.ask();
                return;
            }
            KeyCode::Char('q') => {
                self.quit = true;
                return;
            }
            _ => return,
        }
        let text = n2(&board, caps, to_move);
        match text.parse::<Position>() {
            Ok(pos) => {
                self.start = pos;
                self.game = Game::new(pos);
            }
            Err(e) => self.message = e.to_string(),
        }
    }

    fn set_start(&mut self, pos: Position) {
        self.start = pos;
        self.game = Game::new(pos);
        self.cursor = first_hole(pos);
    }

    fn paste_key(&mut self, code: KeyCode, mut text: String) {
        match code {
            KeyCode::Char(c) => {
                if text.len() < 80 {
                    text.push(c);
                }
                self.tool = Tool::Paste(text);
            }
            KeyCode::Backspace => {
                text.pop();
                self.tool = Tool::Paste(text);
            }
            KeyCode::Esc => self.tool = Tool::Play,
            KeyCode::Enter => match text.trim().parse::<Position>() {
                Ok(pos) => {
                    self.set_start(pos);
                    self.tool = Tool::Play;
                    self.ask();
                }
                Err(e) => self.message = e.to_string(),
            },
            _ => {}
        }
    }
}

/// A position string (N2) from its parts.
fn n2(board: &[u8; HOLES], caps: [u8; 2], to_move: Player) -> String {
    let row = |r: &[u8]| r.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
    format!("{}/{} {to_move} {} {}", row(&board[..6]), row(&board[6..]), caps[0], caps[1])
}

/// The first hole of the player to move that holds stones (its 1 when none does).
fn first_hole(p: Position) -> Hole {
    let me = p.to_move();
    p.legal_moves().next().map_or_else(|| Hole::new(me, 1).expect("1"), |m| m.0)
}

/// The next hole of `me`'s row on the screen, left or right (A's row runs 1A..6A left to right,
/// B's 6B..1B).
fn step_in_row(h: Hole, me: Player, dir: i8) -> Hole {
    let h = if h.owner() == me { h } else { Hole::new(me, 1).expect("1") };
    let screen_dir = if me == Player::A { dir } else { -dir };
    let n = (h.number() as i8 + screen_dir).clamp(1, 6) as u8;
    Hole::new(me, n).expect("1-6")
}

/// Left or right on the screen, within the hole's row.
fn screen_step(h: Hole, dir: i8) -> Hole {
    step_in_row(h, h.owner(), dir)
}

/// The hole straight across (above or below on the screen): nA sits over (7-n)B.
fn across(h: Hole) -> Hole {
    Hole::new(h.owner().other(), 7 - h.number()).expect("1-6")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_across_the_screen() {
        let h = |s: &str| s.parse::<Hole>().unwrap();
        assert_eq!(across(h("1A")), h("6B"));
        assert_eq!(screen_step(h("3A"), 1), h("4A"));
        assert_eq!(screen_step(h("3B"), 1), h("2B"));
        assert_eq!(screen_step(h("1B"), 1), h("1B"));
        assert_eq!(n2(&[5; HOLES], [0, 0], Player::B), Position::START.to_string());
    }
}
