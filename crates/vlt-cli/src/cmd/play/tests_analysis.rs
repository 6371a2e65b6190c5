//! Tests of the analysis mode (`vlt play --analyse`): keys change the position and the analysis
//! follows; drawn on ratatui's `TestBackend`.

use super::analysis::{Analysis, Tool};
use super::analysis_view::draw;
use crate::i18n::Catalog;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::sync::Arc;
use vlt_core::Position;
use vlt_tablebase::Tablebase;
use vlt_tablebase::build::build_in_memory;

fn screen(a: &Analysis, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| draw(f, a)).unwrap();
    let buf = t.backend().buffer().clone();
    (0..h)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol().to_string()).collect::<String>().trim_end().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

fn press(a: &mut Analysis, c: KeyCode) {
    a.key(KeyEvent::new(c, KeyModifiers::NONE));
}

fn en() -> Catalog {
    Catalog::new("en").unwrap()
}

#[test]
fn every_move_is_valued_and_the_tables_give_the_line_to_the_end() {
    let tb = Arc::new(Tablebase::from_layers(build_in_memory(8)));
    let start: Position = "1,0,2,0,1,0/0,3,0,0,1,0 B 26 26".parse().unwrap();
    let mut a = Analysis::new(en(), start, Some(Arc::clone(&tb)));
    a.wait();
    let s = a.shown.clone().expect("analysed");
    // The tables' values, move by move, best first.
    let mut table = tb.probe_moves(start).unwrap();
    table.sort_by_key(|m| -m.1);
    assert_eq!(
        s.moves.iter().map(|m| m.1).collect::<Vec<_>>(),
        table.iter().map(|m| m.1).collect::<Vec<_>>()
    );
    assert!(s.exact);
    let line = s.tables.as_ref().expect("inside the tables");
    assert_eq!(line.value, tb.probe(start).unwrap());
    let text = screen(&a, 80, 24);
    assert!(text.contains("Analysis board"), "{text}");
    let stones = if s.score.abs() == 1 { "stone" } else { "stones" };
    assert!(text.contains(&format!("B to move: {} {stones} from here on · exact", fmt(s.score))), "{text}");
    let moves = if line.moves.len() == 1 { "move" } else { "moves" };
    assert!(text.contains(&format!("{} {moves} to the end", line.moves.len())), "{text}");
    assert!(text.contains("Best line: "), "{text}");
    for (m, _) in &s.moves {
        assert!(text.contains(&m.to_string()), "{m} listed: {text}");
    }
    // A move by key: the position and the analysis follow; Backspace takes it back.
    press(&mut a, KeyCode::Char('3'));
    assert_eq!(a.position(), start.play("3B".parse().unwrap()).unwrap());
    a.wait();
    assert!(screen(&a, 80, 24).contains("A to move: "));
    press(&mut a, KeyCode::Backspace);
    assert_eq!(a.position(), start);
    // An empty hole is refused with a message, nothing played.
    press(&mut a, KeyCode::Char('2'));
    assert_eq!(a.position(), start);
    assert!(!a.message.is_empty());
}

fn fmt(n: i32) -> String {
    if n > 0 { format!("+{n}") } else { n.to_string() }
}

#[test]
fn set_up_and_paste_any_position() {
    let mut a = Analysis::new(en(), Position::START, None);
    press(&mut a, KeyCode::Char('e'));
    assert_eq!(a.tool, Tool::Setup);
    assert!(screen(&a, 80, 24).contains("Set up"));
    // An empty board, two stones in 1B, one in 3A (up from 4B is 3A), A to move, 5 captured by B.
    press(&mut a, KeyCode::Char('c'));
    a.cursor = "1B".parse().unwrap();
    press(&mut a, KeyCode::Char('+'));
    press(&mut a, KeyCode::Char('+'));
    press(&mut a, KeyCode::Right); // 1B is at the right end of B's row: it stays
    press(&mut a, KeyCode::Left);
    press(&mut a, KeyCode::Left);
    press(&mut a, KeyCode::Up);
    assert_eq!(a.cursor.to_string(), "4A");
    press(&mut a, KeyCode::Left);
    press(&mut a, KeyCode::Char('+'));
    press(&mut a, KeyCode::Char('t'));
    for _ in 0..5 {
        press(&mut a, KeyCode::Char('b'));
    }
    assert_eq!(a.position().to_string(), "2,0,0,0,0,0/0,0,1,0,0,0 A 5 0");
    press(&mut a, KeyCode::Enter);
    assert_eq!(a.tool, Tool::Play);
    a.wait();
    let s = a.shown.clone().unwrap();
    assert_eq!(s.moves.len(), 1);
    assert_eq!(s.moves[0].0.to_string(), "3A");
    // A position string typed in; a bad one is refused with the parser's reason.
    press(&mut a, KeyCode::Char('p'));
    for c in "1,2,3".chars() {
        press(&mut a, KeyCode::Char(c));
    }
    press(&mut a, KeyCode::Enter);
    assert!(a.message.contains("board") || a.message.contains("row"), "{}", a.message);
    assert!(matches!(a.tool, Tool::Paste(_)));
    press(&mut a, KeyCode::Esc);
    press(&mut a, KeyCode::Char('p'));
    for c in "2,1,0,3,0,1/1,0,2,0,1,1 B 24 24".chars() {
        press(&mut a, KeyCode::Char(c));
    }
    press(&mut a, KeyCode::Enter);
    assert_eq!(a.position().to_string(), "2,1,0,3,0,1/1,0,2,0,1,1 B 24 24");
    a.wait();
    assert_eq!(a.shown.as_ref().unwrap().moves.len(), 4);
    // Too many stones: the setup refuses and says why.
    press(&mut a, KeyCode::Char('e'));
    for _ in 0..60 {
        press(&mut a, KeyCode::Char('+'));
    }
    assert!(a.message.contains("60"), "{}", a.message);
    // The larger layouts draw too, in another language.
    let mut de = Analysis::new(Catalog::new("de").unwrap(), Position::START, None);
    de.wait();
    let text = screen(&de, 160, 48);
    assert!(text.contains("Analysebrett") && text.contains("Alle Züge"), "{text}");
    press(&mut de, KeyCode::Char('q'));
    assert!(de.quit);
}
