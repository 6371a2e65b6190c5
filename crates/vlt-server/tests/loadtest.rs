//! The load test against a server in this process: over HTTP and over WebSockets, flat out and
//! with a think time, every move acknowledged and no error.

use std::sync::Arc;
use std::time::Duration;
use vlt_server::loadtest::{LoadConfig, Progress, Transport, run};
use vlt_server::ratelimit::Rate;
use vlt_server::{Bounds, Edge, Hub, Store};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_are_played_over_both_transports_with_and_without_think_time() {
    let dir = tempfile::tempdir().unwrap();
    let hub = Hub::new(Store::open(&dir.path().join("g.db")).unwrap(), Bounds::default());
    let edge = Edge { games_rate: Rate::OFF, ..Edge::default() };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = vlt_server::router_with(hub, &edge);
    tokio::spawn(async move {
        vlt_server::listen::serve_until(listener, app, &edge, std::future::pending()).await
    });
    for (transport, think_ms) in
        [(Transport::WebSocket, 0), (Transport::Http, 0), (Transport::WebSocket, 100), (Transport::Http, 100)]
    {
        let cfg = LoadConfig {
            addr,
            games: 4,
            duration: Duration::from_secs(2),
            transport,
            seed: 7,
            think: Duration::from_millis(think_ms),
        };
        let r = run(cfg, Arc::new(Progress::default())).await.unwrap();
        let what = format!("{transport:?} think {think_ms}: {r:?}");
        assert_eq!(r.errors, 0, "{what}");
        assert!(r.moves >= 8, "{what}");
        assert!(r.p99_ms >= r.p50_ms && r.max_ms >= r.p99_ms, "{what}");
        if think_ms > 0 {
            // 4 games, one move each per 100 ms at most, for 2 s.
            assert!(r.moves <= 4 * 20 + 4, "{what}");
        }
    }
    let bad = LoadConfig {
        addr,
        games: 1,
        duration: Duration::from_secs(1),
        transport: Transport::Http,
        seed: 1,
        think: Duration::from_secs(61),
    };
    assert!(run(bad, Arc::new(Progress::default())).await.is_err());
}
