//! The app's vocabulary: what the screen shows (its modes and the start menu's rows) and what
//! the user can ask for (the actions the input layer makes of keys and clicks).

use vlt_core::Hole;

/// The rows of the start menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MenuRow {
    /// Person or computer.
    Opponent,
    /// The computer's level.
    Level,
    /// The side the user plays.
    Side,
    /// Who moves first.
    First,
    /// Start the game.
    Start,
    /// The analysis board instead of a game (what `--analyse` opens).
    Analysis,
    /// The puzzles instead of a game (what `--puzzles` opens).
    Puzzles,
}

impl MenuRow {
    /// True for the rows that set up the game (the others are buttons).
    pub fn is_setting(self) -> bool {
        matches!(self, MenuRow::Opponent | MenuRow::Level | MenuRow::Side | MenuRow::First)
    }
}

/// The menu's rows, top to bottom.
pub const MENU_ROWS: [MenuRow; 7] = [
    MenuRow::Opponent,
    MenuRow::Level,
    MenuRow::Side,
    MenuRow::First,
    MenuRow::Start,
    MenuRow::Analysis,
    MenuRow::Puzzles,
];

/// The row the menu opens on: Start, so that Enter alone starts the game set up.
pub const START_ROW: usize = {
    let mut i = 0;
    while !matches!(MENU_ROWS[i], MenuRow::Start) {
        i += 1;
    }
    i
};

/// A mode of its own screen that the start menu opens in place of a game; the program runs it
/// and comes back to the menu when it is left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elsewhere {
    /// The analysis board.
    Analysis,
    /// The puzzles.
    Puzzles,
}

/// What the file-name prompt is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptKind {
    /// Save the game record.
    Save,
    /// Load a game record.
    Load,
}

/// What the screen shows and how keys are read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The start menu, a row selected.
    Menu(usize),
    /// The game.
    Play,
    /// The rules screen, a page shown (0: the rules, 1..: the worked examples, stepped on the
    /// board).
    Rules(usize),
    /// The settings screen, a row selected.
    Settings(usize),
    /// Typing a file name.
    Prompt(PromptKind, String),
    /// Asking whether to resign.
    ConfirmResign,
    /// Replaying the game: the number of moves shown as played.
    Replay(usize),
}

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
    /// A click on a hole (the input layer's hit test found it).
    Pick(Hole),
    /// A click on a row of the start menu (its index), with the step it asks for: -1 on the
    /// row's ◀, +1 on its value or ▶, 0 on its label; a button row acts whatever the step.
    MenuClick(usize, i8),
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
    /// The settings screen.
    Settings,
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
