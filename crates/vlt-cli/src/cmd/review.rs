//! `vlt review FILE`: every move of a game judged against the best (docs/review.md).

use crate::error::input;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::time::Duration;
use vlt_core::record::RecordReader;
use vlt_core::{Game, Player};
use vlt_engine::{Class, Engine, EngineConfig, Limits, Review, ReviewLimits, Stop, review_game};
use vlt_protocol::session::{MAX_HASH_MB, MAX_THREADS};

/// Review games: every move's value, the best move and its value, the stones given away, whether
/// the values are exact (tables or a proven search) and a class (best, good, inaccuracy, mistake,
/// blunder: loss 0, 1-2, 3-4, 5-8, 9 or more stones), then each player's accuracy and counts.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  vlt review docs/examples/game.vlt\n  vlt review --json --tablebase tb --time-ms 200 \
                  game.vlt\n\nClasses and accuracy: docs/review.md."
)]
#[command(group(clap::ArgGroup::new("limit").args(["depth", "time_ms"])))]
pub struct Args {
    /// Print one JSON object a move (game, ply, player, move, best, played_value, best_value,
    /// loss, exact, class, choices, eval_after, pv), then one a game with each player's summary.
    #[arg(long)]
    json: bool,
    /// Endgame tables (a directory built by `vlt tb build`): moves from positions with few enough
    /// stones are judged exactly. Without it, every position is searched.
    #[arg(long, value_name = "DIR")]
    tablebase: Option<std::path::PathBuf>,
    /// Search each position for this many milliseconds (1-60000; the default is 300).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=60_000))]
    time_ms: Option<u64>,
    /// Search each position to this depth instead (plies, 1-100): the same review on any machine.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    depth: Option<u32>,
    /// Search threads (1-64).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
    threads: u16,
    /// Transposition table size in MiB (1-4096).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u16).range(1..=MAX_HASH_MB as i64))]
    hash: u16,
    /// The record file (docs/records.md); `-` reads standard input. Every game in it is reviewed.
    file: String,
}

/// The default search time for each position, in milliseconds.
const DEFAULT_TIME_MS: u64 = 300;

pub fn run(a: Args) -> anyhow::Result<()> {
    let tablebase = super::open_tablebase(a.tablebase.as_deref())?;
    let (source, name) = super::open_input(&a.file)?;
    let per_move = match a.depth {
        Some(d) => Limits { depth: Some(d), ..Limits::default() },
        None => Limits {
            movetime: Some(Duration::from_millis(a.time_ms.unwrap_or(DEFAULT_TIME_MS))),
            ..Limits::default()
        },
    };
    let limits = ReviewLimits { per_move };
    let config = EngineConfig {
        hash_mb: usize::from(a.hash),
        threads: usize::from(a.threads),
        ..EngineConfig::default()
    };
    let mut engine = Engine::new(config);
    engine.set_tablebase(tablebase);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut n = 0;
    for r in RecordReader::new(source) {
        let r = r.map_err(|e| {
            let _ = out.flush();
            input(format!("{name}: {e}"))
        })?;
        n += 1;
        let review = review_with_bar(&mut engine, &r.game, &limits);
        if a.json {
            print_json(&mut out, n, &review)?;
        } else {
            if n > 1 {
                writeln!(out)?;
            }
            writeln!(out, "Game {n}: {} moves", r.game.moves().len())?;
            print_text(&mut out, &r.game, &review)?;
        }
        out.flush()?;
    }
    if n == 0 {
        return Err(input(format!("{name}: no game found")));
    }
    Ok(())
}

/// Reviews with a progress bar on standard error (drawn only when it is a terminal).
fn review_with_bar(engine: &mut Engine, game: &Game, limits: &ReviewLimits) -> Review {
    let bar = ProgressBar::new(game.moves().len() as u64);
    bar.set_style(
        ProgressStyle::with_template("reviewing [{bar:30}] {pos}/{len} moves  {eta} left")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let review =
        review_game(engine, game, limits, &Stop::new(), &mut |done, _| bar.set_position(done as u64));
    bar.finish_and_clear();
    review
}

fn print_json(out: &mut impl Write, game: usize, r: &Review) -> anyhow::Result<()> {
    for m in &r.moves {
        let mut v = serde_json::to_value(m)?;
        v["game"] = serde_json::json!(game);
        writeln!(out, "{v}")?;
    }
    let o = serde_json::json!({
        "game": game,
        "moves": r.moves.len(),
        "start_eval": r.start_eval,
        "summary": { "B": r.summary.b, "A": r.summary.a },
    });
    writeln!(out, "{o}")?;
    Ok(())
}

fn print_text(out: &mut impl Write, game: &Game, r: &Review) -> std::io::Result<()> {
    writeln!(out, "  ply  who  move  value  best  value  loss  class")?;
    for m in &r.moves {
        let best = if m.loss == 0 { String::new() } else { m.best.to_string() };
        let best_value = if m.loss == 0 { String::new() } else { format!("{:+}", m.best_value) };
        writeln!(
            out,
            "  {:>3}  {:<3}  {:<4}  {:>+5}  {:<4}  {:>5}  {:>4}  {}{}{}",
            m.ply,
            m.player,
            m.mv,
            m.played_value,
            best,
            best_value,
            m.loss,
            m.class,
            if m.exact { "  exact" } else { "" },
            if m.choices == 1 { "  forced" } else { "" },
        )?;
    }
    match game.result() {
        Some(res) => writeln!(out, "result: {res}")?,
        None => writeln!(out, "result: unfinished")?,
    }
    for p in [Player::B, Player::A] {
        let s = &r.summary[p];
        let counts: Vec<String> = Class::ALL.iter().map(|&c| format!("{} {}", s.counts.get(c), c)).collect();
        writeln!(
            out,
            "{p}: accuracy {:.1} %  {} moves ({} exact): {}; {} stones given away",
            s.accuracy,
            s.moves,
            s.exact,
            counts.join(", "),
            s.total_loss
        )?;
    }
    Ok(())
}
