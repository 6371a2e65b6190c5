//! Benchmarks of the rules: random playouts from the start position and perft(8) (N4).
#![allow(missing_docs)] // criterion_group! defines undocumented items

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use vlt_core::Position;
use vlt_core::playout::{SplitMix64, random_playout};

fn playouts(c: &mut Criterion) {
    // Measure how many moves 1000 games take once, so the throughput is in moves.
    const GAMES: u32 = 1000;
    let mut keys = Vec::new();
    let mut rng = SplitMix64(1);
    let moves: u64 =
        (0..GAMES).map(|_| u64::from(random_playout(Position::START, &mut rng, &mut keys).moves)).sum();
    let mut g = c.benchmark_group("playout");
    g.throughput(Throughput::Elements(moves));
    g.bench_function("1000 random games from the start (throughput in moves)", |b| {
        b.iter(|| {
            let mut rng = SplitMix64(1);
            let mut total = 0u64;
            for _ in 0..GAMES {
                total += u64::from(random_playout(black_box(Position::START), &mut rng, &mut keys).moves);
            }
            assert_eq!(total, moves, "the same seed plays the same games");
            total
        })
    });
    g.finish();
}

fn perft8(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.bench_function("perft(start, 8)", |b| {
        b.iter(|| {
            let n = vlt_core::perft(black_box(Position::START), 8);
            assert_eq!(n, 835_629);
            n
        })
    });
    g.finish();
}

criterion_group!(benches, playouts, perft8);
criterion_main!(benches);
