//! `vlt tb build|probe|verify|stats`: endgame tablebases (values as in docs/tablebase.md).

use crate::error::input;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use vlt_tablebase::{Tablebase, TbError};

/// Endgame tablebases: build them, probe a position, verify them, count their values.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  vlt tb build --max-stones 12 --dir tb\n  \
                        vlt tb probe --dir tb '0,0,0,0,1,1/0,0,0,0,0,0 B 0 0'\n  vlt tb verify --dir tb\n  \
                        vlt tb stats --dir tb")]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

mod build;

use build::{BuildArgs, build};

#[derive(clap::Subcommand)]
enum Sub {
    Build(BuildArgs),
    Probe(ProbeArgs),
    Verify(VerifyArgs),
    Stats(StatsArgs),
}

/// Print the exact value of a position for the player to move and of each legal move.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  vlt tb probe --json --dir tb '0,0,0,0,1,1/0,0,0,0,0,0 B 0 0'\n  \
                        {\"moves\":[{\"move\":\"5B\",\"value\":2},{\"move\":\"6B\",\"value\":2}],\
                        \"position\":\"0,0,0,0,1,1/0,0,0,0,0,0 B 0 0\",\"value\":2}\n  \
                        vlt tb probe --json --dir tb - < positions.txt    # one JSON object a line")]
struct ProbeArgs {
    /// One JSON object: {"position", "value", "moves": [{"move", "value"}]}.
    #[arg(long)]
    json: bool,
    /// The tables' folder.
    #[arg(long)]
    dir: PathBuf,
    /// The position (N2), or `-` for many: one a line from standard input (blank lines and lines
    /// starting with `#` are skipped). A line that cannot be probed is reported (with --json as
    /// {"line", "position", "error"}) and the others still are; the exit status is then 2.
    position: String,
}

/// Re-check every stored value against its successors, and every checksum.
#[derive(clap::Args)]
#[command(after_help = "Example:\n  vlt tb verify --dir tb --rebuild")]
struct VerifyArgs {
    /// The tables' folder.
    #[arg(long)]
    dir: PathBuf,
    /// Also solve each layer again and compare (covers the R7 values of cycles, which the
    /// successor check alone cannot tell from made-up ones).
    #[arg(long)]
    rebuild: bool,
    /// Only the layers of this many stones and more (say, those a resumed build just added); the
    /// smaller ones are read as their successors, not checked.
    #[arg(long, default_value_t = 0, value_name = "STONES")]
    from: u32,
}

/// Per layer: positions, how many the mover wins, draws and loses, the mean value, and how many
/// values lack the parity of the stone count (none, in every table built so far).
#[derive(clap::Args)]
#[command(after_help = "Example:\n  vlt tb stats --dir tb\n  vlt tb stats --json --dir tb")]
struct StatsArgs {
    /// One JSON object: {"layers": [{"stones", "positions", "wins", "draws", "losses", "mean",
    /// "other_parity", "values": [[value, positions], ...]}]}.
    #[arg(long)]
    json: bool,
    /// The tables' folder.
    #[arg(long)]
    dir: PathBuf,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    match a.command {
        Sub::Build(b) => build(b),
        Sub::Probe(p) => probe(p),
        Sub::Verify(v) => verify(v),
        Sub::Stats(s) => stats(s),
    }
}

/// Opening errors caused by what the user named (no tables, damaged files) exit 2.
fn tb_error(e: TbError) -> anyhow::Error {
    match e {
        TbError::NoLayersFrom { dir, from, top } => {
            input(format!("--from {from}: the tables in {} go up to {top} stones", dir.display()))
        }
        TbError::NoTables(_)
        | TbError::BadFile { .. }
        | TbError::TooManyStones(_)
        | TbError::Mismatch { .. } => input(e),
        other => anyhow::Error::new(other),
    }
}

fn bar_style() -> ProgressStyle {
    ProgressStyle::with_template("{prefix:>9} [{bar:40}] {percent:>3}% {elapsed_precise} ETA {eta_precise}")
        .expect("template")
        .progress_chars("=> ")
}

/// One layer's progress: a bar on a terminal; where standard error is not one (a build or check
/// left running with its output in a log file), a plain line every [`LayerProgress::EVERY`]
/// instead, which the bar would not give.
struct LayerProgress {
    stones: u32,
    bar: ProgressBar,
    plain: bool,
    last: Instant,
}

impl LayerProgress {
    const EVERY: Duration = Duration::from_secs(60);

    fn new(stones: u32, total: u64) -> LayerProgress {
        use std::io::IsTerminal;
        let bar = ProgressBar::new(total).with_style(bar_style()).with_prefix(format!("layer {stones}"));
        LayerProgress { stones, bar, plain: !std::io::stderr().is_terminal(), last: Instant::now() }
    }

    fn set(&mut self, done: u64) {
        let total = self.bar.length().unwrap_or(done);
        self.bar.set_position(done.min(total));
        if self.plain && self.last.elapsed() >= Self::EVERY {
            self.last = Instant::now();
            eprintln!(
                "{}",
                plain_progress(self.stones, done.min(total), total, self.bar.elapsed(), self.bar.eta())
            );
        }
    }

    /// A line of its own on standard error, above the bar where there is one.
    fn note(&self, line: &str) {
        self.bar.suspend(|| eprintln!("{line}"));
    }

    fn finish(self) {
        self.bar.finish_and_clear();
    }
}

/// The plain progress line: `layer 27:  45% of 4812483648 steps, 612 s, about 748 s left`.
fn plain_progress(stones: u32, done: u64, total: u64, elapsed: Duration, eta: Duration) -> String {
    format!(
        "layer {stones:2}: {:3}% of {total} steps, {} s, about {} s left",
        done * 100 / total.max(1),
        elapsed.as_secs(),
        eta.as_secs()
    )
}

fn open_for(dir: &Path, stones: u32) -> anyhow::Result<Tablebase> {
    let tb = Tablebase::open_up_to(dir, stones).map_err(tb_error)?;
    if tb.max_stones() < stones {
        return Err(input(beyond_tables(stones, dir, &tb)));
    }
    Ok(tb)
}

/// Why a position with `stones` on the board cannot be probed in the tables `tb` from `dir`.
fn beyond_tables(stones: u32, dir: &Path, tb: &Tablebase) -> String {
    format!(
        "the position has {stones} stones on the board; the tables in {} go up to {}",
        dir.display(),
        tb.max_stones()
    )
}

fn probe(a: ProbeArgs) -> anyhow::Result<()> {
    use std::io::Write;
    if a.position == "-" {
        let mut out = std::io::stdout().lock();
        return probe_batch(&a, std::io::stdin().lock(), &mut out);
    }
    std::io::stdout().write_all(probe_text(&a)?.as_bytes())?;
    Ok(())
}

/// What `vlt tb probe` prints for one position.
fn probe_text(a: &ProbeArgs) -> anyhow::Result<String> {
    let pos = super::parse_position(&a.position)?;
    let tb = open_for(&a.dir, pos.stones_on_board())?;
    let t = Instant::now();
    let out = probe_one(&tb, pos, a.json).map_err(tb_error)?;
    if !a.json {
        eprintln!("probe with moves: {:.1} µs", t.elapsed().as_secs_f64() * 1e6);
    }
    Ok(out)
}

/// The value of `pos` and of each of its moves, as `vlt tb probe` prints them (`pos` is within
/// the tables).
fn probe_one(tb: &Tablebase, pos: vlt_core::Position, json: bool) -> Result<String, TbError> {
    use std::fmt::Write;
    let value = tb.try_probe(pos)?.expect("within the tables");
    let moves = tb.try_probe_moves(pos)?.expect("within the tables");
    if json {
        let moves: Vec<_> =
            moves.iter().map(|(m, v)| serde_json::json!({"move": m.to_string(), "value": v})).collect();
        return Ok(format!(
            "{}\n",
            serde_json::json!({"position": pos.to_string(), "value": value, "moves": moves})
        ));
    }
    let mut out = format!("{pos}\n");
    let _ = writeln!(out, "value {value:+} for {} (future captures, own minus opponent's)", pos.to_move());
    for (m, v) in &moves {
        let best = if *v == value { "  best" } else { "" };
        let _ = writeln!(out, "  {m}  {v:+}{best}");
    }
    Ok(out)
}

/// `vlt tb probe --dir DIR -`: every position of `input`, one a line, probed in turn. A line that
/// cannot be probed does not stop the others; it is reported (on standard error, or with `--json`
/// as an object in its place) and makes the whole an input error at the end.
fn probe_batch(
    a: &ProbeArgs,
    lines: impl std::io::BufRead,
    out: &mut impl std::io::Write,
) -> anyhow::Result<()> {
    use anyhow::Context;
    let tb = Tablebase::open(&a.dir).map_err(tb_error)?;
    let start = Instant::now();
    let (mut probed, mut failed) = (0u64, 0u64);
    let mut lines = lines;
    let mut buf = Vec::new();
    for i in 0.. {
        let Some(whole) =
            next_line(&mut lines, &mut buf).context("reading the positions from standard input")?
        else {
            break;
        };
        if !whole {
            // Not a file of positions (`vlt tb probe - < /dev/zero` has one endless line): stop.
            out.flush()?;
            return Err(input(format!(
                "line {}: longer than {LINE_MAX} bytes: not one position a line",
                i + 1
            )));
        }
        // A line that is not UTF-8 is one more bad line, reported in its place.
        let line = match std::str::from_utf8(&buf) {
            Ok(t) => Ok(t),
            Err(e) => Err(format!("not UTF-8 text (byte {})", e.valid_up_to() + 1)),
        };
        let text = line.as_ref().map_or("", |t| t.trim());
        if line.is_ok() && (text.is_empty() || text.starts_with('#')) {
            continue;
        }
        let pos =
            line.and_then(|_| text.parse::<vlt_core::Position>().map_err(|e| e.to_string())).and_then(|p| {
                if p.stones_on_board() <= tb.max_stones() {
                    Ok(p)
                } else {
                    Err(beyond_tables(p.stones_on_board(), &a.dir, &tb))
                }
            });
        match pos {
            Ok(p) => {
                out.write_all(probe_one(&tb, p, a.json).map_err(tb_error)?.as_bytes())?;
                probed += 1;
            }
            Err(e) => {
                failed += 1;
                if a.json {
                    let shown = String::from_utf8_lossy(&buf);
                    let o = serde_json::json!({"line": i + 1, "position": shown.trim(), "error": e});
                    writeln!(out, "{o}")?;
                } else {
                    eprintln!("vlt: line {}: {e}", i + 1);
                }
            }
        }
    }
    out.flush()?;
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "probed {probed} positions in {secs:.3} s ({:.1} µs each)",
        secs * 1e6 / (probed.max(1) as f64)
    );
    if failed > 0 {
        return Err(input(format!("{failed} of {} positions could not be probed", probed + failed)));
    }
    Ok(())
}

/// The longest line `vlt tb probe -` reads: far more than a position string (about 30 bytes).
const LINE_MAX: usize = 4096;

/// Reads the next line of `input` into `buf` (without its `\n`), at most [`LINE_MAX`] bytes of it:
/// `Some(true)` for a whole line, `Some(false)` for a longer one (cut there), `None` at the end.
/// Memory stays bounded whatever the input.
fn next_line(input: &mut impl std::io::BufRead, buf: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    use std::io::{BufRead, Read};
    buf.clear();
    let n = input.by_ref().take(LINE_MAX as u64 + 1).read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
    }
    Ok(Some(buf.len() <= LINE_MAX))
}

fn verify(a: VerifyArgs) -> anyhow::Result<()> {
    use std::io::Write;
    let start = Instant::now();
    let bar: Mutex<Option<LayerProgress>> = Mutex::new(None);
    let progress = |n: u32, done: u64, total: u64| {
        let mut g = bar.lock().expect("bar");
        if g.as_ref().is_none_or(|b| b.stones != n) {
            if let Some(b) = g.take() {
                b.finish();
            }
            *g = Some(LayerProgress::new(n, total));
        }
        if let Some(b) = g.as_mut() {
            b.set(done);
        }
    };
    let mut report = |r: vlt_tablebase::verify::LayerReport| {
        if let Some(b) = bar.lock().expect("bar").take() {
            b.finish();
        }
        eprintln!(
            "layer {:2}: {:>11} positions ok, checksum ok ({:.2} s)",
            r.stones,
            r.positions,
            r.millis as f64 / 1000.0
        );
    };
    let manifest = vlt_tablebase::Manifest::read(&a.dir).map_err(tb_error)?;
    let reports = vlt_tablebase::verify::verify_from(&a.dir, a.from, a.rebuild, &progress, &mut report)
        .map_err(tb_error)?;
    let positions: u64 = reports.iter().map(|r| r.positions).sum();
    writeln!(
        std::io::stdout(),
        "verified {} layers ({} to {} stones), {positions} positions{}, in {:.1} s: all values agree; {}",
        reports.len(),
        a.from,
        a.from as usize + reports.len() - 1,
        if a.rebuild { ", each solved again" } else { "" },
        start.elapsed().as_secs_f64(),
        match manifest {
            Some(m) => format!(
                "the files match {} ({} layers)",
                vlt_tablebase::manifest::MANIFEST_FILE,
                m.layers.len()
            ),
            None => format!("no {} to check the files against", vlt_tablebase::manifest::MANIFEST_FILE),
        }
    )?;
    Ok(())
}

fn stats(a: StatsArgs) -> anyhow::Result<()> {
    use std::io::Write;
    let start = Instant::now();
    std::io::stdout().write_all(stats_text(&a)?.as_bytes())?;
    eprintln!("in {:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}

/// What `vlt tb stats` prints.
fn stats_text(a: &StatsArgs) -> anyhow::Result<String> {
    use std::fmt::Write;
    let tb = Tablebase::open(&a.dir).map_err(tb_error)?;
    let all: Vec<_> = (0..=tb.max_stones())
        .map(|n| vlt_tablebase::stats::layer_stats(n, tb.layer(n).expect("a layer up to max_stones")))
        .collect();
    let mut out = String::new();
    if a.json {
        let layers: Vec<_> = all
            .iter()
            .map(|s| {
                let values: Vec<(i32, u64)> = s.values().collect();
                serde_json::json!({
                    "stones": s.stones, "positions": s.positions, "wins": s.wins(), "draws": s.draws(),
                    "losses": s.losses(), "mean": s.mean(), "other_parity": s.other_parity(),
                    "values": values,
                })
            })
            .collect();
        writeln!(out, "{}", serde_json::json!({ "layers": layers }))?;
        return Ok(out);
    }
    writeln!(out, "stones     positions  mover wins   draws  losses  mean value  other parity")?;
    for s in all.iter().filter(|s| s.positions > 0) {
        let pct = |c: u64| 100.0 * c as f64 / s.positions as f64;
        writeln!(
            out,
            "{:>6} {:>13} {:>10.1}% {:>6.1}% {:>6.1}% {:>+11.2} {:>13}",
            s.stones,
            s.positions,
            pct(s.wins()),
            pct(s.draws()),
            pct(s.losses()),
            s.mean(),
            s.other_parity()
        )?;
    }
    let positions: u64 = all.iter().map(|s| s.positions).sum();
    let other: u64 = all.iter().map(|s| s.other_parity()).sum();
    if other == 0 {
        writeln!(out, "all {positions} positions: every value has the parity of its stone count")?;
    } else {
        writeln!(
            out,
            "{other} of {positions} positions have a value of the other parity than their stone count"
        )?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::exit_code;
    use vlt_tablebase::format;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("vlt-cli-tb-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    fn probe_args(dir: &Path, position: &str, json: bool) -> ProbeArgs {
        ProbeArgs { json, dir: dir.to_path_buf(), position: position.into() }
    }

    #[test]
    fn build_probe_verify() {
        let d = dir("probe");
        build(BuildArgs::new(6, d.clone())).expect("build");
        // B sows 6B into the empty 1A and captures (R4); A's row is empty, so B moves again (R5).
        let json = probe_text(&probe_args(&d, "0,0,0,0,1,1/0,0,0,0,0,0 B 0 0", true)).expect("probe");
        let v: serde_json::Value = serde_json::from_str(&json).expect("json");
        assert_eq!(v["value"], 2);
        assert_eq!(v["moves"].as_array().map(Vec::len), Some(2));
        assert_eq!(v["moves"][1]["move"], "6B");
        assert_eq!(v["moves"][1]["value"], 2);
        let text = probe_text(&probe_args(&d, "0,0,0,0,1,1/0,0,0,0,0,0 B 0 0", false)).expect("probe");
        assert!(text.contains("value +2 for B"), "{text}");
        verify(VerifyArgs { dir: d.clone(), rebuild: true, from: 0 }).expect("verify");
        verify(VerifyArgs { dir: d.clone(), rebuild: false, from: 5 }).expect("verify layers 5 and 6");
        let e = verify(VerifyArgs { dir: d.clone(), rebuild: false, from: 7 }).expect_err("no layer 7");
        assert_eq!(exit_code(&e), 2, "{e}");
        assert!(
            format!("{e}").contains("--from 7: the tables in")
                && format!("{e}").ends_with("go up to 6 stones"),
            "{e}"
        );
        let json = stats_text(&StatsArgs { json: true, dir: d.clone() }).expect("stats");
        let v: serde_json::Value = serde_json::from_str(&json).expect("json");
        let layers = v["layers"].as_array().expect("layers");
        assert_eq!(layers.len(), 7);
        // One stone: the mover always sows it into an empty hole and takes it (R4).
        assert_eq!((layers[1]["positions"].as_u64(), layers[1]["wins"].as_u64()), (Some(12), Some(12)));
        assert_eq!(layers[1]["values"], serde_json::json!([[1, 12]]));
        for l in layers {
            let sum: u64 =
                l["values"].as_array().expect("values").iter().map(|p| p[1].as_u64().expect("n")).sum();
            assert_eq!(Some(sum), l["positions"].as_u64());
            assert_eq!(l["other_parity"], 0);
        }
        let text = stats_text(&StatsArgs { json: false, dir: d.clone() }).expect("stats");
        assert!(text.ends_with("every value has the parity of its stone count\n"), "{text}");
        assert_eq!(text.lines().count(), 1 + 6 + 1, "a header, layers 1 to 6, the parity line");
        let _ = std::fs::remove_dir_all(&d);
    }

    /// `vlt tb probe --dir DIR -`: one answer a position, in input order; blank and `#` lines
    /// skipped; a bad line (or one beyond the tables) is reported in its place and the rest still
    /// probed, and the whole ends as an input error.
    #[test]
    fn probe_many_positions_from_standard_input() {
        let d = dir("batch");
        build(BuildArgs::new(6, d.clone())).expect("build");
        let lines = "0,0,0,0,1,1/0,0,0,0,0,0 B 0 0\n\n# a comment\n  1,0,0,0,0,0/0,0,0,0,0,1 A 29 29  \n";
        for json in [true, false] {
            let mut out = Vec::new();
            probe_batch(&probe_args(&d, "-", json), lines.as_bytes(), &mut out).expect("all probed");
            let out = String::from_utf8(out).expect("utf-8");
            let single = |p: &str| probe_text(&probe_args(&d, p, json)).expect("probe");
            let want = single("0,0,0,0,1,1/0,0,0,0,0,0 B 0 0") + &single("1,0,0,0,0,0/0,0,0,0,0,1 A 29 29");
            assert_eq!(out, want, "the same answers as one position at a time");
        }
        let bad = "0,0,0,0,1,1/0,0,0,0,0,0 B 0 0\n5,5,5 B 0 0\n5,5,5,5,5,5/5,5,5,5,5,5 B 0 0\n\
                   0,0,0,0,0,1/0,0,0,0,0,0 B 0 0\n";
        let mut out = Vec::new();
        let e = probe_batch(&probe_args(&d, "-", true), bad.as_bytes(), &mut out).expect_err("two bad lines");
        assert_eq!(exit_code(&e), 2);
        assert!(format!("{e}").contains("2 of 4 positions"), "{e}");
        let objects: Vec<serde_json::Value> = String::from_utf8(out)
            .expect("utf-8")
            .lines()
            .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
            .collect();
        assert_eq!(objects.len(), 4);
        assert_eq!((objects[0]["value"].as_i64(), objects[3]["value"].as_i64()), (Some(2), Some(1)));
        assert_eq!(objects[1]["line"], 2);
        assert!(objects[1]["error"].as_str().is_some_and(|e| e.contains("row")), "{}", objects[1]);
        assert_eq!(objects[2]["line"], 3);
        assert!(objects[2]["error"].as_str().is_some_and(|e| e.contains("go up to 6")), "{}", objects[2]);
        let _ = std::fs::remove_dir_all(&d);
    }

    /// A damaged layer is an input error naming its file, for probe, verify and stats alike.
    #[test]
    fn a_damaged_layer_is_an_error_naming_it() {
        let d = dir("damaged");
        build(BuildArgs::new(5, d.clone())).expect("build");
        let path = format::layer_path(&d, 5);
        let mut bytes = std::fs::read(&path).expect("read");
        let i = format::HEADER_LEN + bytes[format::HEADER_LEN..].iter().position(|&b| b == 1).expect("a 1");
        bytes[i] = 3;
        std::fs::write(&path, &bytes).expect("write");
        let name = path.display().to_string();
        let e = probe_text(&probe_args(&d, "0,0,0,1,1,1/0,0,0,1,0,1 B 0 0", false)).expect_err("damaged");
        assert!(
            probe_text(&probe_args(&d, "0,0,0,0,1,1/0,0,0,0,0,0 B 0 0", false)).is_ok(),
            "layer 5 unused"
        );
        assert_eq!(exit_code(&e), 2, "{e}");
        assert!(format!("{e}").starts_with(&name) && format!("{e}").contains("checksum"), "{e}");
        let e = verify(VerifyArgs { dir: d.clone(), rebuild: false, from: 0 }).expect_err("damaged");
        assert_eq!(exit_code(&e), 2, "{e}");
        assert!(format!("{e}").contains(&name), "{e}");
        let e = stats_text(&StatsArgs { json: false, dir: d.clone() }).expect_err("damaged");
        assert!(exit_code(&e) == 2 && format!("{e}").contains(&name), "{e}");
        let e = build(BuildArgs::new(6, d.clone())).expect_err("damaged");
        assert!(exit_code(&e) == 2 && format!("{e}").contains(&name), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }

    /// A layer solved in a few milliseconds shows no rate (it would be the timer's rounding).
    #[test]
    fn rates_only_where_the_time_tells() {
        assert_eq!(build::rate(2478, 0), "  fast");
        assert_eq!(build::rate(2478, 999), "  fast");
        assert_eq!(build::rate(26_035_092, 17_890_000), " 1.46 M/s");
    }

    /// Where standard error is a log file, a build or check prints a plain progress line.
    #[test]
    fn plain_progress_line() {
        let line = plain_progress(27, 450, 1000, Duration::from_secs(612), Duration::from_millis(748_900));
        assert_eq!(line, "layer 27:  45% of 1000 steps, 612 s, about 748 s left");
        assert!(plain_progress(0, 0, 0, Duration::ZERO, Duration::ZERO).contains("  0% of 0 steps"));
    }

    #[test]
    fn input_errors_exit_2() {
        let d = dir("errors");
        build(BuildArgs::new(3, d.clone())).expect("build");
        for (pos, why) in [("5,5,5,5,5,5/5,5,5,5,5,5 B 0 0", "go up to 3"), ("5,5,5 B 0 0", "row")] {
            let e = probe_text(&probe_args(&d, pos, true)).expect_err("beyond the tables");
            assert_eq!(exit_code(&e), 2, "{e}");
            assert!(format!("{e:#}").contains(why), "{e:#}");
        }
        let e = probe_text(&probe_args(&dir("missing"), "0,0,0,0,1,1/0,0,0,0,0,0 B 0 0", true))
            .expect_err("no tables");
        assert_eq!(exit_code(&e), 2);
        let e = build(BuildArgs::new(99, d.clone())).expect_err("too big");
        assert_eq!(exit_code(&e), 2);
        let e = verify(VerifyArgs { dir: dir("missing2"), rebuild: false, from: 0 }).expect_err("no tables");
        assert_eq!(exit_code(&e), 2);
        let e = stats_text(&StatsArgs { json: false, dir: dir("missing3") }).expect_err("no tables");
        assert_eq!(exit_code(&e), 2);
        let _ = std::fs::remove_dir_all(&d);
    }
}
