//! Prints the deterministic search benchmark: `cargo run --release -p vlt-engine --example bench`.

fn main() {
    let depth = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(vlt_engine::bench::DEPTH);
    let r = vlt_engine::bench::bench(depth);
    println!("depth {depth}: {} nodes in {:.3} s, {} nodes/s", r.nodes, r.elapsed.as_secs_f64(), r.nps());
}
