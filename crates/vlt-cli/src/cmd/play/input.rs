//! Keys and mouse to the app's actions. The mapping depends only on what the screen shows (a
//! file-name prompt takes letters as text; elsewhere letters are commands; a click is looked up
//! on the board or the menu as drawn), so it is tested without a terminal.

pub use super::app::Action;
use super::app::Mode;
use super::board::hole_at;
use super::menu::menu_hit;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind};
use ratatui::layout::Rect;

/// The action of a terminal event on a screen of size `area`, if any: a click counts only on a
/// hole of the board, or on a row of the start menu while it shows.
pub fn action(mode: &Mode, area: Rect, ev: &Event) -> Option<Action> {
    match ev {
        Event::Key(k) if k.kind != KeyEventKind::Release => Some(key_action(mode, *k)),
        Event::Mouse(m) if m.kind == MouseEventKind::Down(MouseButton::Left) => match mode {
            Mode::Menu(_) => menu_hit(area, m.column, m.row).map(|(i, step)| Action::MenuClick(i, step)),
            _ => hole_at(area, m.column, m.row).map(Action::Pick),
        },
        _ => None,
    }
}

/// The action of a key on a screen.
pub fn key_action(mode: &Mode, k: KeyEvent) -> Action {
    // Ctrl-C quits from everywhere: raw mode turns it into a key, not a signal.
    if k.modifiers.contains(KeyModifiers::CONTROL) && matches!(k.code, KeyCode::Char('c' | 'C')) {
        return Action::Quit;
    }
    match k.code {
        KeyCode::Left => return Action::Left,
        KeyCode::Right => return Action::Right,
        KeyCode::Up => return Action::Up,
        KeyCode::Down => return Action::Down,
        KeyCode::Home => return Action::Home,
        KeyCode::End => return Action::End,
        KeyCode::Enter => return Action::Enter,
        KeyCode::Esc => return Action::Back,
        KeyCode::Backspace => return Action::Backspace,
        KeyCode::F(1) => return Action::Rules,
        _ => {}
    }
    let KeyCode::Char(c) = k.code else { return Action::Skip };
    if matches!(mode, Mode::Prompt(..)) {
        return Action::Char(c);
    }
    // Space plays a worked example through, as Enter does.
    if c == ' ' && matches!(mode, Mode::Rules(_)) {
        return Action::Enter;
    }
    if let Some(d) = c.to_digit(10) {
        return Action::Hole(d as u8);
    }
    match c.to_ascii_lowercase() {
        'u' => Action::Undo,
        'r' => Action::Redo,
        'h' => Action::Hint,
        'e' => Action::Eval,
        'n' => Action::New,
        'x' => Action::Resign,
        's' => Action::Save,
        'l' => Action::Load,
        'p' => Action::Replay,
        '?' => Action::Rules,
        'o' => Action::Settings,
        'y' => Action::Yes,
        'q' => Action::Quit,
        _ => Action::Skip,
    }
}
