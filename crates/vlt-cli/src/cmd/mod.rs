//! One module per subcommand, each with its clap `Args` and a `run` function.

pub mod analyse;
pub mod apply;
pub mod bench;
pub mod certificate;
pub mod engine;
pub mod learn;
pub mod loadtest;
pub mod r#match;
pub mod moves;
pub mod perft;
pub mod play;
pub mod puzzles;
pub mod replay;
pub mod review;
pub mod serve;
pub mod show;
pub mod solve;
pub mod tb;
pub mod tutorial;

use crate::error::input;
use vlt_core::{Move, Position};

/// Writes a line to standard error. Unlike `eprintln!`, it does not panic when standard error is
/// closed (`vlt perft 9 2>&1 | head -1`): such notes are for a reader who may have gone.
pub fn note(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Parses a position argument (N2), as an input error when malformed.
pub fn parse_position(s: &str) -> anyhow::Result<Position> {
    s.parse().map_err(input)
}

/// Parses a move argument (N1); a bare digit is the hole of the player to move.
pub fn parse_move(s: &str, pos: Position) -> anyhow::Result<Move> {
    Move::parse_with(s, Some(pos.to_move())).map_err(|e| input(format!("move: {e}")))
}

/// Opens a FILE argument for reading, `-` being standard input; returns the reader and the name
/// that messages about its contents use. A file that cannot be opened is an input error.
pub fn open_input(file: &str) -> anyhow::Result<(Box<dyn std::io::BufRead>, &str)> {
    if file == "-" {
        return Ok((Box::new(std::io::stdin().lock()), "standard input"));
    }
    let f = std::fs::File::open(file).map_err(|e| input(format!("{file}: {e}")))?;
    Ok((Box::new(std::io::BufReader::new(f)), file))
}

/// Opens the endgame tables of a `--tablebase DIR` option for an engine (exact values in endgames);
/// a folder without tables, or with damaged ones, is an input error.
pub fn open_tablebase(
    dir: Option<&std::path::Path>,
) -> anyhow::Result<Option<std::sync::Arc<vlt_tablebase::Tablebase>>> {
    let Some(dir) = dir else { return Ok(None) };
    let tb = vlt_tablebase::Tablebase::open(dir).map_err(|e| input(format!("--tablebase: {e}")))?;
    Ok(Some(std::sync::Arc::new(tb)))
}
