//! The server's edge as an attacker meets it, over real sockets: stalled and idle connections
//! are closed, connections per address are capped, a stop ends the server within its grace
//! whatever the clients do, security headers, JSON only as application/json, Host and Origin
//! checks, rate limits, and every refusal as a JSON error.

use futures_util::StreamExt;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use vlt_server::ratelimit::Rate;
use vlt_server::{Bounds, Edge, Hosts, Hub, Store};

struct Srv {
    addr: SocketAddr,
    base: String,
    http: reqwest::Client,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<std::io::Result<()>>,
    _dir: tempfile::TempDir,
}

async fn start(edge: Edge) -> Srv {
    let dir = tempfile::tempdir().unwrap();
    let hub = Hub::new(Store::open(&dir.path().join("g.db")).unwrap(), Bounds::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let app = vlt_server::router_with(hub, &edge);
    let done = tokio::spawn(async move {
        vlt_server::listen::serve_until(listener, app, &edge, async {
            let _ = rx.await;
        })
        .await
    });
    let http = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    Srv { addr, base: format!("http://{addr}"), http, stop: Some(tx), done, _dir: dir }
}

impl Srv {
    async fn health(&self) -> bool {
        let r =
            self.http.get(format!("{}/api/health", self.base)).timeout(Duration::from_secs(5)).send().await;
        r.is_ok_and(|r| r.status() == 200)
    }

    async fn post(&self, path: &str, ct: Option<&str>, body: &str, headers: &[(&str, &str)]) -> (u16, Value) {
        let mut r = self.http.post(format!("{}{path}", self.base)).body(body.to_string());
        if let Some(ct) = ct {
            r = r.header("content-type", ct);
        }
        for (k, v) in headers {
            r = r.header(*k, *v);
        }
        let r = r.send().await.unwrap();
        let status = r.status().as_u16();
        let text = r.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}")))
    }
}

/// Waits until the server closes `s` (end of stream or reset), returning how long it took, or
/// `None` if it is still open after `limit`. Whatever the server answers first is read and kept.
async fn closed_within(s: &mut TcpStream, limit: Duration) -> Option<(Duration, String)> {
    let t0 = Instant::now();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout(limit.saturating_sub(t0.elapsed()), s.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some((t0.elapsed(), String::from_utf8_lossy(&got).into_owned())),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    }
}

async fn raw(addr: SocketAddr, bytes: &[u8]) -> TcpStream {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(bytes).await.unwrap();
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stalled_and_idle_connections_are_closed_and_the_server_keeps_answering() {
    let edge = Edge {
        header_timeout: Duration::from_millis(600),
        body_timeout: Duration::from_millis(600),
        max_connections_per_address: 1000,
        ..Edge::default()
    };
    let srv = start(edge).await;
    // Hundreds of idle connections do not keep the health check from answering.
    let mut idle = Vec::new();
    for _ in 0..300 {
        idle.push(TcpStream::connect(srv.addr).await.unwrap());
    }
    assert!(srv.health().await, "the server answers beside 300 idle connections");
    // Nothing sent; half a request's headers; a whole request, then idle on keep-alive.
    let mut silent = TcpStream::connect(srv.addr).await.unwrap();
    let mut half = raw(srv.addr, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n").await;
    let mut kept = raw(srv.addr, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").await;
    for (what, s) in [("silent", &mut silent), ("half headers", &mut half)] {
        let (t, _) =
            closed_within(s, Duration::from_secs(5)).await.unwrap_or_else(|| panic!("{what} stays open"));
        assert!(t < Duration::from_secs(3), "{what}: closed after {t:?}");
    }
    let (_, answer) =
        closed_within(&mut kept, Duration::from_secs(5)).await.expect("idle keep-alive stays open");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // A body that stops halfway is refused with a JSON error.
    let mut slow = raw(
        srv.addr,
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"mo",
    )
    .await;
    let (t, answer) =
        closed_within(&mut slow, Duration::from_secs(5)).await.expect("a stalled body stays open");
    assert!(t < Duration::from_secs(3), "stalled body: closed after {t:?}");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("{\"error\":"), "{answer}");
    // The 300 idle ones were closed too.
    for s in &mut idle[..5] {
        assert!(closed_within(s, Duration::from_secs(3)).await.is_some());
    }
    assert!(srv.health().await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_are_capped_per_address_websockets_included() {
    let edge =
        Edge { max_connections_per_address: 4, header_timeout: Duration::from_secs(30), ..Edge::default() };
    let srv = start(edge).await;
    let (st, g) = srv.post("/api/games", Some("application/json"), r#"{"mode":"online"}"#, &[]).await;
    assert_eq!(st, 201, "{g}");
    let id = g["game"]["id"].as_str().unwrap().to_string();
    let mut sockets = Vec::new();
    for _ in 0..2 {
        let (ws, _) =
            tokio_tungstenite::connect_async(format!("ws://{}/api/games/{id}/ws", srv.addr)).await.unwrap();
        sockets.push(ws);
    }
    let mut open =
        vec![TcpStream::connect(srv.addr).await.unwrap(), TcpStream::connect(srv.addr).await.unwrap()];
    // Two WebSockets and two connections: the fifth is closed before anything is read.
    let mut fifth = raw(srv.addr, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").await;
    let (_, answer) = closed_within(&mut fifth, Duration::from_secs(3)).await.expect("the fifth stays open");
    assert_eq!(answer, "", "nothing is answered over the cap");
    assert!(!srv.health().await);
    // Closing a WebSocket gives its place back.
    let mut ws = sockets.pop().unwrap();
    ws.close(None).await.unwrap();
    while ws.next().await.is_some() {}
    drop(ws);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(srv.health().await, "a closed WebSocket's place is free again");
    open.clear();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_ends_the_server_within_its_grace_whatever_the_clients_do() {
    let edge = Edge {
        header_timeout: Duration::from_secs(60),
        body_timeout: Duration::from_secs(60),
        shutdown_grace: Duration::from_millis(800),
        ..Edge::default()
    };
    let mut srv = start(edge).await;
    let (_, g) = srv.post("/api/games", Some("application/json"), r#"{"mode":"online"}"#, &[]).await;
    let id = g["game"]["id"].as_str().unwrap().to_string();
    let (_ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{}/api/games/{id}/ws", srv.addr)).await.unwrap();
    let _half = raw(srv.addr, b"GET /api/health HTTP/1.1\r\nHost: 127.").await;
    let _body = raw(
        srv.addr,
        b"POST /api/import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 9000\r\n\r\n{",
    )
    .await;
    let _idle = TcpStream::connect(srv.addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let t0 = Instant::now();
    srv.stop.take().unwrap().send(()).unwrap();
    let r = tokio::time::timeout(Duration::from_secs(5), &mut srv.done).await;
    let t = t0.elapsed();
    assert!(r.is_ok(), "the server did not end within 5 s");
    assert!(t < Duration::from_secs(2), "ended after {t:?}");
    // No new connection is taken any more.
    assert!(TcpStream::connect(srv.addr).await.is_err() || !srv.health().await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_carries_the_security_headers() {
    let srv = start(Edge::default()).await;
    for path in ["/", "/static/app.js", "/api/health", "/api/games/nosuch", "/nowhere"] {
        let r = srv.http.get(format!("{}{path}", srv.base)).send().await.unwrap();
        let h = r.headers();
        let csp = h.get("content-security-policy").and_then(|v| v.to_str().ok()).unwrap_or("");
        assert!(
            csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"),
            "{path}: {csp}"
        );
        assert!(!csp.contains("unsafe-inline"), "{path}");
        assert_eq!(h.get("x-content-type-options").unwrap(), "nosniff", "{path}");
        assert_eq!(h.get("referrer-policy").unwrap(), "no-referrer", "{path}");
        assert_eq!(h.get("x-frame-options").unwrap(), "DENY", "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_bodies_are_only_taken_as_application_json() {
    let srv = start(Edge::default()).await;
    let body = r#"{"mode":"local"}"#;
    for ct in
        [None, Some("text/plain"), Some("application/x-www-form-urlencoded"), Some("multipart/form-data")]
    {
        let (st, e) = srv.post("/api/games", ct, body, &[]).await;
        assert_eq!(st, 415, "{ct:?}: {e}");
        assert!(e["error"].as_str().unwrap().contains("application/json"));
        let (st, _) = srv.post("/api/import", ct, r#"{"record":"1. 1B"}"#, &[]).await;
        assert_eq!(st, 415, "import {ct:?}");
    }
    let (st, e) = srv.post("/api/games", Some("application/json; charset=utf-8"), body, &[]).await;
    assert_eq!(st, 201, "{e}");
    let id = e["game"]["id"].as_str().unwrap();
    let token = e["token"].as_str().unwrap();
    let (st, _) = srv
        .post(
            &format!("/api/games/{id}/move"),
            Some("text/plain"),
            &json!({"token": token, "move": "1B"}).to_string(),
            &[],
        )
        .await;
    assert_eq!(st, 415);
    let g: Value =
        srv.http.get(format!("{}/api/games/{id}", srv.base)).send().await.unwrap().json().await.unwrap();
    assert_eq!(g["plies"].as_array().unwrap().len(), 0, "a refused move changed the game");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_hosts_and_foreign_origins_are_refused() {
    // Without a public URL: local names and addresses only, same-origin pages only.
    let srv = start(Edge::default()).await;
    let get = |host: &'static str| {
        let url = format!("{}/api/health", srv.base);
        let http = srv.http.clone();
        async move {
            let r = http.get(url).header("host", host).send().await.unwrap();
            (r.status().as_u16(), r.text().await.unwrap())
        }
    };
    let (st, text) = get("evil.example:8080").await;
    assert_eq!(st, 421, "{text}");
    assert!(serde_json::from_str::<Value>(&text).unwrap()["error"].is_string());
    assert_eq!(get("localhost:1234").await.0, 200);
    let ok = Some("application/json");
    let (st, _) = srv.post("/api/games", ok, "{}", &[("origin", "http://evil.example")]).await;
    assert_eq!(st, 403);
    let own = format!("http://{}", srv.addr);
    let (st, g) = srv.post("/api/games", ok, r#"{"mode":"online"}"#, &[("origin", &own)]).await;
    assert_eq!(st, 201);
    let id = g["game"]["id"].as_str().unwrap().to_string();
    let ws_with = |origin: String| {
        let url = format!("ws://{}/api/games/{id}/ws", srv.addr);
        async move {
            use tokio_tungstenite::tungstenite::client::IntoClientRequest;
            let mut req = url.into_client_request().unwrap();
            req.headers_mut().insert("origin", origin.parse().unwrap());
            tokio_tungstenite::connect_async(req).await
        }
    };
    match ws_with("http://evil.example".into()).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => assert_eq!(r.status().as_u16(), 403),
        other => panic!("a foreign page's WebSocket was not refused: {:?}", other.map(|_| ())),
    }
    assert!(ws_with(own.clone()).await.is_ok(), "the page's own WebSocket");

    // With a public URL, only its host and its pages.
    let public =
        start(Edge { hosts: Hosts::Public("https://play.example.org".parse().unwrap()), ..Edge::default() })
            .await;
    let r = public.http.get(format!("{}/api/health", public.base)).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 421, "the bare address is not the public host");
    let r = public
        .http
        .get(format!("{}/api/health", public.base))
        .header("host", "play.example.org")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert!(r.headers().get("strict-transport-security").is_some());
    let (st, _) = public
        .post("/api/games", ok, "{}", &[("host", "play.example.org"), ("origin", "http://127.0.0.1:8080")])
        .await;
    assert_eq!(st, 403);
    let (st, _) = public
        .post("/api/games", ok, "{}", &[("host", "play.example.org"), ("origin", "https://play.example.org")])
        .await;
    assert_eq!(st, 201);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_refusal_is_a_json_error() {
    let srv = start(Edge::default()).await;
    let (_, g) = srv.post("/api/games", Some("application/json"), r#"{"mode":"local"}"#, &[]).await;
    let id = g["game"]["id"].as_str().unwrap();
    for (method, path, status) in [
        ("GET", "/api/games/%FF%FE/record".to_string(), 400),
        ("GET", "/api/games?limit=99999999999999999999999999".to_string(), 400),
        ("GET", "/api/games?offset=-1".to_string(), 400),
        ("GET", format!("/api/games/{id}/analysis?ms=1e9"), 400),
        ("DELETE", format!("/api/games/{id}"), 405),
        ("GET", format!("/api/games/{id}/ws"), 400),
        ("GET", "/static/nothing.js".to_string(), 404),
    ] {
        let r =
            srv.http.request(method.parse().unwrap(), format!("{}{path}", srv.base)).send().await.unwrap();
        let st = r.status().as_u16();
        let ct = r.headers().get("content-type").map(|v| v.to_str().unwrap().to_string());
        let text = r.text().await.unwrap();
        assert_eq!(st, status, "{method} {path}: {text}");
        assert_eq!(ct.as_deref(), Some("application/json"), "{method} {path}");
        let v: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{path}: not JSON: {text}"));
        assert!(!v["error"].as_str().unwrap().is_empty(), "{path}");
    }
    // A 404 names what is missing, in its own words.
    let n = vlt_learn::shipped::set().puzzles.len();
    for (path, message) in [
        ("/api/games/nosuchgame".to_string(), r#"no game "nosuchgame""#.to_string()),
        ("/api/puzzles/0".to_string(), format!("no puzzle 0: the set has 1 to {n}")),
        ("/api/players/nosuchplayer".to_string(), "no player nosuchplayer".to_string()),
        ("/api/nothing".to_string(), "no such route".to_string()),
    ] {
        let r = srv.http.get(format!("{}{path}", srv.base)).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 404, "{path}");
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["error"], message.as_str(), "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_games_are_rate_limited_per_address() {
    let srv = start(Edge { games_rate: Rate { per_minute: 6, burst: 3 }, ..Edge::default() }).await;
    let ok = Some("application/json");
    for _ in 0..2 {
        assert_eq!(srv.post("/api/games", ok, "{}", &[]).await.0, 201);
    }
    // Imports count against the same quota.
    let rec = r#"{"record":"1. 1B"}"#;
    assert_eq!(srv.post("/api/import", ok, rec, &[]).await.0, 201);
    let r = srv
        .http
        .post(format!("{}/api/games", srv.base))
        .header("content-type", "application/json")
        .body("{}");
    let r = r.send().await.unwrap();
    assert_eq!(r.status().as_u16(), 429);
    let wait: u64 = r.headers().get("retry-after").unwrap().to_str().unwrap().parse().unwrap();
    assert!((1..=11).contains(&wait), "{wait}");
    let e: Value = r.json().await.unwrap();
    assert!(e["error"].as_str().unwrap().contains("too many new games"), "{e}");
    assert_eq!(srv.post("/api/import", ok, rec, &[]).await.0, 429);
    // Another client behind a proxy on this machine has a quota of its own; reading is not limited.
    let (st, _) = srv.post("/api/games", ok, "{}", &[("x-forwarded-for", "198.51.100.7")]).await;
    assert_eq!(st, 201);
    assert!(srv.health().await);
}

/// The cookie a `Set-Cookie` answer gives, as a `Cookie` header.
fn cookie_of(r: &reqwest::Response) -> String {
    let set = r.headers().get("set-cookie").expect("a cookie").to_str().unwrap();
    set.split(';').next().unwrap().to_string()
}

/// Posts `body` to `path` as the player of `cookie`: the status and the `Retry-After` header.
async fn post_as(srv: &Srv, path: &str, cookie: &str, body: &str, from: &str) -> (u16, Option<u64>, Value) {
    let r = srv
        .http
        .post(format!("{}{path}", srv.base))
        .header("content-type", "application/json")
        .header("cookie", cookie)
        .header("x-forwarded-for", from)
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let wait = r.headers().get("retry-after").map(|v| v.to_str().unwrap().parse().unwrap());
    (r.status().as_u16(), wait, r.json().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeks_and_account_requests_are_rate_limited_per_address() {
    let srv = start(Edge {
        seeks_rate: Rate { per_minute: 6, burst: 2 },
        accounts_rate: Rate { per_minute: 2, burst: 2 },
        ..Edge::default()
    })
    .await;
    let mut cookies = Vec::new();
    for name in ["seeker", "other"] {
        let r = srv
            .http
            .post(format!("{}/api/me", srv.base))
            .header("content-type", "application/json")
            .body(json!({ "name": name }).to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 200);
        cookies.push(cookie_of(&r));
    }
    let seek = r#"{"clock":null,"rated":false,"colour":"random"}"#;
    let here = "198.51.100.1";
    for _ in 0..2 {
        assert_eq!(post_as(&srv, "/api/seeks", &cookies[0], seek, here).await.0, 201);
    }
    // The third within the burst is refused, whoever posts it from this address.
    let (st, wait, e) = post_as(&srv, "/api/seeks", &cookies[1], seek, here).await;
    assert_eq!(st, 429, "{e}");
    assert!((1..=11).contains(&wait.unwrap()), "{wait:?}");
    assert!(e["error"].as_str().unwrap().contains("too many seeks"), "{e}");
    // Another address posts; the lobby holds exactly the seeks that were let through.
    assert_eq!(post_as(&srv, "/api/seeks", &cookies[1], seek, "198.51.100.2").await.0, 201);
    let lobby: Value =
        srv.http.get(format!("{}/api/lobby", srv.base)).send().await.unwrap().json().await.unwrap();
    assert_eq!(lobby["seeks"].as_array().unwrap().len(), 3, "{lobby}");

    // Sign-ups and log-ins share one quota per address: two, then 429 for either.
    let pw = r#"{"password":"correct horse"}"#;
    assert_eq!(post_as(&srv, "/api/me/password", &cookies[0], pw, here).await.0, 200);
    let login = r#"{"name":"seeker","password":"wrong password"}"#;
    assert_eq!(post_as(&srv, "/api/login", "", login, here).await.0, 403);
    let (st, wait, e) = post_as(&srv, "/api/login", "", login, here).await;
    assert_eq!(st, 429, "{e}");
    assert!((1..=31).contains(&wait.unwrap()), "{wait:?}");
    assert!(e["error"].as_str().unwrap().contains("too many sign-ups and log-ins"), "{e}");
    let (st, _, e) = post_as(&srv, "/api/me/password", &cookies[1], pw, here).await;
    assert_eq!(st, 429, "{e}");
    // The refused sign-up made no account: the other player still has none.
    let me: Value = srv
        .http
        .get(format!("{}/api/me", srv.base))
        .header("cookie", &cookies[1])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(me["player"]["account"], false, "{me}");
    // Another address still logs in.
    let good = r#"{"name":"seeker","password":"correct horse"}"#;
    assert_eq!(post_as(&srv, "/api/login", "", good, "198.51.100.3").await.0, 200);
}
