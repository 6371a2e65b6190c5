//! Lazy SMP time to depth: `cargo run --release -p vlt-tools --bin smp -- [DEPTH] [THREADS]
//! [ROUNDS]` searches the start and four positions of a level-6 self-play game (plies 8, 16, 24,
//! 32) to DEPTH with one thread and with THREADS, fresh engines each time, and prints the total
//! wall time of each and the speed-up. Run it on an otherwise idle machine.

use std::time::{Duration, Instant};
use vlt_core::Game;
use vlt_engine::{Engine, EngineConfig, Level, Limits, Stop};

fn positions() -> Vec<Game> {
    let mut e = Engine::new(EngineConfig::default());
    let mut g = Game::default();
    let mut out = vec![g.clone()];
    for ply in 1..=32 {
        if g.is_over() {
            break;
        }
        let m = e.play_level(&g, Level::new(6).expect("a level"), ply);
        g.play(m).expect("a legal move");
        if ply % 8 == 0 {
            out.push(Game::new(g.position()));
        }
    }
    out
}

fn time_to_depth(games: &[Game], depth: u32, threads: usize) -> Vec<(Duration, u32)> {
    games
        .iter()
        .map(|g| {
            let mut e = Engine::new(EngineConfig { hash_mb: 64, threads, ..EngineConfig::default() });
            let t = Instant::now();
            let r = e
                .search(g, &Limits { depth: Some(depth), ..Limits::default() }, &Stop::new(), &mut |_| {})
                .expect("not over");
            (t.elapsed(), r.info.depth)
        })
        .collect()
}

fn main() {
    let args: Vec<u32> = std::env::args().skip(1).map(|s| s.parse().expect("a number")).collect();
    let depth = args.first().copied().unwrap_or(18);
    let threads = args.get(1).copied().unwrap_or(2) as usize;
    let rounds = args.get(2).copied().unwrap_or(3);
    let games = positions();
    let (mut one, mut many) = (Duration::ZERO, Duration::ZERO);
    for round in 1..=rounds {
        let a = time_to_depth(&games, depth, 1);
        let b = time_to_depth(&games, depth, threads);
        let ta: Duration = a.iter().map(|x| x.0).sum();
        let tb: Duration = b.iter().map(|x| x.0).sum();
        let each: Vec<String> = a
            .iter()
            .zip(&b)
            .map(|(x, y)| format!("{:.2}/{:.2}", x.0.as_secs_f64(), y.0.as_secs_f64()))
            .collect();
        println!(
            "round {round}: 1 thread {:.2} s, {threads} threads {:.2} s ({:.2}x)  per position {}",
            ta.as_secs_f64(),
            tb.as_secs_f64(),
            ta.as_secs_f64() / tb.as_secs_f64(),
            each.join(" ")
        );
        one += ta;
        many += tb;
    }
    println!(
        "depth {depth}, {} positions, {rounds} rounds: 1 thread {:.2} s, {threads} threads {:.2} s, speed-up {:.2}x",
        games.len(),
        one.as_secs_f64(),
        many.as_secs_f64(),
        one.as_secs_f64() / many.as_secs_f64()
    );
}
