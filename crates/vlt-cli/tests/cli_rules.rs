//! The rules subcommands through the real binary: `show`, `moves`, `apply`, `perft`, `replay`,
//! `bench`, and bad input (one line on stderr, exit status 2, never a panic).

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn vlt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vlt")).args(args).output().expect("run vlt")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Bad input: exit 2, exactly one line on stderr that says what is wrong, no panic.
fn assert_input_error(args: &[&str], needle: &str) {
    let o = vlt(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line, got {err:?}");
    assert!(err.contains(needle), "{args:?}: {err:?} should mention {needle:?}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

/// `vlt apply --json` agrees with every vector of moves.jsonl, field for field.
#[test]
fn apply_json_matches_every_move_vector() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../vlt-core/tests/data/moves.jsonl");
    let text = std::fs::read_to_string(data).unwrap();
    let mut checked = 0;
    for (i, line) in text.lines().enumerate() {
        let want: serde_json::Value = serde_json::from_str(line).unwrap();
        let o = vlt(&["apply", "--json", want["position"].as_str().unwrap(), want["move"].as_str().unwrap()]);
        assert!(o.status.success(), "line {}: {}", i + 1, stderr(&o));
        let got: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert_eq!(got, want, "moves.jsonl line {}", i + 1);
        checked += 1;
    }
    assert_eq!(checked, 3000);
}

#[test]
fn apply_text_plays_moves_in_order() {
    let o = vlt(&["apply", "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0", "3", "2A"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 2);
    assert!(out.lines().last().unwrap().contains("6,6,0,6,6,6/6,0,6,6,6,6 B 0 0"), "{out}");
    let o = vlt(&["apply", "1,5,0,0,0,0/0,2,1,3,0,2 B 22 24", "2B"]);
    assert!(stdout(&o).contains("captured 5 (1A 6B 5B 4B 3B)"), "{}", stdout(&o));
}

#[test]
fn show_and_moves() {
    let o = vlt(&["show", "1,0,1,1,1,1/6,0,2,0,0,1 A 21 25"]);
    let out = stdout(&o);
    assert!(o.status.success());
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].contains("1A  2A  3A  4A  5A  6A"), "{out}");
    assert!(lines[2].contains("A 25 |   6   0   2   0   0   1 |"), "{out}");
    assert!(lines[3].contains("|   1   1   1   1   0   1 | 21 B"), "{out}");
    assert!(lines[5].contains("6B  5B  4B  3B  2B  1B"), "{out}");
    assert!(out.contains("A to move"));
    let o = vlt(&["moves", "1,0,1,1,1,1/6,0,2,0,0,1 A 21 25"]);
    assert_eq!(stdout(&o).trim(), "1A 3A 6A");
}

#[test]
fn perft_prints_the_count_last() {
    let o = vlt(&["perft", "5"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().last(), Some("5454"));
    let o = vlt(&["perft", "4", "2,0,0,13,1,2/3,3,3,3,3,3 B 12 12"]);
    assert_eq!(stdout(&o).trim(), "474");
}

#[test]
fn replay_validates_a_record() {
    let dir_tmp = tempfile::Builder::new().prefix("vlt-cli-test-").tempdir().unwrap();
    let dir = dir_tmp.path().to_path_buf();
    let good = dir.join("good.vlt");
    std::fs::write(&good, "[Event \"t\"]\n[Result \"*\"]\n\n1. 3B 2. 2A *\n").unwrap();
    let o = vlt(&["replay", good.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("2. 2A  6,6,0,6,6,6/6,0,6,6,6,6 B 0 0"), "{}", stdout(&o));
    let bad = dir.join("bad.vlt");
    std::fs::write(&bad, "1. 3B 2. 2A 3. 2A\n").unwrap();
    assert_input_error(&["replay", bad.to_str().unwrap()], "move 3 (2A)");
    assert_input_error(&["replay", dir.join("missing.vlt").to_str().unwrap()], "missing.vlt");
    // Several files: each one named, the first wrong one ends the replay with its name.
    let (g, b) = (good.to_str().unwrap(), bad.to_str().unwrap());
    let o = vlt(&["replay", g, g]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).matches(&format!("File: {g}\n")).count(), 2, "{}", stdout(&o));
    assert_eq!(stdout(&o).matches("result: unfinished").count(), 2, "{}", stdout(&o));
    assert_input_error(&["replay", g, b, g], "bad.vlt: record: move 3 (2A)");
    // Standard input.
    let mut child = Command::new(env!("CARGO_BIN_EXE_vlt"))
        .args(["replay", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"3B 2A").unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
}

#[test]
fn bad_input_exits_2_with_one_line() {
    assert_input_error(&["show", "5,5,5,5,5/5,5,5,5,5,5 B 0 0"], "row B: expected 6 counts, found 5");
    assert_input_error(&["moves", "5,5,5,5,5,5/5,5,5,5,5,5 X 0 0"], "player to move");
    assert_input_error(&["apply", "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0", "1A"], "B is to move");
    assert_input_error(&["apply", "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0", "9"], "not a hole");
    assert_input_error(&["apply", "0,0,0,0,0,0/0,0,0,0,0,0 B 30 30", "1B"], "game is over");
    assert_input_error(&["apply", "0,0,0,0,1,0/0,0,0,0,0,0 B 56 3", "5B", "1A"], "game is over");
    assert_input_error(&["perft", "3", "5,5,5,5,5,5/5,5,5,5,5,5 B 0 9"], "69 stones");
    // clap's own usage errors are status 2 as well.
    assert_eq!(vlt(&["apply"]).status.code(), Some(2));
    assert_eq!(vlt(&["no-such-command"]).status.code(), Some(2));
}

#[test]
fn bench_json_has_the_figures() {
    let o = vlt(&["bench", "--json", "--seconds", "0.2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).lines().last().unwrap()).unwrap();
    assert!(v["playout_moves_per_sec"].as_f64().unwrap() > 0.0);
    assert!(v["perft8_ms"].as_f64().unwrap() > 0.0);
    assert_eq!(v["perft8_nodes"], 835_629);
}
