//! The lobby, offers and presence between two servers on one database: on PostgreSQL two hubs of
//! their own (each with its own store, pool and listener, as two `vlt serve` have), with every
//! player on the server the test puts them on; on SQLite the same steps with both "servers" being
//! one (a SQLite file has one server). A seek posted on one is seen and accepted on the other and
//! the game is played a move each way; two racing accepts, one wins; the bounds hold across
//! servers; a stopped server's seeks leave the lobby (at once when it stops cleanly); a takeback and a rematch agreed across
//! servers; presence across servers.

mod common;

use futures_util::StreamExt;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use vlt_server::{Bounds, Hub};

struct Server {
    hub: Arc<Hub>,
    base: String,
    ws: String,
    http: reqwest::Client,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn start(store: vlt_server::Store) -> Arc<Server> {
    let hub = Hub::new(store, Bounds::default());
    hub.resume_clocks().await.unwrap();
    let (addr, task) = common::serve(Arc::clone(&hub)).await;
    let http = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    Arc::new(Server { hub, base: format!("http://{addr}"), ws: format!("ws://{addr}"), http, task })
}

/// Two servers on `db`: two on PostgreSQL, one twice on SQLite.
async fn two(db: &common::TestDb) -> (Arc<Server>, Arc<Server>) {
    let one = start(db.open()).await;
    let other = match db {
        common::TestDb::Sqlite(..) => Arc::clone(&one),
        common::TestDb::Postgres(_) => start(db.open()).await,
    };
    (one, other)
}

/// A player: the cookie that names them.
struct Player {
    cookie: String,
}

impl Server {
    async fn req(&self, who: Option<&Player>, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let url = format!("{}{path}", self.base);
        let mut r = match method {
            "GET" => self.http.get(url),
            "DELETE" => self.http.delete(url),
            _ => self.http.post(url),
        };
        if let Some(p) = who {
            r = r.header("cookie", &p.cookie);
        }
        if let Some(b) = body {
            r = r.header("content-type", "application/json").body(b.to_string());
        }
        let resp = r.send().await.unwrap();
        let status = resp.status().as_u16();
        let text = resp.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}")))
    }

    async fn post(&self, who: &Player, path: &str, body: Value) -> (u16, Value) {
        self.req(Some(who), "POST", path, Some(body)).await
    }

    async fn lobby(&self, who: &Player) -> Value {
        let (st, l) = self.req(Some(who), "GET", "/api/lobby", None).await;
        assert_eq!(st, 200, "{l}");
        l
    }

    /// A new player named `name`, made on this server.
    async fn player(&self, name: &str) -> Player {
        let r = self
            .http
            .post(format!("{}/api/me", self.base))
            .header("content-type", "application/json")
            .body(json!({ "name": name }).to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        let cookie = r.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
        Player { cookie }
    }

    /// A socket on game `id`, as `who` (by cookie) or as a spectator.
    async fn watch(&self, id: &str, who: Option<&Player>) -> Ws {
        let mut req = format!("{}/api/games/{id}/ws", self.ws).into_client_request().unwrap();
        if let Some(p) = who {
            req.headers_mut().insert("cookie", p.cookie.parse().unwrap());
        }
        tokio_tungstenite::connect_async(req).await.unwrap().0
    }
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The next message on `sock` of type `kind` (`game` for a state, update or delta) satisfying
/// `want`, within 10 s.
async fn wait_for(sock: &mut Ws, kind: &str, want: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let m =
            tokio::time::timeout(left, sock.next()).await.expect("no such message in time").unwrap().unwrap();
        if let Message::Text(t) = m {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            let t = v["type"].as_str().unwrap_or("");
            let game = matches!(t, "state" | "update" | "delta");
            if (t == kind || (kind == "game" && game)) && want(&v) {
                return v;
            }
        }
    }
}

/// Whether `sock`'s game has `n` plies, the last being `mv`.
fn last_ply(v: &Value, n: usize, mv: &str) -> bool {
    v["game"]["plies"].as_array().and_then(|p| p.last()).is_some_and(|l| l["n"] == n && l["move"] == mv)
}

/// A casual untimed game made from a seek posted by `seeker` on `s1` (seated at B) and accepted by
/// `taker` on `s2`; answers its id.
async fn game_from_seek(s1: &Server, s2: &Server, seeker: &Player, taker: &Player) -> String {
    let (st, seek) = s1.post(seeker, "/api/seeks", json!({"rated": false, "colour": "B"})).await;
    assert_eq!(st, 201, "{seek}");
    let sid = seek["id"].as_str().unwrap();
    let (st, seated) = s2.post(taker, &format!("/api/seeks/{sid}/accept"), json!({})).await;
    assert_eq!(st, 201, "{seated}");
    seated["game"]["id"].as_str().unwrap().to_string()
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_posted_on_one_server_is_accepted_on_the_other_and_played(db) {
    let (s1, s2) = two(&db).await;
    let seeker = s1.player("Bawi").await;
    let taker = s2.player("Ate").await;
    let (st, seek) = s1.post(&seeker, "/api/seeks", json!({"rated": true, "colour": "B"})).await;
    assert_eq!(st, 201, "{seek}");
    let sid = seek["id"].as_str().unwrap().to_string();
    // Listed on the other server, with the seeker's card.
    let lobby = s2.lobby(&taker).await;
    assert_eq!(lobby["seeks"].as_array().unwrap().len(), 1, "{lobby}");
    assert_eq!(lobby["seeks"][0]["id"], sid.as_str());
    assert_eq!(lobby["seeks"][0]["player"]["name"], "Bawi");
    assert_eq!(lobby["seeks"][0]["colour"], "B");
    let (st, seated) = s2.post(&taker, &format!("/api/seeks/{sid}/accept"), json!({})).await;
    assert_eq!(st, 201, "{seated}");
    assert_eq!(seated["seat"], "A");
    let id = seated["game"]["id"].as_str().unwrap().to_string();
    // The seeker, polling the first server, finds the seek gone and the game among theirs.
    let lobby = s1.lobby(&seeker).await;
    assert_eq!(lobby["seeks"], json!([]), "{lobby}");
    assert_eq!(lobby["mine"], json!([id]));
    assert_eq!(lobby["playing"][0]["id"], id.as_str());
    assert_eq!(lobby["playing"][0]["players"]["B"]["name"], "Bawi");
    assert_eq!(lobby["playing"][0]["players"]["A"]["name"], "Ate");
    assert_eq!(s2.lobby(&taker).await["mine"], json!([id]));
    // Each plays from their own server and sees the other's move live.
    let mut sock_b = s1.watch(&id, Some(&seeker)).await;
    let mut sock_a = s2.watch(&id, Some(&taker)).await;
    let hello = wait_for(&mut sock_b, "game", |v| v["type"] == "state").await;
    assert_eq!(hello["you"], "B", "{hello}");
    let (st, g) = s1.post(&seeker, &format!("/api/games/{id}/move"), json!({"move": "1B"})).await;
    assert_eq!(st, 200, "{g}");
    wait_for(&mut sock_a, "game", |v| last_ply(v, 1, "1B")).await;
    let mv = g["legal"][0].as_str().unwrap().to_string();
    let (st, g) = s2.post(&taker, &format!("/api/games/{id}/move"), json!({"move": mv})).await;
    assert_eq!(st, 200, "{g}");
    wait_for(&mut sock_b, "game", |v| last_ply(v, 2, &mv)).await;
    let (st, _) = s1.post(&taker, &format!("/api/games/{id}/move"), json!({"move": "1A"})).await;
    assert_eq!(st, 409, "not A's turn, whichever server is asked");
    assert_eq!(s2.lobby(&taker).await["playing"][0]["moves"], 2);
}
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn of_two_accepts_on_two_servers_one_wins_and_the_bounds_hold_across_servers(db) {
    let (s1, s2) = two(&db).await;
    let seeker = s1.player("Bawi").await;
    let (one, other) = (s1.player("Ate").await, s2.player("Zo").await);
    for round in 0..5 {
        let (st, seek) = s1.post(&seeker, "/api/seeks", json!({"rated": false})).await;
        assert_eq!(st, 201, "{seek}");
        let path = format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap());
        let (a, b) = tokio::join!(s1.post(&one, &path, json!({})), s2.post(&other, &path, json!({})));
        let mut statuses = [a.0, b.0];
        statuses.sort_unstable();
        assert_eq!(statuses, [201, 404], "round {round}: {a:?} {b:?}");
        let lost = if a.0 == 404 { a.1 } else { b.1 };
        assert!(lost["error"].as_str().unwrap().contains("seek"), "{lost}");
        assert_eq!(s2.lobby(&other).await["seeks"], json!([]));
    }
    // Three seeks at most for a player, wherever posted.
    for s in [&s1, &s2, &s1] {
        assert_eq!(s.post(&seeker, "/api/seeks", json!({})).await.0, 201);
    }
    let (st, e) = s2.post(&seeker, "/api/seeks", json!({})).await;
    assert_eq!(st, 503, "{e}");
    assert!(e["error"].as_str().unwrap().contains("at most 3"), "{e}");
    // One's own seek is refused; withdrawn on one server, it is gone on both.
    let seeks = s2.lobby(&seeker).await["seeks"].clone();
    assert_eq!(seeks.as_array().unwrap().len(), 3);
    let sid = seeks[0]["id"].as_str().unwrap();
    assert_eq!(s2.post(&seeker, &format!("/api/seeks/{sid}/accept"), json!({})).await.0, 409);
    assert_eq!(s1.req(Some(&other), "DELETE", &format!("/api/seeks/{sid}"), None).await.0, 404);
    assert_eq!(s2.req(Some(&seeker), "DELETE", &format!("/api/seeks/{sid}"), None).await.0, 200);
    assert_eq!(s1.lobby(&other).await["seeks"].as_array().unwrap().len(), 2);
    assert_eq!(s1.post(&other, &format!("/api/seeks/{sid}/accept"), json!({})).await.0, 404);
}
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_servers_seeks_leave_the_lobby(db) {
    let s1 = start(db.open()).await;
    let seeker = s1.player("Bawi").await;
    assert_eq!(s1.post(&seeker, "/api/seeks", json!({})).await.0, 201);
    // On PostgreSQL another server running all along; on SQLite the same file's next server.
    let s2 = match &db {
        common::TestDb::Postgres(_) => Some(start(db.open()).await),
        common::TestDb::Sqlite(..) => None,
    };
    if let Some(s2) = &s2 {
        assert_eq!(s2.lobby(&seeker).await["seeks"].as_array().unwrap().len(), 1);
    }
    drop(s1);
    // The stopped server's hub goes with its last request; give it a moment.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let s2 = match s2 {
        Some(s) => s,
        None => start(db.open()).await,
    };
    let t0 = Instant::now();
    while !s2.lobby(&seeker).await["seeks"].as_array().unwrap().is_empty() {
        assert!(t0.elapsed() < Duration::from_secs(10), "the stopped server's seek stayed");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    // The lobby is open as before.
    assert_eq!(s2.post(&seeker, "/api/seeks", json!({})).await.0, 201);
    assert_eq!(s2.lobby(&seeker).await["seeks"].as_array().unwrap().len(), 1);
}
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_stops_cleanly_takes_its_seeks_and_sockets_with_it_at_once(db) {
    let (s1, s2) = two(&db).await;
    let (b, a) = (s1.player("Bawi").await, s2.player("Ate").await);
    let id = game_from_seek(&s1, &s2, &b, &a).await;
    assert_eq!(s1.post(&b, "/api/seeks", json!({})).await.0, 201);
    assert_eq!(s2.lobby(&a).await["seeks"].as_array().unwrap().len(), 1);
    let _sock_b = s1.watch(&id, Some(&b)).await;
    let mut spectator = s2.watch(&id, None).await;
    wait_for(&mut spectator, "presence", |v| v["seats"]["B"] == true).await;
    s1.hub.leave().await;
    assert_eq!(s2.lobby(&a).await["seeks"], json!([]), "gone at once, not after the lease");
    if !Arc::ptr_eq(&s1, &s2) {
        wait_for(&mut spectator, "presence", |v| v["seats"]["B"] == false).await;
    }
}
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_and_a_rematch_are_agreed_across_servers(db) {
    let (s1, s2) = two(&db).await;
    let (b, a) = (s1.player("Bawi").await, s2.player("Ate").await);
    let id = game_from_seek(&s1, &s2, &b, &a).await;
    let path = |what: &str| format!("/api/games/{id}/{what}");
    let mut sock_b = s1.watch(&id, Some(&b)).await;
    let mut sock_a = s2.watch(&id, Some(&a)).await;
    assert_eq!(s1.post(&b, &path("move"), json!({"move": "3B"})).await.0, 200);
    wait_for(&mut sock_a, "game", |v| last_ply(v, 1, "3B")).await;
    // B asks on the first server; A, on the second, is told and declines.
    let (st, g) = s1.post(&b, &path("takeback"), json!({})).await;
    assert_eq!(st, 200, "{g}");
    wait_for(&mut sock_a, "game", |v| v["game"]["takeback"] == "B").await;
    let (st, g) = s2.post(&a, &path("takeback/decline"), json!({})).await;
    assert_eq!(st, 200, "{g}");
    wait_for(&mut sock_b, "game", |v| v["game"]["takeback"].is_null()).await;
    assert_eq!(s1.post(&b, &path("takeback/decline"), json!({})).await.0, 409, "nothing asked now");
    // Asked again, agreed on the other server: B's move is taken back for both.
    s1.post(&b, &path("takeback"), json!({})).await;
    wait_for(&mut sock_a, "game", |v| v["game"]["takeback"] == "B").await;
    let (st, g) = s2.post(&a, &path("takeback"), json!({})).await;
    assert_eq!(st, 200, "{g}");
    assert_eq!(g["plies"], json!([]));
    wait_for(&mut sock_b, "game", |v| {
        v["game"]["to_move"] == "B" && v["game"]["takeback"].is_null() && v["game"]["captured_b"] == 0
            && v["game"]["plies"].as_array().is_some_and(Vec::is_empty)
    })
    .await;
    assert_eq!(s2.post(&a, &path("takeback"), json!({})).await.0, 409, "agreed once only");
    // A rematch offered on one server and agreed on the other.
    assert_eq!(s1.post(&b, &path("move"), json!({"move": "1B"})).await.0, 200);
    wait_for(&mut sock_a, "game", |v| last_ply(v, 1, "1B")).await;
    assert_eq!(s2.post(&a, &path("resign"), json!({})).await.0, 200);
    wait_for(&mut sock_b, "game", |v| v["game"]["result"]["winner"] == "B").await;
    let (st, g) = s2.post(&a, &path("rematch"), json!({})).await;
    assert_eq!(st, 200, "{g}");
    wait_for(&mut sock_b, "game", |v| v["game"]["rematch"]["offered_by"] == "A").await;
    let (st, g) = s1.post(&b, &path("rematch"), json!({})).await;
    assert_eq!(st, 200, "{g}");
    let new = g["rematch"]["game"].as_str().unwrap().to_string();
    let told = wait_for(&mut sock_a, "game", |v| v["game"]["rematch"]["game"].is_string()).await;
    assert_eq!(told["game"]["rematch"]["game"], new.as_str());
    let (_, ng) = s2.req(None, "GET", &format!("/api/games/{new}"), None).await;
    assert_eq!(ng["players"]["B"]["name"], "Ate", "colours swapped");
    assert_eq!(s2.post(&a, &format!("/api/games/{new}/move"), json!({"move": "1B"})).await.0, 200);
    let (_, again) = s2.post(&a, &path("rematch"), json!({})).await;
    assert_eq!(again["rematch"]["game"], new.as_str(), "one rematch only");
}
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_is_told_across_servers(db) {
    let (s1, s2) = two(&db).await;
    let (b, a) = (s1.player("Bawi").await, s2.player("Ate").await);
    let id = game_from_seek(&s1, &s2, &b, &a).await;
    let here = |v: &Value, bb: bool, aa: bool| v["seats"]["B"] == bb && v["seats"]["A"] == aa;
    let mut spectator = s2.watch(&id, None).await;
    wait_for(&mut spectator, "presence", |v| here(v, false, false)).await;
    let mut sock_b = s1.watch(&id, Some(&b)).await;
    wait_for(&mut sock_b, "presence", |v| here(v, true, false)).await;
    // B's socket on the first server reaches the second's spectator.
    wait_for(&mut spectator, "presence", |v| here(v, true, false)).await;
    let sock_a = s2.watch(&id, Some(&a)).await;
    wait_for(&mut sock_b, "presence", |v| here(v, true, true)).await;
    drop(sock_a);
    wait_for(&mut sock_b, "presence", |v| here(v, true, false)).await;
    // A socket opened later on the second server is told at once who is on the first.
    let mut late = s2.watch(&id, None).await;
    wait_for(&mut late, "presence", |v| here(v, true, false)).await;
    drop(sock_b);
    wait_for(&mut late, "presence", |v| here(v, false, false)).await;
}
}
