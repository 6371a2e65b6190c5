//! End to end: the real `vlt play` binary in a pseudo-terminal of 80x24 (the harness in
//! `common::pty`), a whole game against level 1 played by key presses, the final screen checked,
//! and the terminal restored on quit.

mod common;

use common::pty::{Vlt, spawn};
use portable_pty::PtySize;
use std::io::Write;
use std::time::Duration;

/// The real `vlt` with `args`, its settings in a temporary folder of its own (none of the
/// user's), removed when the returned folder is dropped.
fn start(args: &[&str]) -> (Vlt, tempfile::TempDir) {
    let config = tempfile::Builder::new().prefix("vlt-pty-config-").tempdir().unwrap();
    (start_with(args, config.path()), config)
}

/// The real `vlt` with `args`, its settings under `config` (as `XDG_CONFIG_HOME`), at 80x24.
fn start_with(args: &[&str], config: &std::path::Path) -> Vlt {
    start_sized(args, config, 24, 80)
}

/// The real `vlt` with `args` in a pseudo-terminal of `rows` by `cols`.
fn start_sized(args: &[&str], config: &std::path::Path, rows: u16, cols: u16) -> Vlt {
    spawn(args, &[("XDG_CONFIG_HOME", config.as_os_str())], rows, cols)
}

#[test]
fn a_whole_game_by_key_presses_in_a_pty() {
    // A position with six stones keeps the game short; animation on, as a player would see it.
    let (Vlt { mut child, master: _master, mut keys, screen }, _config) = start(&[
        "play",
        "--lang",
        "en",
        "--level",
        "1",
        "--seed",
        "5",
        "--position",
        "0,0,0,1,0,2/1,0,0,0,2,0 B 24 30",
    ]);
    let mut send = |s: &str| {
        keys.write_all(s.as_bytes()).unwrap();
        keys.flush().unwrap();
    };

    // The start menu, then Enter starts the game.
    screen.wait(20, "the start menu", |t| t.contains("New game") && t.contains("Start"));
    send("\r");
    screen.wait(10, "the board", |t| t.contains("You (B) to move: 1–6"));
    let t = screen.text();
    assert!(t.contains("1A") && t.contains("6B") && t.contains("Moves"), "{t}");

    // Play: on each turn press the digits 1..6 of our holes; empty ones are explained.
    let mut presses = 0;
    loop {
        let t = screen
            .wait(30, "our turn or the end", |t| t.contains("You (B) to move") || t.contains("Game over"));
        if t.contains("Game over") {
            break;
        }
        let d = (presses % 6) + 1;
        send(&d.to_string());
        presses += 1;
        assert!(presses < 200, "the game should have ended:\n{t}");
        // Let the move (or the explanation) show before looking again.
        std::thread::sleep(Duration::from_millis(150));
    }
    let end = screen.text();
    // The end screen: the verdict for the user, the score, how it ended, what next.
    assert!(end.contains("Game over. n: new game"), "{end}");
    assert!(["You won", "You lost", "Draw"].iter().any(|v| end.contains(v)), "{end}");
    assert!(end.contains("n new game · p replay · s save · q quit"), "{end}");
    let emptied = end.contains("The board is empty");
    assert!(emptied || end.contains("third time"), "{end}");
    assert!(end.contains("  1. "), "the move list shows the game: {end}");
    // The score line "B x – y A": all sixty stones once the board is empty (R6).
    let line = end.lines().find(|l| l.contains(" – ") && l.contains("║")).expect("a score line");
    let inside = line.split('║').nth(1).expect("inside the box");
    let counts: Vec<u32> = inside.split([' ', '–', 'A', 'B']).filter_map(|c| c.parse().ok()).collect();
    assert_eq!(counts.len(), 2, "{line}");
    if emptied {
        assert_eq!(counts[0] + counts[1], 60, "{end}");
    }

    // q quits; the alternate screen is left and the result printed on the normal screen.
    send("q");
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let after = screen.wait(5, "the normal screen", |t| !t.contains("Moves"));
    assert!(after.contains("wins") || after.contains("Draw"), "{after}");
    assert!(!screen.parser.lock().unwrap().screen().alternate_screen());
}

/// A mouse click on a hole plays it, and a resize redraws the screen: too small, it asks for
/// 80x24; large again, the game is back as it was.
#[test]
fn a_click_plays_and_a_resize_redraws() {
    let (Vlt { mut child, master, mut keys, screen }, _config) =
        start(&["play", "--lang", "en", "--opponent", "human", "--no-menu", "--no-animation"]);
    screen.wait(20, "the board", |t| t.contains("Player B to move"));
    // 3B's box is the fourth of B's row (6B 5B 4B 3B ...): columns 32-38, rows 7-11 (0-based).
    // An SGR mouse press and release at column 35, row 9 (1-based in the sequence: 35, 10).
    keys.write_all(b"\x1b[<0;35;10M\x1b[<0;35;10m").unwrap();
    keys.flush().unwrap();
    // Both in one frame (a frame may be read half drawn).
    let t = screen.wait(10, "the click's move", |t| t.contains("1. 3B") && t.contains("Player B sowed 3B"));
    assert!(t.contains("Player A to move"), "{t}");

    // The screen model takes the new size before the program learns of it (SIGWINCH), so its
    // redraw for the new size never lands on a screen of the old one.
    screen.parser.lock().unwrap().set_size(20, 60);
    master.resize(PtySize { rows: 20, cols: 60, pixel_width: 0, pixel_height: 0 }).unwrap();
    screen.wait(10, "the too-small notice", |t| t.contains("needs at least 80×24"));
    screen.parser.lock().unwrap().set_size(30, 100);
    master.resize(PtySize { rows: 30, cols: 100, pixel_width: 0, pixel_height: 0 }).unwrap();
    let t = screen.wait(10, "the game again", |t| t.contains("Player A to move") && t.contains("1. 3B"));
    assert!(!t.contains("needs at least"), "{t}");

    keys.write_all(b"\x03").unwrap(); // Ctrl-C
    keys.flush().unwrap();
    assert!(child.wait().unwrap().success());
}

/// SIGTERM from outside ends the game cleanly: exit status 0 and the normal screen back.
#[test]
fn sigterm_restores_the_terminal() {
    let (Vlt { mut child, master: _master, keys: _keys, screen }, _config) =
        start(&["play", "--lang", "en", "--no-menu", "--opponent", "human"]);
    screen.wait(20, "the board", |t| t.contains("Player B to move"));
    assert!(screen.parser.lock().unwrap().screen().alternate_screen());
    let pid = child.process_id().expect("a pid").to_string();
    let killed = std::process::Command::new("kill").args(["-TERM", &pid]).status().expect("kill runs");
    assert!(killed.success());
    assert!(child.wait().unwrap().success());
    screen.wait(5, "the normal screen", |_| !screen.parser.lock().unwrap().screen().alternate_screen());
}

/// The settings screen (o) changes the language and the evaluation bar at once; they are written
/// to the configuration folder, and the next run starts with them; a flag still wins.
#[test]
fn settings_are_changed_in_the_program_and_remembered() {
    let config_tmp = tempfile::Builder::new().prefix("vlt-pty-settings-").tempdir().unwrap();
    let config = config_tmp.path().to_path_buf();
    let Vlt { mut child, master: _master, mut keys, screen } =
        start_with(&["play", "--opponent", "human", "--no-menu"], &config);
    let mut send = |s: &str| {
        keys.write_all(s.as_bytes()).unwrap();
        keys.flush().unwrap();
    };
    screen.wait(20, "the board", |t| t.contains("Player B to move"));
    send("o");
    screen.wait(10, "the settings", |t| t.contains("Settings") && t.contains("◀ English ▶"));
    // Right arrow: Spanish at once; down twice and Enter: the evaluation bar.
    send("\x1b[C");
    screen.wait(10, "Spanish", |t| t.contains("Ajustes") && t.contains("◀ Español ▶"));
    send("\x1b[B\x1b[B\r");
    screen.wait(10, "the bar on", |t| t.contains("◀ sí ▶"));
    send("\x1b");
    screen.wait(10, "the game in Spanish", |t| t.contains("Jugadas") && !t.contains("Ajustes"));
    send("q");
    assert!(child.wait().unwrap().success());
    let file = std::fs::read_to_string(config.join("vlt").join("play.json")).expect("the settings file");
    assert!(file.contains("\"es\"") && file.contains("\"eval\": true"), "{file}");

    // The next run is in Spanish with the bar shown; --lang wins over the stored language.
    let Vlt { mut child, master: _master, mut keys, screen } =
        start_with(&["play", "--opponent", "human", "--no-menu"], &config);
    screen.wait(20, "Spanish again, with the bar", |t| {
        t.contains("Jugadas") && t.contains("Resultado final previsto")
    });
    keys.write_all(b"q").unwrap();
    keys.flush().unwrap();
    assert!(child.wait().unwrap().success());
    let Vlt { mut child, master: _master, mut keys, screen } =
        start_with(&["play", "--opponent", "human", "--no-menu", "--lang", "de"], &config);
    screen.wait(20, "German by the flag", |t| t.contains("Züge"));
    keys.write_all(b"q").unwrap();
    keys.flush().unwrap();
    assert!(child.wait().unwrap().success());
}

/// At 160x48 the rules' first worked example is on the board, 15-column holes and all: a step at
/// a time with the down arrow (the stones lifted, then sown), played through with Enter to the
/// position after the capture.
#[test]
fn a_worked_example_steps_on_a_large_board() {
    let dir_tmp = tempfile::Builder::new().prefix("vlt-pty-example-").tempdir().unwrap();
    let dir = dir_tmp.path().to_path_buf();
    let Vlt { mut child, master: _master, mut keys, screen } =
        start_sized(&["play", "--lang", "en", "--opponent", "human", "--no-menu"], &dir, 48, 160);
    let mut send = |s: &str| {
        keys.write_all(s.as_bytes()).unwrap();
        keys.flush().unwrap();
    };
    screen.wait(20, "the board", |t| t.contains("Player B to move"));
    // The large scale: a hole's top border is 15 columns (the label inside it).
    let t = screen.text();
    assert!(t.contains("┌─────1A──────┐"), "{t}");
    send("?");
    screen.wait(10, "the rules", |t| t.contains("Rules (1/4)"));
    send("\x1b[C");
    let t = screen.wait(10, "the first example", |t| t.contains("Example 1/3: 1B sows 7 stones"));
    assert!(t.contains("╔═════1B══════╗") && t.contains("0/13"), "{t}");
    send("\x1b[B");
    screen.wait(10, "the stones lifted", |t| t.contains("1/13") && t.contains("in hand: 7"));
    send("\x1b[B");
    screen.wait(10, "the first stone sown", |t| t.contains("2/13") && t.contains("in hand: 6"));
    send("\r");
    let t = screen.wait(20, "the move played through", |t| t.contains("13/13"));
    assert!(t.contains("Captured 1: 2A.") && t.contains("B 15, A 14"), "{t}");
    send("\x1b");
    screen.wait(10, "back to the game", |t| t.contains("Player B to move") && !t.contains("Example"));
    send("q");
    assert!(child.wait().unwrap().success());
}

/// From the start menu, the analysis board and the puzzles open in place of the game, by keys and
/// by a click; each one's own leaving key (q, Esc) comes back to the menu as it was, and Ctrl-C
/// ends the program with the terminal restored.
#[test]
fn the_menu_opens_the_analysis_board_and_the_puzzles() {
    let home_tmp = tempfile::Builder::new().prefix("vlt-pty-menu-").tempdir().unwrap();
    let home = home_tmp.path().to_path_buf();
    // The puzzles keep the rating under HOME: a folder of the test's own.
    let env = [("XDG_CONFIG_HOME", home.as_os_str()), ("HOME", home.as_os_str())];
    let mut vlt = spawn(&["play", "--lang", "en"], &env, 24, 80);
    let menu =
        |t: &str| t.contains("New game") && t.contains("[ Analysis board ]") && t.contains("[ Puzzles ]");
    vlt.screen.wait(20, "the start menu", menu);
    vlt.send(b"\x1b[B\r"); // down from Start to the analysis board, Enter
    vlt.screen.wait(30, "the analysis board", |t| t.contains("Best line") && !t.contains("New game"));
    vlt.send(b"q");
    vlt.screen.wait(10, "the menu again", |t| menu(t) && !t.contains("Best line"));
    vlt.send(b"\x1b[B\r"); // the menu kept its row: down once more to the puzzles
    vlt.screen
        .wait(30, "a puzzle", |t| t.contains("Puzzle ") && t.contains("to move") && !t.contains("New game"));
    vlt.send(b"\x1b");
    let t = vlt.screen.wait(10, "the menu after Esc", |t| menu(t) && !t.contains("Puzzle "));
    // A click on the analysis board's button: an SGR press and release (1-based cell).
    let (y, line) = t.lines().enumerate().find(|(_, l)| l.contains("[ Analysis board ]")).unwrap();
    let x = line[..line.find("[ Analysis board ]").unwrap()].chars().count() + 3;
    vlt.send(format!("\x1b[<0;{};{}M\x1b[<0;{};{}m", x + 1, y + 1, x + 1, y + 1).as_bytes());
    vlt.screen.wait(30, "the board by a click", |t| t.contains("Best line") && !t.contains("New game"));
    vlt.send(b"\x03"); // Ctrl-C: the program ends, not only the mode
    assert!(vlt.wait_exit(10, "Ctrl-C").success());
    vlt.screen.wait_normal(10);
}
