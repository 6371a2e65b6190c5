//! The rules vectors (RULES.md, "Test vectors"): every move of `moves.jsonl` and every count of
//! `perft.tsv` (N4), from the project's copy in `tests/data/`.
//!
//! Where the rules are kept elsewhere too, `VLT_RULES_SOURCE=DIR` (a folder with `RULES.md` and
//! `vectors/`) checks that the copies have not drifted: the vectors byte for byte, and RULES.md's
//! rules and notation (from "## The game" up to "## Test vectors"; the rest says where files are).

use std::path::{Path, PathBuf};
use vlt_core::{Move, Position, perft};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// The normative part of a RULES.md text.
fn rules_part(text: &str) -> &str {
    let start = text.find("## The game").expect("a '## The game' section");
    let end = text.find("## Test vectors").expect("a '## Test vectors' section");
    &text[start..end]
}

#[test]
fn copies_match_the_rules_source() {
    let Some(source) = std::env::var_os("VLT_RULES_SOURCE").map(PathBuf::from) else {
        eprintln!("VLT_RULES_SOURCE not set: no other copy of the rules to compare");
        return;
    };
    for name in ["moves.jsonl", "perft.tsv"] {
        let ours = std::fs::read(data(name)).unwrap();
        let theirs = source.join("vectors").join(name);
        let theirs = std::fs::read(&theirs).unwrap_or_else(|e| panic!("{}: {e}", theirs.display()));
        assert!(
            ours == theirs,
            "tests/data/{name} differs from {}",
            source.join("vectors").join(name).display()
        );
    }
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/RULES.md");
    let ours = std::fs::read_to_string(docs).unwrap();
    let theirs = std::fs::read_to_string(source.join("RULES.md")).unwrap();
    assert!(rules_part(&ours) == rules_part(&theirs), "docs/RULES.md's rules differ from the source's");
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
