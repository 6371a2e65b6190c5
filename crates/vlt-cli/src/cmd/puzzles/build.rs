//! `vlt puzzles build`: a puzzle set from self-play games (and records), graded with the tables.

use crate::error::input;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;
use vlt_core::Game;
use vlt_learn::build::{BuildConfig, BuildEvent, build};
use vlt_learn::{Difficulty, PuzzleSet, Source, Theme};

/// Build a puzzle set: positions of self-play games (and of record files) where the tables give one
/// best move, graded by how often the engine at levels 1-6 misses it. The same tables, records and
/// options build the same file.
#[derive(clap::Args)]
#[command(after_help = "Example (the set built into vlt, docs/puzzles.md):\n  \
                        vlt tb build --max-stones 16 --dir tb16\n  \
                        vlt puzzles build --tablebase tb16 --games 600 --seed 1 \
                        --records docs/examples/game.vlt --out puzzles.vltp")]
pub struct BuildArgs {
    /// The tables' folder (`vlt tb build`); puzzles have at most its stones on the board.
    #[arg(long)]
    tablebase: PathBuf,
    /// Self-play games to take positions from (0-1000000).
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    games: u32,
    /// The seed of the games' levels and choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Record files of played games, whose positions come first (repeatable).
    #[arg(long)]
    records: Vec<PathBuf>,
    /// The highest level of the self-play games (each side draws 1..=N per game).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(1..=10))]
    max_level: u8,
    /// The least stones the second-best move must give away (1-60).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(i32).range(1..=60))]
    min_gap: i32,
    /// The fewest stones on the board of a puzzle (2-28).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(2..=28))]
    min_stones: u32,
    /// Keep at most this many puzzles (the first met).
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_puzzles: u32,
    /// The file to write.
    #[arg(long, default_value = "puzzles.vltp")]
    out: PathBuf,
}

fn bar(prefix: &str) -> ProgressBar {
    let style = ProgressStyle::with_template(
        "{prefix:>8} [{bar:40}] {pos}/{len} {elapsed_precise} ETA {eta_precise}",
    )
    .expect("template")
    .progress_chars("=> ");
    ProgressBar::new(0).with_style(style).with_prefix(prefix.to_string())
}

pub fn run(a: BuildArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let tb = vlt_tablebase::Tablebase::open(&a.tablebase).map_err(|e| input(format!("--tablebase: {e}")))?;
    let mut games: Vec<Game> = Vec::new();
    for f in &a.records {
        let text = std::fs::read_to_string(f).map_err(|e| input(format!("{}: {e}", f.display())))?;
        let records =
            vlt_core::Record::parse_all(&text).map_err(|e| input(format!("{}: {e}", f.display())))?;
        games.extend(records.into_iter().map(|r| r.game));
    }
    let cfg = BuildConfig {
        games: a.games as usize,
        seed: a.seed,
        levels: 1..=a.max_level,
        min_gap: a.min_gap,
        min_stones: a.min_stones,
        max_puzzles: a.max_puzzles as usize,
    };
    let bars = Mutex::new((bar("games"), bar("grading")));
    let progress = |e: BuildEvent| {
        let b = bars.lock().expect("progress lock");
        match e {
            BuildEvent::Games { done, total } => {
                b.0.set_length(total as u64);
                b.0.set_position(done as u64);
            }
            BuildEvent::Grading { done, total } => {
                b.0.finish_and_clear();
                b.1.set_length(total as u64);
                b.1.set_position(done as u64);
            }
        }
    };
    let puzzles = build(&tb, &games, &cfg, &progress).map_err(input)?;
    bars.lock().expect("progress lock").1.finish_and_clear();
    // The command as given, so that the file says how to build it again.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = format!("vlt {} (tables to {} stones)", args.join(" "), tb.max_stones());
    let set = PuzzleSet { command, puzzles };
    let bytes = set.encode();
    std::fs::write(&a.out, &bytes).map_err(|e| input(format!("{}: {e}", a.out.display())))?;
    summary(&set, bytes.len(), &a.out, started.elapsed().as_secs_f64());
    Ok(())
}

fn summary(set: &PuzzleSet, bytes: usize, out: &std::path::Path, secs: f64) {
    let ps = &set.puzzles;
    let count = |f: &dyn Fn(&vlt_learn::Puzzle) -> bool| ps.iter().filter(|p| f(p)).count();
    println!("{} puzzles, {bytes} bytes, in {secs:.1} s -> {}", ps.len(), out.display());
    let d = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard]
        .map(|d| format!("{} {}", d.name(), count(&|p| p.difficulty() == d)));
    println!("difficulty: {}", d.join(", "));
    let t = Theme::ALL.map(|t| format!("{} {}", t.name(), count(&|p| p.themes.contains(t))));
    println!("themes: {}", t.join(", "));
    println!(
        "from records {}, from self-play {}",
        count(&|p| p.source == Source::Record),
        count(&|p| p.source == Source::SelfPlay)
    );
}
