//! The socket sends only what changed: a move brings its one ply, an undo says how many plies
//! remain, a resignation brings none; the game rebuilt from the deltas is the game served.

mod common;

use futures_util::StreamExt;
use serde_json::{Value, json};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use vlt_server::{Bounds, Hub};

async fn next(
    ws: &mut (impl StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin),
) -> Value {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), ws.next()).await.unwrap().unwrap().unwrap();
        if let Message::Text(t) = m {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] != "presence" {
                return v;
            }
        }
    }
}

on_both_stores! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_undo_and_resignation_travel_as_deltas(db) {
    let hub = Hub::new(db.open(), Bounds::default());
    let (addr, _task) = common::serve(hub).await;
    let http = reqwest::Client::new();
    let base = format!("http://{addr}");
    let post = |path: String, body: Value| {
        let http = http.clone();
        async move { http.post(path).json(&body).send().await.unwrap().json::<Value>().await.unwrap() }
    };
    let c = post(format!("{base}/api/games"), json!({"mode": "local"})).await;
    let (id, token) =
        (c["game"]["id"].as_str().unwrap().to_string(), c["token"].as_str().unwrap().to_string());
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws")).await.unwrap();
    let mut known = next(&mut ws).await["game"].clone();
    let mut sizes = Vec::new();
    let apply = |known: &mut Value, m: &Value| {
        assert_eq!(m["type"], "delta", "{m}");
        assert_eq!(m["base"], known["version"]);
        let from = m["from"].as_u64().unwrap() as usize;
        let mut plies = known["plies"].as_array().unwrap()[..from].to_vec();
        plies.extend(m["game"]["plies"].as_array().unwrap().iter().cloned());
        *known = m["game"].clone();
        known["plies"] = Value::Array(plies);
    };
    for i in 0..12 {
        let mv = known["legal"][0].as_str().unwrap().to_string();
        post(format!("{base}/api/games/{id}/move"), json!({"token": token, "move": mv})).await;
        let m = next(&mut ws).await;
        assert_eq!((m["from"].as_u64(), m["game"]["plies"].as_array().unwrap().len()), (Some(i), 1));
        sizes.push(m.to_string().len());
        apply(&mut known, &m);
    }
    // A delta does not grow with the game: the twelfth is about as long as the first.
    assert!(sizes[11] < sizes[0] + 200, "{sizes:?}");
    let served: Value =
        http.get(format!("{base}/api/games/{id}")).send().await.unwrap().json().await.unwrap();
    assert_eq!(known, served);
    post(format!("{base}/api/games/{id}/undo"), json!({"token": token})).await;
    let m = next(&mut ws).await;
    assert_eq!((m["from"].as_u64(), m["game"]["plies"].as_array().unwrap().len()), (Some(11), 0));
    apply(&mut known, &m);
    post(format!("{base}/api/games/{id}/resign"), json!({"token": token})).await;
    let m = next(&mut ws).await;
    assert_eq!((m["from"].as_u64(), m["game"]["plies"].as_array().unwrap().len()), (Some(11), 0));
    apply(&mut known, &m);
    assert!(known["result"].is_object());
    let served: Value =
        http.get(format!("{base}/api/games/{id}")).send().await.unwrap().json().await.unwrap();
    assert_eq!(known, served, "the game rebuilt from deltas is the game served");
}
}
