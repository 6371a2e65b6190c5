//! `vlt solve --at-least T` through the real binary: the answer agrees with the exact value, the
//! JSON shape, and bad combinations are usage errors (exit 2).

use std::process::{Command, Output};

fn vlt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vlt")).args(args).output().expect("run vlt")
}

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_str(&String::from_utf8_lossy(&o.stdout)).expect("one JSON object")
}

/// 20 stones over the 8-stone tables built in memory: value −4 for B (R1–R7).
const POS: &str = "0,1,2,0,1,0/2,0,1,3,0,2 B 20 18";

#[test]
fn the_answer_brackets_the_value() {
    let value = json(&vlt(&["solve", "--json", POS]))["value"].as_i64().expect("value");
    assert_eq!(value, -4);
    for (t, holds) in [("-6", true), ("-4", true), ("-3", false), ("1", false), ("21", false), ("-20", true)]
    {
        let v = json(&vlt(&["solve", "--json", "--at-least", t, POS]));
        assert_eq!(v["holds"], holds, "--at-least {t}: {v}");
        assert_eq!(v["at_least"].to_string(), t);
        for key in ["nodes", "nested_nodes", "tests", "seconds"] {
            assert!(v.get(key).is_some(), "missing {key}: {v}");
        }
    }
    // Beyond the stones on the board the answer needs no search.
    assert_eq!(json(&vlt(&["solve", "--json", "--at-least", "21", POS]))["nodes"], 0);
}

#[test]
fn text_names_the_player_and_the_threshold() {
    let o = vlt(&["solve", "--at-least", "-4", POS]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("B can force a capture difference of at least -4"), "{out}");
    let o = vlt(&["solve", "--at-least", "-3", POS]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("B cannot force"), "{o:?}");
}

#[test]
fn bad_combinations_and_limits_exit_2() {
    for args in [
        &["solve", "--at-least", "1", "--moves", POS][..],
        &["solve", "--at-least", "x", POS],
        &["solve", "--at-least", "1", "--survey", "9..=10"],
        &["solve", "--at-least", "1", "--max-nodes", "1", "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0"],
    ] {
        let o = vlt(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.trim().is_empty(), "{args:?}: an error message");
    }
}
