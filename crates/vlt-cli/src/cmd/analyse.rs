//! `vlt analyse POSITION`: the engine's value of every legal move, the best move and its line.

use crate::error::input;
use std::io::Write;
use std::time::Duration;
use vlt_core::{Game, Player};
use vlt_engine::{Algorithm, Engine, EngineConfig, Limits, SearchInfo, Stop};
use vlt_protocol::command::MAX_NUMBER;
use vlt_protocol::session::{MAX_HASH_MB, MAX_THREADS};

/// Analyse a position: the value of every legal move in stones (the capture difference the player to
/// move can expect from here on: its future captures minus the opponent's), the best move, the
/// principal variation, depth, nodes and nodes per second.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  vlt analyse --depth 14 '5,5,5,5,5,5/5,5,5,5,5,5 B 0 0'\n  vlt analyse --json \
                        --time-ms 500 '7,2,3,1,4,2/3,0,4,2,1,3 B 14 14'"
)]
#[command(group(clap::ArgGroup::new("limit").args(["depth", "time_ms", "nodes"])))]
pub struct Args {
    /// Print one JSON object: best, score, exact, depth, nodes, nps, pv, moves [{move, score}].
    #[arg(long)]
    json: bool,
    /// Search to this depth (plies, 1-100).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    depth: Option<u32>,
    /// Search for this many milliseconds (the default is 1000; at most 2^40, as the protocol's
    /// `movetime`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_NUMBER))]
    time_ms: Option<u64>,
    /// Search this many nodes (at most 2^40, as the protocol's `nodes`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_NUMBER))]
    nodes: Option<u64>,
    /// Search threads (1-64).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
    threads: u16,
    /// The search algorithm: alphabeta (every move's value exact) or mcts (values are the mean
    /// capture difference of the playouts; --nodes counts playouts).
    #[arg(long, default_value = "alphabeta")]
    algorithm: String,
    /// Endgame tables (a directory built by `vlt tb build`): positions with few enough stones are
    /// valued exactly.
    #[arg(long, value_name = "DIR")]
    tablebase: Option<std::path::PathBuf>,
    /// Transposition table size in MiB (1-4096); with mcts, the most memory its tree takes.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u16).range(1..=MAX_HASH_MB as i64))]
    hash: u16,
    /// The position string (N2).
    position: String,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let pos = super::parse_position(&a.position)?;
    if pos.is_game_over() {
        return Err(input("the game is over: the board is empty, there is nothing to analyse"));
    }
    let mut limits = Limits { depth: a.depth, nodes: a.nodes, ..Limits::default() };
    if a.depth.is_none() && a.nodes.is_none() {
        limits.movetime = Some(Duration::from_millis(a.time_ms.unwrap_or(1000)));
    }
    let algorithm: Algorithm = a.algorithm.parse().map_err(input)?;
    let config = EngineConfig {
        hash_mb: usize::from(a.hash),
        threads: usize::from(a.threads),
        algorithm,
        ..EngineConfig::default()
    };
    let mut engine = Engine::new(config);
    engine.set_tablebase(super::open_tablebase(a.tablebase.as_deref())?);
    let game = Game::new(pos);
    let json = a.json;
    let mut out = std::io::stdout().lock();
    // A failed write (the reader has gone: `| head -1`) stops the search and is returned after it.
    let stop = Stop::new();
    let mut failed: Option<std::io::Error> = None;
    let mut show = |i: &SearchInfo| {
        if !json && failed.is_none() {
            let pv: Vec<String> = i.pv.iter().map(ToString::to_string).collect();
            let line = writeln!(
                out,
                "depth {:>3}  score {:>+3}{}  nodes {:>11}  nps {:>9}  time {:>7.3} s  pv {}",
                i.depth,
                i.score,
                if i.exact { " exact" } else { "" },
                i.nodes,
                i.nps,
                i.elapsed.as_secs_f64(),
                pv.join(" ")
            )
            .and_then(|()| out.flush());
            if let Err(e) = line {
                failed = Some(e);
                stop.stop();
            }
        }
    };
    let r = if algorithm == Algorithm::AlphaBeta {
        engine.analyse(&game, &limits, &stop, &mut show)
    } else {
        engine.search(&game, &limits, &stop, &mut show)
    }
    .ok_or_else(|| input("the position has no legal move"))?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    let mut out = std::io::stdout().lock();
    let i = &r.info;
    let pv: Vec<String> = i.pv.iter().map(ToString::to_string).collect();
    if json {
        let moves: Vec<serde_json::Value> =
            r.moves.iter().map(|(m, s)| serde_json::json!({"move": m.to_string(), "score": s})).collect();
        let o = serde_json::json!({
            "position": pos.to_string(),
            "best": r.best.to_string(),
            "score": i.score,
            "exact": i.exact,
            "depth": i.depth,
            "nodes": i.nodes,
            "nps": i.nps,
            "time_ms": i.elapsed.as_millis() as u64,
            "pv": pv,
            "moves": moves,
        });
        writeln!(out, "{o}")?;
    } else {
        let me = pos.to_move();
        // Predicted final score: the captures so far plus the expected difference of the rest,
        // shared out so that all stones are counted (R6); on R7 repetition some count for nobody.
        let left = pos.stones_on_board() as i32;
        let mine = i32::from(pos.captured(me)) + (left + i.score) / 2;
        let theirs = i32::from(pos.captured(me.other())) + (left - i.score) / 2;
        let (b, a_) = if me == Player::B { (mine, theirs) } else { (theirs, mine) };
        writeln!(
            out,
            "best {}  score {:+} stones for {}{}",
            r.best,
            i.score,
            me,
            if i.exact { " (proven)" } else { "" }
        )?;
        writeln!(out, "pv {}", pv.join(" "))?;
        writeln!(out, "predicted final score about B {b} - A {a_}")?;
        writeln!(out, "moves:")?;
        for (m, s) in &r.moves {
            writeln!(out, "  {m}  {s:+}")?;
        }
        writeln!(
            out,
            "depth {}  nodes {}  nps {}  time {:.3} s",
            i.depth,
            i.nodes,
            i.nps,
            i.elapsed.as_secs_f64()
        )?;
    }
    Ok(())
}
