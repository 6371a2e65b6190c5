//! `vlt match` through the real binary: small matches complete, results add up, records replay
//! with `vlt replay`, external engines speak the protocol, SPRT stops early, bad input exits 2.

use std::process::{Command, Output};

fn vlt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vlt")).args(args).output().expect("run vlt")
}

fn json(args: &[&str]) -> serde_json::Value {
    let o = vlt(args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("vlt-match-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let _ = std::fs::remove_file(&d);
    d
}

#[test]
fn greedy_beats_random_and_the_records_replay() {
    let rec = tmp("greedy.vlt");
    let r =
        json(&["match", "greedy", "random", "--games", "20", "--json", "--records", rec.to_str().unwrap()]);
    let (w, d, l) =
        (r["wins"].as_u64().unwrap(), r["draws"].as_u64().unwrap(), r["losses"].as_u64().unwrap());
    assert_eq!((r["games"].as_u64().unwrap(), w + d + l), (20, 20));
    assert_eq!(r["openings"], 10);
    let score = r["score"].as_f64().unwrap();
    assert!((score - (w as f64 + 0.5 * d as f64) / 20.0).abs() < 1e-4);
    // Taking what is on offer is far better than chance.
    assert!(score >= 0.75, "{r}");
    // Every game is a valid record: `vlt replay` checks every move (R3-R7) and the result tags.
    let o = vlt(&["replay", rec.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(text.lines().filter(|l| l.starts_with("Game ")).count(), 20);
    assert_eq!(text.lines().filter(|l| l.starts_with("result: ")).count(), 20);
    let records = vlt_core::Record::parse_all(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    // Each opening is played both ways round: games 1 and 2 share the start, the names swap.
    assert_eq!(records[0].game.start(), records[1].game.start());
    assert_eq!(records[0].tag("B"), Some("greedy"));
    assert_eq!(records[1].tag("A"), Some("greedy"));
    let wins_as_recorded = records
        .iter()
        .filter(|r| {
            let res = r.game.result().expect("finished");
            res.winner.is_some_and(|p| r.tag(&p.to_string()) == Some("greedy"))
        })
        .count() as u64;
    assert_eq!(wins_as_recorded, w, "the tally agrees with the records");
    let _ = std::fs::remove_file(rec);
}

#[test]
fn an_external_engine_plays_through_the_protocol() {
    let dir = tmp("games/");
    let engine = format!("depth=2,Level=3,engine={} engine", env!("CARGO_BIN_EXE_vlt"));
    let r = json(&["match", &engine, "random", "-n", "4", "--json", "--records", dir.to_str().unwrap()]);
    assert_eq!(r["games"], 4);
    // One file per game in a directory, each a valid record.
    for i in 1..=4 {
        let f = dir.join(format!("game-{i:04}.vlt"));
        let o = vlt(&["replay", f.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn openings_file_and_parallel_games() {
    let f = tmp("openings.txt");
    std::fs::write(&f, "# two openings\nstartpos\n\n5,5,0,6,6,6/6,6,5,5,5,5 A 0 0\n").unwrap();
    let r = json(&[
        "match",
        "level=2",
        "level=1",
        "--openings",
        f.to_str().unwrap(),
        "--concurrency",
        "2",
        "--json",
    ]);
    assert_eq!((r["games"].as_u64(), r["openings"].as_u64()), (Some(4), Some(2)));
    let _ = std::fs::remove_file(f);
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let r = json(&["match", "level=3", "random", "-n", "400", "--sprt", "0,100,0.05,0.05", "--json"]);
    let games = r["games"].as_u64().unwrap();
    assert!(games < 400, "{r}");
    assert_eq!(r["sprt"]["verdict"], "H1", "{r}");
    assert!(r["sprt"]["llr"].as_f64().unwrap() >= (0.95f64 / 0.05).ln());
}

#[test]
fn the_text_summary_names_the_figures() {
    let o = vlt(&["match", "greedy", "greedy", "-n", "6"]);
    assert!(o.status.success());
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.starts_with("greedy vs greedy\ngames 6  W "), "{s}");
    assert!(s.contains("Elo ") && s.contains("(95%)"), "{s}");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    for args in [
        &["match", "level=11", "random"][..],
        &["match", "stockfish", "random"],
        &["match", "random", "ab"],
        &["match", "random", "random", "--sprt", "10,0,0.05,0.05"],
        &["match", "random", "random", "--games", "0"],
        &["match", "random", "random", "--openings", "/nonexistent/openings"],
        &["match", "random", "random", "--concurrency", "0"],
        &["match", "random", "engine=/nonexistent/engine"],
        &["match", "random", "random", "--balance", "-1"],
        &["match", "random", "random", "--plies", "1000"],
        &["match", "random", "random", "--max-moves", "0"],
        &["match", "random", "random", "--tc", "0"],
        &["match", "random", "random", "--games", "2000000"],
        &["match", "random", "random", "--plies", "0"],
        &["match", "random", "depth=2,engine='unclosed"],
    ] {
        let o = vlt(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
}

/// `--tablebase`: two one-ply engines with the tables play a 12-stone opening perfectly, so every
/// game ends with the tables' value (0 here: 30-30); without them they do not. (With the linear
/// evaluation: the learned one, fitted to the tables, already plays this opening perfectly at one
/// ply.) A folder without tables is an input error.
#[test]
fn with_tables_both_engines_play_perfectly() {
    let dir = tmp("tables");
    std::fs::create_dir_all(&dir).unwrap();
    let tb = dir.join("tb");
    assert!(vlt(&["tb", "build", "--max-stones", "12", "--dir", tb.to_str().unwrap()]).status.success());
    let opening = "1,2,0,3,0,1/2,0,2,0,1,0 B 24 24";
    std::fs::write(dir.join("open.txt"), format!("{opening}\n")).unwrap();
    let probe = json(&["tb", "probe", "--json", "--dir", tb.to_str().unwrap(), opening]);
    assert_eq!(probe["value"], 0, "the opening is a draw with perfect play");
    let run = |with: bool| {
        let rec = dir.join(format!("rec-{with}.vlt"));
        let mut args = vec!["match", "ab,depth=1,eval=linear", "ab,depth=1,eval=linear", "--json"];
        let (open, rec_s) = (dir.join("open.txt"), rec.to_str().unwrap().to_string());
        args.extend(["--openings", open.to_str().unwrap(), "--records", &rec_s]);
        if with {
            args.extend(["--tablebase", tb.to_str().unwrap()]);
        }
        let r = json(&args);
        (r, std::fs::read_to_string(rec).unwrap())
    };
    let (r, records) = run(true);
    assert_eq!(r["draws"], 2, "{r}");
    assert_eq!(records.matches("[Score \"30-30\"]").count(), 2, "{records}");
    let (_, records) = run(false);
    assert!(records.matches("[Score \"30-30\"]").count() < 2, "one ply alone is not perfect: {records}");
    let o = vlt(&["match", "greedy", "random", "--tablebase", dir.join("none").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--tablebase"));
    std::fs::remove_dir_all(&dir).unwrap();
}
