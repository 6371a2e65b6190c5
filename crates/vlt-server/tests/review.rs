//! Reviews and the analysis board over real sockets: a finished game reviewed in the background
//! with the tables' values, stored and served again after a restart; the board's exact line.

mod common;

use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use vlt_core::{Game, Position, Record};
use vlt_server::{Bounds, Hub};
use vlt_tablebase::Tablebase;

struct Server {
    base: String,
    http: reqwest::Client,
    task: tokio::task::JoinHandle<()>,
}

async fn start(db: &common::TestDb, tb: Option<Arc<Tablebase>>) -> Server {
    let bounds = Bounds { engine_ms: 300, review_ms: 20, ..Bounds::default() };
    let hub = Hub::with_tablebase(db.open(), bounds, tb);
    let (addr, task) = common::serve(hub).await;
    Server { base: format!("http://{addr}"), http: reqwest::Client::new(), task }
}

impl Server {
    async fn send(&self, r: reqwest::RequestBuilder) -> (u16, Value) {
        let r = r.send().await.unwrap();
        let status = r.status().as_u16();
        let text = r.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}")))
    }
    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let r = self.http.post(format!("{}{path}", self.base)).header("content-type", "application/json");
        self.send(r.body(body.to_string())).await
    }
    async fn get(&self, path: &str) -> (u16, Value) {
        self.send(self.http.get(format!("{}{path}", self.base))).await
    }
}

/// A finished game from a 10-stone study position: the first mover plays the worst move each
/// time, the other the tables' best.
fn study_game(tb: &Tablebase) -> Game {
    let mut g = Game::new("2,0,1,0,3,0/0,2,0,1,0,1 B 25 25".parse().unwrap());
    while !g.is_over() {
        let pos = g.position();
        let moves = tb.probe_moves(pos).unwrap();
        let m = if pos.to_move() == vlt_core::Player::B {
            moves.iter().min_by_key(|m| m.1).unwrap().0
        } else {
            tb.best_move(pos).unwrap().0
        };
        g.play(m).unwrap();
    }
    g
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_reviewed_in_the_background_and_stored(db) {
    let tb = Arc::new(Tablebase::from_layers(vlt_tablebase::build::build_in_memory(10)));
    let game = study_game(&tb);
    let s = start(&db, Some(Arc::clone(&tb))).await;
    let record = Record::new(game.clone()).to_string();
    let (st, imp) = s.post("/api/import", json!({ "record": record })).await;
    assert_eq!(st, 201, "{imp}");
    let id = imp["game"]["id"].as_str().unwrap().to_string();
    let path = format!("/api/games/{id}/review");
    assert_eq!(s.get(&path).await, (200, json!({"state": "none"})));
    let (st, r) = s.post(&path, json!({})).await;
    assert!(st == 202 || st == 200, "{st} {r}");
    let mut review = Value::Null;
    for _ in 0..200 {
        let (st, r) = s.get(&path).await;
        assert_eq!(st, 200, "{r}");
        if r["state"] == "done" {
            review = r["review"].clone();
            break;
        }
        assert!(["queued", "running"].contains(&r["state"].as_str().unwrap()), "{r}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let moves = review["moves"].as_array().unwrap_or_else(|| panic!("no review: {review}"));
    assert_eq!(moves.len(), game.moves().len());
    let mut lost = 0;
    for (i, m) in moves.iter().enumerate() {
        let pos: Position = game.positions()[i];
        let values = tb.probe_moves(pos).unwrap();
        let best = values.iter().map(|v| v.1).max().unwrap();
        let played = values.iter().find(|v| v.0 == game.moves()[i]).unwrap().1;
        assert_eq!(
            (m["best_value"].as_i64(), m["played_value"].as_i64()),
            (Some(best.into()), Some(played.into()))
        );
        assert_eq!(m["exact"], true);
        lost += best - played;
    }
    assert!(lost > 0, "the worst moves give stones away");
    assert_eq!(review["summary"]["A"]["accuracy"], 100.0);
    assert_eq!(review["summary"]["B"]["total_loss"], lost);
    // Asking again does not review again, and a restarted server has it stored.
    assert_eq!(s.post(&path, json!({})).await.0, 200);
    s.task.abort();
    assert_eq!(db.open().review_count().unwrap(), 1);
    let s = start(&db, None).await;
    let (st, again) = s.get(&path).await;
    assert_eq!((st, &again["review"]), (200, &review));
    s.task.abort();
}
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_finished_games_are_reviewed(db) {
    let s = start(&db, None).await;
    let (_, c) = s.post("/api/games", json!({"mode": "local"})).await;
    let id = c["game"]["id"].as_str().unwrap();
    let (st, e) = s.post(&format!("/api/games/{id}/review"), json!({})).await;
    assert_eq!(st, 409, "{e}");
    assert!(e["error"].as_str().unwrap().contains("not finished"), "{e}");
    assert_eq!(s.get("/api/games/nosuchgame/review").await.0, 404);
    s.task.abort();
}
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_analyses_any_position_with_the_tables_line(db) {
    let tb = Arc::new(Tablebase::from_layers(vlt_tablebase::build::build_in_memory(10)));
    let s = start(&db, Some(Arc::clone(&tb))).await;
    let start_pos = "2,0,1,0,3,0/0,2,0,1,0,1 B 25 25";
    let (st, b) = s.post("/api/analyse", json!({"position": start_pos, "moves": ["5"], "ms": 50})).await;
    assert_eq!(st, 200, "{b}");
    let pos: Position = start_pos.parse::<Position>().unwrap().play("5B".parse().unwrap()).unwrap();
    assert_eq!(b["position"], pos.to_string());
    assert_eq!(b["tables"]["value"], tb.probe(pos).unwrap());
    let line = b["tables"]["line"].as_array().unwrap();
    assert_eq!(b["tables"]["moves_to_end"].as_u64().unwrap() as usize, line.len());
    assert_eq!(b["tables"]["end"], "empty_board");
    let mut p = pos;
    for m in line {
        p = p.play(m.as_str().unwrap().parse().unwrap()).unwrap();
    }
    assert!(p.is_game_over(), "the line ends the game");
    assert_eq!(b["analysis"]["exact"], true);
    assert_eq!(b["analysis"]["moves"].as_array().unwrap().len(), pos.legal_moves().len());
    // The opening: no tables, a searched value for every move.
    let (st, b) = s.post("/api/analyse", json!({"position": Position::START.to_string(), "ms": 50})).await;
    assert_eq!(st, 200, "{b}");
    assert!(b["tables"].is_null());
    assert_eq!(b["analysis"]["moves"].as_array().unwrap().len(), 6);
    // Refusals, each a JSON error.
    for (body, code) in [
        (json!({"position": "1,2,3"}), 400),
        (json!({"position": start_pos, "moves": ["2"]}), 422),
        (json!({"position": start_pos, "moves": ["x"]}), 400),
        (json!({"position": start_pos, "extra": 1}), 400),
        (json!({"position": start_pos, "moves": vec!["1B"; 1001]}), 400),
    ] {
        let (st, e) = s.post("/api/analyse", body.clone()).await;
        assert_eq!(st, code, "{body}: {e}");
        assert!(e["error"].is_string(), "{e}");
    }
    s.task.abort();
}
}
