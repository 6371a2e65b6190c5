//! `vlt replay FILE`: validates a game record and prints each position and the result.

use crate::error::input;
use vlt_core::Record;

/// Read a game record (docs/records.md), check every move, print each position and the result.
#[derive(clap::Args)]
#[command(after_help = "Example:\n  vlt replay game.vlt\n  vlt replay - < game.vlt")]
pub struct Args {
    /// The record file; `-` reads standard input.
    file: String,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let text = if a.file == "-" {
        std::io::read_to_string(std::io::stdin()).map_err(|e| input(format!("standard input: {e}")))?
    } else {
        std::fs::read_to_string(&a.file).map_err(|e| input(format!("{}: {e}", a.file)))?
    };
    let records = Record::parse_all(&text).map_err(|e| input(format!("{}: {e}", a.file)))?;
    if records.is_empty() {
        return Err(input(format!("{}: no game found", a.file)));
    }
    for (gi, r) in records.iter().enumerate() {
        if records.len() > 1 {
            println!("Game {}", gi + 1);
        }
        for (k, v) in &r.tags {
            println!("{k}: {v}");
        }
        let g = &r.game;
        println!("start: {}", g.start());
        for (i, (mv, pos)) in g.moves().iter().zip(&g.positions()[1..]).enumerate() {
            let o = g.outcomes()[i];
            let mut line = format!("{:>3}. {mv}  {pos}", i + 1);
            if o.capture.stones > 0 {
                let holes: Vec<String> = o.capture.holes().map(|h| h.to_string()).collect();
                line += &format!("  captured {} ({})", o.capture.stones, holes.join(" "));
            }
            println!("{line}");
        }
        match g.result() {
            Some(res) => println!("result: {res}"),
            None => println!("result: unfinished, {} to move", g.position().to_move()),
        }
    }
    Ok(())
}
