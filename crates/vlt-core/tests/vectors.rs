//! The shared rules vectors (RULES.md, "Test vectors"): every move of `moves.jsonl` and every count
//! of `perft.tsv` (N4), from the project's own copy, which must equal `../shared/vectors/` when that
//! folder is present.

use std::path::{Path, PathBuf};
use vlt_core::{Move, Position, perft};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

#[test]
fn copy_matches_shared_vectors() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|a| a.join("shared/vectors"))
        .find(|p| p.join("moves.jsonl").is_file());
    let Some(shared) = shared else {
        eprintln!("no shared/vectors folder above the crate: nothing to compare");
        return;
    };
    for name in ["moves.jsonl", "perft.tsv"] {
        let ours = std::fs::read(data(name)).unwrap();
        let theirs = std::fs::read(shared.join(name)).unwrap();
        assert!(ours == theirs, "tests/data/{name} differs from {}", shared.join(name).display());
    }
    // The rules text the docs link to is a copy too.
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/RULES.md");
    let rules = shared.join("../RULES.md");
    if rules.is_file() {
        assert!(
            std::fs::read(&docs).unwrap() == std::fs::read(&rules).unwrap(),
            "docs/RULES.md is out of date"
        );
    }
}

#[test]
fn every_move_vector() {
    let text = std::fs::read_to_string(data("moves.jsonl")).unwrap();
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let ctx = format!("moves.jsonl line {}", i + 1);
        let pos: Position = v["position"].as_str().unwrap().parse().expect(&ctx);
        let legal: Vec<String> = pos.legal_moves().map(|m| m.to_string()).collect();
        let want: Vec<String> =
            v["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
        assert_eq!(legal, want, "{ctx}: legal moves");
        let mv: Move = v["move"].as_str().unwrap().parse().expect(&ctx);
        let (after, outcome) = pos.play_traced(mv).expect(&ctx);
        assert_eq!(after.to_string(), v["after"].as_str().unwrap(), "{ctx}: after");
        assert_eq!(u64::from(outcome.capture.stones), v["captured"].as_u64().unwrap(), "{ctx}: captured");
        let holes: Vec<String> = outcome.capture.holes().map(|h| h.to_string()).collect();
        let want: Vec<String> =
            v["captured_holes"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
        assert_eq!(holes, want, "{ctx}: captured_holes");
        assert_eq!(outcome.game_over, v["game_over"].as_bool().unwrap(), "{ctx}: game_over");
        assert_eq!(after.is_game_over(), outcome.game_over, "{ctx}");
        n += 1;
    }
    assert_eq!(n, 3000);
}

#[test]
fn every_perft_vector() {
    let text = std::fs::read_to_string(data("perft.tsv")).unwrap();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let pos: Position = f[0].parse().unwrap();
        let depth: u32 = f[1].parse().unwrap();
        let leaves: u64 = f[2].parse().unwrap();
        assert_eq!(perft(pos, depth), leaves, "perft({}, {depth})", f[0]);
        n += 1;
    }
    assert_eq!(n, 49);
}
