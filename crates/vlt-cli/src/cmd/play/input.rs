//! Keys and mouse to actions. The mapping depends only on what the screen shows (a file-name
//! prompt takes letters as text; elsewhere letters are commands), so it is tested without a
//! terminal.

use super::app::Mode;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind};

/// What the user asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// A digit: the hole of that number of the player to move (N1), or a level in the menu.
    Hole(u8),
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Home.
    Home,
    /// End.
    End,
    /// Enter: play the selected hole, confirm.
    Enter,
    /// A mouse click at a column and row of the screen.
    Click(u16, u16),
    /// Take back a move.
    Undo,
    /// Play again a move taken back.
    Redo,
    /// Ask the engine for a move.
    Hint,
    /// Show or hide the evaluation bar.
    Eval,
    /// Open the start menu for a new game.
    New,
    /// Give up the game.
    Resign,
    /// Save the game record.
    Save,
    /// Load a game record.
    Load,
    /// Replay the game move by move.
    Replay,
    /// The rules screen.
    Rules,
    /// Yes (confirmations).
    Yes,
    /// Escape: leave the current screen.
    Back,
    /// Quit the program.
    Quit,
    /// A character typed into a prompt.
    Char(char),
    /// Backspace in a prompt.
    Backspace,
    /// Any other key: skips a running animation.
    Skip,
}

/// The action of a terminal event on a screen, if any.
pub fn action(mode: &Mode, ev: &Event) -> Option<Action> {
    match ev {
        Event::Key(k) if k.kind != KeyEventKind::Release => Some(key_action(mode, *k)),
        Event::Mouse(m) if m.kind == MouseEventKind::Down(MouseButton::Left) => {
            Some(Action::Click(m.column, m.row))
        }
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
        'y' => Action::Yes,
        'q' => Action::Quit,
        _ => Action::Skip,
    }
}
