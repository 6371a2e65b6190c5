//! Inputs as a careless user or an attacker gives them, through the real binary: every one ends
//! in exit status 2 and one line on standard error (or, for a reader that goes away, quietly), in
//! bounded time and memory, never in a panic.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn vlt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vlt")).args(args).output().expect("run vlt")
}

/// Exit 2 and exactly one line on standard error that mentions `needle`.
fn assert_one_line(o: &Output, what: &str, needle: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{what}: {err}");
    assert_eq!(err.lines().count(), 1, "{what}: one line, got {err:?}");
    assert!(err.starts_with("vlt: ") && err.contains(needle), "{what}: {err:?} should mention {needle:?}");
}

fn assert_input_error(args: &[&str], needle: &str) {
    assert_one_line(&vlt(args), &format!("{args:?}"), needle);
}

/// A fresh temporary folder for one test.
fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("vlt-bad-input-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp folder");
    d
}

/// Waits for `child` at most `limit`, noting its peak memory (MiB, Linux) on the way.
fn wait_watching(mut child: Child, limit: Duration) -> (Output, Option<u64>) {
    let start = Instant::now();
    let mut peak = None;
    let pid = child.id();
    let mut err = child.stderr.take().expect("piped stderr");
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        if let Some(kb) = status
            .lines()
            .find(|l| l.starts_with("VmHWM:"))
            .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        {
            peak = Some(kb / 1024);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (Output { status, stdout: Vec::new(), stderr: reader.join().expect("stderr") }, peak)
}

/// clap's usage errors are one line too, with the usage and where the help is.
#[test]
fn usage_errors_are_one_line() {
    for (args, needle) in [
        (&["perft", "x"][..], "invalid value 'x'"),
        (&["perft", "3", "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0", "extra"], "usage: vlt perft"),
        (&["analyse", "--bogus", "x"], "unexpected argument '--bogus'"),
        (&["analyse", "--depth"], "a value is required"),
        (&["analyse", "--depth", "0", "x"], "0 is not in 1..=100"),
        (&["analyse", "--time-ms", "99999999999999", "x"], "not in 1..=1099511627776"),
        (&["analyse", "--nodes", "0", "x"], "--nodes"),
        (&["analyse", "--hash", "999999999999999999999", "x"], "--hash"),
        (&["analyse", "--threads", "65", "x"], "65 is not in 1..=64"),
        (&["solve", "--games", "foo", "--survey", "9"], "possible values: greedy, engine"),
        (&["solve", "--at-least", "61", "x"], "61 is not in -60..=60"),
        (&["solve", "--check-certificate", "/nonexistent/c.txt"], "certificate /nonexistent/c.txt"),
        (&["solve", "--check-certificate", "Cargo.toml"], "not a certificate"),
        (&["solve", "--check-certificate", "/dev/zero"], "longer than 256 bytes"),
        (&["tb", "probe", "--dir"], "see vlt tb probe --help"),
        (&["tb", "build", "--max-stones", "3", "--dir", "x", "--threads", "100000"], "--threads"),
        (&["bench", "--seconds", "1e300"], "0-3600"),
        (&["bench", "--seconds", "nan"], "0-3600"),
        (&["serve", "--max-open-games", "0"], "--max-open-games"),
        (&["serve", "--engine-ms", "5"], "--engine-ms"),
        (&["serve", "--public-url", "ftp://example.org"], "http or https"),
        (&["serve", "--public-url", "https://example.org/app"], "no path"),
        (&["serve", "--max-connections-per-address", "0"], "--max-connections-per-address"),
        (&["no-such-command"], "unrecognized subcommand"),
        (&["apply"], "required"),
    ] {
        assert_input_error(args, needle);
    }
    // Help and version are not errors, and print as clap prints them.
    let o = vlt(&["--version"]);
    assert!(o.status.success() && String::from_utf8_lossy(&o.stdout).starts_with("vlt "));
    let o = vlt(&["tb"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("Usage: vlt tb <COMMAND>"));
}

/// `--survey` ranges and counts are clap's values: a bad one is refused before any work (an empty
/// sample once made the median an index out of bounds).
#[test]
fn survey_ranges_and_counts_are_checked_at_the_edge() {
    assert_input_error(&["solve", "--survey", "13..=13", "--per-stone", "0"], "0 is not in 1..=1000");
    assert_input_error(&["solve", "--survey", "13..=12"], "FROM must not exceed TO");
    assert_input_error(&["solve", "--survey", "13..=99"], "\"99\" is not a stone count 0-60");
    assert_input_error(&["solve", "--survey", "1.."], "expected FROM..=TO");
    assert_input_error(&["solve", "--survey", "3..=12"], "above the tables (8)");
    // Research flags work but stay out of the main help.
    let help = String::from_utf8_lossy(&vlt(&["solve", "--help"]).stdout).into_owned();
    for hidden in ["--survey", "--per-stone", "--seed", "--games", "--check", "--estimate"] {
        // Followed by its value's name: `--check` is also the start of `--check-certificate`.
        assert!(!help.contains(&format!("{hidden} ")), "{hidden} in the help:\n{help}");
    }
    assert!(help.contains("--at-least") && help.contains("--max-nodes"), "{help}");
    assert!(help.contains("--certificate") && help.contains("--check-certificate"), "{help}");
    let o = vlt(&["solve", "--survey", "9", "--per-stone", "1", "--seed", "2"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).lines().any(|l| l.trim_start().starts_with("9 ")));
}

/// A reader that goes away (`| head -1`) ends the program quietly, exit 0, no panic.
#[test]
fn a_closed_pipe_is_no_failure() {
    let dir = temp("pipe");
    let games = dir.join("games.vlt");
    std::fs::write(&games, "[Event \"e\"]\n1. 3B 2. 4A 3. 1B 4. 2A *\n".repeat(3000)).expect("write");
    for args in [
        vec!["replay", games.to_str().expect("utf-8")],
        vec!["analyse", "--depth", "40", "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0"],
        vec!["analyse", "--algorithm", "mcts", "--time-ms", "20000", "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0"],
        vec!["match", "level=1", "level=1", "-n", "4"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_vlt"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run vlt");
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut first).expect("a line");
        // The reader and the pipe are gone now.
        let (o, _) = wait_watching(child, Duration::from_secs(60));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success() && !err.contains("panicked"), "{args:?}: {} {err}", o.status);
        assert!(!first.is_empty());
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `replay` reads a stream: an endless input ends at the limit of one game's text, and a long
/// file of games is replayed in little memory (it once held about 12 times the input).
#[test]
fn replay_streams_in_bounded_memory() {
    let child = Command::new(env!("CARGO_BIN_EXE_vlt"))
        .args(["replay", "/dev/zero"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run vlt");
    let (o, _) = wait_watching(child, Duration::from_secs(60));
    assert_one_line(&o, "replay /dev/zero", "the game is longer than 1048576 bytes");
    // 30,000 games, 9.6 MB of records from standard input.
    let mut child = Command::new(env!("CARGO_BIN_EXE_vlt"))
        .args(["replay", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run vlt");
    let mut stdin = child.stdin.take().expect("stdin");
    let feeder = std::thread::spawn(move || {
        let game =
            "[Event \"a long evening\"]\n[Round \"1\"]\n1. 3B 2. 4A 3. 1B 4. 2A { a quiet move } 5. 5B *\n";
        let block = game.repeat(1000);
        for _ in 0..30 {
            stdin.write_all(block.as_bytes()).expect("vlt reads");
        }
        stdin.write_all(b"1. 3B 2. 3B *\n").expect("vlt reads");
    });
    let (o, peak) = wait_watching(child, Duration::from_secs(300));
    feeder.join().expect("fed");
    // The last game is wrong: move 2 sows an empty hole of the wrong player.
    assert_one_line(&o, "replay -", "standard input: record: move 2 (3B)");
    if let Some(peak) = peak {
        assert!(peak < 40, "peak memory {peak} MiB for 9.6 MB of records");
    }
}

/// `apply` plays a game: R7's cycle a third time ends it, as `replay` does.
#[test]
fn apply_ends_the_game_at_the_third_occurrence() {
    let cycle = "5A 1B 2A 3B 4A 5B 6A 2B 1A 4B 3A 6B";
    let start = "1,0,1,0,1,0/1,2,0,1,2,0 A 25 26";
    let twice: Vec<&str> = cycle.split(' ').chain(cycle.split(' ')).collect();
    let mut args = vec!["apply", "--json", start];
    args.extend(&twice);
    let o = vlt(&args);
    assert!(o.status.success());
    let lines: Vec<serde_json::Value> =
        String::from_utf8_lossy(&o.stdout).lines().map(|l| serde_json::from_str(l).expect("json")).collect();
    assert_eq!(lines.len(), 24);
    assert!(lines[..23].iter().all(|l| l["game_over"] == false));
    assert_eq!(lines[23]["game_over"], true, "the start position's third occurrence");
    let mut text = vec!["apply", start];
    text.extend(&twice);
    let out = String::from_utf8_lossy(&vlt(&text).stdout).into_owned();
    assert!(out.trim_end().ends_with("game over: A wins 25-26 (repetition)"), "{out}");
    text.push("5A");
    assert_input_error(&text, "move 25: the game is over: A wins 25-26 (repetition)");
}

/// Table folders: a layer that is a folder, a `--dir` that is a file, a line of `tb probe -` that
/// is not UTF-8 or never ends.
#[test]
fn tables_refuse_what_is_not_a_table() {
    let dir = temp("tables");
    let tb = dir.join("tb");
    let o =
        vlt(&["tb", "build", "--max-stones", "3", "--dir", tb.to_str().expect("utf-8"), "--threads", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let tbs = tb.to_str().expect("utf-8");
    // Standard input with a line that is not UTF-8: reported in its place, the rest probed.
    let mut child = Command::new(env!("CARGO_BIN_EXE_vlt"))
        .args(["tb", "probe", "--json", "--dir", tbs, "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run vlt");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"0,0,0,0,1,1/0,0,0,0,0,0 B 0 0\n\xff\xfe junk\n0,0,0,0,0,1/0,0,0,0,0,0 B 0 0\n")
        .expect("write");
    let o = child.wait_with_output().expect("wait");
    let out: Vec<serde_json::Value> =
        String::from_utf8_lossy(&o.stdout).lines().map(|l| serde_json::from_str(l).expect("json")).collect();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(out.len(), 3, "{out:?}");
    assert_eq!((out[0]["value"].as_i64(), out[2]["value"].as_i64()), (Some(2), Some(1)));
    assert_eq!(out[1]["line"], 2);
    assert!(out[1]["error"].as_str().is_some_and(|e| e.contains("not UTF-8")), "{}", out[1]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("1 of 3 positions could not be probed"));
    // One endless line: refused once it passes the limit, in bounded time.
    let child = Command::new(env!("CARGO_BIN_EXE_vlt"))
        .args(["tb", "probe", "--dir", tbs, "-"])
        .stdin(std::fs::File::open("/dev/zero").expect("/dev/zero"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run vlt");
    let (o, _) = wait_watching(child, Duration::from_secs(60));
    assert_one_line(&o, "tb probe - < /dev/zero", "line 1: longer than 4096 bytes");
    // A layer that is a folder, and a folder that is a file.
    let broken = dir.join("broken");
    std::fs::create_dir_all(broken.join("vlt-tb-00.bin")).expect("folder");
    let b = broken.to_str().expect("utf-8");
    assert_input_error(&["tb", "stats", "--dir", b], "vlt-tb-00.bin: not a regular file");
    assert_input_error(&["solve", "--dir", b, "0,0,0,0,1,1/0,0,0,0,0,0 B 0 0"], "not a regular file");
    let file = dir.join("file");
    std::fs::write(&file, "not a folder").expect("write");
    assert_input_error(
        &["tb", "build", "--max-stones", "2", "--dir", file.to_str().expect("utf-8")],
        "not a folder",
    );
    // An estimate file that never ends.
    assert_input_error(
        &["solve", "--estimate", "/dev/zero", "0,0,0,0,1,1/0,0,0,0,0,0 B 0 0"],
        "not an estimate file",
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Line readers cap the line while reading: an endless line costs no memory in `vlt play --plain`
/// or `vlt engine` (each runs until its input ends, which `/dev/zero` never does).
#[test]
fn endless_lines_cost_no_memory() {
    for args in [&["play", "--plain"][..], &["engine"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_vlt"))
            .args(args)
            .stdin(std::fs::File::open("/dev/zero").expect("/dev/zero"))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run vlt");
        std::thread::sleep(Duration::from_secs(2));
        let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap_or_default();
        let peak = status
            .lines()
            .find(|l| l.starts_with("VmHWM:"))
            .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok());
        assert!(child.try_wait().expect("wait").is_none(), "{args:?} still reads");
        let _ = child.kill();
        let _ = child.wait();
        if let Some(kb) = peak {
            assert!(kb < 200 * 1024, "{args:?}: {kb} kB after 2 s of /dev/zero");
        }
    }
}
