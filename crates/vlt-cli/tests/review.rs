//! `vlt review` through the real binary: the JSON shape, the text table, tables, bad input (exit 2).

use std::path::PathBuf;
use std::process::{Command, Output};

fn vlt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vlt")).args(args).output().expect("run vlt")
}

fn example() -> String {
    format!("{}/../../docs/examples/game.vlt", env!("CARGO_MANIFEST_DIR"))
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("vlt-review-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn json_judges_every_move_and_sums_up_each_player() {
    let lines = json_lines(&vlt(&["review", "--json", "--depth", "3", &example()]));
    let (summary, moves) = lines.split_last().unwrap();
    assert_eq!(moves.len(), 101, "the example game has 101 moves");
    assert_eq!(summary["moves"], 101);
    for (i, m) in moves.iter().enumerate() {
        for key in ["ply", "move", "best", "played_value", "best_value", "loss", "exact", "class", "player"] {
            assert!(m.get(key).is_some(), "missing {key}: {m}");
        }
        assert_eq!(m["ply"], i + 1);
        let (played, best, loss) = (
            m["played_value"].as_i64().unwrap(),
            m["best_value"].as_i64().unwrap(),
            m["loss"].as_i64().unwrap(),
        );
        assert_eq!(loss, best - played);
        assert!(loss >= 0);
        let class = m["class"].as_str().unwrap();
        let expected = match loss {
            0 => "best",
            1..=2 => "good",
            3..=4 => "inaccuracy",
            5..=8 => "mistake",
            _ => "blunder",
        };
        assert_eq!(class, expected, "{m}");
        if loss == 0 {
            assert_eq!(m["best"], m["move"]);
        }
    }
    let mut total = 0;
    for p in ["B", "A"] {
        let s = &summary["summary"][p];
        let n = moves.iter().filter(|m| m["player"] == p).count() as u64;
        assert_eq!(s["moves"].as_u64().unwrap(), n);
        let counts: u64 = ["best", "good", "inaccuracy", "mistake", "blunder"]
            .iter()
            .map(|c| s["counts"][c].as_u64().unwrap())
            .sum();
        assert_eq!(counts, n);
        let acc = s["accuracy"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&acc));
        total += n;
    }
    assert_eq!(total, 101);
}

#[test]
fn tables_make_the_endgame_exact() {
    let dir = temp("tb");
    let o = vlt(&["tb", "build", "--max-stones", "8", "--dir", dir.to_str().unwrap(), "--threads", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // A study game from 8 stones: every position is inside the tables.
    let record = dir.join("study.vlt");
    std::fs::write(&record, "[Start \"1,0,2,0,1,0/0,3,0,0,1,0 B 26 26\"]\n\n1. 3B 2. 2A 3. 5B *\n").unwrap();
    let lines = json_lines(&vlt(&[
        "review",
        "--json",
        "--tablebase",
        dir.to_str().unwrap(),
        record.to_str().unwrap(),
    ]));
    assert_eq!(lines.len(), 4);
    for m in &lines[..3] {
        assert_eq!(m["exact"], true, "{m}");
        // The tables' values of the position and of the played move are the review's.
        let o = vlt(&["tb", "probe", "--json", "--dir", dir.to_str().unwrap(), &position_before(&record, m)]);
        let p = &json_lines(&o)[0];
        assert_eq!(p["value"], m["best_value"], "{p} vs {m}");
        let played = p["moves"].as_array().unwrap().iter().find(|x| x["move"] == m["move"]).unwrap();
        assert_eq!(played["value"], m["played_value"], "{p} vs {m}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The position before move `m` of the record, from `vlt replay`.
fn position_before(record: &std::path::Path, m: &serde_json::Value) -> String {
    let o = vlt(&["replay", record.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    let ply = m["ply"].as_u64().unwrap() as usize;
    if ply == 1 {
        text.lines().find_map(|l| l.strip_prefix("start: ")).unwrap().to_string()
    } else {
        let l = text.lines().find(|l| l.trim_start().starts_with(&format!("{}.", ply - 1))).unwrap();
        // `  N. MOVE  BOARD P B A  [captured ...]`
        l.split_whitespace().skip(2).take(4).collect::<Vec<_>>().join(" ")
    }
}

#[test]
fn text_lists_moves_classes_and_summaries() {
    let o = vlt(&["review", "--depth", "2", &example()]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.starts_with("Game 1: 101 moves\n"), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.trim_start().chars().next().is_some_and(|c| c.is_ascii_digit())).count(),
        101
    );
    assert!(text.contains("\nB: accuracy ") && text.contains("\nA: accuracy "), "{text}");
    assert!(text.contains("result: "), "{text}");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let dir = temp("bad");
    let bad = dir.join("bad.vlt");
    std::fs::write(&bad, "1. 3B 2. 3B *\n").unwrap();
    let empty = dir.join("empty.vlt");
    std::fs::write(&empty, "").unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["review".into(), dir.join("missing.vlt").to_string_lossy().into()], "missing.vlt"),
        (vec!["review".into(), bad.to_string_lossy().into()], "move 2"),
        (vec!["review".into(), empty.to_string_lossy().into()], "no game found"),
        (
            vec!["review".into(), "--tablebase".into(), dir.join("none").to_string_lossy().into(), example()],
            "--tablebase",
        ),
        (vec!["review".into(), "--depth".into(), "0".into(), example()], "--depth"),
        (
            vec!["review".into(), "--depth".into(), "3".into(), "--time-ms".into(), "10".into(), example()],
            "cannot be used",
        ),
        (vec!["review".into()], "FILE"),
    ];
    for (args, needle) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = vlt(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
        assert!(err.starts_with("vlt: ") && err.contains(needle), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}: nothing on stdout");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
