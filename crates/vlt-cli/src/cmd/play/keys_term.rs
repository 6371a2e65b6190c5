//! Running a mode driven by keys alone full screen (the analysis board, the puzzles): raw mode and
//! the alternate screen on the way in, and the terminal restored on every way out (quit, an
//! error, a panic).

use crossterm::event::{self, Event, KeyEvent, KeyEventKind};
use crossterm::execute;
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::{IsTerminal, stdout};
use std::time::Duration;

/// How often the screen checks for the engine's answer while no key comes.
const FRAME: Duration = Duration::from_millis(50);

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

/// Restores the terminal when dropped.
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = disable_raw_mode();
        let _ = execute!(stdout(), LeaveAlternateScreen, crossterm::cursor::Show);
    }
}

/// Runs the mode until the user leaves.
pub fn run(mut a: impl KeyScreen) -> anyhow::Result<()> {
    if !stdout().is_terminal() {
        return Err(crate::error::input(a.no_terminal()));
    }
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = disable_raw_mode();
        let _ = execute!(stdout(), LeaveAlternateScreen, crossterm::cursor::Show);
        previous(info);
    }));
    enable_raw_mode()?;
    let _guard = Guard;
    execute!(stdout(), EnterAlternateScreen)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
    terminal.clear()?;
    while !a.quit() {
        a.poll();
        terminal.draw(|f| a.draw(f))?;
        if event::poll(FRAME)?
            && let Event::Key(k) = event::read()?
            && k.kind != KeyEventKind::Release
        {
            a.key(k);
        }
    }
    Ok(())
}
