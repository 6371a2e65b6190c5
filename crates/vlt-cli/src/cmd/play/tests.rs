//! Tests of the terminal game without a terminal: screens drawn on ratatui's `TestBackend` and
//! compared with expected text, and key handling driven through `App::act`.

use super::app::{App, Mode, Opponent, Setup};
use super::input::{Action, key_action};
use super::render;
use crate::i18n::Catalog;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::time::{Duration, Instant};
use vlt_core::{Hole, Player, Position};
use vlt_engine::Level;

pub(super) fn setup(opponent: Opponent, position: Option<&str>) -> Setup {
    Setup {
        opponent,
        human: Player::B,
        first: Player::B,
        position: position.map(|p| p.parse().unwrap()),
        animate: false,
        seed: 1,
    }
}

pub(super) fn app(opponent: Opponent, position: Option<&str>) -> App {
    App::new(Catalog::new("en").unwrap(), setup(opponent, position), false, false)
}

/// The screen as lines of text, trailing spaces removed.
pub(super) fn screen(app: &App, w: u16, h: u16, now: Instant) -> Vec<String> {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| render::draw(f, app, now)).unwrap();
    let buf = t.backend().buffer().clone();
    (0..h)
        .map(|y| {
            let mut s = String::new();
            for x in 0..w {
                s.push_str(buf[(x, y)].symbol());
            }
            s.trim_end().to_string()
        })
        .collect()
}

fn hole(s: &str) -> Hole {
    s.parse().unwrap()
}

/// The start of a game between two people at 80x24: R1's layout (A's row on top 1A..6A, B's row
/// below 6B..1B, A's store on the left, B's on the right), the cursor (double border) on 1B, and
/// under each hole of the player to move the key that plays it.
#[test]
fn start_screen_matches_the_expected_text() {
    let a = app(Opponent::Human, None);
    let got = screen(&a, 80, 24, Instant::now());
    let expected = [
        " Vai Lung Thlan  ▲ Player A  ▼ Player B",
        "                                                                ┌Moves─────────┐",
        " ┌── A ───┐┌─1A──┐┌─2A──┐┌─3A──┐┌─4A──┐┌─5A──┐┌─6A──┐┌──▶B◀───┐ │              │",
        " │        ││  5  ││  5  ││  5  ││  5  ││  5  ││  5  ││        │ │              │",
        " │    0   ││●●●●●││●●●●●││●●●●●││●●●●●││●●●●●││●●●●●││    0   │ │              │",
        " │ stones ││     ││     ││     ││     ││     ││     ││ stones │ │              │",
        " │        │└─────┘└─────┘└─────┘└─────┘└─────┘└─────┘│        │ │              │",
        " │        │┌─6B──┐┌─5B──┐┌─4B──┐┌─3B──┐┌─2B──┐╔═1B══╗│        │ │              │",
        " │        ││  5  ││  5  ││  5  ││  5  ││  5  │║  5  ║│        │ │              │",
        " │        ││●●●●●││●●●●●││●●●●●││●●●●●││●●●●●│║●●●●●║│        │ │              │",
        " │        ││     ││     ││     ││     ││     │║     ║│        │ │              │",
        " └────────┘└─[6]─┘└─[5]─┘└─[4]─┘└─[3]─┘└─[2]─┘╚═[1]═╝└────────┘ │              │",
        "                                                                │              │",
        " Player B to move: 1–6, ←/→ Enter, or click a hole.             │              │",
        "                                                                │              │",
        " New game. First to move: Player B. Press ? for the rules.      │              │",
    ];
    for (i, line) in expected.iter().enumerate() {
        assert_eq!(got[i], *line, "line {i}\n{}", got.join("\n"));
    }
    assert!(got[22].starts_with("1–6 ←→⏎ move"), "{}", got[22]);
    assert!(got[23].contains("q quit"), "{}", got[23]);
}

/// After the rule texts' chain example (R4: 1A, 6B, 5B, 4B, 3B captured across the rows) the screen
/// shows the emptied holes, B's store with 27 and the move in the list with its capture.
#[test]
fn a_chain_capture_shows_in_the_store_and_the_move_list() {
    let ex = vlt_core::examples::WORKED_EXAMPLES[2];
    let mut a = app(Opponent::Human, Some(ex.position));
    a.act(Action::Hole(2), Instant::now());
    let got: Vec<String> = screen(&a, 80, 24, Instant::now()).iter().map(|l| l.replace('║', "│")).collect();
    assert_eq!(a.game.position().to_string(), "1,0,0,0,0,0/0,2,1,3,0,2 A 27 24");
    let text = got.join("\n");
    assert!(got[2].contains("┌─1A──┐"), "{text}");
    assert!(got[3].contains("│  0  ││  2  ││  1  ││  3  ││  0  ││  2  │"), "{text}");
    assert!(got[8].contains("│  0  ││  0  ││  0  ││  0  ││  0  ││  1  │"), "{text}");
    assert!(got[4].contains("│   24   │") && got[4].contains("│   27   │"), "{text}");
    assert!(got[2].contains("1. 2B ×5"), "{text}");
    assert!(text.contains("Captured 5: 1A 6B 5B 4B 3B."), "{text}");
}

/// While a move is animated, the hole just sown has a thick border and the status counts the
/// stones in hand; the captured holes flash with ✖ marks before they empty (R4).
#[test]
fn the_animation_shows_sowing_then_flashing_captures() {
    let ex = vlt_core::examples::WORKED_EXAMPLES[0];
    let mut s = setup(Opponent::Human, Some(ex.position));
    s.animate = true;
    let mut a = App::new(Catalog::new("en").unwrap(), s, false, false);
    let t0 = Instant::now();
    a.act(Action::Hole(1), t0);
    let mid = screen(&a, 80, 24, t0 + super::anim::LIFT + Duration::from_millis(10));
    let text = mid.join("\n");
    assert!(text.contains("┏━2B━━┓"), "{text}");
    assert!(text.contains("Player B: sowing, 6 in hand"), "{text}");
    let flash = t0 + super::anim::LIFT + super::anim::STONE * 7;
    let text = screen(&a, 80, 24, flash + Duration::from_millis(10)).join("\n");
    assert!(text.contains("✖1✖"), "{text}");
    let text = screen(&a, 80, 24, t0 + Duration::from_secs(10)).join("\n");
    assert!(!text.contains('✖') && !text.contains('┏'), "{text}");
}

#[test]
fn a_small_window_asks_to_be_enlarged() {
    let a = app(Opponent::Human, None);
    let got = screen(&a, 60, 20, Instant::now()).join(" ");
    assert!(got.contains("needs at least 80×24"), "{got}");
}

/// The board grows with the window: 7-column holes at 80x24, 11 at 120x40, 15 at 160x48, the move
/// list at the right edge, the keys on the last line, and the geometry (so the mouse) agrees.
#[test]
fn the_board_scales_with_the_window() {
    let mut a = app(Opponent::Human, Some("12,14,0,3,0,1/1,0,2,0,26,1 B 0 0"));
    for (w, h, hole_w) in [(80u16, 24u16, 7u16), (120, 40, 11), (160, 48, 15)] {
        a.area = ratatui::layout::Rect::new(0, 0, w, h);
        let got = screen(&a, w, h, Instant::now());
        let text = got.join("\n");
        let g = super::board::geometry(a.area);
        assert_eq!(g.scale.hole_w, hole_w, "{w}x{h}");
        let r = g.holes[hole("1B").index()];
        let row: String =
            got[usize::from(r.y)].chars().skip(usize::from(r.x)).take(usize::from(r.width)).collect();
        assert!(row.starts_with('╔') && row.contains("1B") && row.ends_with('╗'), "{w}x{h}: {row}\n{text}");
        // The board and the move list fit side by side; the keys are on the last line.
        assert!(g.stores.b.x + g.stores.b.width <= w - g.scale.moves_w, "{w}x{h}");
        assert!(got[1].trim_end().ends_with('┐') && got[1].contains("┌Moves"), "{text}");
        assert!(got[usize::from(h) - 1].contains("q quit"), "{text}");
        // A hole with more stones than dots fit shows a +, never an empty hole.
        let r = g.holes[hole("5A").index()];
        let inside: String = (r.y + 1..r.y + r.height - 1)
            .map(|y| {
                got[usize::from(y)]
                    .chars()
                    .skip(usize::from(r.x))
                    .take(usize::from(r.width))
                    .collect::<String>()
            })
            .collect();
        assert!(inside.contains('●'), "{w}x{h}: {inside}\n{text}");
        // The board and the move list take most of the width.
        let used = g.scale.board_w() + g.scale.moves_w;
        assert!(u32::from(used) * 100 >= u32::from(w) * 90, "{w}x{h}: {used} columns used");
        // The one stone of 6A sits in the middle third of its hole, not at the top.
        let r = g.holes[hole("6A").index()];
        let rows: Vec<u16> = (r.y..r.y + r.height)
            .filter(|y| {
                got[usize::from(*y)]
                    .chars()
                    .skip(usize::from(r.x))
                    .take(usize::from(r.width))
                    .any(|c| c == '●')
            })
            .collect();
        assert_eq!(rows.len(), 1, "{w}x{h}");
        let off = (2 * i32::from(rows[0] - r.y) - i32::from(r.height - 1)).abs();
        assert!(off <= i32::from(r.height / 3), "{w}x{h}: the dot in row {} of {}", rows[0] - r.y, r.height);
        let r = g.holes[hole("2B").index()];
        let all: String = (r.y..r.y + r.height)
            .map(|y| {
                got[usize::from(y)]
                    .chars()
                    .skip(usize::from(r.x))
                    .take(usize::from(r.width))
                    .collect::<String>()
            })
            .collect();
        assert!(all.contains("14") && all.contains('●'), "{w}x{h}: {all}");
        if hole_w == 7 {
            assert!(all.contains('+'), "14 stones do not fit 10 dots: {all}");
        }
    }
}

#[test]
fn the_start_menu_and_rules_screens_draw() {
    let mut a =
        App::new(Catalog::new("en").unwrap(), setup(Opponent::Computer(Level::MIN), None), true, false);
    let text = screen(&a, 80, 24, Instant::now()).join("\n");
    assert!(
        text.contains("New game") && text.contains("◀ the computer ▶") && text.contains("◀ 1 ▶"),
        "{text}"
    );
    a.act(Action::Enter, Instant::now());
    assert_eq!(a.mode, Mode::Play);
    a.act(Action::Rules, Instant::now());
    let text = screen(&a, 80, 24, Instant::now()).join("\n");
    assert!(text.contains("R4 If the last stone"), "{text}");
    a.act(Action::Right, Instant::now());
    let text = screen(&a, 80, 24, Instant::now()).join("\n");
    assert!(text.contains("Example 1/3: 1B sows 7 stones"), "{text}");
    assert!(text.contains("╔═1B══╗"), "the hole to sow is selected on the board: {text}");
}

#[test]
fn screens_translate() {
    for (code, word) in [("es", "Jugadas"), ("ca", "Jugades"), ("ru", "Ходы"), ("de", "Züge")] {
        let a = App::new(Catalog::new(code).unwrap(), setup(Opponent::Human, None), false, false);
        let text = screen(&a, 80, 24, Instant::now()).join("\n");
        assert!(text.contains(word), "{code}: {text}");
    }
}

fn key(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

#[test]
fn keys_map_to_actions() {
    let play = Mode::Play;
    assert_eq!(key_action(&play, key(KeyCode::Char('3'))), Action::Hole(3));
    assert_eq!(key_action(&play, key(KeyCode::Left)), Action::Left);
    assert_eq!(key_action(&play, key(KeyCode::Enter)), Action::Enter);
    assert_eq!(key_action(&play, key(KeyCode::Char('u'))), Action::Undo);
    assert_eq!(key_action(&play, key(KeyCode::Char('U'))), Action::Undo);
    assert_eq!(key_action(&play, key(KeyCode::Char('?'))), Action::Rules);
    assert_eq!(key_action(&play, key(KeyCode::Char(' '))), Action::Skip);
    assert_eq!(key_action(&play, KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)), Action::Quit);
    // In a prompt, letters are text, but Ctrl-C still quits.
    let prompt = Mode::Prompt(super::app::PromptKind::Save, String::new());
    assert_eq!(key_action(&prompt, key(KeyCode::Char('u'))), Action::Char('u'));
    assert_eq!(key_action(&prompt, KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)), Action::Quit);
}

/// Illegal choices are explained, not ignored (R3).
#[test]
fn illegal_choices_are_explained() {
    let mut a = app(Opponent::Human, Some("0,0,0,1,0,2/1,0,0,0,2,0 B 24 30"));
    let now = Instant::now();
    a.act(Action::Hole(1), now);
    assert_eq!(a.message, "Hole 1B is empty: choose a hole with stones.");
    assert_eq!(a.game.moves().len(), 0);
    a.act(Action::Hole(7), now);
    assert_eq!(a.message, "Press 1–6 for your holes, in sowing order.");
    a.choose(hole("5A"), now);
    assert_eq!(a.message, "Hole 5A is in the other row: Player B plays from row B.");
    a.act(Action::Hole(4), now);
    assert_eq!(a.game.moves().len(), 1);
}

/// The arrows follow the screen (R1): B's row runs 6B..1B left to right, A's 1A..6A.
#[test]
fn arrows_move_along_the_row_on_screen() {
    let mut a = app(Opponent::Human, None);
    let now = Instant::now();
    assert_eq!(a.cursor, hole("1B"));
    a.act(Action::Left, now);
    assert_eq!(a.cursor, hole("2B"));
    a.act(Action::Right, now);
    a.act(Action::Right, now);
    assert_eq!(a.cursor, hole("1B"), "1B is the rightmost");
    a.act(Action::Left, now);
    a.act(Action::Left, now);
    a.act(Action::Enter, now);
    assert_eq!(a.game.moves()[0].to_string(), "3B");
    assert_eq!(a.game.position().to_move(), Player::A);
    a.act(Action::Right, now);
    assert_eq!(a.cursor, hole("2A"), "A's row runs left to right from 1A");
}

#[test]
fn a_click_on_a_hole_plays_it() {
    let mut a = app(Opponent::Human, None);
    let g = super::board::geometry(a.area);
    let r = g.holes[hole("4B").index()];
    let click = |col, row| {
        crossterm::event::Event::Mouse(crossterm::event::MouseEvent {
            kind: crossterm::event::MouseEventKind::Down(crossterm::event::MouseButton::Left),
            column: col,
            row,
            modifiers: KeyModifiers::NONE,
        })
    };
    let act = super::input::action(&a.mode, a.area, &click(r.x + 2, r.y + 2));
    assert_eq!(act, Some(Action::Pick(hole("4B"))));
    a.act(act.unwrap(), Instant::now());
    assert_eq!(a.game.moves().iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["4B"]);
    // A click outside the holes is no action.
    assert_eq!(super::input::action(&a.mode, a.area, &click(0, 0)), None);
}

#[test]
fn undo_and_redo_between_two_people() {
    let mut a = app(Opponent::Human, None);
    let now = Instant::now();
    a.act(Action::Hole(1), now);
    a.act(Action::Hole(1), now);
    a.act(Action::Undo, now);
    assert_eq!(a.game.moves().len(), 1);
    a.act(Action::Redo, now);
    assert_eq!(a.game.moves().len(), 2);
    a.act(Action::Redo, now);
    assert_eq!(a.message, "Nothing to redo.");
    a.act(Action::Undo, now);
    a.act(Action::Undo, now);
    a.act(Action::Undo, now);
    assert_eq!(a.message, "Nothing to undo.");
}

#[test]
fn menu_changes_the_setup() {
    let mut a =
        App::new(Catalog::new("en").unwrap(), setup(Opponent::Computer(Level::MIN), None), true, false);
    let now = Instant::now();
    a.act(Action::Up, now); // First move
    a.act(Action::Right, now);
    a.act(Action::Up, now); // You play
    a.act(Action::Right, now);
    a.act(Action::Up, now); // Level
    a.act(Action::Hole(7), now);
    a.act(Action::Right, now);
    a.act(Action::Enter, now);
    assert_eq!(a.setup.opponent, Opponent::Computer(Level::new(8).unwrap()));
    assert_eq!(a.setup.human, Player::A);
    assert_eq!(a.setup.first, Player::A);
    assert_eq!(a.game.position(), Position::start(Player::A));
    assert_eq!(a.mode, Mode::Play);
}

#[test]
fn resign_asks_first() {
    let mut a = app(Opponent::Human, None);
    let now = Instant::now();
    a.act(Action::Resign, now);
    assert_eq!(a.mode, Mode::ConfirmResign);
    a.act(Action::Skip, now);
    assert!(!a.game.is_over());
    a.act(Action::Resign, now);
    a.act(Action::Yes, now);
    let r = a.game.result().unwrap();
    assert_eq!(r.winner, Some(Player::A));
    assert!(a.message.contains("Player B resigned. Player A wins"), "{}", a.message);
}

#[test]
fn save_then_load_restores_the_game() {
    let dir = std::env::temp_dir().join(format!("vlt-play-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("g.txt");
    let path = path.to_str().unwrap();
    let mut a = app(Opponent::Human, None);
    let now = Instant::now();
    for d in [3, 1, 6] {
        a.act(Action::Hole(d), now);
    }
    a.act(Action::Save, now);
    // The prompt starts with the last file name; replace it by typing.
    if let Mode::Prompt(_, t) = &a.mode {
        for _ in 0..t.chars().count() {
            a.act(Action::Backspace, now);
        }
    }
    for c in path.chars() {
        a.act(Action::Char(c), now);
    }
    a.act(Action::Enter, now);
    assert!(a.message.starts_with("Saved the game"), "{}", a.message);
    let moves = a.game.moves().to_vec();
    let mut b = app(Opponent::Human, None);
    b.load(path, now);
    assert_eq!(b.game.moves(), &moves[..]);
    b.load(&format!("{path}.missing"), now);
    assert!(b.message.starts_with("Could not load"), "{}", b.message);
    std::fs::write(format!("{path}.bad"), "not a record {").unwrap();
    b.load(&format!("{path}.bad"), now);
    assert!(b.message.starts_with("Could not load"), "{}", b.message);
    assert_eq!(b.game.moves(), &moves[..], "a failed load keeps the game");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn replay_steps_through_the_game() {
    let mut a = app(Opponent::Human, None);
    let now = Instant::now();
    for d in [3, 1, 6] {
        a.act(Action::Hole(d), now);
    }
    a.act(Action::Replay, now);
    assert_eq!(a.mode, Mode::Replay(0));
    let text = screen(&a, 80, 24, now).join("\n");
    assert!(text.contains("│  5  ││  5  ││  5  ││  5  ││  5  ││  5  │"), "the start is shown: {text}");
    a.act(Action::Right, now);
    a.act(Action::Right, now);
    assert_eq!(a.mode, Mode::Replay(2));
    assert!(a.message.contains("move 2 of 3") && a.message.contains("sowed 1A"), "{}", a.message);
    a.act(Action::End, now);
    assert_eq!(a.mode, Mode::Replay(3));
    a.act(Action::Back, now);
    assert_eq!(a.mode, Mode::Play);
    assert_eq!(a.game.moves().len(), 3, "replay changes nothing");
}

/// A pass (R5) and the end of the game (R6) are announced in words.
#[test]
fn passes_and_the_end_are_announced() {
    // B's 1B reaches 2B... B: 0,0,0,0,0,1 (6B) sows into 1A, which was empty: captured (R4), and
    // A's row is left empty, so the board holds only B's stones.
    let mut a = app(Opponent::Human, Some("0,0,0,0,1,1/0,0,0,0,0,1 A 29 28"));
    let now = Instant::now();
    a.act(Action::Hole(6), now);
    assert!(a.message.contains("Player A sowed 6A"), "{}", a.message);
    a.act(Action::Hole(6), now);
    let m = a.message.clone();
    assert!(m.contains("Captured 1: 1A.") && m.contains("Player A has no stones and passes"), "{m}");
    a.act(Action::Hole(5), now);
    assert!(a.game.is_over(), "{}", a.game.position());
    assert!(a.message.contains("The board is empty"), "{}", a.message);
}

/// Against the computer (the engine on its thread) the game goes on by itself after each of the
/// user's moves, and undo takes back the computer's reply with the user's move.
#[test]
fn the_computer_replies_from_its_thread() {
    let mut a =
        App::new(Catalog::new("en").unwrap(), setup(Opponent::Computer(Level::MIN), None), false, true);
    let now = Instant::now();
    a.act(Action::Hole(3), now);
    assert!(a.thinking());
    a.act(Action::Hole(2), now);
    assert_eq!(a.message, "Please wait: the computer is thinking.");
    assert!(a.wait_engine(Duration::from_secs(30)));
    assert_eq!(a.game.moves().len(), 2);
    assert_eq!(a.game.position().to_move(), Player::B);
    assert!(a.message.starts_with("Computer (A) sowed"), "{}", a.message);
    a.act(Action::Undo, now);
    assert_eq!(a.game.moves().len(), 0);
    a.act(Action::Hint, now);
    assert!(a.wait_engine(Duration::from_secs(30)));
    assert!(a.hint.is_some() && a.message.starts_with("Hint:"), "{}", a.message);
}

/// R7: RULES.md's smallest cycle, played twice round, ends the game at the third occurrence of
/// its position, and the message says so with the stones that count for nobody.
#[test]
fn the_third_repetition_is_announced() {
    let mut a = app(Opponent::Human, Some("1,0,1,0,1,0/1,2,0,1,2,0 A 25 26"));
    let now = Instant::now();
    let cycle = ["5A", "1B", "2A", "3B", "4A", "5B", "6A", "2B", "1A", "4B", "3A", "6B"];
    for mv in cycle.iter().chain(cycle.iter()) {
        assert!(!a.game.is_over());
        a.choose(hole(mv), now);
    }
    let r = a.game.result().expect("over by R7");
    assert_eq!(r.termination, vlt_core::Termination::Repetition);
    assert!(a.message.contains("third time: game over; the 9 stones left count for nobody"), "{}", a.message);
    assert!(a.message.contains("Player A wins 25–26"), "{}", a.message);
    a.act(Action::Hole(1), now);
    assert!(a.message.starts_with("The game is over"), "{}", a.message);
}

/// Every rules page fits 80x24 in every language: its key line (the last) is on screen.
#[test]
fn rules_pages_fit_80x24_in_every_language() {
    for (code, _) in crate::i18n::LANGS {
        let mut a = App::new(Catalog::new(code).unwrap(), setup(Opponent::Human, None), false, false);
        a.act(Action::Rules, Instant::now());
        for page in 0..=vlt_core::examples::WORKED_EXAMPLES.len() {
            assert_eq!(a.mode, Mode::Rules(page));
            let keys = a.cat.t(if page == 0 { "rules_keys" } else { "example_keys" });
            let text = screen(&a, 80, 24, Instant::now()).join("\n");
            assert!(text.contains(&keys), "{code} page {page}:\n{text}");
            a.act(Action::Right, Instant::now());
        }
    }
}

/// Leaving the start menu with Esc starts the game, so a computer that moves first does.
#[test]
fn esc_from_the_start_menu_starts_the_game() {
    let mut s = setup(Opponent::Computer(Level::MIN), None);
    s.first = Player::A;
    let mut a = App::new(Catalog::new("en").unwrap(), s, true, true);
    a.act(Action::Back, Instant::now());
    assert_eq!(a.mode, Mode::Play);
    assert!(a.thinking());
    assert!(a.wait_engine(Duration::from_secs(30)));
    assert_eq!(a.game.moves().len(), 1);
    assert_eq!(a.game.position().to_move(), Player::B);
}

/// The end of a game against the computer is an end screen: the verdict for the user, the score,
/// how it ended and the keys that still apply; undo, hint and resign are refused and not offered.
#[test]
fn the_end_screen_says_who_won_and_what_next() {
    let mut s = setup(Opponent::Computer(Level::MIN), Some("0,0,0,0,0,1/0,0,0,0,0,0 B 29 30"));
    s.human = Player::B;
    let mut a = App::new(Catalog::new("en").unwrap(), s, false, false);
    let now = Instant::now();
    a.act(Action::Hole(6), now); // 6B sows into the empty 1A: captured, and the board is empty
    assert!(a.game.is_over(), "{}", a.game.position());
    let text = screen(&a, 80, 24, now).join("\n");
    assert!(
        text.contains("Draw") && text.contains("B 30 – 30 A") && text.contains("The board is empty"),
        "{text}"
    );
    assert!(text.contains("n new game · p replay · s save · q quit"), "{text}");
    assert!(!text.contains("u undo") && !text.contains("h hint") && !text.contains("x resign"), "{text}");
    for act in [Action::Undo, Action::Hint, Action::Resign] {
        a.act(act, now);
        assert!(a.message.starts_with("The game is over"), "{act:?}: {}", a.message);
        assert_eq!(a.mode, Mode::Play);
    }
    // A win is said as such, for the user.
    let mut a = app(Opponent::Computer(Level::MIN), Some("0,0,0,0,0,1/0,0,0,0,0,0 B 30 29"));
    a.setup.human = Player::B;
    a.act(Action::Hole(6), now);
    let text = screen(&a, 120, 40, now).join("\n");
    assert!(text.contains("You won") && text.contains("B 31 – 29 A"), "{text}");
}

/// A position shows one evaluation however it is reached again: undo then redo gives the value
/// first found, at once, in the unit the hint uses (the predicted final score).
#[test]
fn the_evaluation_is_stable_for_a_position() {
    let mut a = app(Opponent::Human, None);
    a.show_eval = true;
    let now = Instant::now();
    a.act(Action::Hole(3), now);
    let first = a.take_eval(4, 9);
    // B has 0, A 0, 55 stones on the board... the scores add up to the stones in play.
    assert_eq!(u32::from(first.b) + u32::from(first.a), 60);
    assert_eq!(i32::from(first.a) - i32::from(first.b), 4, "A to move, 4 ahead in future captures");
    // A later, different value for the same position does not replace the first.
    assert_eq!(a.take_eval(-2, 12), first);
    a.act(Action::Undo, now);
    assert_ne!(a.eval, Some(first));
    a.act(Action::Redo, now);
    assert_eq!(a.eval, Some(first), "shown at once from the cache");
    let text = screen(&a, 80, 24, now).join("\n");
    assert!(text.contains(&format!("B {} – {} A (depth 9)", first.b, first.a)), "{text}");
    assert!(text.contains("Predicted final score"), "{text}");
}

/// The file prompt starts empty (typing does not append to the last name), shows the default, and
/// Enter alone uses it; a long name stays visible.
#[test]
fn the_file_prompt_starts_empty() {
    let dir = std::env::temp_dir().join(format!("vlt-play-prompt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut a = app(Opponent::Human, None);
    a.file = dir.join("default.vlt").to_string_lossy().into_owned();
    let now = Instant::now();
    a.act(Action::Save, now);
    assert_eq!(a.mode, Mode::Prompt(super::app::PromptKind::Save, String::new()));
    let text = screen(&a, 80, 24, now).join("\n");
    assert!(text.contains("(Enter alone:"), "{text}");
    a.act(Action::Enter, now);
    assert!(dir.join("default.vlt").exists(), "{}", a.message);
    a.act(Action::Save, now);
    let name = dir.join("a-rather-long-file-name-for-this-game.vlt").to_string_lossy().into_owned();
    for c in name.chars() {
        a.act(Action::Char(c), now);
    }
    let got = screen(&a, 120, 40, now).join("\n");
    assert!(got.contains("long-file-name-for-this-game.vlt█"), "{got}");
    a.act(Action::Enter, now);
    assert!(std::path::Path::new(&name).exists(), "{}", a.message);
    std::fs::remove_dir_all(&dir).ok();
}
