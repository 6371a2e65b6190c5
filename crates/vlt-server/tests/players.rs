//! Players and games over real sockets: names and the cookie, hashed tokens, accounts, clocks that
//! fall with no request arriving (and after a restart), aborts, seeks, ratings, rematch, takeback.

mod common;

use futures_util::StreamExt;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use vlt_server::{Bounds, Hub};

struct Server {
    base: String,
    ws: String,
    http: reqwest::Client,
    hub: Arc<Hub>,
    task: tokio::task::JoinHandle<()>,
}

async fn start(db: &common::TestDb, bounds: Bounds) -> Server {
    let hub = Hub::new(db.open(), bounds);
    hub.resume_clocks().await.unwrap();
    let (addr, task) = common::serve(Arc::clone(&hub)).await;
    let http = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    Server { base: format!("http://{addr}"), ws: format!("ws://{addr}"), http, hub, task }
}

/// A browser: the cookie it was given, if any.
#[derive(Clone, Default)]
struct Browser {
    cookie: Option<String>,
}

impl Server {
    async fn req(&self, who: &mut Browser, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let url = format!("{}{path}", self.base);
        let mut r = match method {
            "GET" => self.http.get(url),
            "DELETE" => self.http.delete(url),
            _ => self.http.post(url),
        };
        if let Some(c) = &who.cookie {
            r = r.header("cookie", format!("vlt_player={c}"));
        }
        if let Some(b) = body {
            r = r.header("content-type", "application/json").body(b.to_string());
        }
        let resp = r.send().await.unwrap();
        let status = resp.status().as_u16();
        for v in resp.headers().get_all("set-cookie") {
            let v = v.to_str().unwrap();
            assert!(v.contains("HttpOnly") && v.contains("SameSite=Lax"), "{v}");
            let value = v.split(';').next().unwrap().strip_prefix("vlt_player=").unwrap();
            who.cookie = (!value.is_empty()).then(|| value.to_string());
        }
        let text = resp.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}")))
    }

    async fn post(&self, who: &mut Browser, path: &str, body: Value) -> (u16, Value) {
        self.req(who, "POST", path, Some(body)).await
    }

    async fn get(&self, who: &mut Browser, path: &str) -> (u16, Value) {
        self.req(who, "GET", path, None).await
    }

    /// A new player named `name`.
    async fn player(&self, name: &str) -> (Browser, Value) {
        let mut b = Browser::default();
        let (st, me) = self.post(&mut b, "/api/me", json!({ "name": name })).await;
        assert_eq!(st, 200, "{me}");
        assert!(b.cookie.is_some(), "a new player gets a cookie");
        (b, me["player"].clone())
    }
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn watch(s: &Server, id: &str) -> Ws {
    tokio_tungstenite::connect_async(format!("{}/api/games/{id}/ws", s.ws)).await.unwrap().0
}

/// The next game a socket is sent (state, update or delta: every field but `plies` whole),
/// skipping presence notices.
async fn next_game(sock: &mut Ws, within: Duration) -> Value {
    loop {
        let m =
            tokio::time::timeout(within, sock.next()).await.expect("no message in time").unwrap().unwrap();
        if let Message::Text(t) = m {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == "state" || v["type"] == "update" || v["type"] == "delta" {
                return v["game"].clone();
            }
        }
    }
}

on_both_stores! {
#[tokio::test]
async fn names_are_refused_when_bad_kept_verbatim_and_changeable(db) {
    let s = start(&db, Bounds::default()).await;
    let mut anon = Browser::default();
    let (_, me) = s.get(&mut anon, "/api/me").await;
    assert!(me["player"].is_null());
    for bad in ["", "   ", "a\u{7}b", "line\nbreak", "x\u{202E}gnp.exe", &"n".repeat(25)] {
        let (st, e) = s.post(&mut anon, "/api/me", json!({ "name": bad })).await;
        assert_eq!(st, 400, "{bad:?}: {e}");
        assert!(anon.cookie.is_none(), "a refused name makes no player");
    }
    // Markup is a name like any other: kept as typed, for the page to escape.
    let evil = "<img src=x onerror=1>";
    let (mut b, card) = s.player(evil).await;
    assert_eq!(card["name"], evil);
    assert_eq!(card["rating"], 1500);
    assert_eq!(card["provisional"], true);
    let first = b.cookie.clone();
    let (st, renamed) = s.post(&mut b, "/api/me", json!({ "name": " Zo " })).await;
    assert_eq!(st, 200, "{renamed}");
    assert_eq!(renamed["player"]["name"], "Zo");
    assert_eq!(renamed["player"]["id"], card["id"], "the same player, renamed");
    assert_eq!(b.cookie, first, "renaming keeps the cookie");
    let (_, me) = s.get(&mut b, "/api/me").await;
    assert_eq!(me["player"]["name"], "Zo");
    // A forged cookie names nobody.
    let mut forged = Browser { cookie: Some("00".repeat(16)) };
    assert!(s.get(&mut forged, "/api/me").await.1["player"].is_null());
    s.task.abort();
}
}

#[tokio::test]
async fn tokens_and_passwords_are_stored_hashed_and_accounts_travel() {
    // SQLite only: the file's bytes and permissions are read.
    let test_db = common::TestDb::sqlite();
    let common::TestDb::Sqlite(dir, db) = &test_db else { unreachable!() };
    let s = start(&test_db, Bounds::default()).await;
    let (mut b, card) = s.player("Mawia").await;
    let player_token = b.cookie.clone().unwrap();
    let (st, created) = s.post(&mut b, "/api/games", json!({"mode": "online"})).await;
    assert_eq!(st, 201, "{created}");
    let seat_token = created["token"].as_str().unwrap().to_string();
    let (st, e) = s.post(&mut b, "/api/me/password", json!({"password": "short"})).await;
    assert_eq!(st, 400, "{e}");
    let (st, acc) = s.post(&mut b, "/api/me/password", json!({"password": "a long secret"})).await;
    assert_eq!(st, 200, "{acc}");
    assert_eq!(acc["player"]["account"], true);
    // Another device logs in: a new cookie for the same player; a wrong password is refused.
    let mut other = Browser::default();
    let (st, _) =
        s.post(&mut other, "/api/login", json!({"name": "mawia", "password": "a long secrex"})).await;
    assert_eq!(st, 403);
    let (st, _) =
        s.post(&mut other, "/api/login", json!({"name": "nobody", "password": "a long secret"})).await;
    assert_eq!(st, 403);
    let (st, logged) =
        s.post(&mut other, "/api/login", json!({"name": "MAWIA", "password": "a long secret"})).await;
    assert_eq!(st, 200, "{logged}");
    assert_eq!(logged["player"]["id"], card["id"]);
    assert_ne!(other.cookie.as_deref(), Some(player_token.as_str()));
    // Another player cannot take an account's name.
    let (mut c, _) = s.player("Someone").await;
    let (st, _) = s.post(&mut c, "/api/me", json!({"name": "mAwIa"})).await;
    assert_eq!(st, 409);
    // Logging out forgets that device's cookie only.
    let (st, _) = s.post(&mut other, "/api/logout", json!({})).await;
    assert_eq!(st, 200);
    assert!(other.cookie.is_none());
    assert_eq!(s.get(&mut b, "/api/me").await.1["player"]["id"], card["id"]);
    s.task.abort();
    drop(s);
    // Nothing secret is in the database files in plain text.
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        bytes.extend(std::fs::read(entry.unwrap().path()).unwrap());
    }
    let has = |needle: &str| bytes.windows(needle.len()).any(|w| w == needle.as_bytes());
    for secret in [&player_token, &seat_token, "a long secret"] {
        assert!(!has(secret), "{secret} is stored in plain text");
    }
    assert!(has(&vlt_server::identity::token_hash(&seat_token)), "the seat token's hash is what is kept");
    assert!(has("$argon2id$"), "the password is kept as an argon2id hash");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(db).unwrap().permissions().mode() & 0o777, 0o600);
    }
}

/// Creates an online game between two new players, B then A, with `extra` fields; both seated.
async fn game_between(s: &Server, extra: Value) -> (Browser, Browser, String) {
    let (mut b, _) = s.player("Bawi").await;
    let (mut a, _) = s.player("Ate").await;
    let mut req = json!({"mode": "online", "side": "B"});
    req.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    let (st, created) = s.post(&mut b, "/api/games", req).await;
    assert_eq!(st, 201, "{created}");
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let (st, joined) = s.post(&mut a, &format!("/api/games/{id}/join"), json!({})).await;
    assert_eq!(st, 200, "{joined}");
    assert_eq!(joined["game"]["players"]["B"]["name"], "Bawi");
    assert_eq!(joined["game"]["players"]["A"]["name"], "Ate");
    (b, a, id)
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_falls_with_no_request_arriving_and_survives_a_restart(db) {
    let s = start(&db, Bounds::default()).await;
    let clock = json!({"clock": {"initial_ms": 1500, "increment_ms": 0}});
    let (mut b, mut a, id) = game_between(&s, clock.clone()).await;
    let (st, g) = s.post(&mut b, &format!("/api/games/{id}/move"), json!({"move": "1B"})).await;
    assert_eq!(st, 200, "moved by the cookie alone: {g}");
    assert_eq!(g["clock"]["running"], "A");
    assert_eq!(g["clock"]["b_ms"], 1500, "the first move costs no time");
    let mut spectator = watch(&s, &id).await;
    assert!(next_game(&mut spectator, Duration::from_secs(5)).await["result"].is_null());
    // Nobody sends anything: A's time runs out and everyone is told.
    let g = next_game(&mut spectator, Duration::from_secs(5)).await;
    assert_eq!(g["result"]["termination"], "time", "{g}");
    assert_eq!(g["result"]["winner"], "B");
    assert_eq!(g["clock"]["a_ms"], 0);
    assert!(g["clock"]["running"].is_null());
    assert!(g["clock"]["abort_in_ms"].is_null(), "a game that is over awaits no first move: {g}");
    let (st, _) = s.post(&mut a, &format!("/api/games/{id}/move"), json!({"move": "1A"})).await;
    assert_eq!(st, 409);

    // A clock running when the server stops runs on: it falls after the restart, unasked.
    let (mut b2, mut a2, id2) = game_between(&s, json!({"clock": {"initial_ms": 2500}})).await;
    s.post(&mut b2, &format!("/api/games/{id2}/move"), json!({"move": "2B"})).await;
    let (st, _) = s.post(&mut a2, &format!("/api/games/{id2}/move"), json!({"move": "2A"})).await;
    assert_eq!(st, 200);
    s.task.abort();
    drop(s);
    let s = start(&db, Bounds::default()).await;
    tokio::time::sleep(Duration::from_millis(3500)).await;
    let (_, g) = s.get(&mut Browser::default(), &format!("/api/games/{id2}")).await;
    assert_eq!(g["result"]["termination"], "time", "{g}");
    assert_eq!(g["result"]["winner"], "A", "B ran out after the restart");
    s.task.abort();
}
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_without_a_first_move_is_aborted_and_bad_clocks_are_refused(db) {
    let s = start(&db, Bounds { abort_ms: 400, ..Bounds::default() }).await;
    let (mut b, _, id) =
        game_between(&s, json!({"clock": {"initial_ms": 60000, "increment_ms": 1000}})).await;
    let mut spectator = watch(&s, &id).await;
    let g = next_game(&mut spectator, Duration::from_secs(5)).await;
    assert!(g["clock"]["abort_in_ms"].as_i64().unwrap() <= 400, "{g}");
    let g = next_game(&mut spectator, Duration::from_secs(5)).await;
    assert_eq!(g["result"]["termination"], "aborted", "{g}");
    assert!(g["result"]["winner"].is_null());
    assert_eq!(g["legal"], json!([]));
    let (st, _) = s.post(&mut b, &format!("/api/games/{id}/move"), json!({"move": "1B"})).await;
    assert_eq!(st, 409);
    for bad in [
        json!({"mode": "online", "clock": {"initial_ms": 10}}),
        json!({"mode": "online", "clock": {"initial_ms": 60000, "increment_ms": -1}}),
        json!({"mode": "online", "clock": {"initial_ms": 86400000, "increment_ms": 5, "per_move": true}}),
        json!({"mode": "computer", "clock": {"initial_ms": 60000}}),
        json!({"mode": "online", "clock": {"initial_ms": 60000, "bonus": 1}}),
        json!({"mode": "online", "rated": true}),
    ] {
        let (st, e) = s.post(&mut Browser::default(), "/api/games", bad.clone()).await;
        assert_eq!(st, 400, "{bad}: {e}");
    }
    s.task.abort();
}
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_is_accepted_with_one_request_and_a_rated_result_moves_both_ratings(db) {
    let s = start(&db, Bounds::default()).await;
    let (mut seeker, seeker_card) = s.player("Seeker").await;
    let (mut other, other_card) = s.player("Taker").await;
    let (st, _) = s.post(&mut Browser::default(), "/api/seeks", json!({})).await;
    assert_eq!(st, 403, "a seek needs a name");
    let (st, seek) = s
        .post(
            &mut seeker,
            "/api/seeks",
            json!({"clock": {"initial_ms": 300000}, "rated": true, "colour": "B"}),
        )
        .await;
    assert_eq!(st, 201, "{seek}");
    let sid = seek["id"].as_str().unwrap().to_string();
    let (st, _) = s.post(&mut seeker, &format!("/api/seeks/{sid}/accept"), json!({})).await;
    assert_eq!(st, 409, "not one's own seek");
    let (_, lobby) = s.get(&mut other, "/api/lobby").await;
    assert_eq!(lobby["seeks"][0]["id"], sid.as_str());
    assert_eq!(lobby["seeks"][0]["player"]["name"], "Seeker");
    let (st, seated) = s.post(&mut other, &format!("/api/seeks/{sid}/accept"), json!({})).await;
    assert_eq!(st, 201, "{seated}");
    assert_eq!(seated["seat"], "A");
    let g = &seated["game"];
    assert_eq!((g["rated"].as_bool(), g["clock"]["initial_ms"].as_i64()), (Some(true), Some(300000)));
    let id = g["id"].as_str().unwrap().to_string();
    // The seek is gone, and the seeker finds the game among theirs.
    let (_, lobby) = s.get(&mut seeker, "/api/lobby").await;
    assert_eq!(lobby["seeks"], json!([]));
    assert_eq!(lobby["mine"], json!([id]));
    assert_eq!(lobby["playing"][0]["id"], id.as_str());
    let (st, _) = s.post(&mut other, &format!("/api/seeks/{sid}/accept"), json!({})).await;
    assert_eq!(st, 404, "accepted once");
    let (st, _) = s.post(&mut seeker, &format!("/api/games/{id}/move"), json!({"move": "1B"})).await;
    assert_eq!(st, 200);
    // The taker resigns: a rated result.
    let (st, g) = s.post(&mut other, &format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(st, 200, "{g}");
    assert_eq!(g["result"]["winner"], "B");
    let (winner, loser) =
        (g["players"]["B"]["rating"].as_i64().unwrap(), g["players"]["A"]["rating"].as_i64().unwrap());
    assert!(winner > 1500 && loser < 1500, "{winner} {loser}");
    assert_eq!(winner - 1500, 1500 - loser, "equal ratings move by the same amount");
    let (_, page) = s
        .get(&mut Browser::default(), &format!("/api/players/{}", seeker_card["id"].as_str().unwrap()))
        .await;
    assert_eq!(page["player"]["rating"], winner);
    assert_eq!(page["history"][0]["rating"], winner);
    assert_eq!(page["games"][0]["id"], id.as_str());
    assert_eq!(page["games"][0]["opponent"]["id"], other_card["id"]);
    let (_, board) = s.get(&mut Browser::default(), "/api/leaderboard").await;
    assert_eq!(board["players"][0]["id"], seeker_card["id"]);
    assert_eq!(board["players"][1]["id"], other_card["id"]);
    // Withdrawn seeks leave the lobby.
    let (_, seek) = s.post(&mut seeker, "/api/seeks", json!({"rated": false})).await;
    let sid = seek["id"].as_str().unwrap();
    let (st, _) = s.req(&mut other, "DELETE", &format!("/api/seeks/{sid}"), None).await;
    assert_eq!(st, 404, "only the seeker withdraws it");
    let (st, _) = s.req(&mut seeker, "DELETE", &format!("/api/seeks/{sid}"), None).await;
    assert_eq!(st, 200);
    assert_eq!(s.get(&mut other, "/api/lobby").await.1["seeks"], json!([]));
    s.task.abort();
}
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takeback_needs_the_opponent_and_rematch_swaps_colours(db) {
    let s = start(&db, Bounds::default()).await;
    let (mut b, mut a, id) =
        game_between(&s, json!({"clock": {"initial_ms": 180000, "increment_ms": 2000}})).await;
    let mv = |who: &str| format!("/api/games/{id}/{who}");
    let (st, _) = s.post(&mut a, &mv("takeback"), json!({})).await;
    assert_eq!(st, 409, "A has no move to take back");
    s.post(&mut b, &mv("move"), json!({"move": "3B"})).await;
    let (st, g) = s.post(&mut b, &mv("takeback"), json!({})).await;
    assert_eq!(st, 200, "{g}");
    assert_eq!(g["takeback"], "B");
    assert_eq!(g["plies"].as_array().unwrap().len(), 1, "asking changes nothing yet");
    let (st, g) = s.post(&mut a, &mv("takeback/decline"), json!({})).await;
    assert_eq!(st, 200);
    assert!(g["takeback"].is_null());
    s.post(&mut b, &mv("takeback"), json!({})).await;
    let (st, g) = s.post(&mut a, &mv("takeback"), json!({})).await;
    assert_eq!(st, 200, "{g}");
    assert_eq!(g["plies"], json!([]), "agreed: B's move is taken back");
    assert_eq!(g["to_move"], "B");
    let (st, _) = s.post(&mut Browser::default(), &mv("takeback"), json!({})).await;
    assert_eq!(st, 403, "a spectator asks nothing");
    // Rematch: not during the game; offered, then agreed; colours swapped, same clock.
    let (st, _) = s.post(&mut b, &mv("rematch"), json!({})).await;
    assert_eq!(st, 409);
    s.post(&mut b, &mv("move"), json!({"move": "1B"})).await;
    s.post(&mut a, &mv("resign"), json!({})).await;
    let (st, g) = s.post(&mut a, &mv("rematch"), json!({})).await;
    assert_eq!(st, 200, "{g}");
    assert_eq!(g["rematch"]["offered_by"], "A");
    assert!(g["rematch"]["game"].is_null());
    let mut spectator = watch(&s, &id).await;
    next_game(&mut spectator, Duration::from_secs(5)).await;
    let (st, g) = s.post(&mut b, &mv("rematch"), json!({})).await;
    assert_eq!(st, 200, "{g}");
    let new = g["rematch"]["game"].as_str().unwrap().to_string();
    assert_eq!(next_game(&mut spectator, Duration::from_secs(5)).await["rematch"]["game"], new.as_str());
    let (_, ng) = s.get(&mut b, &format!("/api/games/{new}")).await;
    assert_eq!(ng["players"]["B"]["name"], "Ate");
    assert_eq!(ng["players"]["A"]["name"], "Bawi");
    assert_eq!(ng["clock"]["initial_ms"], 180000);
    assert_eq!(ng["clock"]["b_ms"], 180000);
    let (st, _) = s.post(&mut b, &format!("/api/games/{new}/move"), json!({"move": "1B"})).await;
    assert_eq!(st, 409, "Bawi now plays A");
    let (st, _) = s.post(&mut a, &format!("/api/games/{new}/move"), json!({"move": "1B"})).await;
    assert_eq!(st, 200);
    s.task.abort();
    let _ = &s.hub;
}
}
