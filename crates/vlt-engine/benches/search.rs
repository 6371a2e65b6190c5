//! Search speed: nodes per second of fixed-depth alpha-beta searches on the fixed positions of
//! `vlt_engine::BENCH_POSITIONS`, one thread, a fresh table each time; and MCTS playouts per second.
//! Each sample checks its node count against the deterministic bench signature, so a fast but
//! changed search is noticed.

use criterion::{Criterion, Throughput, criterion_main};
use std::hint::black_box;
use vlt_core::{Game, Position};
use vlt_engine::BENCH_POSITIONS;
use vlt_engine::{Algorithm, Engine, EngineConfig, Limits, Stop};

/// Depth of the criterion searches (shallower than `vlt bench`, so a sample takes milliseconds).
const DEPTH: u32 = 10;

fn alphabeta(c: &mut Criterion) {
    let games: Vec<Game> =
        BENCH_POSITIONS.iter().map(|s| Game::new(s.parse::<Position>().expect("valid"))).collect();
    let limits = Limits { depth: Some(DEPTH), ..Limits::default() };
    let mut engine = Engine::new(EngineConfig { hash_mb: 16, ..EngineConfig::default() });
    // The node count of one pass: fixed, since the search is deterministic on one thread.
    let mut count = || {
        games
            .iter()
            .map(|g| {
                engine.clear();
                engine.search(g, &limits, &Stop::new(), &mut |_| {}).expect("moves").info.nodes
            })
            .sum::<u64>()
    };
    let nodes = count();
    assert_eq!(nodes, count(), "the search must be deterministic");
    let mut g = c.benchmark_group("alphabeta");
    g.throughput(Throughput::Elements(nodes));
    g.sample_size(10);
    g.bench_function(format!("depth{DEPTH}_{}positions", games.len()), |b| {
        b.iter(|| assert_eq!(black_box(count()), nodes))
    });
    g.finish();
}

fn mcts(c: &mut Criterion) {
    let game = Game::new(Position::START);
    let iterations = 20_000;
    let limits = Limits { nodes: Some(iterations), ..Limits::default() };
    let mut engine =
        Engine::new(EngineConfig { hash_mb: 1, algorithm: Algorithm::Mcts, ..EngineConfig::default() });
    let mut g = c.benchmark_group("mcts");
    g.throughput(Throughput::Elements(iterations));
    g.sample_size(10);
    g.bench_function("start_20k_playouts", |b| {
        b.iter(|| {
            let r = engine.search(&game, &limits, &Stop::new(), &mut |_| {}).expect("moves");
            assert_eq!(r.info.nodes, iterations);
        })
    });
    g.finish();
}

mod group {
    // The macro defines an undocumented public function.
    #![allow(missing_docs)]
    use super::{alphabeta, mcts};
    criterion::criterion_group!(benches, alphabeta, mcts);
}
criterion_main!(group::benches);
