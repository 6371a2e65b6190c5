//! Two `vlt serve` processes on one PostgreSQL database: a game with one player on each, its moves
//! reaching the other server's player live; the server running the clock is killed (SIGKILL) in
//! the middle of the game, and no acknowledged move is lost, the clock runs on, and the surviving
//! server takes the clock's lease and ends the game on time; a seek posted on one process is
//! listed and accepted on the other, of two accepts on the two exactly one wins, and the game is
//! played a move each way. Runs when `VLT_TEST_POSTGRES` names a database (scripts/test.sh starts
//! a throwaway cluster); a bad or unreachable database is refused in one line, exit 2, always.

use futures_util::StreamExt;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// A `vlt serve` process and its address.
struct Server {
    child: Child,
    base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(db: &str) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_vlt"))
        .args(["serve", "--addr", "127.0.0.1:0", "--games-per-minute", "0", "--accounts-per-minute", "0"])
        .args(["--db", db])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    assert!(!line.contains("secret"), "the password is never shown: {line}");
    let addr =
        line.split("http://").nth(1).and_then(|r| r.split('/').next()).unwrap_or_else(|| panic!("{line}"));
    Server { base: format!("http://{addr}"), child }
}

/// A client with a player's cookie.
struct Player {
    http: reqwest::Client,
    cookie: String,
}

impl Player {
    async fn new(s: &Server, name: &str) -> Player {
        let http = reqwest::Client::new();
        let r = http.post(format!("{}/api/me", s.base)).json(&json!({ "name": name })).send().await.unwrap();
        assert_eq!(r.status(), 200);
        let cookie = r.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
        Player { http, cookie }
    }

    async fn get(&self, s: &Server, path: &str) -> Value {
        let r =
            self.http.get(format!("{}{path}", s.base)).header("cookie", &self.cookie).send().await.unwrap();
        r.json().await.unwrap()
    }

    async fn post(&self, s: &Server, path: &str, body: Value) -> (u16, Value) {
        let r = self
            .http
            .post(format!("{}{path}", s.base))
            .header("cookie", &self.cookie)
            .json(&body)
            .send()
            .await
            .unwrap();
        (r.status().as_u16(), r.json().await.unwrap())
    }
}

async fn game(s: &Server, id: &str) -> Value {
    reqwest::get(format!("{}/api/games/{id}", s.base)).await.unwrap().json().await.unwrap()
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn watch(s: &Server, id: &str) -> Ws {
    let url = format!("{}/api/games/{id}/ws", s.base.replace("http://", "ws://"));
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

/// The next game message on `sock` (state or delta) satisfying `want`, within `within`.
async fn wait_for(sock: &mut Ws, within: Duration, want: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + within;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let m =
            tokio::time::timeout(left, sock.next()).await.expect("no such message in time").unwrap().unwrap();
        if let Message::Text(t) = m {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if (v["type"] == "state" || v["type"] == "delta") && want(&v) {
                return v;
            }
        }
    }
}

/// A database of its own on the server `url` names, called `test` and this process's id.
async fn fresh_database(url: &str, test: &str) -> String {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.unwrap();
    let driver = tokio::spawn(conn);
    let name = format!("vlt_{test}_{}", std::process::id());
    client.batch_execute(&format!("DROP DATABASE IF EXISTS {name}")).await.unwrap();
    client.batch_execute(&format!("CREATE DATABASE {name}")).await.unwrap();
    drop(client);
    let _ = driver.await;
    let server = url
        .split_once("://")
        .map(|(_, r)| r)
        .filter(|r| r.contains('/'))
        .map_or(url, |_| url.rsplit_once('/').map_or(url, |(s, _)| s));
    format!("{server}/{name}")
}

async fn query(url: &str, sql: &str) -> Vec<tokio_postgres::Row> {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    client.query(sql, &[]).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_share_a_game_and_the_clock_survives_a_killed_server() {
    let Ok(url) = std::env::var("VLT_TEST_POSTGRES") else {
        eprintln!("skipped: VLT_TEST_POSTGRES is not set (scripts/test.sh sets it)");
        return;
    };
    let db = fresh_database(&url, "two_servers").await;
    let s1 = serve(&db);
    let b = Player::new(&s1, "Bawi").await;
    let clock = json!({"initial_ms": 6000, "increment_ms": 0});
    let (st, created) =
        b.post(&s1, "/api/games", json!({"mode": "online", "side": "B", "clock": clock})).await;
    assert_eq!(st, 201, "{created}");
    let id = created["game"]["id"].as_str().unwrap().to_string();
    // The first server takes the clock's lease before the second starts: it is the one killed.
    let t0 = Instant::now();
    while query(&db, "SELECT owner FROM clock_leases").await.is_empty() {
        assert!(t0.elapsed() < Duration::from_secs(10), "no server took the clock's lease");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let s2 = serve(&db);
    let a = Player::new(&s2, "Ate").await;
    let (st, joined) = a.post(&s2, &format!("/api/games/{id}/join"), json!({})).await;
    assert_eq!(st, 200, "{joined}");
    let mut watch_b = watch(&s1, &id).await;
    let mut watch_a = watch(&s2, &id).await;
    // The join made on the second server reaches the first server's player.
    wait_for(&mut watch_b, Duration::from_secs(5), |v| v["game"]["players"]["A"]["name"] == "Ate").await;

    // Six moves, each acknowledged by one server and seen live by the other server's player.
    let mut acknowledged: Vec<String> = Vec::new();
    let mut legal: Vec<Value> = joined["game"]["legal"].as_array().unwrap().clone();
    for ply in 0..6 {
        let (mover, server, other_sock) =
            if ply % 2 == 0 { (&b, &s1, &mut watch_a) } else { (&a, &s2, &mut watch_b) };
        let mv = legal[0].as_str().unwrap().to_string();
        let (st, g) = mover.post(server, &format!("/api/games/{id}/move"), json!({"move": mv})).await;
        assert_eq!(st, 200, "ply {ply} ({mv}): {g}");
        acknowledged.push(mv.clone());
        let n = acknowledged.len();
        let seen = wait_for(other_sock, Duration::from_secs(5), |v| {
            v["game"]["plies"].as_array().is_some_and(|p| p.last().is_some_and(|l| l["n"] == n))
        })
        .await;
        assert_eq!(seen["game"]["plies"].as_array().unwrap().last().unwrap()["move"], mv.as_str());
        legal = g["legal"].as_array().unwrap().clone();
    }
    // B (on the first server) is to move, with the clock running, when that server dies.
    let before = game(&s2, &id).await;
    assert_eq!(before["clock"]["running"], "B", "{before}");
    drop(s1);

    // No acknowledged move is lost: the database and the surviving server have every one.
    let stored: Vec<String> =
        query(&db, &format!("SELECT mv FROM moves WHERE game_id = '{id}' ORDER BY ply"))
            .await
            .iter()
            .map(|r| r.get(0))
            .collect();
    assert_eq!(stored, acknowledged);
    let now = game(&s2, &id).await;
    let plies: Vec<&str> =
        now["plies"].as_array().unwrap().iter().map(|p| p["move"].as_str().unwrap()).collect();
    assert_eq!(plies, acknowledged);
    // The clock still runs: B's time goes down, and nobody has won yet.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let later = game(&s2, &id).await;
    assert!(later["result"].is_null(), "{later}");
    assert_eq!(later["clock"]["running"], "B");
    assert!(later["clock"]["b_ms"].as_i64() < now["clock"]["b_ms"].as_i64(), "{now} then {later}");
    // The surviving server takes the lease and B loses on time, told live to A, unasked.
    let ended =
        wait_for(&mut watch_a, Duration::from_secs(15), |v| v["game"]["result"]["termination"] == "time")
            .await;
    assert_eq!(ended["game"]["result"]["winner"], "A", "{ended}");
    assert_eq!(ended["game"]["clock"]["b_ms"], 0);
    let finished = query(&db, &format!("SELECT finished, resigned FROM games WHERE id = '{id}'")).await;
    assert!(finished[0].get::<_, bool>(0));
    assert_eq!(finished[0].get::<_, Option<String>>(1).as_deref(), Some("B:time"));
    drop(s2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_share_the_lobby() {
    let Ok(url) = std::env::var("VLT_TEST_POSTGRES") else {
        eprintln!("skipped: VLT_TEST_POSTGRES is not set (scripts/test.sh sets it)");
        return;
    };
    let db = fresh_database(&url, "two_lobbies").await;
    let (s1, s2) = (serve(&db), serve(&db));
    let seeker = Player::new(&s1, "Bawi").await;
    let (one, other) = (Player::new(&s1, "Ate").await, Player::new(&s2, "Zo").await);
    let (st, seek) = seeker.post(&s1, "/api/seeks", json!({"rated": false, "colour": "B"})).await;
    assert_eq!(st, 201, "{seek}");
    let sid = seek["id"].as_str().unwrap().to_string();
    let lobby = other.get(&s2, "/api/lobby").await;
    assert_eq!(lobby["seeks"][0]["id"], sid.as_str(), "listed on the other server: {lobby}");
    let path = format!("/api/seeks/{sid}/accept");
    let (a, b) = tokio::join!(one.post(&s1, &path, json!({})), other.post(&s2, &path, json!({})));
    let mut statuses = [a.0, b.0];
    statuses.sort_unstable();
    assert_eq!(statuses, [201, 404], "{a:?} {b:?}");
    let (winner, server, seated) = if a.0 == 201 { (&one, &s1, a.1) } else { (&other, &s2, b.1) };
    let id = seated["game"]["id"].as_str().unwrap().to_string();
    // The seeker, polling the first server, is sent to the game; a move each way.
    assert_eq!(seeker.get(&s1, "/api/lobby").await["mine"], json!([id]));
    let mut watch_winner = watch(server, &id).await;
    let (st, g) = seeker.post(&s2, &format!("/api/games/{id}/move"), json!({"move": "1B"})).await;
    assert_eq!(st, 200, "{g}");
    wait_for(&mut watch_winner, Duration::from_secs(5), |v| {
        v["game"]["plies"].as_array().is_some_and(|p| p.len() == 1)
    })
    .await;
    let mv = g["legal"][0].as_str().unwrap().to_string();
    let (st, g) = winner.post(server, &format!("/api/games/{id}/move"), json!({"move": mv})).await;
    assert_eq!(st, 200, "{g}");
    assert_eq!(game(&s1, &id).await["plies"].as_array().unwrap().len(), 2);
}

#[test]
fn a_bad_or_unreachable_database_is_one_line_and_exit_2() {
    for db in
        ["postgres://vlt:secret@127.0.0.1:1/nowhere", "mysql://x/y", "postgres://vlt@127.0.0.1:notaport/x"]
    {
        let out = Command::new(env!("CARGO_BIN_EXE_vlt"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{db}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{db}: {err}");
        assert!(!err.contains("secret"), "the password is never shown: {err}");
    }
}
