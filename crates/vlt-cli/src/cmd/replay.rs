//! `vlt replay FILE`: validates game records and prints each position and the result.

use crate::error::input;
use std::io::Write;
use vlt_core::Record;
use vlt_core::record::RecordReader;

/// Read game records (docs/records.md), check every move, print each position and the result.
#[derive(clap::Args)]
#[command(after_help = "Example:\n  vlt replay game.vlt\n  vlt replay - < game.vlt")]
pub struct Args {
    /// The record file; `-` reads standard input. Its games are read and printed one at a time
    /// (a game's text may have at most 1 MiB), up to the first that is wrong.
    file: String,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let (source, name) = super::open_input(&a.file)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
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
        print_game(&mut out, &r)?;
    }
    out.flush()?;
    if n == 0 {
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
