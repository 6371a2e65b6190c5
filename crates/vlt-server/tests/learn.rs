//! The puzzle and tutorial routes over a real socket: answers are checked against the shipped
//! set's values, ratings move by Glicko-2, the tutorial's stages follow its answers, and bad
//! requests are refused with JSON errors.

mod common;

use serde_json::{Value, json};
use vlt_learn::shipped;
use vlt_server::{Bounds, Hub};

async fn start() -> (String, reqwest::Client, common::TestDb) {
    let db = common::TestDb::sqlite();
    let hub = Hub::new(db.open(), Bounds::default());
    let (addr, _task) = common::serve(hub).await;
    let http = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    (format!("http://{addr}"), http, db)
}

async fn get(http: &reqwest::Client, url: String) -> (u16, Value) {
    let r = http.get(url).send().await.unwrap();
    (r.status().as_u16(), r.json().await.unwrap())
}

async fn post(http: &reqwest::Client, url: String, body: &str) -> (u16, Value) {
    let r = http
        .post(url)
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap())
}

#[tokio::test]
async fn a_puzzle_is_served_answered_solved_and_rated() {
    let (base, http, _dir) = start().await;
    let set = shipped::set();
    let (s, list) = get(&http, format!("{base}/api/puzzles")).await;
    assert_eq!(s, 200);
    assert_eq!(list["count"], set.puzzles.len());
    assert_eq!(list["puzzles"][0]["rating"], set.puzzles[0].rating);

    let p = &set.puzzles[0];
    let (s, v) = get(&http, format!("{base}/api/puzzles/1")).await;
    assert_eq!(s, 200);
    assert_eq!(v["position"], p.position.to_string());
    assert_eq!(v["value"], p.value());
    assert_eq!(v["n"], 1);
    assert!(v.get("best").is_none(), "the puzzle does not give its answer away");

    let wrong = p.move_values().into_iter().find(|m| m.0 != p.best).unwrap();
    let (s, a) = post(
        &http,
        format!("{base}/api/puzzles/1/answer"),
        &json!({"move": wrong.0.to_string()}).to_string(),
    )
    .await;
    assert_eq!(s, 200);
    assert_eq!(a["correct"], false);
    assert_eq!(a["value"], wrong.1);
    assert_eq!(a["best_value"], p.value());
    let (_, a) =
        post(&http, format!("{base}/api/puzzles/1/answer"), &json!({"move": p.best.to_string()}).to_string())
            .await;
    assert_eq!(a["correct"], true);
    assert_eq!(a["ply"]["from"], p.best.to_string());

    let (_, sol) = get(&http, format!("{base}/api/puzzles/1/solution")).await;
    assert_eq!(sol["best"], p.best.to_string());
    assert_eq!(sol["line"].as_array().unwrap().len(), p.line.len());

    // A first puzzle solved: up from 1500; the returned rating goes back in with the next answer.
    let (s, r) =
        post(&http, format!("{base}/api/puzzles/1/rating"), r#"{"solved": true, "player": null}"#).await;
    assert_eq!(s, 200);
    let after = r["player"]["rating"].as_f64().unwrap();
    assert!(after > 1500.0, "{r}");
    let body = json!({"solved": false, "player": r["player"]}).to_string();
    let (_, r2) = post(&http, format!("{base}/api/puzzles/2/rating"), &body).await;
    assert!(r2["player"]["rating"].as_f64().unwrap() < after);
}

#[tokio::test]
async fn bad_puzzle_requests_are_refused() {
    let (base, http, _dir) = start().await;
    let n = shipped::set().puzzles.len();
    assert_eq!(get(&http, format!("{base}/api/puzzles/0")).await.0, 404);
    assert_eq!(get(&http, format!("{base}/api/puzzles/{}", n + 1)).await.0, 404);
    assert_eq!(get(&http, format!("{base}/api/puzzles/x")).await.0, 400);
    let p = &shipped::set().puzzles[0];
    let other_side = if p.position.to_move() == vlt_core::Player::B { "1A" } else { "1B" };
    let (s, e) =
        post(&http, format!("{base}/api/puzzles/1/answer"), &json!({"move": other_side}).to_string()).await;
    assert_eq!(s, 422, "{e}");
    assert!(e["error"].as_str().unwrap().contains("not a legal move"));
    assert_eq!(post(&http, format!("{base}/api/puzzles/1/answer"), r#"{"move": "9Z"}"#).await.0, 400);
    assert_eq!(post(&http, format!("{base}/api/puzzles/1/answer"), r#"{"mv": "1B"}"#).await.0, 400);
    let bad = r#"{"solved": true, "player": {"rating": -5, "deviation": 0, "volatility": 0}}"#;
    assert_eq!(post(&http, format!("{base}/api/puzzles/1/rating"), bad).await.0, 400);
    let big = format!(r#"{{"move": "{}"}}"#, "1".repeat(5000));
    assert_eq!(post(&http, format!("{base}/api/puzzles/1/answer"), &big).await.0, 413);
}

#[tokio::test]
async fn the_tutorial_stages_follow_each_answer_to_its_end() {
    let (base, http, _dir) = start().await;
    let (s, t) = get(&http, format!("{base}/api/tutorial")).await;
    assert_eq!(s, 200);
    let steps = t["steps"].as_array().unwrap();
    assert_eq!(steps.len(), vlt_learn::tutorial::STEPS.len());
    for step in steps {
        let answer = step["answer"].as_array().unwrap();
        let stages = step["stages"].as_array().unwrap();
        assert_eq!(stages.len(), answer.len());
        for (k, st) in stages.iter().enumerate() {
            let ply = &st["plies"][answer[k].as_str().unwrap()];
            let next = stages.get(k + 1).map_or(&step["end"]["position"], |n| &n["position"]);
            assert_eq!(&ply["after"], next, "{}", step["id"]);
        }
    }
    let endless = steps.iter().find(|s| s["id"] == "endless").unwrap();
    assert_eq!(endless["stages"][0]["repetitions"], 2);
    assert!(endless["end"]["result"].as_str().unwrap().contains("repetition"), "{}", endless["end"]);
}
