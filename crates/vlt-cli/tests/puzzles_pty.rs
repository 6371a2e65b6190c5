//! End to end: `vlt play --puzzles` in a pseudo-terminal of 80x24 (portable-pty, screen read with
//! vt100): a right answer is praised and rated, a wrong one shows the solution, the rating file
//! keeps both attempts, q leaves with the terminal restored; bad options refuse in one line.

mod common;

use common::pty::spawn;
use std::ffi::OsStr;
use std::process::Command;

/// The text with line breaks and runs of spaces taken out (messages wrap on the screen).
fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `vlt puzzles list` with the same filters: each puzzle's number, best move and the digits of
/// the mover's holes that hold stones.
fn listed(args: &[&str]) -> Vec<(usize, String, Vec<char>)> {
    let o = Command::new(env!("CARGO_BIN_EXE_vlt")).args(["puzzles", "list"]).args(args).output().unwrap();
    assert!(o.status.success());
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            // number rating difficulty value "gap" gap themes board mover captures "best" move
            let rows: Vec<Vec<u8>> =
                f[7].split('/').map(|r| r.split(',').map(|c| c.parse().unwrap()).collect()).collect();
            let row = &rows[usize::from(f[8] == "A")];
            let legal = (0..6).filter(|&i| row[i] > 0).map(|i| char::from(b'1' + i as u8)).collect();
            (f[0].parse().unwrap(), f[f.len() - 1].to_string(), legal)
        })
        .collect()
}

#[test]
fn a_right_and_a_wrong_answer_in_a_terminal() {
    let dir_tmp = tempfile::Builder::new().prefix("vlt-pz-pty-").tempdir().unwrap();
    let dir = dir_tmp.path().to_path_buf();
    let rating = dir.join("rating.json");
    let _ = std::fs::remove_file(&rating);
    let filters = ["--theme", "chain", "--difficulty", "easy"];
    let mut args: Vec<&OsStr> =
        ["play", "--puzzles", "--lang", "en", "--rating-file"].map(OsStr::new).to_vec();
    args.push(rating.as_os_str());
    args.extend(filters.map(OsStr::new));
    let mut vlt = spawn(&args, &[], 24, 80);
    let list = listed(&filters);
    let number = |t: &str| -> usize {
        let at = t.find("Puzzle ").expect("a heading") + 7;
        t[at..].split_whitespace().next().unwrap().parse().unwrap()
    };
    // The first puzzle: answered right, by its hole's digit.
    let t = vlt.screen.wait(30, "a puzzle", |t| t.contains("Puzzle ") && t.contains("to move"));
    let n = number(&t);
    let (_, best, _) = list.iter().find(|p| p.0 == n).expect("a listed puzzle").clone();
    assert!(flat(&t).contains("Your puzzle rating: 1500 ± 350"), "{t}");
    vlt.send(&best.as_bytes()[..1]);
    let t = vlt
        .screen
        .wait(30, "the praise", |t| flat(t).contains(&format!("Right: {best} is the one best move.")));
    assert!(flat(&t).contains(&format!("Solution: {best}.")), "{t}");
    assert!(!flat(&t).contains("rating: 1500 ± 350"), "the rating moved:\n{t}");
    // The next puzzle: answered with another move, which shows the solution.
    vlt.send(b"n");
    let t = vlt.screen.wait(30, "the next puzzle", |t| t.contains("Puzzle ") && number(t) != n);
    let m = number(&t);
    let (_, best2, legal) = list.iter().find(|p| p.0 == m).expect("a listed puzzle").clone();
    let wrong = legal.into_iter().find(|&d| !best2.starts_with(d)).expect("two moves at least");
    vlt.send(wrong.to_string().as_bytes());
    let t = vlt.screen.wait(30, "the wrong verdict", |t| flat(t).contains("Not the best"));
    assert!(flat(&t).contains(&format!("Solution: {best2}.")), "{t}");
    vlt.send(b"q");
    let status = vlt.wait_exit(10, "q");
    assert!(status.success());
    vlt.screen.wait_normal(10);
    // Both attempts are kept, the first solved and the second not, as `vlt puzzles` keeps them.
    let stored: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rating).unwrap()).unwrap();
    let tried = stored["tried"].as_array().unwrap();
    assert_eq!(tried.len(), 2, "{stored}");
    assert_eq!(tried[0], serde_json::json!([n - 1, true]));
    assert_eq!(tried[1], serde_json::json!([m - 1, false]));
}

#[test]
fn bad_puzzle_options_refuse_in_one_line() {
    for args in [
        &["play", "--puzzles"][..],
        &["play", "--puzzles", "--theme", "nope"],
        &["play", "--theme", "chain"],
        &["play", "--puzzles", "--analyse"],
        &["play", "--puzzles", "--file", "/nonexistent/puzzles.vltp"],
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_vlt")).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}
