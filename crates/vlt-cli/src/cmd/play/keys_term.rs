//! The modes driven by keys alone full screen (the analysis board, the puzzles): what the
//! terminal ([`super::term::Term::keys`]) needs of them to run them.

use crossterm::event::KeyEvent;

/// How a mode driven by keys was left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leave {
    /// By its own key (q, Esc): back to where it was opened from.
    Mode,
    /// By Ctrl-C or a signal: the program ends.
    Program,
}

/// A full-screen mode that only keys change (and answers it polls for).
pub trait KeyScreen {
    /// Takes in whatever came in the background.
    fn poll(&mut self) {}
    /// Draws the whole frame.
    fn draw(&self, f: &mut ratatui::Frame);
    /// Acts on a key.
    fn key(&mut self, k: KeyEvent);
    /// True once the user asked to leave.
    fn quit(&self) -> bool;
    /// The line said when there is no terminal.
    fn no_terminal(&self) -> String;
}

impl KeyScreen for super::analysis::Analysis {
    fn poll(&mut self) {
        super::analysis::Analysis::poll(self);
    }
    fn draw(&self, f: &mut ratatui::Frame) {
        super::analysis_view::draw(f, self);
    }
    fn key(&mut self, k: KeyEvent) {
        super::analysis::Analysis::key(self, k);
    }
    fn quit(&self) -> bool {
        self.quit
    }
    fn no_terminal(&self) -> String {
        self.cat.t("not_a_terminal")
    }
}

impl KeyScreen for super::puzzle::Puzzles {
    fn draw(&self, f: &mut ratatui::Frame) {
        super::puzzle_view::draw(f, self);
    }
    fn key(&mut self, k: KeyEvent) {
        super::puzzle::Puzzles::key(self, k);
    }
    fn quit(&self) -> bool {
        self.quit
    }
    fn no_terminal(&self) -> String {
        self.cat.t("not_a_terminal")
    }
}
