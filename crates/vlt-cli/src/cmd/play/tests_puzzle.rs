//! Tests of the puzzle mode (`vlt play --puzzles`): answers judged by the puzzle's values, the
//! solution after a wrong one, the rating moved, filters, drawn on ratatui's `TestBackend`.

use super::puzzle::{Answer, Puzzles};
use super::puzzle_view::draw;
use crate::cmd::learn::rating::RatingFile;
use crate::i18n::Catalog;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use vlt_learn::{Difficulty, Theme, shipped};

fn screen(z: &Puzzles, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| draw(f, z)).unwrap();
    let buf = t.backend().buffer().clone();
    (0..h)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol().to_string()).collect::<String>().trim_end().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

fn press(z: &mut Puzzles, c: KeyCode) {
    z.key(KeyEvent::new(c, KeyModifiers::NONE));
}

fn mode(lang: &str, first: usize) -> Puzzles {
    Puzzles::new(
        Catalog::new(lang).unwrap(),
        shipped::set().clone(),
        (None, None),
        RatingFile::in_memory(),
        Some(first),
    )
    .unwrap()
}

/// The key of the mover's hole of `mv`: its number.
fn digit(mv: vlt_core::Move) -> KeyCode {
    KeyCode::Char(char::from(b'0' + mv.hole().number()))
}

/// The text with the screen's line breaks taken out (a message may wrap).
fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_right_move_is_praised_and_the_rating_rises() {
    let mut z = mode("en", 0);
    let p = z.puzzle().clone();
    let t = screen(&z, 80, 24);
    assert!(t.contains("Puzzle 1 of"), "{t}");
    assert!(flat(&t).contains(&flat(&crate::cmd::puzzles::solve::task(&z.cat, &p))), "{t}");
    press(&mut z, digit(p.best));
    assert_eq!(z.answer, Answer::Right(p.best));
    assert!(z.rating.shown().0 > 1500);
    let t = flat(&screen(&z, 80, 24));
    assert!(t.contains(&format!("Right: {} is the one best move.", p.best)), "{t}");
    assert!(t.contains("Solution:") && t.contains("Every move"), "{t}");
    // A second answer is refused; n shows another puzzle, unanswered.
    press(&mut z, digit(p.best));
    assert!(z.message.contains("answered"), "{}", z.message);
    press(&mut z, KeyCode::Char('n'));
    assert_ne!(z.current, 0);
    assert_eq!(z.answer, Answer::Open);
}

#[test]
fn a_wrong_move_shows_how_much_it_gives_away_and_the_solution() {
    let mut z = mode("en", 0);
    let p = z.puzzle().clone();
    let (wrong, v) = p.move_values().into_iter().find(|m| m.0 != p.best).unwrap();
    // Arrow keys to the wrong hole, then Enter.
    z.cursor = wrong.hole();
    press(&mut z, KeyCode::Enter);
    assert_eq!(z.answer, Answer::Wrong { mv: wrong, value: v });
    assert!(z.rating.shown().0 < 1500);
    let t = flat(&screen(&z, 80, 24));
    assert!(t.contains(&format!("Not the best: after {wrong}")), "{t}");
    let line: Vec<String> = p.line.iter().map(ToString::to_string).collect();
    assert!(t.contains(&format!("Solution: {}. Best play goes on: {}", p.best, line.join(" "))), "{t}");
}

#[test]
fn filters_step_through_themes_and_difficulties_and_skip_empty_ones() {
    let mut z = mode("de", 0);
    press(&mut z, KeyCode::Char('t'));
    assert_eq!(z.rating.shown(), (1500, 350), "a filter is no answer");
    assert_eq!(z.theme, Some(Theme::Chain));
    assert!(z.puzzle().themes.contains(Theme::Chain));
    press(&mut z, KeyCode::Char('d'));
    assert_eq!(z.difficulty, Some(Difficulty::Easy));
    assert!(z.picked.iter().all(|&i| {
        let p = &z.set.puzzles[i];
        p.themes.contains(Theme::Chain) && p.difficulty() == Difficulty::Easy
    }));
    assert!(z.picked.contains(&z.current));
    // Every theme the set has is reached (one without puzzles skipped), and back to any.
    let mut seen = vec![Theme::Chain];
    for _ in 0..Theme::ALL.len() {
        press(&mut z, KeyCode::Char('t'));
        match z.theme {
            Some(t) => seen.push(t),
            None => break,
        }
    }
    assert_eq!(z.theme, None, "{:?}", z.message);
    let has =
        |t: Theme| z.set.puzzles.iter().any(|p| p.themes.contains(t) && p.difficulty() == Difficulty::Easy);
    assert_eq!(seen, Theme::ALL.into_iter().filter(|&t| has(t)).collect::<Vec<_>>());
    let t = screen(&z, 80, 24);
    assert!(t.contains("Aufgabe") && t.contains("leicht"), "{t}");
    // Below 80×24 the window asks to be enlarged.
    assert!(screen(&z, 60, 20).contains("60×20"));
}
