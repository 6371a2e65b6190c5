//! The API end to end over real sockets: two clients play a whole online game through HTTP and
//! WebSocket; refused requests change nothing; a restart loses nothing.

mod common;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use vlt_core::{Game, Record};
use vlt_server::{Bounds, Hub};

struct Server {
    base: String,
    ws: String,
    http: reqwest::Client,
    task: tokio::task::JoinHandle<()>,
}

async fn start(db: &common::TestDb, bounds: Bounds) -> Server {
    start_with(db, bounds, None).await
}

async fn start_with(
    db: &common::TestDb,
    bounds: Bounds,
    tb: Option<Arc<vlt_tablebase::Tablebase>>,
) -> Server {
    let hub = Hub::with_tablebase(db.open(), bounds, tb);
    let (addr, task) = common::serve(hub).await;
    // A fresh connection for every request: the server may close a connection after refusing an
    // oversized body unread (413), and a pooled client could then send the next request into it.
    let http = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    Server { base: format!("http://{addr}"), ws: format!("ws://{addr}"), http, task }
}

impl Server {
    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.post_raw(path, body.to_string()).await
    }

    async fn post_raw(&self, path: &str, body: String) -> (u16, Value) {
        let r = self
            .http
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        let text = r.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}")))
    }

    async fn get(&self, path: &str) -> (u16, Value) {
        let r = self.http.get(format!("{}{path}", self.base)).send().await.unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap())
    }

    async fn game(&self, id: &str) -> Value {
        let (s, g) = self.get(&format!("/api/games/{id}")).await;
        assert_eq!(s, 200, "{g}");
        g
    }

    /// The game without the per-run change counter, to compare across a restart.
    async fn stored_game(&self, id: &str) -> Value {
        let mut g = self.game(id).await;
        let o = g.as_object_mut().unwrap();
        o.remove("version");
        o.remove("epoch");
        g
    }
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn ws(server: &Server, id: &str, token: &str) -> Ws {
    tokio_tungstenite::connect_async(format!("{}/api/games/{id}/ws?token={token}", server.ws))
        .await
        .unwrap()
        .0
}

/// The next message other than a presence notice (those come whenever a player's socket opens or
/// closes; `presence_of_the_players_reaches_every_socket` checks them).
async fn next_msg(s: &mut Ws) -> Value {
    loop {
        let m = next_any(s).await;
        if m["type"] != "presence" {
            return m;
        }
    }
}

async fn next_any(s: &mut Ws) -> Value {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), s.next())
            .await
            .expect("no message")
            .unwrap()
            .unwrap();
        if let Message::Text(t) = m {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

/// The next presence notice: whether B and A have a socket open.
async fn next_presence(s: &mut Ws) -> (bool, bool) {
    loop {
        let m = next_any(s).await;
        if m["type"] == "presence" {
            return (m["seats"]["B"].as_bool().unwrap(), m["seats"]["A"].as_bool().unwrap());
        }
    }
}

on_both_stores! {
#[tokio::test]
async fn presence_of_the_players_reaches_every_socket(db) {
    let s = start(&db, Bounds::default()).await;
    let (st, created) = s.post("/api/games", json!({"mode": "online"})).await;
    assert_eq!(st, 201, "{created}");
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let tb = created["token"].as_str().unwrap().to_string();
    let (_, joined) = s.post(&format!("/api/games/{id}/join"), json!({})).await;
    let ta = joined["token"].as_str().unwrap().to_string();
    // A spectator is told who is here on connect: nobody yet.
    let mut spectator = ws(&s, &id, "").await;
    assert_eq!(next_presence(&mut spectator).await, (false, false));
    let mut wb = ws(&s, &id, &tb).await;
    assert_eq!(next_presence(&mut wb).await, (true, false), "B sees itself");
    assert_eq!(next_presence(&mut spectator).await, (true, false));
    let wa = ws(&s, &id, &ta).await;
    assert_eq!(next_presence(&mut wb).await, (true, true), "B sees A arrive");
    drop(wa);
    assert_eq!(next_presence(&mut wb).await, (true, false), "and leave");
    assert_eq!(next_presence(&mut spectator).await, (true, true));
    assert_eq!(next_presence(&mut spectator).await, (true, false));
}
}

/// Applies a socket's delta to the game it knows: the plies after `from` are replaced by the
/// delta's, every other field is taken whole.
fn apply_delta(known: &mut Value, m: &Value) {
    assert_eq!(m["base"], known["version"], "a delta from the version known: {m}");
    let from = m["from"].as_u64().unwrap() as usize;
    let mut plies = known["plies"].as_array().unwrap()[..from].to_vec();
    plies.extend(m["game"]["plies"].as_array().unwrap().iter().cloned());
    *known = m["game"].clone();
    known["plies"] = Value::Array(plies);
}

fn plies(g: &Value) -> usize {
    g["plies"].as_array().unwrap().len()
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_play_a_whole_online_game_over_http_and_websocket(db) {
    let s = start(&db, Bounds::default()).await;
    let (st, created) = s.post("/api/games", json!({"mode": "online", "side": "B"})).await;
    assert_eq!(st, 201, "{created}");
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let tb = created["token"].as_str().unwrap().to_string();
    assert_eq!(created["seat"], "B");
    assert_eq!(created["game"]["seat_a"], "free");
    // Nobody moves before the friend has joined.
    let (st, e) = s.post(&format!("/api/games/{id}/move"), json!({"token": tb, "move": "1B"})).await;
    assert_eq!(st, 409, "{e}");
    let (st, joined) = s.post(&format!("/api/games/{id}/join"), json!({})).await;
    assert_eq!(st, 200, "{joined}");
    assert_eq!(joined["seat"], "A");
    let ta = joined["token"].as_str().unwrap().to_string();
    assert_ne!(ta, tb);
    // A third browser cannot take a seat: it can only watch.
    let (st, _) = s.post(&format!("/api/games/{id}/join"), json!({})).await;
    assert_eq!(st, 409);

    let mut wb = ws(&s, &id, &tb).await;
    let mut wa = ws(&s, &id, &ta).await;
    let mut spectator = ws(&s, &id, "").await;
    let (hb, ha, hs) = (next_msg(&mut wb).await, next_msg(&mut wa).await, next_msg(&mut spectator).await);
    assert_eq!(hb["you"], "B");
    assert_eq!(ha["you"], "A");
    assert!(hs["you"].is_null());
    // What each socket knows of the game: the whole game on connect, then only what changed.
    let mut known = [hb["game"].clone(), ha["game"].clone(), hs["game"].clone()];

    // B moves over HTTP, A over its WebSocket; both sockets and the spectator see every move.
    // The moves are a fixed pseudo-random choice among the legal ones, checked by the rules crate.
    let mut reference = Game::default();
    let mut game = s.game(&id).await;
    let mut x: u64 = 12345;
    while game["result"].is_null() {
        let legal: Vec<String> =
            game["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().into()).collect();
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mv = legal[(x >> 33) as usize % legal.len()].clone();
        let before = plies(&game);
        if game["to_move"] == "B" {
            let (st, g) = s.post(&format!("/api/games/{id}/move"), json!({"token": tb, "move": mv})).await;
            assert_eq!(st, 200, "{g}");
        } else {
            wa.send(Message::Text(json!({"type": "move", "move": mv}).to_string().into())).await.unwrap();
        }
        reference.play(mv.parse().unwrap()).unwrap();
        for (sock, known) in [&mut wb, &mut wa, &mut spectator].into_iter().zip(&mut known) {
            let m = next_msg(sock).await;
            // Only the new ply travels, and the game rebuilt from it is the whole game.
            assert_eq!(m["type"], "delta", "{m}");
            assert_eq!(plies(&m["game"]), 1, "{m}");
            apply_delta(known, &m);
            assert_eq!(plies(known), before + 1);
            assert_eq!(known["position"], reference.position().to_string());
        }
        // Read after the deltas: a move sent over the socket has no reply to wait for, so a
        // read sent at once may come before the move.
        game = s.game(&id).await;
        for known in &known {
            assert_eq!(*known, game);
        }
        assert!(plies(&game) < 2000, "the game does not end");
    }
    let result = reference.result().unwrap();
    let winner = result.winner.map(|w| w.to_string());
    assert_eq!(game["result"]["winner"].as_str(), winner.as_deref(), "{}", game["result"]);
    assert_eq!(game["result"]["score_b"], result.score.b);
    assert_eq!(game["result"]["score_a"], result.score.a);
    let key =
        if result.termination == vlt_core::Termination::EmptyBoard { "empty_board" } else { "repetition" };
    assert_eq!(game["result"]["termination"], key);
    assert!(game["result"].get("text").is_none(), "keys, not sentences: {}", game["result"]);
    assert_eq!(game["legal"], json!([]));
    // After the end nobody moves.
    let (st, e) = s.post(&format!("/api/games/{id}/move"), json!({"token": tb, "move": "1"})).await;
    assert_eq!(st, 409, "{e}");
    assert!(e["error"].as_str().unwrap().contains("over"));

    // The record reads back as the same game, and the archive lists it.
    let text =
        s.http.get(format!("{}/api/games/{id}/record", s.base)).send().await.unwrap().text().await.unwrap();
    let rec = Record::parse(&text).unwrap();
    assert_eq!(rec.game.moves(), reference.moves());
    let (_, list) = s.get("/api/games?limit=10").await;
    assert_eq!(list["games"][0]["id"], id.as_str());
    assert_eq!(list["games"][0]["mode"], "online");
    assert_eq!(list["games"][0]["outcome"], game["result"], "the archive says the result in the same keys");
    // Analysis is allowed once an online game is over.
    s.task.abort();
}
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn illegal_and_malicious_requests_are_refused_and_change_nothing(db) {
    let s = start(&db, Bounds::default()).await;
    let (_, created) = s.post("/api/games", json!({"mode": "online"})).await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let tb = created["token"].as_str().unwrap().to_string();
    let (_, joined) = s.post(&format!("/api/games/{id}/join"), json!({})).await;
    let ta = joined["token"].as_str().unwrap().to_string();
    let (st, _) = s.post(&format!("/api/games/{id}/move"), json!({"token": tb, "move": "3B"})).await;
    assert_eq!(st, 200);
    let before = s.game(&id).await;
    assert_eq!(before["to_move"], "A");

    let mv = format!("/api/games/{id}/move");
    let big = "x".repeat(200_000);
    let cases: Vec<(&str, u16, String)> = vec![
        ("wrong token", 403, json!({"token": "0".repeat(32), "move": "1A"}).to_string()),
        ("empty token", 403, json!({"token": "", "move": "1A"}).to_string()),
        ("out of turn", 409, json!({"token": tb, "move": "1B"}).to_string()),
        ("B sows A's hole", 409, json!({"token": tb, "move": "1A"}).to_string()),
        ("A sows B's hole (R3)", 422, json!({"token": ta, "move": "1B"}).to_string()),
        ("not a hole", 400, json!({"token": ta, "move": "7A"}).to_string()),
        ("long move", 400, json!({"token": ta, "move": "1".repeat(500)}).to_string()),
        ("malformed JSON", 400, "{\"token\": ".to_string()),
        ("not an object", 400, "[1,2,3]".to_string()),
        ("unknown field", 400, json!({"token": ta, "move": "1A", "seat": "B"}).to_string()),
        ("missing field", 400, json!({"token": ta}).to_string()),
        ("oversized", 413, json!({"token": ta, "move": big}).to_string()),
    ];
    for (what, status, body) in cases {
        let r = s.http.post(format!("{}{mv}", s.base)).header("content-type", "application/json").body(body);
        let r = r.send().await.unwrap();
        let got = r.status().as_u16();
        let text = r.text().await.unwrap();
        assert_eq!(got, status, "{what}: {text}");
        // Every refusal is one JSON error with a message.
        let v: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{what}: not JSON: {text}"));
        assert!(!v["error"].as_str().unwrap().is_empty(), "{what}");
        assert_eq!(s.game(&id).await, before, "{what} changed the game");
    }
    // Other routes refuse too: resign with a wrong token, undo and hints in an online game,
    // a game that does not exist, and a bad creation request.
    let (st, _) = s.post(&format!("/api/games/{id}/resign"), json!({"token": "nope"})).await;
    assert_eq!(st, 403);
    let (st, _) = s.post(&format!("/api/games/{id}/undo"), json!({"token": tb})).await;
    assert_eq!(st, 403);
    let (st, _) = s.post(&format!("/api/games/{id}/hint"), json!({"token": ta})).await;
    assert_eq!(st, 403);
    let (st, _) = s.get(&format!("/api/games/{id}/analysis")).await;
    assert_eq!(st, 403);
    let (st, _) = s.get("/api/games/doesnotexist").await;
    assert_eq!(st, 404);
    let (st, _) = s.get("/api/games/..%2F..%2Fetc").await;
    assert_eq!(st, 404);
    for bad in [
        json!({"mode": "chess"}),
        json!({"mode": "computer", "level": 11}),
        json!({"side": "C"}),
        json!({"side": "b"}),
        json!({"first": "both"}),
        json!({"position": "5,5,5/5 B 0 0"}),
        json!({"position": "0,0,0,0,0,0/0,0,0,0,0,0 B 30 30"}),
    ] {
        let (st, e) = s.post("/api/games", bad.clone()).await;
        assert_eq!(st, 400, "{bad}: {e}");
    }
    // The message is the notation's own (N2), once.
    let (_, e) = s.post("/api/games", json!({"position": "5,5,5/5 B 0 0"})).await;
    assert_eq!(e["error"], "position: row B: expected 6 counts, found 3");
    let (_, e) = s.post("/api/analyse", json!({"position": "5,5,5/5 B 0 0"})).await;
    assert_eq!(e["error"], "position: row B: expected 6 counts, found 3");
    assert_eq!(s.game(&id).await, before);

    // Over the WebSocket: a spectator cannot move, a bad message is answered, an oversized one
    // closes the socket; none changes the game.
    let mut spectator = ws(&s, &id, "").await;
    next_msg(&mut spectator).await;
    spectator.send(Message::Text(json!({"type": "move", "move": "1A"}).to_string().into())).await.unwrap();
    assert_eq!(next_msg(&mut spectator).await["type"], "error");
    let mut wa = ws(&s, &id, &ta).await;
    next_msg(&mut wa).await;
    wa.send(Message::Text("{nonsense".into())).await.unwrap();
    assert_eq!(next_msg(&mut wa).await["type"], "error");
    wa.send(Message::Text(json!({"type": "move", "move": "1B"}).to_string().into())).await.unwrap();
    assert_eq!(next_msg(&mut wa).await["type"], "error");
    let _ = wa.send(Message::Text("x".repeat(100_000).into())).await;
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match wa.next().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return true,
                Some(Ok(_)) => {}
            }
        }
    })
    .await
    .unwrap_or(false);
    assert!(closed, "an oversized message closes the socket");
    assert_eq!(s.game(&id).await, before);
    s.task.abort();
}
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_in_the_middle_of_games_loses_nothing(db) {
    let s = start(&db, Bounds::default()).await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        let (_, c) = s.post("/api/games", json!({"mode": "online"})).await;
        let id = c["game"]["id"].as_str().unwrap().to_string();
        let tb = c["token"].as_str().unwrap().to_string();
        let (_, j) = s.post(&format!("/api/games/{id}/join"), json!({})).await;
        let ta = j["token"].as_str().unwrap().to_string();
        for mv in ["1B", "1A", "2B", "2A"] {
            let t = if mv.ends_with('B') { &tb } else { &ta };
            let (st, g) = s.post(&format!("/api/games/{id}/move"), json!({"token": t, "move": mv})).await;
            assert_eq!(st, 200, "{g}");
        }
        ids.push((id, tb, ta));
    }
    let (_, local) = s.post("/api/games", json!({"mode": "local"})).await;
    let lid = local["game"]["id"].as_str().unwrap().to_string();
    let lt = local["token"].as_str().unwrap().to_string();
    s.post(&format!("/api/games/{lid}/move"), json!({"token": lt, "move": "4B"})).await;
    s.post(&format!("/api/games/{lid}/resign"), json!({"token": lt})).await;
    let mut before = Vec::new();
    for (id, _, _) in &ids {
        before.push(s.stored_game(id).await);
    }
    let local_before = s.stored_game(&lid).await;
    // The server stops without any shutdown step; a new one opens the same file.
    s.task.abort();
    let s2 = start(&db, Bounds::default()).await;
    for ((id, tb, _), b) in ids.iter().zip(&before) {
        assert_eq!(&s2.stored_game(id).await, b);
        // The seats' tokens survive: play goes on.
        let (st, g) = s2.post(&format!("/api/games/{id}/move"), json!({"token": tb, "move": "3B"})).await;
        assert_eq!(st, 200, "{g}");
    }
    assert_eq!(s2.stored_game(&lid).await, local_before);
    assert_eq!(local_before["result"]["termination"], "resignation");
    s2.task.abort();
}
}

/// Waits until the computer has answered (it thinks in the background).
async fn until_human_turn(s: &Server, id: &str, human: &str) -> Value {
    for _ in 0..200 {
        let g = s.game(id).await;
        if !g["result"].is_null() || g["to_move"] == human {
            return g;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the computer did not move");
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn against_the_computer_with_undo_hint_analysis_and_record_import(db) {
    let s = start(&db, Bounds { engine_ms: 200, ..Bounds::default() }).await;
    // A short study: few stones, A (the computer) moves first.
    let (st, c) = s
        .post("/api/games", json!({"mode": "computer", "level": 1, "side": "B", "position": "2,0,1,0,0,3/0,1,0,2,0,1 A 25 25"}))
        .await;
    assert_eq!(st, 201, "{c}");
    assert_eq!(c["game"]["seat_a"], "computer");
    let id = c["game"]["id"].as_str().unwrap().to_string();
    let t = c["token"].as_str().unwrap().to_string();
    let mut g = until_human_turn(&s, &id, "B").await;
    assert!(plies(&g) >= 1, "the computer moved first");
    let (st, h) = s.post(&format!("/api/games/{id}/hint"), json!({"token": t})).await;
    assert_eq!(st, 200, "{h}");
    assert!(g["legal"].as_array().unwrap().contains(&h["best"]), "hint {h} is legal");
    let (st, a) = s.get(&format!("/api/games/{id}/analysis?ms=50")).await;
    assert_eq!(st, 200);
    assert_eq!(a["moves"].as_array().unwrap().len(), g["legal"].as_array().unwrap().len());
    // Play the hint, then take it back: the game is where it was.
    let (st, _) = s.post(&format!("/api/games/{id}/move"), json!({"token": t, "move": h["best"]})).await;
    assert_eq!(st, 200);
    let after = until_human_turn(&s, &id, "B").await;
    if after["result"].is_null() {
        let (st, u) = s.post(&format!("/api/games/{id}/undo"), json!({"token": t})).await;
        assert_eq!(st, 200, "{u}");
        assert_eq!(u["position"], g["position"]);
    }
    // Play to the end with the first legal move each time.
    while g["result"].is_null() {
        let mv = g["legal"][0].clone();
        let (st, r) = s.post(&format!("/api/games/{id}/move"), json!({"token": t, "move": mv})).await;
        assert_eq!(st, 200, "{r}");
        g = until_human_turn(&s, &id, "B").await;
    }
    let text =
        s.http.get(format!("{}/api/games/{id}/record", s.base)).send().await.unwrap().text().await.unwrap();
    assert!(text.contains("computer level 1"), "{text}");
    // Import the record: a new game with the same moves and result.
    let (st, imp) = s.post("/api/import", json!({"record": text})).await;
    assert_eq!(st, 201, "{imp}");
    assert_eq!(imp["game"]["plies"], g["plies"]);
    assert_eq!(imp["game"]["result"], g["result"]);
    // A time forfeit in an imported record survives a reload from the store.
    let mut forfeit = Record::parse(&text).unwrap();
    let mut g2 = vlt_core::Game::default();
    g2.play("1B".parse().unwrap()).unwrap();
    g2.lose_on_time(vlt_core::Player::A).unwrap();
    forfeit.game = g2;
    let (st, imp) = s.post("/api/import", json!({"record": forfeit.to_string()})).await;
    assert_eq!(st, 201, "{imp}");
    assert_eq!(imp["game"]["result"]["termination"], "time");
    let fid = imp["game"]["id"].as_str().unwrap().to_string();
    let (st, e) = s.post("/api/import", json!({"record": "[Start \"nonsense\"]\n1. 1B"})).await;
    assert_eq!(st, 400, "{e}");
    s.task.abort();
    let s = start(&db, Bounds { engine_ms: 200, ..Bounds::default() }).await;
    assert_eq!(s.game(&fid).await["result"]["termination"], "time");
    let (_, ex) = s.get("/api/examples").await;
    assert_eq!(ex["examples"][1]["ply"]["captured"], json!(["4B", "3B", "2B"]));
    // The levels as the engine plays them: level 1 one ply with chance, 9 the deepest fixed depth,
    // 10 a fixed time but never shallower than 9.
    let (_, lv) = s.get("/api/levels").await;
    let l = &lv["levels"];
    assert_eq!((l[0]["level"].clone(), l[0]["depth"].clone(), l[0]["chance"].clone()), (json!(1), json!(1), json!(true)));
    assert_eq!((l[8]["depth"].clone(), l[8]["chance"].clone()), (json!(14), json!(false)));
    assert_eq!((l[9]["depth"].clone(), l[9]["min_depth"].clone(), l[9]["movetime_ms"].clone()), (json!(null), json!(14), json!(1000)));
    s.task.abort();
}
}

/// With endgame tables the computer plays a table-best move and the
/// analysis gives every move's exact value (a 12-stone position, which a short search alone does
/// not solve).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_tables_the_computer_and_the_analysis_are_exact() {
    let tb = Arc::new(vlt_tablebase::Tablebase::from_layers(vlt_tablebase::build::build_in_memory(12)));
    let bounds = Bounds { engine_ms: 300, ..Bounds::default() };
    let s = start_with(&common::TestDb::sqlite(), bounds, Some(tb.clone())).await;
    let start = "1,2,0,3,0,1/2,0,2,0,1,0 A 24 24";
    let (st, c) =
        s.post("/api/games", json!({"mode": "computer", "level": 10, "side": "B", "position": start})).await;
    assert_eq!(st, 201, "{c}");
    let id = c["game"]["id"].as_str().unwrap().to_string();
    let g = until_human_turn(&s, &id, "B").await;
    let pos: vlt_core::Position = start.parse().unwrap();
    let table = tb.probe_moves(pos).unwrap();
    let best = table.iter().map(|m| m.1).max().unwrap();
    let played = g["plies"][0]["move"].as_str().map(str::to_string).unwrap_or_default();
    let value = table.iter().find(|(m, _)| m.to_string() == played).map(|m| m.1);
    assert_eq!(value, Some(best), "the computer's {played} is a best move: {table:?}");
    // The analysis of the position now on the board: exact, move by move.
    assert!(g["result"].is_null(), "{g}");
    let now: vlt_core::Position = g["position"].as_str().unwrap().parse().unwrap();
    let (st, a) = s.get(&format!("/api/games/{id}/analysis?ms=100")).await;
    assert_eq!(st, 200, "{a}");
    assert_eq!(a["exact"], true, "{a}");
    assert_eq!(a["score"], tb.probe(now).unwrap(), "{a}");
    for (m, v) in tb.probe_moves(now).unwrap() {
        let got = a["moves"].as_array().unwrap().iter().find(|x| x["move"] == m.to_string()).unwrap();
        assert_eq!(got["score"], v, "{m}: {a}");
    }
    s.task.abort();
    // A short search solves this small position on its own too; tables that value every position
    // at 0 show that the answers really come from the tables the server was given: each move is
    // then worth just what it captures.
    let mut layers = vlt_tablebase::build::build_in_memory(12);
    for layer in &mut layers[1..] {
        layer.iter_mut().filter(|e| **e as i8 != vlt_tablebase::format::NO_POSITION).for_each(|e| *e = 0);
    }
    let doctored = Arc::new(vlt_tablebase::Tablebase::from_layers(layers));
    let takes = pos.legal_moves().map(|m| i32::from(pos.play_counting(m).1)).max().unwrap();
    assert_ne!(takes, tb.probe(pos).unwrap());
    let s = start_with(&common::TestDb::sqlite(), bounds, Some(doctored)).await;
    let (st, c) = s.post("/api/games", json!({"mode": "local", "position": start})).await;
    assert_eq!(st, 201, "{c}");
    let (st, a) = s.get(&format!("/api/games/{}/analysis?ms=100", c["game"]["id"].as_str().unwrap())).await;
    assert_eq!((st, a["score"].clone(), a["exact"].clone()), (200, json!(takes), json!(true)), "{a}");
    s.task.abort();
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_number_of_open_games_is_bounded(db) {
    let s = start(&db, Bounds { max_open_games: 2, ..Bounds::default() }).await;
    let (_, a) = s.post("/api/games", json!({"mode": "local"})).await;
    s.post("/api/games", json!({"mode": "local"})).await;
    let (st, e) = s.post("/api/games", json!({"mode": "local"})).await;
    assert_eq!(st, 503, "{e}");
    // Finishing one frees a place.
    let id = a["game"]["id"].as_str().unwrap();
    s.post(&format!("/api/games/{id}/resign"), json!({"token": a["token"]})).await;
    let (st, _) = s.post("/api/games", json!({"mode": "local"})).await;
    assert_eq!(st, 201);
    let _ = Arc::new(());
    s.task.abort();
}
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_bodies_on_every_route_are_refused_as_json_and_change_nothing(db) {
    let s = start(&db, Bounds::default()).await;
    let (_, c) = s.post("/api/games", json!({"mode": "online"})).await;
    let id = c["game"]["id"].as_str().unwrap().to_string();
    let before = s.game(&id).await;
    let routes = ["move", "resign", "undo", "hint"].map(|r| format!("/api/games/{id}/{r}"));
    let mut x: u64 = 99;
    let mut next = || {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        x >> 33
    };
    // Random bytes, random JSON-ish fragments, and well-formed bodies with wrong types.
    let fragments =
        ["{", "}", "\"token\"", ":", "\"move\"", "null", "1e999", "[", "]", ",", "\"\\u0000\"", "true", "-1"];
    for i in 0..300 {
        let body: Vec<u8> = match i % 3 {
            0 => (0..next() % 64).map(|_| next() as u8).collect(),
            1 => (0..next() % 12)
                .map(|_| fragments[next() as usize % fragments.len()])
                .collect::<String>()
                .into(),
            _ => json!({"token": next() % 2 == 0, "move": [next()]}).to_string().into(),
        };
        let route = &routes[i % routes.len()];
        let r = s.http.post(format!("{}{route}", s.base)).header("content-type", "application/json");
        let r = r.body(body.clone()).send().await.unwrap();
        let status = r.status().as_u16();
        let text = r.text().await.unwrap();
        assert!((400..500).contains(&status), "{route} {body:?}: {status} {text}");
        let v: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{route}: not JSON: {text}"));
        assert!(v["error"].is_string());
    }
    for path in ["/api/games", "/api/import"] {
        let r = s.http.post(format!("{}{path}", s.base)).header("content-type", "application/json");
        let r = r.body(vec![0xff, 0xfe, 0x00]).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 400, "{path}");
    }
    assert_eq!(s.game(&id).await, before);
    s.task.abort();
}
}
