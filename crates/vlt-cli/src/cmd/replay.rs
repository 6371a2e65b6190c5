//! `vlt replay FILE...`: validates game records and prints each position and the result.

use crate::error::input;
use std::io::Write;
use vlt_core::Record;
use vlt_core::record::RecordReader;

/// Read game records (docs/records.md), check every move, print each position and the result.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  vlt replay game.vlt\n  vlt replay - < game.vlt\n  vlt replay games/*.vlt"
)]
pub struct Args {
    /// The record files; `-` reads standard input. Their games are read and printed one at a
    /// time (a game's text may have at most 1 MiB), up to the first that is wrong.
    #[arg(required = true)]
    files: Vec<String>,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let several = a.files.len() > 1;
    for file in &a.files {
        if several {
            writeln!(out, "File: {file}")?;
        }
        replay_file(&mut out, file)?;
    }
    out.flush()?;
    Ok(())
}

/// Replays the games of one file, numbering them when there is more than one.
fn replay_file(out: &mut impl Write, file: &str) -> anyhow::Result<()> {
    let (source, name) = super::open_input(file)?;
    let mut games = RecordReader::new(source).peekable();
    let mut n = 0;
    while let Some(r) = games.next() {
        let r = r.map_err(|e| {
            // Whatever was printed is shown before the error line that ends it.
            let _ = out.flush();
            input(format!("{name}: {e}"))
        })?;
        n += 1;
        // "Game N" headers when there is more than one game (known once the next one is read).
        if n > 1 || games.peek().is_some() {
            writeln!(out, "Game {n}")?;
        }
        print_game(out, &r)?;
    }
    if n == 0 {
        let _ = out.flush();
        return Err(input(format!("{name}: no game found")));
    }
    Ok(())
}

fn print_game(out: &mut impl Write, r: &Record) -> std::io::Result<()> {
    for (k, v) in &r.tags {
        writeln!(out, "{k}: {v}")?;
    }
    let g = &r.game;
    writeln!(out, "start: {}", g.start())?;
    for (i, (mv, pos)) in g.moves().iter().zip(&g.positions()[1..]).enumerate() {
        let o = g.outcomes()[i];
        write!(out, "{:>3}. {mv}  {pos}", i + 1)?;
        if o.capture.stones > 0 {
            let holes: Vec<String> = o.capture.holes().map(|h| h.to_string()).collect();
            write!(out, "  captured {} ({})", o.capture.stones, holes.join(" "))?;
        }
        writeln!(out)?;
    }
    match g.result() {
        Some(res) => writeln!(out, "result: {res}"),
        None => writeln!(out, "result: unfinished, {} to move", g.position().to_move()),
    }
}
