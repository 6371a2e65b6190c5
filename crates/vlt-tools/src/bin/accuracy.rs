//! Measures the engine's judgement: how often its search plays the best move, and how many stones
//! it gives away when it does not, on positions with a unique best move (see `docs/engine.md`).
//!
//! ```text
//! accuracy draw --tables DIR --stones 19-20 --count 200 --seed 1 --out FILE
//! accuracy run FILE [--nodes N | --time-ms T] [--search] [--tablebase DIR] [--misses]
//!              [--eval linear|learned] [--quiescence on|off] [--lmr on|off] [--threads N]
//! ```
//!
//! `draw` plays engine self-play games (level 5, from random 4-ply openings, both seeded) and keeps,
//! from each game, the first position of every stone count in the range whose mover has two moves
//! or more and whose best move is unique by exact values: from the tables when they cover the
//! position, else from the solver over them. FILE gets one line a position: the N2 string, a tab
//! and every move's exact value (`1B:3 2B:-1 …`).
//!
//! `run` searches each position of FILE from a cleared table, as `vlt analyse` does (every move's
//! score; `--search` only the best move's), within the limit, and prints the share of positions
//! where the move chosen is the best one, the mean and largest loss in stones, and the mean depth
//! and nodes. `--tablebase DIR` gives the engine the tables (for positions above them); `--threads N`
//! searches with N threads (Lazy SMP; one by default, the only deterministic count).

use std::collections::HashSet;
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};
use vlt_core::playout::SplitMix64;
use vlt_core::{Game, Move, Position};
use vlt_engine::arena::random_openings;
use vlt_engine::{Engine, EngineConfig, EvalKind, Level, Limits, Stop};
use vlt_tablebase::Tablebase;
use vlt_tablebase::solve::Solver;

/// The level of the self-play games positions are drawn from: a 6-ply search choosing by a
/// softmax over the moves' values, so games are varied and still reasonable.
const DRAW_LEVEL: u8 = 5;
/// Most positions the solver may expand for one position above the tables.
const SOLVE_NODES: u64 = 20_000_000;
/// Moves after which a self-play game is abandoned (R7 ends endless ones anyway).
const MAX_GAME_MOVES: usize = 400;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("draw") => draw(&args[1..]),
        Some("run") => run(&args[1..]),
        _ => Err(
            "usage: accuracy draw --tables DIR [--stones LO-HI] [--count N] [--seed S] --out FILE\n       \
                  accuracy run FILE [--nodes N | --time-ms T] [--search] [--tablebase DIR] [--misses] \
                  [--eval linear|learned] [--quiescence on|off] [--lmr on|off] [--threads N]"
                .into(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("accuracy: {e}");
            ExitCode::from(2)
        }
    }
}

type Res = Result<(), Box<dyn std::error::Error>>;

/// The value of `--name` in `args`, if given.
fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).map(String::as_str)
}

fn parsed<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> Result<T, String> {
    match flag(args, name) {
        None => Ok(default),
        Some(s) => s.parse().map_err(|_| format!("{name} {s}: not a valid value")),
    }
}

fn draw(args: &[String]) -> Res {
    let dir = flag(args, "--tables").ok_or("draw needs --tables DIR")?;
    let out = flag(args, "--out").ok_or("draw needs --out FILE")?;
    let (lo, hi) = match flag(args, "--stones").unwrap_or("19-20").split_once('-') {
        Some((a, b)) => (a.parse::<u32>()?, b.parse::<u32>()?),
        None => return Err("--stones LO-HI".into()),
    };
    let count: usize = parsed(args, "--count", 200)?;
    let seed: u64 = parsed(args, "--seed", 1)?;
    let tb = Tablebase::open(std::path::Path::new(dir))?;
    let mut solver = Solver::new(&tb, SOLVE_NODES);
    let mut file = std::io::BufWriter::new(std::fs::File::create(out)?);
    let mut engine = Engine::new(EngineConfig { hash_mb: 16, ..EngineConfig::default() });
    let level = Level::new(DRAW_LEVEL).expect("a level");
    let mut rng = SplitMix64(seed);
    let (mut kept, mut seen, mut games) = (0, HashSet::new(), 0u64);
    let start = Instant::now();
    while kept < count {
        let opening = random_openings(1, 4, 2, rng.next_u64())?[0];
        let mut game = Game::new(opening);
        engine.clear();
        games += 1;
        let mut counts_done = HashSet::new();
        while !game.is_over() && game.moves().len() < MAX_GAME_MOVES && kept < count {
            let p = game.position();
            let n = p.stones_on_board();
            if n < lo {
                break;
            }
            if n <= hi
                && p.legal_moves().len() >= 2
                && !counts_done.contains(&n)
                && seen.insert(p.repetition_key())
            {
                counts_done.insert(n);
                let values = if n <= tb.max_stones() {
                    tb.probe_moves(p).ok_or("the tables should cover this position")?
                } else {
                    match solver.move_values(p) {
                        Ok(v) => v,
                        Err(e) => {
                            eprintln!("skipped {p}: {e}");
                            Vec::new()
                        }
                    }
                };
                if unique_best(&values).is_some() {
                    let moves: Vec<String> = values.iter().map(|(m, v)| format!("{m}:{v}")).collect();
                    writeln!(file, "{p}\t{}", moves.join(" "))?;
                    kept += 1;
                    if kept % 20 == 0 {
                        eprintln!("{kept} positions from {games} games, {:.1?}", start.elapsed());
                    }
                }
            }
            let mv = engine.play_level(&game, level, rng.next_u64());
            game.play(mv)?;
        }
    }
    eprintln!("{kept} positions from {games} games in {:.1?}", start.elapsed());
    Ok(())
}

/// The best move when exactly one move has the best value.
fn unique_best(values: &[(Move, i32)]) -> Option<(Move, i32)> {
    let best = values.iter().map(|&(_, v)| v).max()?;
    let mut at_best = values.iter().filter(|&&(_, v)| v == best);
    let first = *at_best.next()?;
    at_best.next().is_none().then_some(first)
}

/// A drawn position and its moves' exact values.
struct Item {
    pos: Position,
    values: Vec<(Move, i32)>,
}

fn read_items(path: &str) -> Result<Vec<Item>, Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(path)?;
    let mut items = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let (pos, moves) = line.split_once('\t').ok_or_else(|| format!("{path}:{}: no tab", i + 1))?;
        let pos: Position = pos.parse().map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        let mut values = Vec::new();
        for mv in moves.split_whitespace() {
            let (m, v) = mv.split_once(':').ok_or_else(|| format!("{path}:{}: {mv}", i + 1))?;
            let m = m.parse::<Move>().map_err(|e| format!("{path}:{}: {e}", i + 1))?;
            values.push((m, v.parse::<i32>()?));
        }
        items.push(Item { pos, values });
    }
    Ok(items)
}

fn run(args: &[String]) -> Res {
    let path = args.first().ok_or("run needs a positions FILE")?;
    let items = read_items(path)?;
    let mut limits = Limits::default();
    if let Some(n) = flag(args, "--nodes") {
        limits.nodes = Some(n.parse()?);
    }
    if let Some(t) = flag(args, "--time-ms") {
        limits.movetime = Some(Duration::from_millis(t.parse()?));
    }
    if let Some(d) = flag(args, "--depth") {
        limits.depth = Some(d.parse()?);
    }
    if limits == Limits::default() {
        return Err("run needs --nodes N, --time-ms T or --depth D".into());
    }
    let all = !args.iter().any(|a| a == "--search");
    let misses = args.iter().any(|a| a == "--misses");
    let hash: usize = parsed(args, "--hash", 64)?;
    let threads: usize = parsed(args, "--threads", 1)?;
    if !(1..=64).contains(&threads) {
        return Err(format!("--threads {threads}: 1 to 64").into());
    }
    let mut engine = Engine::new(EngineConfig { hash_mb: hash, threads, ..EngineConfig::default() });
    if let Some(dir) = flag(args, "--tablebase") {
        engine.set_tablebase(Some(Arc::new(Tablebase::open(std::path::Path::new(dir))?)));
    }
    match flag(args, "--eval") {
        None => {}
        Some("linear") => engine.set_eval(EvalKind::Linear),
        Some("learned") => engine.set_eval(EvalKind::Learned),
        Some(e) => return Err(format!("--eval {e}: linear or learned").into()),
    }
    match flag(args, "--quiescence") {
        None => {}
        Some("on") => engine.set_quiescence(true),
        Some("off") => engine.set_quiescence(false),
        Some(q) => return Err(format!("--quiescence {q}: on or off").into()),
    }
    match flag(args, "--lmr") {
        None => {}
        Some("on") => engine.set_reductions(true),
        Some("off") => engine.set_reductions(false),
        Some(q) => return Err(format!("--lmr {q}: on or off").into()),
    }
    let (mut right, mut loss_sum, mut loss_max) = (0usize, 0i64, 0i32);
    let (mut depth_sum, mut nodes_sum, mut searching) = (0u64, 0u64, Duration::ZERO);
    let start = Instant::now();
    for item in &items {
        engine.clear();
        let game = Game::new(item.pos);
        let stop = Stop::new();
        let t = Instant::now();
        let r = if all {
            engine.analyse(&game, &limits, &stop, &mut |_| {})
        } else {
            engine.search(&game, &limits, &stop, &mut |_| {})
        }
        .ok_or("a drawn position has moves")?;
        searching += t.elapsed();
        let (best, best_v) = unique_best(&item.values).ok_or("a drawn position has a unique best move")?;
        let played = item.values.iter().find(|(m, _)| *m == r.best).map(|&(_, v)| v).ok_or("a legal move")?;
        let loss = best_v - played;
        if loss == 0 {
            right += 1;
        } else if misses {
            println!(
                "miss {}: played {} ({played}), best {best} ({best_v}), depth {}, score {}",
                item.pos, r.best, r.info.depth, r.info.score
            );
        }
        loss_sum += i64::from(loss);
        loss_max = loss_max.max(loss);
        depth_sum += u64::from(r.info.depth);
        nodes_sum += r.info.nodes;
    }
    let n = items.len().max(1) as f64;
    println!(
        "{} positions: best move {:.1} %, mean loss {:.3} stones, max loss {}, mean depth {:.1}, mean nodes {:.0}, {:.0} nodes/s, {:.1?}",
        items.len(),
        100.0 * right as f64 / n,
        loss_sum as f64 / n,
        loss_max,
        depth_sum as f64 / n,
        nodes_sum as f64 / n,
        nodes_sum as f64 / searching.as_secs_f64().max(1e-9),
        start.elapsed()
    );
    Ok(())
}
