//! `vlt bench`: the rules' speed figures (random playouts, perft(8)).

use std::io::Write;
use std::time::Instant;
use vlt_core::Position;
use vlt_core::playout::{SplitMix64, random_playout};

/// Measure the rules' speed: random playouts from the start position, and perft(8).
#[derive(clap::Args)]
#[command(after_help = "Example:\n  vlt bench --json")]
pub struct Args {
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Seconds to spend on playouts (more than 0, at most 3600).
    #[arg(long, default_value_t = 3.0, value_parser = seconds)]
    seconds: f64,
}

/// A duration in seconds, finite and within (0, 3600].
fn seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("{s:?} is not a number of seconds"))?;
    if v > 0.0 && v <= 3600.0 { Ok(v) } else { Err(format!("{s} is not within 0-3600 seconds")) }
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let mut rng = SplitMix64(0x5eed);
    let mut keys = Vec::new();
    let (mut games, mut moves, mut repetitions) = (0u64, 0u64, 0u64);
    let t = Instant::now();
    while t.elapsed().as_secs_f64() < a.seconds.max(0.01) {
        for _ in 0..1000 {
            let p = random_playout(Position::START, &mut rng, &mut keys);
            games += 1;
            moves += u64::from(p.moves);
            repetitions += u64::from(p.repetition);
        }
    }
    let secs = t.elapsed().as_secs_f64();
    let t8 = Instant::now();
    let n8 = vlt_core::perft(Position::START, 8);
    let perft8_ms = t8.elapsed().as_secs_f64() * 1e3;
    anyhow::ensure!(n8 == 835_629, "perft(8) gave {n8}, expected 835629: the move generator is broken");
    // The engine's deterministic search benchmark (fixed positions and depth, one thread).
    let sb = vlt_engine::bench(vlt_engine::BENCH_DEPTH);
    let out = serde_json::json!({
        "playout_games": games,
        "playout_moves": moves,
        "playout_repetitions": repetitions,
        "playout_games_per_sec": games as f64 / secs,
        "playout_moves_per_sec": moves as f64 / secs,
        "perft8_ms": perft8_ms,
        "perft8_nodes": n8,
        "search_depth": vlt_engine::BENCH_DEPTH,
        "search_nodes": sb.nodes,
        "search_ms": sb.elapsed.as_secs_f64() * 1e3,
        "search_nps": sb.nps(),
    });
    if a.json {
        writeln!(std::io::stdout(), "{out}")?;
    } else {
        writeln!(
            std::io::stdout(),
            "random playouts: {games} games, {moves} moves in {secs:.2} s (one thread)"
        )?;
        writeln!(
            std::io::stdout(),
            "  {:.0} games/s, {:.1} million moves/s",
            games as f64 / secs,
            moves as f64 / secs / 1e6
        )?;
        writeln!(std::io::stdout(), "  {repetitions} games ended by R7 repetition")?;
        writeln!(std::io::stdout(), "perft(8) = {n8} in {perft8_ms:.1} ms")?;
        writeln!(
            std::io::stdout(),
            "search: {} positions to depth {}: {} nodes (signature) in {:.1} ms, {} nodes/s (one thread)",
            vlt_engine::BENCH_POSITIONS.len(),
            vlt_engine::BENCH_DEPTH,
            sb.nodes,
            sb.elapsed.as_secs_f64() * 1e3,
            sb.nps()
        )?;
    }
    Ok(())
}
