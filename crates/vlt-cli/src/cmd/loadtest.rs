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
    /// The server's process id (Linux): its resident memory is sampled every second and reported.
    #[arg(long)]
    server_pid: Option<u32>,
}

/// The server's resident memory in MiB: now (`VmRSS`) and its peak so far (`VmHWM`), read from
/// `/proc/PID/status`.
fn server_memory(pid: u32) -> Result<(f64, f64), String> {
    let path = format!("/proc/{pid}/status");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("--server-pid {pid}: {path}: {e}"))?;
    let field = |name: &str| -> Result<f64, String> {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map(|kb| kb as f64 / 1024.0)
            .ok_or_else(|| format!("--server-pid {pid}: no {name} in {path}"))
    };
    Ok((field("VmRSS:")?, field("VmHWM:")?))
}

/// The report, with the server's memory when its process id was given.
#[derive(serde::Serialize)]
struct Measured {
    #[serde(flatten)]
    load: vlt_server::loadtest::LoadReport,
    /// The largest resident memory sampled during the run, MiB.
    #[serde(skip_serializing_if = "Option::is_none")]
    server_rss_mib: Option<f64>,
    /// The server process's peak resident memory at the end (`VmHWM`), MiB.
    #[serde(skip_serializing_if = "Option::is_none")]
    server_peak_rss_mib: Option<f64>,
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
    if let Some(pid) = a.server_pid {
        server_memory(pid).map_err(input)?;
    }
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
        let pid = a.server_pid;
        let rss = Arc::new(std::sync::Mutex::new(0.0f64));
        let seen = Arc::clone(&rss);
        let ticker = tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(1)).await;
                if let Some((now, _)) = pid.and_then(|p| server_memory(p).ok()) {
                    let mut m = seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    *m = m.max(now);
                }
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
        let sampled = *rss.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        r.map(|r| (r, sampled))
    });
    bar.finish_and_clear();
    let (r, sampled) = report.map_err(input)?;
    let memory = match a.server_pid {
        Some(pid) => Some(server_memory(pid).map_err(input)?),
        None => None,
    };
    let m = Measured {
        load: r,
        server_rss_mib: memory.map(|(now, _)| now.max(sampled)),
        server_peak_rss_mib: memory.map(|(_, peak)| peak),
    };
    if a.json {
        writeln!(std::io::stdout(), "{}", serde_json::to_string(&m)?)?;
    } else {
        let r = &m.load;
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
        if let (Some(rss), Some(peak)) = (m.server_rss_mib, m.server_peak_rss_mib) {
            writeln!(
                std::io::stdout(),
                "server memory: {rss:.1} MiB resident at most during the run, peak {peak:.1} MiB"
            )?;
        }
    }
    Ok(())
}
