//! One open-games bound for every way of making a game, checked atomically: racing creates and
//! imports never overshoot it; a record of several games is imported whole or not at all.

mod common;

use serde_json::{Value, json};
use std::sync::Arc;
use vlt_server::ratelimit::Rate;
use vlt_server::{Bounds, Edge, Hub};

async fn start(db: &common::TestDb, max_open_games: usize) -> (String, reqwest::Client) {
    let store = db.open();
    let hub = Hub::new(store, Bounds { max_open_games, ..Bounds::default() });
    let edge = Edge { games_rate: Rate::OFF, ..Edge::default() };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = vlt_server::router_with(hub, &edge);
    tokio::spawn(async move {
        vlt_server::listen::serve_until(listener, app, &edge, std::future::pending()).await
    });
    (format!("http://{addr}"), reqwest::Client::new())
}

async fn post(http: &reqwest::Client, url: String, body: Value) -> (u16, Value) {
    let r = http.post(url).json(&body).send().await.unwrap();
    (r.status().as_u16(), r.json().await.unwrap())
}

/// An unfinished game's record, a different one for each `i`.
fn record(i: usize) -> String {
    format!("[Event \"race {i}\"]\n\n1. {}B\n", i % 6 + 1)
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_creates_and_imports_never_pass_the_bound(db) {
    const MAX: usize = 25;
    let (base, http) = start(&db, MAX).await;
    let http = Arc::new(http);
    let mut tasks = Vec::new();
    for i in 0..120 {
        let (base, http) = (base.clone(), Arc::clone(&http));
        tasks.push(tokio::spawn(async move {
            if i % 2 == 0 {
                post(&http, format!("{base}/api/games"), json!({"mode": "local"})).await
            } else {
                post(&http, format!("{base}/api/import"), json!({"record": record(i)})).await
            }
        }));
    }
    let (mut made, mut refused) = (0, 0);
    for t in tasks {
        let (st, v) = t.await.unwrap();
        match st {
            201 => made += 1,
            503 => {
                assert!(v["error"].as_str().unwrap().contains("unfinished games"), "{v}");
                refused += 1;
            }
            _ => panic!("{st}: {v}"),
        }
    }
    assert_eq!(made, MAX, "exactly the bound's number of games was made");
    assert_eq!(refused, 120 - MAX);
    // At the bound, an import of an unfinished game is refused as a creation is.
    let (st, _) = post(&http, format!("{base}/api/import"), json!({"record": record(1)})).await;
    assert_eq!(st, 503);
    // A finished game adds no open game: it may still be imported.
    let mut game = vlt_core::Game::new(vlt_core::Position::start(vlt_core::Player::B));
    game.resign(vlt_core::Player::A).unwrap();
    let finished = vlt_core::Record::new(game).to_string();
    let (st, v) = post(&http, format!("{base}/api/import"), json!({"record": finished})).await;
    assert_eq!(st, 201, "{v}");
    assert_eq!(v["game"]["result"]["winner"], "B", "{v}");
}
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_of_several_games_is_imported_whole_or_not_at_all(db) {
    let (base, http) = start(&db, 3).await;
    let two = format!("{}\n{}", record(0), record(1));
    let (st, v) = post(&http, format!("{base}/api/import"), json!({"record": two})).await;
    assert_eq!(st, 201, "{v}");
    let ids: Vec<&str> = v["games"].as_array().unwrap().iter().map(|g| g.as_str().unwrap()).collect();
    assert_eq!(ids.len(), 2, "both games are imported, and the answer says so: {v}");
    assert_eq!(ids[0], v["game"]["id"].as_str().unwrap());
    // Each holds its own moves, and the one token holds both seats of both.
    let token = v["token"].as_str().unwrap();
    for (id, first) in ids.iter().zip(["1B", "2B"]) {
        let g: Value = http.get(format!("{base}/api/games/{id}")).send().await.unwrap().json().await.unwrap();
        assert_eq!(g["plies"][0]["move"], first, "{g}");
        let to_move = g["to_move"].as_str().unwrap();
        let mv = g["legal"][0].as_str().unwrap();
        assert_eq!(to_move, "A");
        let (st, _) =
            post(&http, format!("{base}/api/games/{id}/move"), json!({"token": token, "move": mv})).await;
        assert_eq!(st, 200);
    }
    // Two more would pass the bound of 3: neither is imported.
    let (st, _) =
        post(&http, format!("{base}/api/import"), json!({"record": format!("{}\n{}", record(2), record(3))}))
            .await;
    assert_eq!(st, 503);
    let list: Value =
        http.get(format!("{base}/api/games?limit=50")).send().await.unwrap().json().await.unwrap();
    assert_eq!(list["games"].as_array().unwrap().len(), 0, "no game finished, none half-imported");
    // A bad game anywhere in the record imports nothing, and says which.
    let (st, v) = post(
        &http,
        format!("{base}/api/import"),
        json!({"record": format!("{}\n[Event \"x\"]\n\n1. 9Z\n", record(4))}),
    )
    .await;
    assert_eq!(st, 400, "{v}");
    let (st, _) = post(&http, format!("{base}/api/import"), json!({"record": record(5)})).await;
    assert_eq!(st, 201, "the refused imports took no place");
    let (st, _) = post(&http, format!("{base}/api/import"), json!({"record": record(6)})).await;
    assert_eq!(st, 503, "the bound is 3");
}
}
