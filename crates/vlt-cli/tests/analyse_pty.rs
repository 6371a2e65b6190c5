//! End to end: `vlt play --analyse` in a pseudo-terminal of 80x24 (portable-pty, screen read with
//! vt100): the analysis shows, a key plays a move and the analysis follows, Backspace takes it
//! back, q leaves with the terminal restored; without a terminal it refuses with exit 2.

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn wait(parser: &Mutex<vt100::Parser>, secs: u64, what: &str, pred: impl Fn(&str) -> bool) -> String {
    let end = Instant::now() + Duration::from_secs(secs);
    loop {
        let t = parser.lock().unwrap().screen().contents();
        if pred(&t) {
            return t;
        }
        assert!(Instant::now() < end, "timed out waiting for {what}; screen:\n{t}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_analysis_board_in_a_terminal() {
    let pair = native_pty_system()
        .openpty(PtySize { rows: 24, cols: 80, pixel_width: 0, pixel_height: 0 })
        .expect("a pty");
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_vlt"));
    cmd.args(["play", "--analyse", "--lang", "en", "--position", "2,1,0,3,0,1/1,0,2,0,1,1 B 24 24"]);
    cmd.env("TERM", "xterm-256color");
    let mut child = pair.slave.spawn_command(cmd).expect("vlt starts");
    drop(pair.slave);
    let parser = Arc::new(Mutex::new(vt100::Parser::new(24, 80, 0)));
    let mut reader = pair.master.try_clone_reader().unwrap();
    let p2 = Arc::clone(&parser);
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            p2.lock().unwrap().process(&buf[..n]);
        }
    });
    let mut keys = pair.master.take_writer().unwrap();
    let t = wait(&parser, 30, "the analysis", |t| t.contains("B to move: ") && t.contains("Best line"));
    assert!(t.contains("Analysis board") && t.contains("Every move"), "{t}");
    keys.write_all(b"4").unwrap(); // 4B: 3 stones
    wait(&parser, 30, "A's analysis", |t| {
        t.contains("A to move: ") && t.contains("2,1,0,0,1,2/2,0,2,0,1,1 A 24 24")
    });
    keys.write_all(b"\x7f").unwrap(); // Backspace
    wait(&parser, 30, "back to the start", |t| t.contains("2,1,0,3,0,1/1,0,2,0,1,1 B 24 24"));
    keys.write_all(b"q").unwrap();
    let end = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < end, "vlt did not leave on q");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success());
    // Left the alternate screen: the screen before it shows again (empty here). The reader thread
    // may still be passing the last bytes to the parser when the process has gone, so wait for it.
    let end = Instant::now() + Duration::from_secs(10);
    while parser.lock().unwrap().screen().alternate_screen() {
        assert!(Instant::now() < end, "vlt left without restoring the screen");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn without_a_terminal_it_refuses_in_one_line() {
    for args in [
        &["play", "--analyse"][..],
        &["play", "--analyse", "--position", "1,2"],
        &["play", "--analyse", "--plain"],
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_vlt")).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}
