//! Benchmarks: probing, ranking, and solving a small layer.
#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use vlt_core::Position;
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
}

criterion_group! {
    name = tablebase;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(tablebase);
