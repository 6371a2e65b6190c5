//! What a move costs the server besides the network: committing it to SQLite (with the fsync that
//! makes "committed before acknowledged" true) and building the JSON the clients are sent.
#![allow(missing_docs)] // criterion_group! defines undocumented items

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use vlt_core::Game;
use vlt_core::playout::SplitMix64;
use vlt_server::kinds::Mode;
use vlt_server::store::{GameRow, Store};
use vlt_server::view::{SeatState, game_view};

/// A game of random legal moves, played to its end (R6, R7).
fn random_game(seed: u64) -> Game {
    let mut rng = SplitMix64(seed);
    let mut g = Game::default();
    while !g.is_over() {
        let moves = g.position().legal_moves();
        let m = moves.nth_move(rng.below(moves.len() as u32) as usize).expect("a legal move");
        g.play(m).expect("legal");
    }
    g
}

fn bench(c: &mut Criterion) {
    let game = random_game(7);
    let plies = game.moves().len();
    c.bench_function(&format!("game_view+json ({plies} plies)"), |b| {
        b.iter(|| {
            let v = game_view("abc", Mode::Online, None, [SeatState::Taken; 2], black_box(&game), (1, "e"));
            serde_json::to_string(&v).expect("serialises")
        })
    });

    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::open(&dir.path().join("bench.db")).expect("store");
    let row = GameRow {
        id: "bench".into(),
        mode: Mode::Online,
        start: "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0".into(),
        level: None,
        computer: None,
        token_b: Some("b".into()),
        token_a: Some("a".into()),
        resigned: None,
        finished: false,
        result: None,
        created: 0,
        updated: 0,
        tags: "[]".into(),
        player_b: None,
        player_a: None,
        rated: false,
        clock: None,
        aborted: false,
    };
    store.insert_game(&row, &[]).expect("insert");
    let mut ply = 0;
    c.bench_function("store: commit one move (fsync)", |b| {
        b.iter(|| {
            store.append_moves("bench", ply, &["1B".to_string()], None).expect("append");
            ply += 1;
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
