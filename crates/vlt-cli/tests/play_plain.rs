//! `vlt play --plain` driven through standard input with the built binary: moves, commands,
//! explained mistakes, a whole game from a small position, the end of input, and bad flags.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn vlt_plain(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_vlt"))
        .args(["play", "--plain"])
        .args(if args.contains(&"--lang") { &[][..] } else { &["--lang", "en"][..] })
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("vlt runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// The README's example: two moves against level 1, then a clean end at the end of input.
#[test]
fn two_moves_then_end_of_input() {
    let o = vlt_plain(&["--level", "1", "--seed", "7"], "3\n5\n");
    let out = stdout(&o);
    assert!(o.status.success(), "{out}\n{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("You (B) sowed 3B, stones: 5."), "{out}");
    assert_eq!(out.matches("Computer (A) sowed").count(), 2, "{out}");
    // The start board, R1 layout, A's store on the left and B's on the right.
    assert!(out.contains("          1A  2A  3A  4A  5A  6A\n  A  0 |   5   5   5   5   5   5 |\n"), "{out}");
    assert!(
        out.contains("       |   5   5   5   5   5   5 |  0 B\n          6B  5B  4B  3B  2B  1B"),
        "{out}"
    );
    assert!(out.trim_end().ends_with("End of input: the game stops here."), "{out}");
}

/// Mistakes are explained and the game goes on; commands work.
#[test]
fn mistakes_are_explained_and_commands_work() {
    let o = vlt_plain(
        &["--opponent", "human", "--position", "0,0,0,1,0,2/1,0,0,0,2,0 B 24 30"],
        "1\n5A\nbanana\nhelp\nmoves\n4\nhistory\nundo\nredo\nquit\n3\n",
    );
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("Hole 1B is empty: choose a hole with stones."), "{out}");
    assert!(out.contains("Hole 5A is in the other row: Player B plays from row B."), "{out}");
    assert!(out.contains("Not a move or command: banana."), "{out}");
    assert!(out.contains("Commands: board, moves, history, undo"), "{out}");
    assert!(out.contains("Player B sowed 4B, stones: 1."), "{out}");
    assert!(out.contains("Legal moves: 4B 6B (history lists the moves played)."), "{out}");
    assert!(out.contains("Moves: 4B"), "{out}");
    assert!(out.contains("Taken back: 0 moves remain."), "{out}");
    assert!(out.contains("Played again: 1 move."), "{out}");
    assert!(out.trim_end().ends_with("Goodbye."), "quit stops reading: {out}");
}

/// A whole game against level 1 from a position with six stones: the user tries 1-6 in turn (the
/// illegal tries are explained), the computer answers, and the result is announced (R6 or R7).
#[test]
fn a_whole_game_against_level_1() {
    let input = "1\n2\n3\n4\n5\n6\n".repeat(20);
    let o =
        vlt_plain(&["--level", "1", "--seed", "3", "--position", "0,0,0,1,0,2/1,0,0,0,2,0 B 24 30"], &input);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("The board is empty: game over.") || out.contains("third time: game over"),
        "the game ends: {out}"
    );
    assert!(out.contains(" wins ") || out.contains("Draw "), "{out}");
    assert!(out.contains("The game is over: press n"), "moves after the end are refused: {out}");
    assert!(out.trim_end().ends_with("End of input: the game stops here."), "{out}");
}

#[test]
fn other_languages() {
    let o = Command::new(env!("CARGO_BIN_EXE_vlt"))
        .args(["play", "--plain", "--opponent", "human"])
        .env("LC_ALL", "ru_RU.UTF-8")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let out = stdout(&o);
    assert!(o.status.success());
    assert!(out.contains("Конец ввода"), "{out}");
}

/// Bad flags: one line on stderr, exit status 2, no panic.
#[test]
fn bad_flags_exit_2_with_one_line() {
    for args in [
        &["--level", "11"][..],
        &["--lang", "fr"],
        &["--side", "C"],
        &["--opponent", "dog"],
        &["--position", "1,2,3/4 B 0 0"],
        &["--tablebase", "/nonexistent/vlt-tables"],
    ] {
        let o = vlt_plain(args, "");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("vlt: "), "{args:?}: {err}");
    }
}

/// Without a terminal the full-screen game refuses politely (and points to --plain).
#[test]
fn full_screen_needs_a_terminal() {
    let o = Command::new(env!("CARGO_BIN_EXE_vlt"))
        .args(["play", "--lang", "en"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--plain"));
}

/// `save FILE` writes a record; `--load FILE` goes on from it; a bad file is an input error.
#[test]
fn save_then_load_from_the_command_line() {
    let dir_tmp = tempfile::Builder::new().prefix("vlt-play-plain-").tempdir().unwrap();
    let dir = dir_tmp.path().to_path_buf();
    let file = dir.join("g.txt");
    let file = file.to_str().unwrap();
    let o = vlt_plain(&["--opponent", "human"], &format!("3\n1\nsave {file}\nquit\n"));
    assert!(stdout(&o).contains(&format!("Saved the game to {file}.")), "{}", stdout(&o));
    let o = vlt_plain(&["--opponent", "human", "--load", file], "history\n");
    let out = stdout(&o);
    assert!(out.contains("Moves: 3B 1A"), "{out}");
    assert!(out.contains("Player B to move."), "{out}");
    std::fs::write(dir.join("bad.txt"), "[Start \"nonsense\"]\n1. 3B *\n").unwrap();
    for bad in [dir.join("bad.txt"), dir.join("missing.txt")] {
        let o = vlt_plain(&["--load", bad.to_str().unwrap()], "");
        assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(String::from_utf8_lossy(&o.stderr).trim_end().lines().count(), 1);
    }
}

/// When the computer moves first (you play A, B starts: R2), it plays before the first prompt.
#[test]
fn the_computer_can_move_first() {
    let o = vlt_plain(&["--level", "2", "--side", "A", "--seed", "1"], "");
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    let first_move = out.find("Computer (B) sowed").expect("the computer moved");
    let prompt = out.find("You (A), your move:").expect("then the user is asked");
    assert!(first_move < prompt, "{out}");
}

/// With endgame tables the strongest computer plays a best move of the tables.
#[test]
fn with_tables_the_computer_plays_a_best_move() {
    let dir_tmp = tempfile::Builder::new().prefix("vlt-play-plain-tb-").tempdir().unwrap();
    let dir = dir_tmp.path().to_path_buf();
    let d = dir.to_str().unwrap();
    let vlt = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_vlt")).args(args).output().unwrap();
    assert!(vlt(&["tb", "build", "--max-stones", "12", "--dir", d]).status.success());
    let start = "1,2,0,3,0,1/2,0,2,0,1,0 A 24 24";
    let probe = vlt(&["tb", "probe", "--json", "--dir", d, start]);
    let v: serde_json::Value = serde_json::from_slice(&probe.stdout).unwrap();
    let best: Vec<String> = (v["moves"].as_array().unwrap().iter())
        .filter(|m| m["value"] == v["value"])
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect();
    let o = vlt_plain(&["--level", "10", "--position", start, "--tablebase", d], "");
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    let played = out.split("Computer (A) sowed ").nth(1).and_then(|r| r.get(..2)).unwrap_or("?");
    assert!(best.iter().any(|b| b == played), "{played} not among {best:?}: {out}");
}

/// Resigning before any capture says who wins by resignation, not a "0–0 win".
#[test]
fn resigning_at_once_reads_as_a_resignation() {
    let o = vlt_plain(&["--opponent", "human"], "resign\nquit\n");
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("Player B resigned. Player A wins (captures when it ended: 0–0, B–A)."), "{out}");
    assert!(!out.contains("wins 0–0"), "{out}");
}
