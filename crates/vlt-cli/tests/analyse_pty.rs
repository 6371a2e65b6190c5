//! End to end: `vlt play --analyse` in a pseudo-terminal of 80x24 (portable-pty, screen read with
//! vt100): the analysis shows, a key plays a move and the analysis follows, Backspace takes it
//! back, q leaves with the terminal restored; without a terminal it refuses with exit 2.

mod common;

use common::pty::spawn;
use std::process::Command;

#[test]
fn the_analysis_board_in_a_terminal() {
    let mut vlt = spawn(
        &["play", "--analyse", "--lang", "en", "--position", "2,1,0,3,0,1/1,0,2,0,1,1 B 24 24"],
        &[],
        24,
        80,
    );
    let screen = &vlt.screen;
    let t = screen.wait(30, "the analysis", |t| t.contains("B to move: ") && t.contains("Best line"));
    assert!(t.contains("Analysis board") && t.contains("Every move"), "{t}");
    vlt.send(b"4"); // 4B: 3 stones
    vlt.screen.wait(30, "A's analysis", |t| {
        t.contains("A to move: ") && t.contains("2,1,0,0,1,2/2,0,2,0,1,1 A 24 24")
    });
    vlt.send(b"\x7f"); // Backspace
    vlt.screen.wait(30, "back to the start", |t| t.contains("2,1,0,3,0,1/1,0,2,0,1,1 B 24 24"));
    vlt.send(b"q");
    let status = vlt.wait_exit(10, "q");
    assert!(status.success());
    // Left the alternate screen: the screen before it shows again (empty here).
    vlt.screen.wait_normal(10);
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
