//! Benchmarks: probing, ranking, building a small layer, and solving positions above the tables.
#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use vlt_core::Position;
use vlt_tablebase::solve::{Solver, estimate::Estimator};
use vlt_tablebase::{Tablebase, build::build_in_memory, index};

fn benches(c: &mut Criterion) {
    let tb = Tablebase::from_layers(build_in_memory(10));
    let pos: Position = "1,0,1,0,1,0/1,2,0,1,2,0 A 25 26".parse().expect("position");
    assert_eq!(tb.probe(pos).map(|v| v != 0 || pos.stones_on_board() % 2 == 0), Some(true));
    c.bench_function("probe", |b| b.iter(|| tb.probe(black_box(pos))));
    c.bench_function("probe_moves", |b| b.iter(|| tb.probe_moves(black_box(pos))));
    c.bench_function("rank_unrank_20", |b| {
        b.iter(|| index::rank(&index::unrank(20, black_box(123_456_789 % index::boards(20)))))
    });
    c.bench_function("solve_layers_0_to_8", |b| b.iter(|| build_in_memory(black_box(8))));
    // The solver (proof-number search, R7 repetitions) on four 15-stone positions over the 8-stone
    // tables, each by a fresh solver: 5,629 positions expanded in all (14,419 before the estimate).
    let tb8 = Tablebase::from_layers(build_in_memory(8));
    let positions: Vec<Position> = [
        "2,1,0,3,0,2/1,2,1,0,3,1 B 23 21",
        "1,2,0,3,1,1/2,0,1,3,0,2 A 22 22",
        "0,3,1,2,0,2/1,1,2,3,1,0 B 22 22",
        "3,0,2,1,1,0/0,2,3,1,2,1 A 22 22",
    ]
    .iter()
    .map(|s| s.parse().expect("position"))
    .collect();
    // The solver's estimate (features, then the network) on 100 positions of 15–24 stones.
    let mut rng = vlt_core::playout::SplitMix64(5);
    let sample: Vec<Position> =
        (0..).filter_map(|i| vlt_core::playout::greedy_position(15 + i % 10, &mut rng)).take(100).collect();
    let e = Estimator::builtin();
    c.bench_function("estimate_100_positions", |b| {
        b.iter(|| sample.iter().map(|&p| e.estimate(black_box(p))).sum::<i32>())
    });
    c.bench_function("solve_four_15_stone_positions", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|&p| Solver::new(&tb8, u64::MAX).value(black_box(p)).expect("no node limit"))
                .sum::<i32>()
        })
    });
}

criterion_group! {
    name = tablebase;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(tablebase);
