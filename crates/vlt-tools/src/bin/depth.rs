//! Times a fixed-depth search on one thread: `cargo run --release -p vlt-tools --bin depth --
//! [DEPTH] [POSITION] [THREADS]`. Target: depth 20 from the start in under 15 s.

use vlt_core::{Game, Position};
use vlt_engine::{Engine, EngineConfig, Limits, Stop};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let pos: Position = args.get(2).map_or(Ok(Position::START), |s| s.parse()).expect("position (N2)");
    let threads = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut engine = Engine::new(EngineConfig { hash_mb: 64, threads, ..EngineConfig::default() });
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let r = engine
        .search(&Game::new(pos), &limits, &Stop::new(), &mut |i| {
            let pv: Vec<String> = i.pv.iter().map(ToString::to_string).collect();
            println!(
                "depth {:>2} score {:+} nodes {:>11} nps {:>9} time {:>7.3} s pv {}",
                i.depth,
                i.score,
                i.nodes,
                i.nps,
                i.elapsed.as_secs_f64(),
                pv.join(" ")
            );
        })
        .expect("the game is not over");
    println!("best {} depth {} in {:.3} s", r.best, r.info.depth, r.info.elapsed.as_secs_f64());
}
