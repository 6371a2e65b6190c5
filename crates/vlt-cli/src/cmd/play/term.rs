//! The terminal: raw mode and the alternate screen on the way in, and always the way back out —
//! on quit, on an error, and on a panic (a hook restores the terminal before the message prints,
//! so it is readable). Ctrl-C arrives as a key in raw mode and quits normally; SIGTERM, SIGINT
//! and SIGHUP from outside set a flag that ends the loop the same way.
//!
//! One [`Term`] serves every mode of a run: the game (with mouse capture while it shows) and the
//! modes driven by keys alone that its start menu opens, so going from one to the other does not
//! leave the alternate screen.

use super::app::App;
use super::keys_term::{KeyScreen, Leave};
use super::{input, render};
use crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEventKind, KeyModifiers,
};
use crossterm::execute;
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use std::io::{IsTerminal, Stdout, stdout};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often the screen redraws while nothing happens: smooth enough for the animation and the
/// thinking indicator, idle enough to leave the CPU to other programs.
const FRAME: Duration = Duration::from_millis(40);

/// How often a mode driven by keys checks for the engine's answer while no key comes.
const KEY_FRAME: Duration = Duration::from_millis(50);

/// True while the terminal is in the program's state (raw mode, alternate screen).
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Puts the terminal back as it was. Only the first call acts: a second "leave the alternate
/// screen" (the guard's, after the panic hook's) would move the cursor back over the panic message.
fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let _ = disable_raw_mode();
    let _ = execute!(stdout(), DisableMouseCapture, LeaveAlternateScreen, crossterm::cursor::Show);
}

/// Restores the terminal when dropped, so every way out restores it.
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// The terminal in the program's state, restored when dropped.
pub struct Term {
    // Dropped before the guard: the terminal's own drop still writes to the alternate screen.
    terminal: Terminal<CrosstermBackend<Stdout>>,
    signalled: Arc<AtomicBool>,
    _guard: Guard,
}

impl Term {
    /// Takes over the terminal; without one, an input error with the line `no_terminal` says.
    pub fn enter(no_terminal: impl FnOnce() -> String) -> anyhow::Result<Term> {
        if !stdout().is_terminal() {
            return Err(crate::error::input(no_terminal()));
        }
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        let signalled = Arc::new(AtomicBool::new(false));
        for sig in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT, signal_hook::consts::SIGHUP] {
            signal_hook::flag::register(sig, Arc::clone(&signalled))?;
        }
        // When the terminal goes away (SIGHUP on a closed pty), crossterm's poll can spin on the
        // closed descriptor and never return to the loop that checks the flag. A watchdog ends the
        // process shortly after any of these signals if the loop has not ended it by then.
        {
            let signalled = Arc::clone(&signalled);
            std::thread::spawn(move || {
                while !signalled.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(100));
                }
                std::thread::sleep(Duration::from_millis(500));
                restore();
                std::process::exit(130);
            });
        }
        enable_raw_mode()?;
        ACTIVE.store(true, Ordering::SeqCst);
        let guard = Guard;
        execute!(stdout(), EnterAlternateScreen)?;
        let mut terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
        terminal.clear()?;
        Ok(Term { terminal, signalled, _guard: guard })
    }

    /// True once a signal asked the program to end.
    fn signalled(&self) -> bool {
        self.signalled.load(Ordering::Relaxed)
    }

    /// Runs the game until the user quits or its menu asks for another mode (`app.elsewhere`).
    pub fn game(&mut self, app: &mut App) -> anyhow::Result<()> {
        // Clicks belong to the game's screen only: the other modes leave the mouse to the terminal
        // (selecting text, say).
        execute!(stdout(), EnableMouseCapture)?;
        while !app.quit && app.elsewhere.is_none() && !self.signalled() {
            let now = Instant::now();
            app.tick(now);
            let size = self.terminal.size()?;
            app.area = Rect::new(0, 0, size.width, size.height);
            self.terminal.draw(|f| render::draw(f, app, now))?;
            if event::poll(FRAME)? {
                // Resize events need nothing more: the next draw uses the new size.
                let ev = event::read()?;
                if let Some(a) = input::action(&app.mode, app.area, &ev) {
                    app.act(a, Instant::now());
                }
            }
        }
        if self.signalled() {
            app.quit = true;
        }
        execute!(stdout(), DisableMouseCapture)?;
        Ok(())
    }

    /// Runs a mode driven by keys until the user leaves it: Ctrl-C (or a signal) leaves the
    /// program, the mode's own keys (q, Esc) leave the mode.
    pub fn keys(&mut self, a: &mut impl KeyScreen) -> anyhow::Result<Leave> {
        while !a.quit() {
            if self.signalled() {
                return Ok(Leave::Program);
            }
            a.poll();
            self.terminal.draw(|f| a.draw(f))?;
            if event::poll(KEY_FRAME)?
                && let Event::Key(k) = event::read()?
                && k.kind != KeyEventKind::Release
            {
                if k.modifiers.contains(KeyModifiers::CONTROL) && matches!(k.code, KeyCode::Char('c' | 'C')) {
                    return Ok(Leave::Program);
                }
                a.key(k);
            }
        }
        Ok(Leave::Mode)
    }
}

/// The game's result in a line on the normal screen, once the terminal is restored.
pub fn print_result(app: &App) {
    if let Some(r) = app.game.result() {
        println!("{}", super::words::result_text(&app.cat, &app.setup, &app.game, r));
    }
}
