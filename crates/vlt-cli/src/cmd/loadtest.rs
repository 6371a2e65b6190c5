//! `vlt loadtest`: many concurrent online games against a running `vlt serve` (loopback only).

use crate::error::input;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use vlt_server::loadtest::{LoadConfig, Progress, Transport};

/// Play many online games at once against a running server on this machine and report moves per
/// second and latency percentiles. Bounded in games and time; stops by itself; resigns the games it
/// leaves unfinished.
#[derive(clap::Args)]
#[command(after_help = "Example (the server's per-address caps would stop one machine's 1000 games):\n  \
                  vlt serve --addr 127.0.0.1:8099 --db /tmp/load.db --games-per-minute 0 \
                  --max-connections-per-address 5000 &\n  vlt loadtest --addr 127.0.0.1:8099 --games 1000 \
                  --seconds 30 --via ws --think-ms 2000")]
pub struct Args {
    /// The server (a loopback address).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Games held at once (1-2000).
    #[arg(long, default_value_t = 50)]
    games: usize,
    /// How long to play, in seconds (1-300).
    #[arg(long, default_value_t = 10)]
    seconds: u64,
    /// How moves travel: http or ws.
    #[arg(long, default_value = "http")]
    via: String,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Each game waits this long between moves, as people do (0-60000; 0: flat out).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    think_ms: u64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let transport = match a.via.as_str() {
        "http" => Transport::Http,
        "ws" | "websocket" => Transport::WebSocket,
        v => return Err(input(format!("--via must be http or ws, not {v:?}"))),
    };
    let cfg = LoadConfig {
        addr: a.addr,
        games: a.games,
        duration: Duration::from_secs(a.seconds),
        transport,
        seed: a.seed,
        think: Duration::from_millis(a.think_ms),
    };
    let progress = Arc::new(Progress::default());
    let bar = ProgressBar::new(a.seconds);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} s  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let report = rt.block_on(async {
        let p = Arc::clone(&progress);
        let b = bar.clone();
        let ticker = tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(1)).await;
                b.inc(1);
                b.set_message(format!(
                    "{} moves, {} games finished, {} errors",
                    p.moves.load(Ordering::Relaxed),
                    p.finished.load(Ordering::Relaxed),
                    p.errors.load(Ordering::Relaxed)
                ));
            }
        });
        let r = vlt_server::loadtest::run(cfg, progress).await;
        ticker.abort();
        r
    });
    bar.finish_and_clear();
    let r = report.map_err(input)?;
    if a.json {
        writeln!(std::io::stdout(), "{}", serde_json::to_string(&r)?)?;
    } else {
        writeln!(
            std::io::stdout(),
            "{} games at once over {} (think {} ms): {} moves in {:.1} s = {:.0} moves/s; latency p50 {:.2} ms, p99 {:.2} ms, \
             max {:.2} ms; {} games started, {} finished, {} errors",
            r.concurrent_games,
            a.via,
            r.think_ms,
            r.moves,
            r.seconds,
            r.moves_per_second,
            r.p50_ms,
            r.p99_ms,
            r.max_ms,
            r.games_started,
            r.games_finished,
            r.errors
        )?;
    }
    Ok(())
}
