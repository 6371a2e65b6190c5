//! `vlt solve POSITION [--dir DIR]`: the exact value of a position beyond the tables, by search
//! probing the tables (the method is in vlt_tablebase::solve and docs/tablebase.md).

use crate::error::input;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use vlt_core::playout::{SplitMix64, greedy_position};
use vlt_core::{Game, Position};
use vlt_engine::{Engine, EngineConfig, Level};
use vlt_tablebase::Tablebase;
use vlt_tablebase::build::build_in_memory;
use vlt_tablebase::solve::estimate::Estimator;
use vlt_tablebase::solve::{SolveError, SolveStats, Solver};

/// Tables built in memory when no --dir is given (a fraction of a second).
const DEFAULT_STONES: u32 = 8;

/// Solve a position exactly: the best future capture difference for the player to move (R1-R7).
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  vlt solve '0,1,2,0,1,0/2,0,1,3,0,2 B 20 18' --dir tb\n  \
                        vlt solve '0,1,2,0,1,0/2,0,1,3,0,2 B 20 18' --dir tb --at-least 1")]
pub struct Args {
    /// The position (N2).
    #[arg(required_unless_present_any = ["survey", "check_certificate"])]
    position: Option<String>,
    /// Tables to probe (as `vlt tb build` writes them); without it, tables of up to 8 stones are
    /// built in memory.
    #[arg(long, visible_alias = "tablebase")]
    dir: Option<PathBuf>,
    /// Also write the proof of the value to FILE (docs/solver.md), for --check-certificate.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["at_least", "survey", "check_certificate"])]
    certificate: Option<PathBuf>,
    /// Check the proof in FILE instead of solving, without search: the rules and, for its table
    /// leaves, the tables of --dir (--tablebase). A refused certificate exits with status 2.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "at_least", "survey", "moves"])]
    check_certificate: Option<PathBuf>,
    /// Also give every legal move's value.
    #[arg(long, conflicts_with = "at_least")]
    moves: bool,
    /// Answer only whether the player to move can force at least this capture difference (one
    /// threshold test, cheaper than the exact value): 1 asks "does it win?", 0 "does it not lose?".
    #[arg(
        long,
        value_name = "T",
        allow_negative_numbers = true,
        conflicts_with = "survey",
        value_parser = clap::value_parser!(i32).range(-60..=60)
    )]
    at_least: Option<i32>,
    /// Stop after expanding this many positions (memory grows with it, about 230 bytes each: the
    /// default takes about 12 GB).
    #[arg(long, default_value_t = 50_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    max_nodes: u64,
    /// One JSON object: {"value", "nodes", "nested_nodes", "guess_nodes", "tests", "seconds",
    /// "moves"?}; with --at-least: {"at_least", "holds", "nodes", "nested_nodes", "tests", "seconds"}.
    #[arg(long)]
    json: bool,
    // The rest measures and tunes the solver (docs/tablebase.md): hidden from the help.
    /// Measure instead: solve positions from self-played games for each stone count in FROM..=TO
    /// (or one count N) and print the median nodes per stone count and its growth.
    #[arg(long, value_name = "FROM..=TO", value_parser = stone_range, hide = true)]
    survey: Option<RangeInclusive<u32>>,
    /// Positions per stone count for --survey (1-1000).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=1000), hide = true)]
    per_stone: u32,
    /// Seed of the --survey games.
    #[arg(long, default_value_t = 1, hide = true)]
    seed: u64,
    /// Who plays the --survey games: greedy-random moves (70 % the most-capturing move, else any),
    /// or the engine at level 5 on both sides (6 plies, with its level's chance among good moves).
    #[arg(long, value_enum, default_value_t = Games::Greedy, requires = "survey", hide = true)]
    games: Games,
    /// With --survey: check every solved value against bigger tables in this folder (their layers
    /// up to the survey's largest stone count are loaded); a mismatch is an error.
    #[arg(long, value_name = "DIR", requires = "survey", hide = true)]
    check: Option<PathBuf>,
    /// What orders the search: the shipped estimate of values (builtin), none (the middle of the
    /// proved bounds, as before), or a weights file written by fit_estimate (vlt-tools). The
    /// values found never depend on it, only the work.
    #[arg(long, value_name = "builtin|none|FILE", default_value = "builtin", hide = true)]
    estimate: String,
}

/// `--survey FROM..=TO` or `--survey N`: stone counts on the board, at most 60 (R1), in order.
fn stone_range(s: &str) -> Result<RangeInclusive<u32>, String> {
    let count = |t: &str| {
        t.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| *n <= 60)
            .ok_or_else(|| format!("{t:?} is not a stone count 0-60"))
    };
    let (from, to) = match s.split_once("..=") {
        Some((a, b)) => (count(a)?, count(b)?),
        None if !s.contains("..") => (count(s)?, count(s)?),
        None => return Err("expected FROM..=TO (both ends included) or one count".into()),
    };
    if from > to {
        return Err(format!("{from}..={to} is empty: FROM must not exceed TO"));
    }
    Ok(from..=to)
}

/// `--games`: how the survey's positions are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Games {
    /// Greedy-random play.
    Greedy,
    /// The engine at level 5 against itself.
    Engine,
}

/// The largest estimate file read (the shipped one has 57,620 bytes).
const MAX_ESTIMATE_BYTES: u64 = 16 << 20;

/// The bytes of `file`, refusing one longer than `max` without reading it all (`/dev/zero`).
fn read_at_most(file: &str, max: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(file)?.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(std::io::Error::other(format!("longer than {max} bytes: not an estimate file")));
    }
    Ok(bytes)
}

/// The estimate `--estimate` names (`None`: no estimate).
fn estimator(name: &str) -> anyhow::Result<Option<Estimator>> {
    Ok(match name {
        "builtin" => Some(Estimator::builtin().clone()),
        "none" => None,
        file => {
            let bytes = read_at_most(file, MAX_ESTIMATE_BYTES)
                .map_err(|e| input(format!("--estimate {file}: {e}")))?;
            Some(Estimator::from_bytes(&bytes).map_err(|e| input(format!("--estimate {file}: {e}")))?)
        }
    })
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let tb = match &a.dir {
        Some(dir) => Tablebase::open(dir).map_err(input)?,
        None => Tablebase::from_layers(build_in_memory(DEFAULT_STONES)),
    };
    if let Some(file) = &a.check_certificate {
        return super::certificate::check_file(file, &tb, a.json);
    }
    let estimate = estimator(&a.estimate)?;
    if let Some(range) = a.survey.clone() {
        return survey(&a, &tb, range, estimate.as_ref());
    }
    let pos = super::parse_position(a.position.as_deref().expect("clap requires it"))?;
    let bar = spinner(a.json);
    let start = Instant::now();
    let mut solver = Solver::new(&tb, a.max_nodes);
    solver.set_estimator(estimate.as_ref());
    solver.on_progress(|s: &SolveStats| bar.set_message(progress_line(s, start)));
    if let Some(t) = a.at_least {
        let holds = solver.can_force(pos, t);
        bar.finish_and_clear();
        let holds = holds.map_err(|e| input(format!("{e}; raise --max-nodes or build bigger tables")))?;
        report_test(&a, pos, t, holds, &solver.stats(), start.elapsed().as_secs_f64())?;
        return Ok(());
    }
    let solved =
        solver.value(pos).and_then(|v| Ok((v, if a.moves { solver.move_values(pos)? } else { Vec::new() })));
    bar.finish_and_clear();
    let stats = solver.stats();
    let secs = start.elapsed().as_secs_f64();
    let (value, moves) = solved.map_err(|e: SolveError| {
        let (lo, hi) = solver.proved_bounds(pos);
        let known = if lo == hi {
            format!("the value is {lo:+}, the moves' values are unfinished")
        } else {
            format!("proved so far: the value lies between {lo:+} and {hi:+}")
        };
        input(format!("{e} ({known}); raise --max-nodes or build bigger tables"))
    })?;
    let written = match &a.certificate {
        Some(file) => Some(super::certificate::write_file(&mut solver, pos, file)?),
        None => None,
    };
    if a.json {
        let mut o = serde_json::json!({
            "value": value,
            "nodes": stats.nodes,
            "nested_nodes": stats.nested_nodes,
            "guess_nodes": stats.guess_nodes,
            "tests": stats.tests,
            "seconds": secs,
        });
        if let Some(w) = &written {
            o["certificate"] = serde_json::json!({"nodes": w.nodes, "bytes": w.bytes});
        }
        if a.moves {
            o["moves"] =
                moves.iter().map(|(m, v)| serde_json::json!({"move": m.to_string(), "value": v})).collect();
        }
        writeln!(std::io::stdout(), "{o}")?;
    } else {
        writeln!(std::io::stdout(), "{pos}")?;
        writeln!(
            std::io::stdout(),
            "value {value:+} for {} (future captures, own minus opponent's)",
            pos.to_move()
        )?;
        for (m, v) in &moves {
            writeln!(std::io::stdout(), "  {m}  {v:+}{}", if *v == value { "  best" } else { "" })?;
        }
        writeln!(
            std::io::stdout(),
            "{} stones, tables up to {}: {} nodes ({} below the root's layer, {} more for the first guess), {} \
             tests, {} table probes, {:.2} s ({:.0} nodes/s)",
            pos.stones_on_board(),
            tb.max_stones(),
            stats.nodes,
            stats.nested_nodes,
            stats.guess_nodes,
            stats.tests,
            stats.probes,
            secs,
            stats.nodes as f64 / secs.max(1e-9)
        )?;
        if let (Some(w), Some(file)) = (&written, &a.certificate) {
            writeln!(
                std::io::stdout(),
                "certificate {}: {} nodes, {} bytes",
                file.display(),
                w.nodes,
                w.bytes
            )?;
        }
    }
    Ok(())
}

/// Prints the answer of `--at-least T`.
fn report_test(
    a: &Args,
    pos: Position,
    t: i32,
    holds: bool,
    stats: &SolveStats,
    secs: f64,
) -> std::io::Result<()> {
    if a.json {
        let o = serde_json::json!({
            "at_least": t,
            "holds": holds,
            "nodes": stats.nodes,
            "nested_nodes": stats.nested_nodes,
            "tests": stats.tests,
            "seconds": secs,
        });
        writeln!(std::io::stdout(), "{o}")?;
    } else {
        writeln!(std::io::stdout(), "{pos}")?;
        let can = if holds { "can" } else { "cannot" };
        writeln!(
            std::io::stdout(),
            "{} {can} force a capture difference of at least {t:+} (own minus opponent's)",
            pos.to_move()
        )?;
        let plural = if stats.tests == 1 { "" } else { "s" };
        writeln!(std::io::stdout(), "{} nodes, {} test{plural}, {secs:.2} s", stats.nodes, stats.tests)?;
    }
    Ok(())
}

fn spinner(hidden: bool) -> ProgressBar {
    let bar = if hidden { ProgressBar::hidden() } else { ProgressBar::new_spinner() };
    bar.set_style(ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}").expect("template"));
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

fn progress_line(s: &SolveStats, start: Instant) -> String {
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    format!(
        "{} nodes ({:.0}/s), {} tests, {} positions bounded",
        s.nodes,
        s.nodes as f64 / secs,
        s.tests,
        s.known
    )
}

/// A position with `n` stones on the board from a game of the engine at level 5 against itself
/// (`None` when the game skips that count or ends first: a capture may take several stones).
fn engine_game_position(n: u32, engine: &mut Engine, seed: u64) -> Option<Position> {
    engine.clear(); // each game on its own: the sample does not depend on the order of games
    let mut game = Game::new(Position::START);
    let level = Level::new(5).expect("a level");
    let mut ply = 0u64;
    while game.position().stones_on_board() > n && !game.is_over() && ply < 2000 {
        let mv = engine.play_level(&game, level, seed.wrapping_add(ply));
        game.play(mv).ok()?;
        ply += 1;
    }
    let pos = game.position();
    (pos.stones_on_board() == n && !game.is_over()).then_some(pos)
}

fn survey(
    a: &Args,
    tb: &Tablebase,
    range: RangeInclusive<u32>,
    estimate: Option<&Estimator>,
) -> anyhow::Result<()> {
    let (from, to) = (*range.start(), *range.end());
    if from <= tb.max_stones() {
        return Err(input(format!(
            "--survey {from}..={to}: stone counts must lie above the tables ({})",
            tb.max_stones()
        )));
    }
    let check = match &a.check {
        Some(dir) => Some(Tablebase::open_up_to(dir, to).map_err(input)?),
        None => None,
    };
    let mut checked = 0;
    let mut rng = SplitMix64(a.seed);
    let mut engine = Engine::new(EngineConfig { hash_mb: 16, ..EngineConfig::default() });
    let mut previous: Option<f64> = None;
    writeln!(std::io::stdout(), "stones  median-nodes  growth  max-nodes  median-s  solved  values")?;
    for n in from..=to {
        let mut nodes = Vec::new();
        let mut secs = Vec::new();
        let mut values = Vec::new();
        let mut solved = 0;
        let mut tries = 0;
        let per_stone = a.per_stone as usize;
        while nodes.len() < per_stone && tries < 1000 * per_stone {
            tries += 1;
            let drawn = match a.games {
                Games::Greedy => greedy_position(n, &mut rng),
                Games::Engine => engine_game_position(n, &mut engine, rng.next_u64()),
            };
            let Some(pos) = drawn else { continue };
            let start = Instant::now();
            let mut solver = Solver::new(tb, a.max_nodes);
            solver.set_estimator(estimate);
            let r = solver.value(pos);
            secs.push(start.elapsed().as_secs_f64());
            match r {
                Ok(v) => {
                    if let Some(want) = check.as_ref().and_then(|c| c.probe(pos)) {
                        anyhow::ensure!(v == want, "{pos}: solved {v:+}, the tables say {want:+}");
                        checked += 1;
                    }
                    solved += 1;
                    values.push(format!("{v:+}"));
                    nodes.push(solver.stats().nodes);
                }
                Err(_) => {
                    values.push("?".into());
                    nodes.push(u64::MAX); // beyond the limit: counts as larger than every solved one
                }
            }
            eprintln!("  {n} stones: {pos}  {} nodes", solver.stats().nodes);
        }
        if nodes.is_empty() {
            // Some counts are rare in play (a capture takes two stones or more at once).
            writeln!(std::io::stdout(), "{n:>6}  no position of {n} stones in {tries} games")?;
            previous = None;
            continue;
        }
        nodes.sort_unstable();
        secs.sort_by(f64::total_cmp);
        let median = nodes[nodes.len() / 2];
        let median_s = secs[secs.len() / 2];
        let shown = |x: u64| if x == u64::MAX { format!(">{}", a.max_nodes) } else { x.to_string() };
        let growth = match (previous, median) {
            (Some(p), m) if m != u64::MAX && p > 0.0 => format!("{:.2}x", m as f64 / p),
            _ => "-".into(),
        };
        writeln!(
            std::io::stdout(),
            "{n:>6}  {:>12}  {growth:>6}  {:>9}  {median_s:>8.3}  {solved:>3}/{}  {}",
            shown(median),
            shown(*nodes.last().expect("one")),
            nodes.len(),
            values.join(" ")
        )?;
        previous = (median != u64::MAX).then_some(median as f64);
    }
    if check.is_some() {
        writeln!(std::io::stdout(), "{checked} solved values agree with the tables in the --check folder")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::exit_code;

    fn args(position: Option<&str>) -> Args {
        Args {
            position: position.map(String::from),
            dir: None,
            certificate: None,
            check_certificate: None,
            moves: true,
            max_nodes: 1_000_000,
            json: true,
            survey: None,
            per_stone: 2,
            seed: 3,
            check: None,
            games: Games::Greedy,
            estimate: "builtin".into(),
            at_least: None,
        }
    }

    /// Engine games give positions of the asked stone count, legal and not over, the same ones for
    /// the same seed, and different games for different seeds.
    #[test]
    fn engine_game_positions_have_the_stone_count_and_repeat_by_seed() {
        let mut engine = Engine::new(EngineConfig { hash_mb: 1, ..EngineConfig::default() });
        let found: Vec<Position> =
            (0..12).filter_map(|seed| engine_game_position(40, &mut engine, seed)).collect();
        assert!(found.len() >= 3, "{} of 12 games passed through 40 stones", found.len());
        for p in &found {
            assert_eq!(p.stones_on_board(), 40);
            assert!(!p.is_game_over() && p.legal_moves().next().is_some(), "{p}");
        }
        let again: Vec<Position> =
            (0..12).filter_map(|seed| engine_game_position(40, &mut engine, seed)).collect();
        assert_eq!(found, again, "the same seeds give the same positions");
        let distinct: std::collections::HashSet<u128> = found.iter().map(|p| p.repetition_key()).collect();
        assert!(distinct.len() >= 2, "the level's chance makes different games");
    }

    #[test]
    fn solves_and_surveys() {
        run(args(Some("1,0,1,0,1,0/1,2,0,1,2,0 A 25 26"))).expect("solve");
        let mut a = args(None);
        a.survey = Some(9..=10);
        a.check = None;
        run(a).expect("survey");
    }

    #[test]
    fn survey_checks_against_bigger_tables() {
        let dir = std::env::temp_dir().join(format!("vlt-cli-solve-check-{}", std::process::id()));
        vlt_tablebase::build(&dir, 11, &|_| {}).expect("tables");
        let mut a = args(None);
        a.survey = Some(9..=11);
        a.per_stone = 4;
        a.check = Some(dir.clone());
        let r = run(a);
        std::fs::remove_dir_all(&dir).ok();
        r.expect("the solver over 8-stone tables agrees with the 11-stone tables");
    }

    #[test]
    fn input_errors_exit_2() {
        let e = run(args(Some("1,0,1/1 A 0 0"))).expect_err("bad position");
        assert_eq!(exit_code(&e), 2);
        let mut a = args(Some("5,5,5,5,5,5/5,5,5,5,5,5 B 0 0"));
        a.max_nodes = 10;
        let e = run(a).expect_err("node limit");
        assert_eq!(exit_code(&e), 2);
        assert!(e.to_string().contains("between -60 and +60"), "{e}");
        // A limit reached after some tests: what they proved is reported.
        let mut a = args(Some("0,1,2,0,1,0/2,0,1,3,0,2 B 20 18"));
        a.max_nodes = 30;
        let e = run(a).expect_err("node limit").to_string();
        let bounds = e.split("between ").nth(1).expect("bounds in the message");
        let (lo, hi) = bounds.split_once(" and ").expect("two bounds");
        let hi = hi.split(')').next().expect("closing bracket");
        let (lo, hi): (i32, i32) = (lo.parse().expect("lo"), hi.parse().expect("hi"));
        // The value is -4 (44 nodes solve it): the bounds hold it and say more than ±12 stones.
        assert!(lo <= -4 && -4 <= hi && hi - lo < 24, "{e}");
        let mut a = args(None);
        a.survey = Some(3..=12);
        assert_eq!(exit_code(&run(a).expect_err("below the tables")), 2);
        // --estimate: a missing file and a file that is not an estimate, each named.
        for (file, says) in
            [("/nonexistent/w.bin", "No such file"), ("Cargo.toml", "not a vlt estimate file")]
        {
            let mut a = args(Some("1,0,1,0,1,0/1,2,0,1,2,0 A 25 26"));
            a.estimate = file.into();
            let e = run(a).expect_err("bad --estimate");
            assert_eq!(exit_code(&e), 2);
            assert!(e.to_string().contains(file) && e.to_string().contains(says), "{e}");
        }
    }

    /// `--estimate none`, the built-in one and the same weights from a file give the same value;
    /// the file reads back as the built-in weights.
    #[test]
    fn estimates_from_every_source_agree() {
        let file = std::env::temp_dir().join(format!("vlt-estimate-{}.bin", std::process::id()));
        std::fs::write(&file, Estimator::builtin().to_bytes()).expect("write");
        let name = file.to_str().expect("utf-8");
        let tb = Tablebase::from_layers(build_in_memory(DEFAULT_STONES));
        let pos: Position = "0,1,2,0,1,0/2,0,1,3,0,2 B 20 18".parse().expect("position");
        for estimate in ["none", "builtin", name] {
            let mut a = args(Some("0,1,2,0,1,0/2,0,1,3,0,2 B 20 18"));
            a.estimate = estimate.into();
            run(a).expect("solved");
            let e = estimator(estimate).expect("an estimate");
            let mut solver = Solver::new(&tb, 1_000_000);
            solver.set_estimator(e.as_ref());
            assert_eq!(solver.value(pos), Ok(-4), "--estimate {estimate}");
        }
        assert_eq!(estimator(name).expect("read").as_ref(), Some(Estimator::builtin()));
        assert_eq!(estimator("none").expect("none"), None);
        std::fs::remove_file(file).ok();
    }
}
