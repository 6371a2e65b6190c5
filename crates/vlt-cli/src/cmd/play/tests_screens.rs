//! Tests of the settings screen and of the worked examples stepped on the board, drawn on
//! ratatui's `TestBackend`.

use super::app::{App, Mode, Opponent};
use super::input::{Action, key_action};
use super::prefs::{Prefs, Speed};
use super::tests::{app, screen, setup};
use crate::i18n::{Catalog, LANGS};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::time::{Duration, Instant};
use vlt_core::examples::WORKED_EXAMPLES;
use vlt_core::{Hole, Player};
use vlt_engine::Level;

/// The text inside a hole's box on a drawn screen.
fn hole_text(a: &App, got: &[String], hole: &str, panel: bool) -> String {
    let g = super::board::board_geometry(a.area, panel);
    let r = g.holes[hole.parse::<Hole>().unwrap().index()];
    (r.y..r.y + r.height)
        .map(|y| {
            got[usize::from(y)].chars().skip(usize::from(r.x)).take(usize::from(r.width)).collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The settings screen changes the language, the animation speed and the evaluation bar at once,
/// writes them to the settings file on each change, and goes back where it was opened from; a new
/// run reading that file starts with them.
#[test]
fn the_settings_screen_changes_and_remembers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vlt").join("play.json");
    let mut a = app(Opponent::Human, None);
    a.setup.animate = true;
    a.use_prefs(Prefs::default(), Some(path.clone()));
    let now = Instant::now();
    assert_eq!(
        key_action(&Mode::Play, KeyEvent::new(KeyCode::Char('o'), KeyModifiers::NONE)),
        Action::Settings
    );
    a.act(Action::Settings, now);
    assert_eq!(a.mode, Mode::Settings(0));
    let text = screen(&a, 80, 24, now).join("\n");
    assert!(text.contains("Settings") && text.contains("◀ English ▶"), "{text}");
    assert!(text.contains("◀ normal ▶") && text.contains("◀ off ▶"), "{text}");
    assert!(text.contains("Remembered in"), "{text}");
    // The language changes the whole screen at once.
    a.act(Action::Right, now);
    assert_eq!(a.cat.code(), "es");
    let text = screen(&a, 80, 24, now).join("\n");
    assert!(text.contains("Ajustes") && text.contains("◀ Español ▶") && text.contains("Jugadas"), "{text}");
    assert!(std::fs::read_to_string(&path).unwrap().contains("\"es\""));
    // The messages in English are gone; the change is said in Spanish.
    assert_eq!(a.log, vec!["Idioma: Español".to_string()]);
    a.act(Action::Left, now);
    a.act(Action::Left, now);
    assert_eq!(a.cat.code(), "de", "the languages wrap round");
    // Animation speed: faster frames; off shows moves at once.
    a.act(Action::Down, now);
    a.act(Action::Right, now);
    assert_eq!(a.prefs.speed, Speed::Fast);
    assert_eq!(a.pace(), Speed::Fast.percent());
    // The evaluation bar, on Enter.
    a.act(Action::Down, now);
    a.act(Action::Enter, now);
    assert!(a.show_eval);
    let text = screen(&a, 80, 24, now).join("\n");
    assert!(
        text.contains("Bewertungsbalken") && text.contains("◀ an ▶") && text.contains("◀ schnell ▶"),
        "{text}"
    );
    a.act(Action::Back, now);
    assert_eq!(a.mode, Mode::Play);
    let stored = Prefs::load(&path).unwrap();
    assert_eq!(stored, Prefs { lang: Some("de".into()), speed: Speed::Fast, eval: true });
    // A fast move is sown in less time than a normal one.
    a.act(Action::Hole(1), now);
    let anim = a.anim.as_ref().expect("animated");
    assert!(anim.frame(now + Duration::from_millis(1300)).is_none(), "fast: five stones in under 1.3 s");
    // The e key is remembered too.
    a.act(Action::Eval, now + Duration::from_secs(5));
    assert!(!Prefs::load(&path).unwrap().eval);
    // Off: the next move shows at once.
    a.act(Action::Settings, now);
    a.act(Action::Down, now);
    for _ in 0..4 {
        a.act(Action::Left, now);
    }
    a.act(Action::Back, now);
    assert_eq!(a.pace(), 0);
    a.act(Action::Hole(1), now);
    assert!(a.anim.is_none());
    // A new run with the stored settings.
    let mut b = app(Opponent::Human, None);
    b.use_prefs(Prefs::load(&path).unwrap(), Some(path.clone()));
    assert!(!b.show_eval);
    assert_eq!(b.prefs.speed, Speed::Off);
}

/// Opened from the start menu, the settings go back to the menu.
#[test]
fn settings_from_the_menu_go_back_to_it() {
    let mut a =
        App::new(Catalog::new("en").unwrap(), setup(Opponent::Computer(Level::MIN), None), true, false);
    let menu = a.mode.clone();
    let text = screen(&a, 80, 24, Instant::now()).join("\n");
    assert!(text.contains("o settings: language, animation, evaluation bar"), "{text}");
    a.act(Action::Settings, Instant::now());
    assert!(matches!(a.mode, Mode::Settings(_)));
    a.act(Action::Up, Instant::now()); // wraps to Done
    assert_eq!(a.mode, Mode::Settings(3));
    a.act(Action::Enter, Instant::now());
    assert_eq!(a.mode, menu);
}

/// The settings screen and the key lines fit 80x24 in every language: each value's ◀ … ▶ and the
/// keys line are whole on the screen.
#[test]
fn settings_fit_80x24_in_every_language() {
    for (code, _) in LANGS {
        let mut a = App::new(Catalog::new(code).unwrap(), setup(Opponent::Human, None), false, false);
        a.act(Action::Settings, Instant::now());
        let got = screen(&a, 80, 24, Instant::now());
        let text = got.join("\n");
        let rows: Vec<&String> = got.iter().filter(|l| l.contains("◀ ") && l.contains(" ▶")).collect();
        assert_eq!(rows.len(), 3, "{code}:\n{text}");
        // The values line up (the selected row's ▶ pointer takes the place of the others' indent).
        let cols: Vec<usize> = rows.iter().map(|l| l.chars().take_while(|c| *c != '◀').count()).collect();
        assert!(cols.iter().all(|c| *c == cols[0]), "{code}: {cols:?}\n{text}");
        assert!(text.contains(&a.cat.t("settings_keys")), "{code}:\n{text}");
        assert!(text.contains(&a.cat.t("lang_name")), "{code}:\n{text}");
        let keys = a.cat.t("keys_2");
        assert!(keys.chars().count() <= 80 && text.contains(&keys), "{code}: {keys}");
    }
}

/// A worked example on the real board: before the move the hole to sow is selected with its
/// stones; a step lifts them (the hole empties, 7 in hand); each step drops one; the captured hole
/// flashes; the last step is the position after the move with the capture in B's store.
#[test]
fn worked_examples_step_on_the_board() {
    let mut a = app(Opponent::Human, None);
    let now = Instant::now();
    a.act(Action::Rules, now);
    a.act(Action::Right, now);
    assert_eq!(a.mode, Mode::Rules(1));
    let got = screen(&a, 80, 24, now);
    let text = got.join("\n");
    assert!(text.contains("Example 1/3: 1B sows 7 stones"), "{text}");
    assert!(text.contains("Before the move: the 7 stones of 1B"), "{text}");
    assert!(text.contains("the empty hole 2A"), "the explanation: {text}");
    let h = hole_text(&a, &got, "1B", false);
    assert!(h.starts_with('╔') && h.contains('7'), "the hole to sow is selected:\n{h}");
    // One step: the stones are lifted.
    a.act(Action::Down, now);
    let got = screen(&a, 80, 24, now);
    assert!(got.join("\n").contains("in hand: 7"), "{}", got.join("\n"));
    assert!(hole_text(&a, &got, "1B", false).contains(" 0 "), "{}", got.join("\n"));
    // Seven more: the last stone falls into 2A.
    for _ in 0..7 {
        a.act(Action::Down, now);
    }
    let text = screen(&a, 80, 24, now).join("\n");
    assert!(text.contains("The last stone falls into 2A."), "{text}");
    a.act(Action::Down, now);
    let got = screen(&a, 80, 24, now);
    assert!(hole_text(&a, &got, "2A", false).contains("✖1✖"), "the capture flashes:\n{}", got.join("\n"));
    assert!(got.join("\n").contains("Captured 1: 2A."), "{}", got.join("\n"));
    a.act(Action::End, now);
    let got = screen(&a, 80, 24, now);
    let text = got.join("\n");
    assert!(text.contains("After the move. Captured in all: B 15, A 14."), "{text}");
    assert!(hole_text(&a, &got, "2A", false).contains(" 0 "), "{text}");
    // Back to the start, and played through by the clock with Enter.
    a.act(Action::Home, now);
    assert!(screen(&a, 80, 24, now).join("\n").contains("Before the move"));
    a.act(Action::Enter, now);
    let st = a.stepper.as_ref().unwrap();
    assert!(st.playing(now + Duration::from_millis(500)));
    let end = now + Duration::from_secs(30);
    assert_eq!(st.step(end), st.last());
    assert!(screen(&a, 80, 24, end).join("\n").contains("After the move"));
    // The next example; Esc goes back to the game.
    a.act(Action::Right, end);
    assert!(screen(&a, 80, 24, end).join("\n").contains("Example 2/3: 4B sows 12 stones"));
    a.act(Action::Back, end);
    assert_eq!(a.mode, Mode::Play);
    assert!(a.stepper.is_none());
}

/// The last step of every example is the position after its move, with the holes the rules crate
/// names as captured empty; each example page fits 80x24 and 160x48 in every language.
#[test]
fn every_example_ends_as_the_rules_say_and_fits() {
    for (code, _) in LANGS {
        let mut a = App::new(Catalog::new(code).unwrap(), setup(Opponent::Human, None), false, false);
        a.act(Action::Rules, Instant::now());
        for (i, ex) in WORKED_EXAMPLES.iter().enumerate() {
            a.act(Action::Right, Instant::now());
            assert_eq!(a.mode, Mode::Rules(i + 1));
            a.act(Action::End, Instant::now());
            for (w, h) in [(80u16, 24u16), (160, 48)] {
                a.area = ratatui::layout::Rect::new(0, 0, w, h);
                let got = screen(&a, w, h, Instant::now());
                let text = got.join("\n");
                assert!(text.contains(&a.cat.t("example_keys")), "{code} {w}x{h} {}:\n{text}", ex.id);
                // The explanation's last word is on screen (not cut off below).
                let expl = a.cat.t(&format!("example_{}", ex.id));
                let last = expl.split_whitespace().last().unwrap();
                assert!(text.contains(last), "{code} {w}x{h} {}: {last}\n{text}", ex.id);
                for hole in ex.captured_holes {
                    let t = hole_text(&a, &got, hole, false);
                    let lines: Vec<&str> = t.lines().collect();
                    let inner = &lines[1..lines.len() - 1];
                    let n: String = inner.concat().chars().filter(char::is_ascii_digit).collect();
                    assert_eq!(n, "0", "{code} {}: {hole}\n{t}", ex.id);
                }
            }
        }
        // The board of the game's player to move is unaffected by the examples.
        assert_eq!(a.game.position().to_move(), Player::B);
    }
}

/// The start menu says what the levels mean in every language: the scale beside the number, and
/// the chosen level's meaning under it; both whole inside the menu at 80x24.
#[test]
fn the_menu_says_what_the_levels_mean() {
    for (code, _) in LANGS {
        for n in [1u8, 6, 10] {
            let s = setup(Opponent::Computer(Level::new(n).unwrap()), None);
            let a = App::new(Catalog::new(code).unwrap(), s, true, false);
            let got = screen(&a, 80, 24, Instant::now());
            let text = got.join("\n");
            let scale = a.cat.t("level_scale");
            let row = got.iter().find(|l| l.contains(&scale)).unwrap_or_else(|| panic!("{code}:\n{text}"));
            assert!(row.contains(&format!("◀ {n} ▶")), "{code}: {row}");
            let meaning = super::render::level_text(&a.cat, n);
            assert!(text.contains(&meaning), "{code} {n}: {meaning}\n{text}");
        }
    }
}

/// A level's meaning takes its depth from the engine's settings, in the plural form the number
/// asks for: one move at level 1, and Russian's three forms.
#[test]
fn the_levels_meaning_agrees_with_its_depth() {
    let en = Catalog::new("en").unwrap();
    assert_eq!(super::render::level_text(&en, 1), "Looks 1 move ahead; chance plays a part.");
    assert_eq!(super::render::level_text(&en, 3), "Looks 3 moves ahead; chance plays a part.");
    assert_eq!(super::render::level_text(&en, 6), "Looks 8 moves ahead; plays the best it sees.");
    assert_eq!(super::render::level_text(&en, 10), en.t("level_max"));
    let ru = Catalog::new("ru").unwrap();
    let [one, few, many] = [1, 3, 5].map(|n| super::render::level_text(&ru, n));
    assert!(
        one.contains("1 ход ") && few.contains("3 хода ") && many.contains("6 ходов "),
        "{one} / {few} / {many}"
    );
}
