//! `vlt serve` ends within seconds of SIGTERM, even with stalled clients and an open WebSocket.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn sigterm_ends_the_server_within_seconds_with_stalled_clients() {
    let dir_tmp = tempfile::Builder::new().prefix("vlt-serve-stop-").tempdir().unwrap();
    let dir = dir_tmp.path().to_path_buf();
    let mut child = Command::new(env!("CARGO_BIN_EXE_vlt"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(dir.join("g.db"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    // "vlt serve: open http://127.0.0.1:PORT/ (games in …)"
    let addr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).unwrap().to_string();
    // Stalled clients: half a request, a body that never comes, an upgraded WebSocket, an idle one.
    let mut half = TcpStream::connect(&addr).unwrap();
    half.write_all(b"GET /api/health HTTP/1.1\r\nHost: 127.").unwrap();
    let mut body = TcpStream::connect(&addr).unwrap();
    body.write_all(
        b"POST /api/import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{",
    )
    .unwrap();
    let mut create = TcpStream::connect(&addr).unwrap();
    create
        .write_all(
            format!(
                "POST /api/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
                 Content-Length: 17\r\nConnection: close\r\n\r\n{{\"mode\":\"online\"}}"
            )
            .as_bytes(),
        )
        .unwrap();
    let mut created = String::new();
    create.read_to_string(&mut created).unwrap();
    let id = created.split("\"id\":\"").nth(1).and_then(|r| r.split('"').next()).unwrap().to_string();
    let mut ws = TcpStream::connect(&addr).unwrap();
    ws.write_all(
        format!(
            "GET /api/games/{id}/ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        )
        .as_bytes(),
    )
    .unwrap();
    let mut buf = [0u8; 64];
    let n = ws.read(&mut buf).unwrap();
    assert!(buf[..n].starts_with(b"HTTP/1.1 101"), "{}", String::from_utf8_lossy(&buf[..n]));
    let _idle = TcpStream::connect(&addr).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let t0 = Instant::now();
    let killed = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t0.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("vlt serve still runs 10 s after SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let took = t0.elapsed();
    assert!(status.success(), "{status}");
    assert!(took < Duration::from_secs(6), "ended {took:?} after SIGTERM");
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    assert!(rest.contains("vlt serve: stopped"), "{rest}");
}
