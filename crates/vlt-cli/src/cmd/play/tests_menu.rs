//! Tests of the start menu: every row drawn whole in every language on the smallest screen, the
//! analysis board and the puzzles asked for by keys and by clicks, the setup changed by clicks on
//! its arrows, and the keys that leave each mode opened from it.

use super::analysis::Analysis;
use super::app::{App, Elsewhere, MENU_ROWS, MenuRow, Mode, Opponent, START_ROW};
use super::input::{Action, action};
use super::keys_term::KeyScreen;
use super::tests::{screen, setup};
use crate::cmd::learn::rating::RatingFile;
use crate::i18n::{Catalog, LANGS};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use std::time::Instant;
use vlt_core::{Player, Position};
use vlt_engine::Level;

fn menu(lang: &str) -> App {
    let s = setup(Opponent::Computer(Level::new(3).unwrap()), None);
    App::new(Catalog::new(lang).unwrap(), s, true, false)
}

/// What each row shows of itself: its label, or a button's name.
fn label(a: &App, m: MenuRow) -> String {
    a.cat.t(match m {
        MenuRow::Opponent => "menu_opponent",
        MenuRow::Level => "menu_level",
        MenuRow::Side => "menu_side",
        MenuRow::First => "menu_first",
        MenuRow::Start => "menu_start",
        MenuRow::Analysis => "an.title",
        MenuRow::Puzzles => "menu_puzzles",
    })
}

/// A left click at a cell.
fn click(col: u16, row: u16) -> Event {
    Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: col,
        row,
        modifiers: KeyModifiers::NONE,
    })
}

/// The cell (column, line) where `needle` starts in the menu's box on the drawn screen (the
/// title line above it names the level too).
fn find(got: &[String], needle: &str) -> (u16, u16) {
    let top = got.iter().position(|l| l.contains('╔')).expect("the menu's box");
    for (y, line) in got.iter().enumerate().skip(top) {
        if let Some(at) = line.find(needle) {
            return (line[..at].chars().count() as u16, y as u16);
        }
    }
    panic!("{needle:?} is not on the screen:\n{}", got.join("\n"));
}

/// On the smallest screen, in every language, every row of the menu is drawn whole inside its
/// box, in order, above the keys of the game; the analysis board and the puzzles are offered as
/// buttons like Start.
#[test]
fn every_row_fits_the_smallest_screen_in_every_language() {
    for (code, _) in LANGS {
        let a = menu(code);
        let got = screen(&a, 80, 24, Instant::now());
        let text = got.join("\n");
        let (_, top) = find(&got, &a.cat.t("menu_title"));
        let mut last = top;
        for &m in &MENU_ROWS {
            let l = label(&a, m);
            let shown = if m.is_setting() { l } else { format!("[ {l} ]") };
            let (x, y) = find(&got, &shown);
            assert!(y > last, "{code}: {m:?} out of order\n{text}");
            // Inside the box's borders, its ║ after it on the same line.
            let line = &got[usize::from(y)];
            assert!(x > 0 && line.chars().skip(usize::from(x)).any(|c| c == '║'), "{code}: {m:?}\n{text}");
            last = y;
        }
        let (_, keys) = find(&got, &a.cat.t("menu_settings"));
        assert!(keys > last && keys < 22, "{code}: the menu's keys inside it\n{text}");
        assert!(got[usize::from(keys) + 1].contains('╚'), "{code}: the box closes under them\n{text}");
        assert!(text.contains(&a.cat.t("keys_2")), "{code}: the game's keys still show\n{text}");
    }
}

/// Enter on the analysis board's row or the puzzles' asks for that mode (the program runs it in
/// place of the game); the menu stays as it was, to show again when the mode is left.
#[test]
fn enter_on_a_mode_row_asks_for_that_mode() {
    let now = Instant::now();
    for (downs, want) in [(1, Elsewhere::Analysis), (2, Elsewhere::Puzzles)] {
        let mut a = menu("en");
        for _ in 0..downs {
            a.act(Action::Down, now);
        }
        assert_eq!(a.mode, Mode::Menu(START_ROW + downs));
        a.act(Action::Enter, now);
        assert_eq!(a.elsewhere, Some(want));
        assert_eq!(a.mode, Mode::Menu(START_ROW + downs));
        assert!(!a.quit && a.game.moves().is_empty());
        // Back from the mode, the menu's keys work as before: Up to Start, Enter plays.
        a.elsewhere = None;
        for _ in 0..downs {
            a.act(Action::Up, now);
        }
        a.act(Action::Enter, now);
        assert_eq!((a.mode, a.elsewhere), (Mode::Play, None));
    }
    // Up from the first row wraps to the puzzles, the last.
    let mut a = menu("en");
    a.mode = Mode::Menu(0);
    a.act(Action::Up, now);
    assert_eq!(
        MENU_ROWS[match a.mode {
            Mode::Menu(r) => r,
            _ => panic!("{:?}", a.mode),
        }],
        MenuRow::Puzzles
    );
}

/// A click on a button acts as Enter on it; on a setting, the ◀ steps back, the value steps on,
/// the label only selects the row. Clicks are looked up on the menu as drawn, in every language.
#[test]
fn clicks_choose_rows_and_step_values() {
    let now = Instant::now();
    for (code, _) in LANGS {
        let mut a = menu(code);
        let got = screen(&a, 80, 24, now);
        let press = |a: &mut App, (x, y): (u16, u16)| {
            let act =
                action(&a.mode, a.area, &click(x, y)).unwrap_or_else(|| panic!("{code}: no row at {x},{y}"));
            a.act(act, now);
        };
        let level = find(&got, &label(&a, MenuRow::Level));
        press(&mut a, level);
        assert_eq!(a.mode, Mode::Menu(1), "{code}");
        assert_eq!(
            a.setup.opponent,
            Opponent::Computer(Level::new(3).unwrap()),
            "{code}: the label only selects"
        );
        let row = &got[usize::from(level.1)];
        let arrow = row.chars().position(|c| c == '◀').unwrap() as u16;
        press(&mut a, (arrow, level.1));
        assert_eq!(a.setup.opponent, Opponent::Computer(Level::new(2).unwrap()), "{code}: ◀ steps down");
        press(&mut a, (arrow + 2, level.1));
        press(&mut a, (arrow + 2, level.1));
        assert_eq!(
            a.setup.opponent,
            Opponent::Computer(Level::new(4).unwrap()),
            "{code}: the value steps up"
        );
        let side = find(&got, &label(&a, MenuRow::Side));
        press(&mut a, (arrow + 3, side.1));
        assert_eq!(a.setup.human, Player::A, "{code}");
        let puzzles = find(&got, &format!("[ {} ]", label(&a, MenuRow::Puzzles)));
        press(&mut a, puzzles);
        assert_eq!(a.elsewhere, Some(Elsewhere::Puzzles), "{code}");
        a.elsewhere = None;
        let analysis = find(&got, &format!("[ {} ]", label(&a, MenuRow::Analysis)));
        press(&mut a, (analysis.0 + 3, analysis.1));
        assert_eq!(a.elsewhere, Some(Elsewhere::Analysis), "{code}");
        a.elsewhere = None;
        // Outside the rows (the title line, the blank line under it) nothing happens.
        let (_, title) = find(&got, &a.cat.t("menu_title"));
        assert_eq!(action(&a.mode, a.area, &click(40, title)), None, "{code}");
        assert_eq!(action(&a.mode, a.area, &click(40, title + 1)), None, "{code}");
        let start = find(&got, &format!("[ {} ]", label(&a, MenuRow::Start)));
        press(&mut a, start);
        assert_eq!(a.mode, Mode::Play, "{code}");
        assert_eq!(a.game.position(), Position::start(Player::B), "{code}");
    }
}

/// The modes the menu opens are left by their own keys, as their key lines say ("q leaves"):
/// the analysis board by q and Esc, the puzzles by q and Esc; Esc in the board's set-up only ends
/// the set-up.
#[test]
fn each_mode_opened_is_left_by_its_own_keys() {
    let key = |c| KeyEvent::new(c, KeyModifiers::NONE);
    for code in [KeyCode::Char('q'), KeyCode::Esc] {
        let mut b = Analysis::new(Catalog::new("en").unwrap(), Position::START, None);
        assert!(b.cat.t("an.keys").contains("q "), "the key line names q");
        assert!(!KeyScreen::quit(&b));
        KeyScreen::key(&mut b, key(code));
        assert!(KeyScreen::quit(&b), "{code:?} leaves the analysis board");

        let set = vlt_learn::shipped::set().clone();
        let mut z = super::puzzle::Puzzles::new(
            Catalog::new("en").unwrap(),
            set,
            (None, None),
            RatingFile::in_memory(),
            Some(0),
        )
        .unwrap();
        assert!(z.cat.t("pz.keys").contains("q "), "the key line names q");
        assert!(!KeyScreen::quit(&z));
        KeyScreen::key(&mut z, key(code));
        assert!(KeyScreen::quit(&z), "{code:?} leaves the puzzles");
    }
    let mut b = Analysis::new(Catalog::new("en").unwrap(), Position::START, None);
    KeyScreen::key(&mut b, key(KeyCode::Char('e')));
    KeyScreen::key(&mut b, key(KeyCode::Esc));
    assert!(!KeyScreen::quit(&b), "Esc ends the set-up, not the board");
    KeyScreen::key(&mut b, key(KeyCode::Char('q')));
    assert!(KeyScreen::quit(&b));
}

/// When a mode cannot open (an unreadable rating file for the puzzles), the menu stays and says
/// why inside its box, cut to fit, until the next key; the whole reason is in the log.
#[test]
fn a_mode_that_cannot_open_is_explained_in_the_menu() {
    let mut a = menu("en");
    let why = format!("/home/someone/{}/.vlt-puzzles.json: key must be a string at line 1", "x".repeat(40));
    a.refuse_mode(why.clone());
    let got = screen(&a, 80, 24, Instant::now());
    let (x, y) = find(&got, "/home/someone/");
    let line = &got[usize::from(y)];
    assert!(line.contains('…') && line.chars().skip(usize::from(x)).any(|c| c == '║'), "{}", got.join("\n"));
    let (_, puzzles) = find(&got, &format!("[ {} ]", a.cat.t("menu_puzzles")));
    assert_eq!(y, puzzles + 1, "under the last row");
    assert_eq!(a.log.last(), Some(&why));
    a.act(Action::Down, Instant::now());
    let text = screen(&a, 80, 24, Instant::now()).join("\n");
    assert!(!text.contains("/home/someone/"), "{text}");
}
