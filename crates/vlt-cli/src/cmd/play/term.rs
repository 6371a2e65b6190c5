//! The terminal: raw mode, the alternate screen and mouse capture on the way in, and always the
//! way back out — on quit, on an error, and on a panic (a hook restores the terminal before the
//! message prints, so it is readable). Ctrl-C arrives as a key in raw mode and quits normally;
//! SIGTERM, SIGINT and SIGHUP from outside set a flag that ends the loop the same way.

use super::app::App;
use super::{input, render};
use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use std::io::{IsTerminal, stdout};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often the screen redraws while nothing happens: smooth enough for the animation and the
/// thinking indicator, idle enough to leave the CPU to other programs.
const FRAME: Duration = Duration::from_millis(40);

/// True while the terminal is in the game's state (raw mode, alternate screen).
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

/// Restores the terminal when dropped, so every way out of [`run`] restores it.
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Runs the full-screen game until the user quits.
pub fn run(mut app: App) -> anyhow::Result<()> {
    if !stdout().is_terminal() {
        return Err(crate::error::input(app.cat.t("not_a_terminal")));
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
    let _guard = Guard;
    execute!(stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
    terminal.clear()?;
    while !app.quit && !signalled.load(Ordering::Relaxed) {
        let now = Instant::now();
        app.tick(now);
        let size = terminal.size()?;
        app.area = Rect::new(0, 0, size.width, size.height);
        terminal.draw(|f| render::draw(f, &app, now))?;
        if event::poll(FRAME)? {
            // Resize events need nothing more: the next draw uses the new size.
            let ev = event::read()?;
            if let Some(a) = input::action(&app.mode, app.area, &ev) {
                app.act(a, Instant::now());
            }
        }
    }
    drop(terminal);
    drop(_guard);
    if let Some(r) = app.game.result() {
        println!("{}", super::words::result_text(&app.cat, &app.setup, &app.game, r));
    }
    Ok(())
}
