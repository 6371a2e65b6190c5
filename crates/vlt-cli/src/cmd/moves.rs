//! `vlt moves POSITION`: the legal moves.

/// List the legal moves of a position (R3), in ring order.
#[derive(clap::Args)]
#[command(after_help = "Example:\n  vlt moves '1,0,1,1,1,1/6,0,2,0,0,1 A 21 25'   # prints: 1A 3A 6A")]
pub struct Args {
    /// The position string (N2).
    position: String,
}

use std::io::Write;

pub fn run(a: Args) -> anyhow::Result<()> {
    let pos = super::parse_position(&a.position)?;
    let moves: Vec<String> = pos.legal_moves().map(|m| m.to_string()).collect();
    writeln!(std::io::stdout(), "{}", moves.join(" "))?;
    Ok(())
}
