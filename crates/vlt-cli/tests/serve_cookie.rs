//! `vlt serve --public-url https://…` marks the player cookie `Secure`; over plain HTTP it is not.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

/// Starts `vlt serve` (with `extra` flags), names a player through it and returns the
/// `Set-Cookie` line of the answer.
fn cookie_line(tag: &str, extra: &[&str], host: &str, origin: &str) -> String {
    let dir_tmp = tempfile::Builder::new().prefix(&format!("vlt-serve-cookie-{tag}-")).tempdir().unwrap();
    let dir = dir_tmp.path().to_path_buf();
    let mut child = Command::new(env!("CARGO_BIN_EXE_vlt"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(dir.join("g.db"))
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The listening address is not printed with a public URL: find it from the process's socket.
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let port = listening_port(child.id());
    let addr = format!("127.0.0.1:{port}");
    let body = r#"{"name":"Ada"}"#;
    let mut s = TcpStream::connect(&addr).unwrap();
    s.write_all(
        format!(
            "POST /api/me HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    answer
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("set-cookie:"))
        .unwrap_or_else(|| panic!("no cookie in {answer}"))
        .to_string()
}

/// The TCP port the process `pid` listens on, read from /proc (its only listening socket).
fn listening_port(pid: u32) -> u16 {
    let inodes: Vec<String> = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .filter_map(|l| l.to_str()?.strip_prefix("socket:[")?.strip_suffix(']').map(str::to_string))
        .collect();
    let table = std::fs::read_to_string("/proc/net/tcp").unwrap();
    table
        .lines()
        .skip(1)
        .find_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            // State 0A is LISTEN.
            (f[3] == "0A" && inodes.iter().any(|i| i == f[9]))
                .then(|| u16::from_str_radix(f[1].rsplit(':').next().unwrap(), 16).unwrap())
        })
        .expect("vlt serve listens on no socket")
}

#[test]
fn an_https_public_url_makes_the_player_cookie_secure() {
    let line = cookie_line(
        "https",
        &["--public-url", "https://play.example.org"],
        "play.example.org",
        "https://play.example.org",
    );
    assert!(line.contains("; Secure"), "{line}");
}

#[test]
fn over_plain_http_the_cookie_is_not_marked_secure() {
    let line = cookie_line("http", &[], "127.0.0.1", "http://127.0.0.1");
    assert!(!line.contains("Secure"), "{line}");
}
