//! `vlt loadtest --server-pid` reports the server's resident memory; a process that is not there
//! is one clear error line, exit 2.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

#[test]
fn the_servers_memory_is_sampled_and_a_missing_process_is_refused() {
    let dir_tmp = tempfile::Builder::new().prefix("vlt-loadtest-memory-").tempdir().unwrap();
    let dir = dir_tmp.path().to_path_buf();
    let mut server = Command::new(env!("CARGO_BIN_EXE_vlt"))
        .args(["serve", "--addr", "127.0.0.1:0", "--games-per-minute", "0", "--db"])
        .arg(dir.join("g.db"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).unwrap().to_string();
    let pid = server.id().to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_vlt"))
        .args(["loadtest", "--addr", &addr, "--games", "3", "--seconds", "2", "--via", "ws", "--json"])
        .args(["--server-pid", &pid])
        .output()
        .unwrap();
    let missing = Command::new(env!("CARGO_BIN_EXE_vlt"))
        .args(["loadtest", "--addr", &addr, "--games", "1", "--seconds", "1", "--server-pid", "4000000000"])
        .output()
        .unwrap();
    server.kill().unwrap();
    let _ = server.wait();

    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rss = r["server_rss_mib"].as_f64().expect("server_rss_mib");
    let peak = r["server_peak_rss_mib"].as_f64().expect("server_peak_rss_mib");
    // A running tokio server with SQLite open holds at least a megabyte, and the peak bounds
    // every sample.
    assert!(rss > 1.0 && peak >= rss, "rss {rss}, peak {peak}");
    assert!(r["moves"].as_u64().unwrap() > 0, "{r}");

    let err = String::from_utf8_lossy(&missing.stderr);
    assert_eq!(missing.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err:?}");
    assert!(err.contains("--server-pid 4000000000"), "{err:?}");
}
