//! Running the analysis mode full screen: raw mode and the alternate screen on the way in, and the
//! terminal restored on every way out (quit, an error, a panic).

use super::analysis::Analysis;
use super::analysis_view::draw;
use crossterm::event::{self, Event, KeyEventKind};
use crossterm::execute;
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::{IsTerminal, stdout};
use std::time::Duration;

/// How often the screen checks for the engine's answer while no key comes.
const FRAME: Duration = Duration::from_millis(50);

/// Restores the terminal when dropped.
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = disable_raw_mode();
        let _ = execute!(stdout(), LeaveAlternateScreen, crossterm::cursor::Show);
    }
}

/// Runs the analysis board until the user leaves.
pub fn run(mut a: Analysis) -> anyhow::Result<()> {
    if !stdout().is_terminal() {
        return Err(crate::error::input(a.cat.t("not_a_terminal")));
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
    while !a.quit {
        a.poll();
        terminal.draw(|f| draw(f, &a))?;
        if event::poll(FRAME)?
            && let Event::Key(k) = event::read()?
            && k.kind != KeyEventKind::Release
        {
            a.key(k);
        }
    }
    Ok(())
}
