//! `vlt tb build`: one process, or (built with the `mpi` feature, started by `mpirun`) one rank of
//! a build that several processes share; the same library builder either way.

use super::{LayerProgress, tb_error};
use crate::error::input;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use vlt_tablebase::comm::{Comm, Reduce, SingleProcess};
use vlt_tablebase::{BuildEvent, BuildOptions, format, index};

/// Compute every position with at most N stones on the board by retrograde analysis (R1-R7);
/// resumes from the layers already in DIR, and within a layer from its last checkpoint. Under
/// `mpirun -np K` (a build with the `mpi` feature) the K processes share every layer.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  vlt tb build --max-stones 16 --dir tb    # 16 stones: 61 MB on disk\n  \
                        mpirun -np 4 vlt tb build --max-stones 24 --dir tb    # built with --features mpi"
)]
pub(super) struct BuildArgs {
    /// The most stones on the board (0..=28).
    #[arg(long)]
    pub max_stones: u32,
    /// Folder for the layer files (created when missing; shared by all processes under mpirun).
    #[arg(long)]
    pub dir: PathBuf,
    /// Worker threads, 1-1024 (default: all cores; under mpirun, per process).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Write a checkpoint within a layer after this many minutes of its work, 0-10080 (0: after
    /// every threshold); an interrupted build resumes from it.
    #[arg(long, default_value_t = 15, value_name = "MINUTES",
          value_parser = clap::value_parser!(u32).range(0..=10_080))]
    pub checkpoint_minutes: u32,
}

impl BuildArgs {
    /// The arguments of `vlt tb build --max-stones max --dir dir --threads 1`.
    #[cfg(test)]
    pub(super) fn new(max_stones: u32, dir: PathBuf) -> BuildArgs {
        BuildArgs { max_stones, dir, threads: Some(1), checkpoint_minutes: 15 }
    }
}

/// Positions a second, in millions, where the time is long enough to tell (a layer solved in a
/// few milliseconds would show a rate of its timer's rounding, not of the builder).
pub(super) fn rate(positions: u64, micros: u64) -> String {
    if micros < 10_000 {
        "  fast".to_string()
    } else {
        format!("{:>5.2} M/s", positions as f64 / micros as f64)
    }
}

/// Peak resident memory of this process in MiB, where Linux tells it.
fn peak_rss_mib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
}

/// The environment variable of the kill-and-resume tests: `STONES:RANK` makes rank RANK end
/// abruptly (abort, as a killed process) right after its first checkpoint within layer STONES.
const ABORT_AT: &str = "VLT_TB_ABORT_AT";

pub(super) fn build(a: BuildArgs) -> anyhow::Result<()> {
    if a.max_stones > index::MAX_LAYER {
        return Err(input(format!("--max-stones {}: at most {}", a.max_stones, index::MAX_LAYER)));
    }
    if a.dir.exists() && !a.dir.is_dir() {
        return Err(input(format!("--dir {}: not a folder", a.dir.display())));
    }
    let every = Duration::from_secs(60 * u64::from(a.checkpoint_minutes));
    let options = BuildOptions::checkpoint_every(Some(every));
    let threads = a.threads.map_or(0, usize::from);
    #[cfg(feature = "mpi")]
    if vlt_tablebase::mpi::launched_by_mpi() {
        let comm = vlt_tablebase::mpi::MpiComm::init()
            .ok_or_else(|| anyhow::anyhow!("MPI cannot be initialised with funneled threads"))?;
        // MPI is called from this thread only (funneled): the build runs here, its workers in
        // the global pool. A second build in one process keeps the first one's pool.
        let _ = rayon::ThreadPoolBuilder::new().num_threads(threads).build_global();
        return build_on(&a, &comm, &options);
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    pool.install(|| build_on(&a, &SingleProcess, &options))
}

/// The build on `comm`'s ranks; rank 0 reports.
fn build_on(a: &BuildArgs, comm: &dyn Comm, options: &BuildOptions) -> anyhow::Result<()> {
    use std::io::Write;
    let start = Instant::now();
    let rank = comm.rank();
    let lead = rank == 0;
    let abort_at = std::env::var(ABORT_AT).ok().and_then(|v| {
        let (s, r) = v.split_once(':')?;
        Some((s.parse::<u32>().ok()?, r.parse::<usize>().ok()?))
    });
    let bar: Mutex<Option<LayerProgress>> = Mutex::new(None);
    let dir = a.dir.clone();
    let events = |e: BuildEvent| {
        if let BuildEvent::Checkpoint { stones, .. } = e {
            if abort_at == Some((stones, rank)) {
                std::process::abort();
            }
        }
        if !lead {
            return;
        }
        match e {
            BuildEvent::LayerKept { stones } => eprintln!("layer {stones:2}: kept (already built)"),
            BuildEvent::LayerStart { stones, total, .. } => {
                *bar.lock().expect("bar") = Some(LayerProgress::new(stones, total));
            }
            BuildEvent::Progress { done, .. } => {
                if let Some(b) = bar.lock().expect("bar").as_mut() {
                    b.set(done);
                }
            }
            BuildEvent::Checkpoint { stones, threshold } => {
                let line = format!("layer {stones:2}: checkpoint, thresholds {threshold} to 1 left");
                match bar.lock().expect("bar").as_ref() {
                    Some(b) => b.note(&line),
                    None => eprintln!("{line}"),
                }
            }
            BuildEvent::LayerResumed { stones, threshold } => {
                eprintln!("layer {stones:2}: resumed from its checkpoint, thresholds {threshold} to 1 left");
            }
            BuildEvent::LayerDone { stones, stats } => {
                if let Some(b) = bar.lock().expect("bar").take() {
                    b.finish();
                }
                let size = std::fs::metadata(format::layer_path(&dir, stones)).map(|m| m.len()).unwrap_or(0);
                let exchanged = if stats.exchanged_bytes > 0 {
                    format!(", {:.1} MB exchanged", stats.exchanged_bytes as f64 / 1e6)
                } else {
                    String::new()
                };
                eprintln!(
                    "layer {stones:2}: {:>11} positions in {:7.2} s ({}), {:>5.1} MB, {:>9} worth 0 ({} through quiet play){exchanged}",
                    stats.positions,
                    stats.micros as f64 / 1e6,
                    rate(stats.positions, stats.micros),
                    size as f64 / 1e6,
                    stats.zeros,
                    stats.zero_by_quiet_play,
                );
            }
            _ => {}
        }
    };
    let stats = vlt_tablebase::build_with(&a.dir, a.max_stones, &events, comm, options).map_err(tb_error)?;
    // Every rank's peak: what one process of the build needs.
    let peak = comm.reduce(peak_rss_mib().unwrap_or(0), Reduce::Max);
    if !lead {
        return Ok(());
    }
    let positions: u64 = stats.iter().map(|s| s.positions).sum();
    let exchanged: u64 = stats.iter().map(|s| s.exchanged_bytes).sum();
    let disk: u64 = (0..=a.max_stones)
        .filter_map(|n| std::fs::metadata(format::layer_path(&a.dir, n)).ok())
        .map(|m| m.len())
        .sum();
    let secs = start.elapsed().as_secs_f64();
    let ranks = match comm.size() {
        1 => String::new(),
        k => format!(" by {k} processes ({:.1} MB exchanged)", exchanged as f64 / 1e6),
    };
    writeln!(
        std::io::stdout(),
        "built {} layers up to {} stones in {:.1} s{ranks}: {} positions solved now ({:.2} M/s), {:.1} MB on disk, peak memory {} MiB{}",
        stats.len(),
        a.max_stones,
        secs,
        positions,
        positions as f64 / secs.max(1e-6) / 1e6,
        disk as f64 / 1e6,
        if peak == 0 { "?".to_string() } else { peak.to_string() },
        if comm.size() > 1 { " a process" } else { "" },
    )?;
    Ok(())
}
