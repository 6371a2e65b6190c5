//! `vlt analyse` through the real binary: the JSON shape, the text output, bad input (exit 2).

use std::process::{Command, Output};

fn vlt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vlt")).args(args).output().expect("run vlt")
}

#[test]
fn json_has_every_field_and_consistent_values() {
    let pos = "7,2,3,1,4,2/3,0,4,2,1,3 B 14 14";
    let o = vlt(&["analyse", "--json", "--depth", "6", pos]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(out.lines().count(), 1, "one JSON object on one line");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in ["best", "score", "exact", "depth", "nodes", "nps", "pv", "moves"] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    assert_eq!(v["depth"], 6);
    assert!(v["exact"].is_boolean());
    assert!(v["nodes"].as_u64().unwrap() > 0);
    let best = v["best"].as_str().unwrap();
    let pv: Vec<&str> = v["pv"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert_eq!(pv[0], best);
    let moves = v["moves"].as_array().unwrap();
    // Every legal move of the position, once, best first with the position's score (B to move:
    // holes 1B..6B all hold stones).
    let mut names: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(names[0], best);
    assert_eq!(moves[0]["score"], v["score"]);
    let scores: Vec<i64> = moves.iter().map(|m| m["score"].as_i64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "best first: {scores:?}");
    names.sort_unstable();
    assert_eq!(names, ["1B", "2B", "3B", "4B", "5B", "6B"]);
}

#[test]
fn text_output_lists_moves_and_pv() {
    let o = vlt(&["analyse", "--nodes", "20000", "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0"]);
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("best "), "{out}");
    assert!(out.contains("pv "), "{out}");
    assert!(out.contains("nps"), "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("  ") && l.len() < 12).count(), 6, "{out}");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    for args in [
        vec!["analyse", "5,5,5/5 B 0 0"],
        vec!["analyse", "--depth", "0", "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0"],
        vec!["analyse", "--algorithm", "minimax", "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0"],
        vec!["analyse", "0,0,0,0,0,0/0,0,0,0,0,0 B 30 30"],
        vec!["analyse", "--tablebase", "/nonexistent/tb", "1,0,0,0,0,0/0,0,0,0,0,1 B 29 29"],
    ] {
        let o = vlt(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
    // Two limits at once are a usage error (clap also exits 2).
    let o = vlt(&["analyse", "--depth", "3", "--nodes", "10", "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0"]);
    assert_eq!(o.status.code(), Some(2));
}
