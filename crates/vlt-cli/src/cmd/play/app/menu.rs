//! What the keys and clicks do on the start menu: the game's setup rows change the setup, Start
//! starts the game, and the analysis board and the puzzles are asked for in its place.

use super::{Action, App, Elsewhere, MENU_ROWS, MenuRow, Mode, Opponent};
use std::time::Instant;
use vlt_engine::Level;

impl App {
    pub(super) fn act_menu(&mut self, row: usize, action: Action, now: Instant) {
        self.menu_note = None;
        match action {
            Action::Up => self.mode = Mode::Menu(row.checked_sub(1).unwrap_or(MENU_ROWS.len() - 1)),
            Action::Down => self.mode = Mode::Menu((row + 1) % MENU_ROWS.len()),
            Action::Left => self.change_row(MENU_ROWS[row], -1),
            Action::Right => self.change_row(MENU_ROWS[row], 1),
            Action::Hole(n) if MENU_ROWS[row] == MenuRow::Level => {
                if let Opponent::Computer(_) = self.setup.opponent {
                    // Digits pick the level directly; 0 stands for 10.
                    let n = if n == 0 { 10 } else { n };
                    self.setup.opponent = Opponent::Computer(Level::new(n).expect("1..=10"));
                }
            }
            Action::Enter | Action::Yes => self.press_row(MENU_ROWS[row], now),
            Action::MenuClick(i, step) if i < MENU_ROWS.len() => {
                self.mode = Mode::Menu(i);
                match MENU_ROWS[i] {
                    m if m.is_setting() => self.change_row(m, i32::from(step)),
                    m => self.press_row(m, now),
                }
            }
            Action::Settings => self.open_settings(),
            // Esc goes back to the game; before any game it starts one (so that a computer that
            // moves first does).
            Action::Back if self.game.moves().is_empty() => self.new_game(now),
            Action::Back => self.mode = Mode::Play,
            Action::Quit => self.quit = true,
            _ => {}
        }
    }

    /// Says in the menu (and in the log) why the mode asked for did not open.
    pub fn refuse_mode(&mut self, why: String) {
        self.say(why.clone());
        self.menu_note = Some(why);
    }

    /// Enter on a row: the analysis board or the puzzles on theirs, the game set up on any other.
    fn press_row(&mut self, m: MenuRow, now: Instant) {
        match m {
            MenuRow::Analysis => self.elsewhere = Some(Elsewhere::Analysis),
            MenuRow::Puzzles => self.elsewhere = Some(Elsewhere::Puzzles),
            _ => self.new_game(now),
        }
    }

    /// Steps a setting row's value by `delta` (a button row has none).
    fn change_row(&mut self, m: MenuRow, delta: i32) {
        if delta == 0 {
            return;
        }
        let s = &mut self.setup;
        match m {
            MenuRow::Opponent => {
                s.opponent = match s.opponent {
                    Opponent::Computer(_) => Opponent::Human,
                    Opponent::Human => Opponent::Computer(Level::new(3).expect("in range")),
                }
            }
            MenuRow::Level => {
                if let Opponent::Computer(l) = s.opponent {
                    let n = (i32::from(l.get()) + delta).clamp(1, 10) as u8;
                    s.opponent = Opponent::Computer(Level::new(n).expect("clamped"));
                }
            }
            MenuRow::Side => s.human = s.human.other(),
            MenuRow::First => s.first = s.first.other(),
            MenuRow::Start | MenuRow::Analysis | MenuRow::Puzzles => {}
        }
    }
}
