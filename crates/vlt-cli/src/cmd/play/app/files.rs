//! Saving and loading game records from the terminal game.

use super::{App, Mode, Opponent, first_cursor};
use crate::cmd::play::words::result_text;
use std::time::Instant;
use vlt_core::{Game, Player, Record};

impl App {
    /// Writes the game record (the rules crate's format) to `path`.
    pub fn save(&mut self, path: &str) {
        let mut rec = Record::new(self.game.clone());
        for p in [Player::B, Player::A] {
            rec.set_tag(&p.to_string(), &self.record_name(p));
        }
        let msg = match std::fs::write(path, rec.to_string()) {
            Ok(()) => {
                self.file = path.to_string();
                self.cat.f("saved", &[("file", &path)])
            }
            Err(e) => self.cat.f("save_failed", &[("file", &path), ("error", &e)]),
        };
        self.say(msg);
    }

    fn record_name(&self, p: Player) -> String {
        match self.setup.opponent {
            Opponent::Computer(l) if p != self.setup.human => format!("vlt level {}", l.get()),
            _ => format!("player {p}"),
        }
    }

    /// Reads a game record from `path` and continues it.
    pub fn load(&mut self, path: &str, now: Instant) {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                self.say(self.cat.f("load_failed", &[("file", &path), ("error", &e)]));
                return;
            }
        };
        match Record::parse(&text) {
            Ok(rec) => self.continue_game(rec.game, path, now),
            Err(e) => self.say(self.cat.f("load_failed", &[("file", &path), ("error", &e)])),
        }
    }

    /// Goes on with a game read from the record file `path`.
    pub fn continue_game(&mut self, game: Game, path: &str, now: Instant) {
        self.game = game;
        self.end_anim();
        self.mode = Mode::Play;
        self.file = path.to_string();
        self.cursor = first_cursor(self.game.position());
        let mut msg = self.cat.f("loaded", &[("file", &path), ("n", &self.game.moves().len())]);
        if let Some(r) = self.game.result() {
            msg = format!("{msg} {}", result_text(&self.cat, &self.setup, &self.game, r));
        }
        self.say(msg);
        self.after_change(now);
    }
}
