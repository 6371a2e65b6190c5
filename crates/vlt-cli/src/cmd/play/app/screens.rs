//! What the keys do on the rules screen (pages, and the worked example's steps) and on the
//! settings screen (each change applied at once and remembered).

use super::{Action, App, Mode};
use crate::cmd::play::example::Stepper;
use crate::cmd::play::prefs::{SETTING_ROWS, SettingRow, Speed};
use crate::i18n::{Catalog, LANGS};
use std::time::Instant;

impl App {
    /// Opens the rules screen at `page`, with its worked example at the position before the move.
    pub(super) fn turn_rules(&mut self, page: usize) {
        let examples = vlt_core::examples::WORKED_EXAMPLES;
        let page = page.min(examples.len());
        self.mode = Mode::Rules(page);
        self.stepper =
            page.checked_sub(1).and_then(|i| Stepper::new(examples[i], self.prefs.speed.percent()));
    }

    pub(super) fn act_rules(&mut self, page: usize, action: Action, now: Instant) {
        let step = self.stepper.as_mut();
        match (action, step) {
            (Action::Left, _) | (Action::Up, None) => self.turn_rules(page.saturating_sub(1)),
            (Action::Right, _) | (Action::Down | Action::Enter, None) => self.turn_rules(page + 1),
            (Action::Up, Some(s)) => s.advance(false, now),
            (Action::Down, Some(s)) => s.advance(true, now),
            (Action::Enter, Some(s)) => s.play(now),
            (Action::Home, Some(s)) => s.jump(false),
            (Action::End, Some(s)) => s.jump(true),
            (Action::Quit | Action::Back | Action::Rules, _) => {
                self.stepper = None;
                self.mode = Mode::Play;
            }
            _ => {}
        }
    }

    pub(super) fn open_settings(&mut self) {
        self.settings_back = self.mode.clone();
        self.mode = Mode::Settings(0);
    }

    pub(super) fn act_settings(&mut self, row: usize, action: Action, now: Instant) {
        let n = SETTING_ROWS.len();
        match action {
            Action::Up => self.mode = Mode::Settings((row + n - 1) % n),
            Action::Down => self.mode = Mode::Settings((row + 1) % n),
            Action::Left => self.change_setting(SETTING_ROWS[row], -1, now),
            Action::Right => self.change_setting(SETTING_ROWS[row], 1, now),
            Action::Enter if SETTING_ROWS[row] != SettingRow::Done => {
                self.change_setting(SETTING_ROWS[row], 1, now)
            }
            Action::Enter | Action::Back | Action::Quit | Action::Settings => {
                self.mode = std::mem::replace(&mut self.settings_back, Mode::Play);
            }
            _ => {}
        }
    }

    /// Changes one setting by `delta` steps, applies it at once and remembers it.
    fn change_setting(&mut self, row: SettingRow, delta: i32, now: Instant) {
        match row {
            SettingRow::Language => {
                let langs = LANGS;
                let i = langs.iter().position(|(c, _)| *c == self.cat.code()).unwrap_or(0) as i32;
                let next = langs[(i + delta).rem_euclid(langs.len() as i32) as usize].0;
                if let Some(cat) = Catalog::new(next) {
                    self.cat = cat;
                    self.prefs.lang = Some(next.to_string());
                    // The old messages were in the other language: they go, the change is said.
                    self.log.clear();
                    let msg = format!("{}: {}", self.cat.t("settings_lang"), self.cat.t("lang_name"));
                    self.say(msg);
                }
            }
            SettingRow::Speed => {
                self.prefs.speed = self.prefs.speed.step(delta);
                // The setting now decides, whatever the command line said.
                self.setup.animate = self.prefs.speed != Speed::Off;
            }
            SettingRow::Eval => {
                // toggle_eval saves too.
                self.toggle_eval(now);
                return;
            }
            SettingRow::Done => return,
        }
        self.save_prefs();
    }
}
