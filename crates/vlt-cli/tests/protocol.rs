//! `vlt engine` through the real binary: golden transcripts (`tests/data/protocol/*.in` ->
//! `*.out`) and robustness (garbage, out-of-order commands, huge numbers, searching while being
//! asked other things). docs/protocol.md is the specification these check.
//!
//! Regenerate the transcripts after an intended change with
//! `VLT_BLESS=1 cargo test -p vlt-cli --test protocol` and review the diff.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long any single answer may take; generous, the machine may be busy.
const ANSWER: Duration = Duration::from_secs(60);

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_vlt"))
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start vlt engine");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                if tx.send(l.expect("engine output is UTF-8")).is_err() {
                    break;
                }
            }
        });
        Engine { stdin: child.stdin.take(), child, lines: rx }
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    fn send_bytes(&mut self, b: &[u8]) {
        let s = self.stdin.as_mut().expect("stdin open");
        s.write_all(b).and_then(|()| s.flush()).expect("engine reads its input");
    }

    /// The next line, or panic after [`ANSWER`].
    fn recv(&self) -> String {
        self.lines.recv_timeout(ANSWER).expect("the engine answers in time")
    }

    /// Lines up to and including the first one that starts with one of `ends`.
    fn until(&self, ends: &[&str]) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self.recv();
            let done = ends.iter().any(|e| l.starts_with(e));
            out.push(l);
            if done {
                return out;
            }
        }
    }

    /// Closes stdin and returns the rest of the output; the process must exit successfully.
    fn finish(mut self) -> Vec<String> {
        drop(self.stdin.take());
        let out: Vec<String> = self.lines.iter().collect();
        let status = self.child.wait().unwrap();
        assert!(status.success(), "vlt engine exited with {status}");
        out
    }
}

/// Masks what varies from run to run: speed, time, node counts (the search may change; the
/// protocol's shape may not), and the version.
fn normalise(line: &str) -> String {
    if line.starts_with("id name vlt ") {
        return "id name vlt VERSION".into();
    }
    let mut out = Vec::new();
    let mut mask = false;
    for w in line.split(' ') {
        if mask {
            out.push(if w.bytes().all(|b| b.is_ascii_digit()) { "N" } else { w });
            mask = false;
            continue;
        }
        out.push(w);
        mask = line.starts_with("info ") && matches!(w, "nodes" | "nps" | "time");
    }
    out.join(" ")
}

/// Plays a transcript: sends each line (lines starting with `#` are comments and not sent),
/// and after a `go` that is not `infinite` waits for its `bestmove` (or `error`) before
/// sending more, so the output order is deterministic.
fn run_transcript(input: &str) -> String {
    let mut e = Engine::start();
    let mut out = Vec::new();
    for line in input.lines() {
        if line.starts_with('#') {
            continue;
        }
        e.send(line);
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.first() == Some(&"go") && !w.contains(&"infinite") {
            out.extend(e.until(&["bestmove", "error"]));
        }
        if w.first() == Some(&"quit") {
            break;
        }
    }
    out.extend(e.finish());
    out.iter().map(|l| normalise(l) + "\n").collect()
}

#[test]
fn golden_transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/protocol");
    let bless = std::env::var_os("VLT_BLESS").is_some();
    let mut n = 0;
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    names.sort();
    for p in names.iter().filter(|p| p.extension().is_some_and(|e| e == "in")) {
        let got = run_transcript(&std::fs::read_to_string(p).unwrap());
        let out = p.with_extension("out");
        if bless {
            std::fs::write(&out, &got).unwrap();
        }
        let want = std::fs::read_to_string(&out).unwrap_or_else(|_| panic!("{} is missing", out.display()));
        assert_eq!(got, want, "{} differs from {}", p.display(), out.display());
        n += 1;
    }
    assert!(n >= 3, "the transcripts are there");
}

#[test]
fn normalise_masks_only_volatile_numbers() {
    assert_eq!(
        normalise("info depth 3 score -2 exact nodes 120 nps 5000 time 7 pv 3B 4A"),
        "info depth 3 score -2 exact nodes N nps N time N pv 3B 4A"
    );
    assert_eq!(normalise("error go: nodes 0"), "error go: nodes 0");
}

fn legal_bestmove(line: &str, position: &str) {
    let m = line.strip_prefix("bestmove ").unwrap_or_else(|| panic!("{line:?} is no bestmove"));
    let pos: vlt_core::Position = position.parse().unwrap();
    let mv: vlt_core::Move = m.parse().unwrap_or_else(|_| panic!("{m:?} is no move"));
    assert!(pos.legal_moves().contains(mv), "{mv} is not legal in {position}");
}

/// While a `go infinite` runs: `isready` is answered at once, state changes are refused, and
/// `stop` brings a legal `bestmove`.
#[test]
fn infinite_search_answers_while_thinking_and_stops() {
    let mut e = Engine::start();
    e.send("position startpos moves 3B");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    e.send("isready");
    let lines = e.until(&["readyok"]);
    assert!(t.elapsed() < Duration::from_secs(5), "readyok while searching");
    assert!(lines.iter().all(|l| l.starts_with("info ") || l == "readyok"), "{lines:?}");
    for cmd in ["go depth 3", "position startpos", "setoption name Level value 2", "newgame"] {
        e.send(cmd);
        let l = e.until(&["error"]);
        assert!(l.last().unwrap().contains("send stop first"), "{cmd}: {l:?}");
    }
    e.send("stop");
    let l = e.until(&["bestmove"]);
    let infos: Vec<&String> = l.iter().filter(|l| l.starts_with("info ")).collect();
    // The position after 3B (R3: its five stones went to 4B, 5B, 6B, 1A, 2A).
    legal_bestmove(l.last().unwrap(), "5,5,0,6,6,6/6,6,5,5,5,5 A 0 0");
    assert!(infos.iter().all(|i| i.contains(" pv ")));
    // Idle again: a new search works.
    e.send("go depth 2");
    let l = e.until(&["bestmove"]);
    assert!(l.iter().any(|x| x.starts_with("info depth 2 ")), "{l:?}");
    e.send("quit");
    assert!(e.finish().is_empty());
}

/// Levels, MCTS, clocks and node limits all end in a legal move.
#[test]
fn every_kind_of_go_ends_in_a_legal_move() {
    let start = "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0";
    let mut e = Engine::start();
    for (setup, go) in [
        ("setoption name Level value 1", "go"),
        ("setoption name Level value 4", "go"),
        ("setoption name Level value 6", "go"),
        ("setoption name Algorithm value mcts", "go nodes 3000"),
        ("setoption name Algorithm value alphabeta", "go btime 2000 atime 1 binc 0"),
        ("setoption name Threads value 2", "go movetime 50"),
        ("setoption name Threads value 1", "go nodes 500"),
    ] {
        e.send(setup);
        e.send("position startpos");
        e.send(go);
        let l = e.until(&["bestmove", "error"]);
        legal_bestmove(l.last().unwrap(), start);
    }
    e.send("quit");
    e.finish();
}

/// Garbage bytes, invalid UTF-8 and a one-megabyte line: error lines, no crash, and the
/// session still works afterwards.
#[test]
fn garbage_does_not_crash_the_engine() {
    let mut e = Engine::start();
    e.send_bytes(b"\xff\xfe\x00garbage\n");
    assert!(e.recv().starts_with("error unknown command"));
    // Huge numbers are refused and not echoed in full.
    e.send(&format!("go depth {}", "9".repeat(5000)));
    let l = e.recv();
    assert!(l.starts_with("error go: depth 99999") && l.ends_with("is too large") && l.len() < 100, "{l}");
    // A one-megabyte line.
    e.send_bytes(&vec![b'x'; 1 << 20]);
    e.send_bytes(b"\n");
    assert!(e.recv().starts_with("error line too long"));
    e.send("position startpos moves 3B 4A 1B 1A 2B");
    e.send("go depth 3");
    let l = e.until(&["bestmove"]);
    assert!(l.last().unwrap().starts_with("bestmove "));
    e.send("isready");
    assert_eq!(e.recv(), "readyok");
    e.send("quit");
    e.finish();
}

/// `quit` during a long search ends the process promptly.
#[test]
fn quit_ends_a_running_search() {
    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    let t = Instant::now();
    e.send("quit");
    e.finish();
    assert!(t.elapsed() < Duration::from_secs(10));
}

/// End of input after a finite `go`: the search finishes and prints its move (for scripts).
#[test]
fn end_of_input_waits_for_the_bestmove() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 4");
    let out = e.finish();
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
    let depths: Vec<u32> =
        out.iter().filter_map(|l| l.strip_prefix("info depth ")?.split(' ').next()?.parse().ok()).collect();
    assert!(!depths.is_empty() && depths.windows(2).all(|w| w[0] < w[1]) && *depths.last().unwrap() <= 4);
}

/// Small endgames searched to the end: the last report is exact and its score is the game's
/// value under the rules (R4, R6), whatever the evaluation says on the way.
#[test]
fn endgames_are_proven() {
    for (pos, score) in [
        ("0,0,0,1,0,1/0,1,0,0,0,0 B 29 28", 1),
        ("1,0,2,0,0,0/0,0,1,0,0,1 B 28 27", 1),
        ("0,2,0,0,1,0/1,0,0,2,0,0 A 27 27", 0),
        ("2,0,0,1,0,0/0,0,3,0,0,0 B 27 27", 0),
    ] {
        let mut e = Engine::start();
        e.send(&format!("position {pos}"));
        e.send("go depth 30");
        let l = e.until(&["bestmove"]);
        let last_info = l.iter().rev().find(|x| x.starts_with("info ")).unwrap();
        assert!(last_info.contains(&format!(" score {score} exact ")), "{pos}: {last_info}");
        legal_bestmove(l.last().unwrap(), pos);
        e.finish();
    }
}

/// `vlt engine --tablebase DIR` with a folder that holds no tables: one line, exit status 2, before
/// any protocol line.
#[test]
fn a_missing_tablebase_is_an_input_error() {
    let o = Command::new(env!("CARGO_BIN_EXE_vlt"))
        .args(["engine", "--tablebase", "/nonexistent/vlt-tables"])
        .stdin(Stdio::null())
        .output()
        .expect("run vlt");
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("vlt: --tablebase: ") && err.trim_end().lines().count() == 1, "{err}");
}

/// After `stop` the search is over: `isready` then `go` starts a new search at once, and so does a
/// `go` sent right behind the `stop` in the same write.
#[test]
fn go_right_after_stop_is_accepted() {
    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    e.send("stop");
    e.send("isready");
    e.send("go depth 1");
    let l = e.until(&["readyok"]);
    assert!(l.iter().any(|x| x.starts_with("bestmove ")), "the infinite search ended before readyok: {l:?}");
    let l = e.until(&["bestmove", "error"]);
    assert!(
        l.last().unwrap().starts_with("bestmove ") && l.iter().any(|x| x.starts_with("info depth 1 ")),
        "{l:?}"
    );
    e.send_bytes(b"go infinite\nstop\ngo depth 2\n");
    let l = e.until(&["bestmove", "error"]);
    assert!(l.last().unwrap().starts_with("bestmove "), "{l:?}");
    let l = e.until(&["bestmove", "error"]);
    assert!(
        l.last().unwrap().starts_with("bestmove ") && l.iter().any(|x| x.starts_with("info depth 2 ")),
        "{l:?}"
    );
    e.send("quit");
    assert!(e.finish().is_empty());
}

/// The peak resident memory of a running process, in MiB (Linux).
fn peak_rss_mib(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
}

/// A 256 MiB line is refused without being held: the engine's peak memory stays far below the
/// line's size, and the session goes on.
#[test]
fn an_endless_line_does_not_fill_memory() {
    let mut e = Engine::start();
    // A first search: the engine and its transposition table are in memory before measuring.
    e.send("go depth 1");
    e.until(&["bestmove"]);
    let before = peak_rss_mib(e.child.id());
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..256 {
        e.send_bytes(&chunk);
    }
    e.send_bytes(b"\n");
    assert_eq!(e.recv(), "error line too long (more than 100000 bytes)");
    e.send("isready");
    assert_eq!(e.recv(), "readyok");
    if let (Some(before), Some(after)) = (before, peak_rss_mib(e.child.id())) {
        assert!(after < before + 32, "peak memory {before} MiB -> {after} MiB for a 256 MiB line");
    }
    e.send("quit");
    e.finish();
}
