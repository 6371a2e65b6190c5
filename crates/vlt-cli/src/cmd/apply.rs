//! `vlt apply [--json] POSITION MOVE...`: plays moves and reports each one.

use crate::error::input;
use serde::Serialize;

/// Play moves from a position and print what each did.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  vlt apply '5,5,5,5,5,5/5,5,5,5,5,5 B 0 0' 1B 4A\n  \
                        vlt apply --json '5,5,5,5,5,5/5,5,5,5,5,5 B 0 0' 3 2")]
pub struct Args {
    /// One JSON object per move and line, with the fields of the shared test vectors.
    #[arg(long)]
    json: bool,
    /// The position string (N2).
    position: String,
    /// The moves (N1); a bare digit is a hole of the player to move.
    #[arg(required = true)]
    moves: Vec<String>,
}

/// One line of `--json` output: exactly the fields of `moves.jsonl`.
#[derive(Serialize)]
struct MoveLine {
    position: String,
    legal: Vec<String>,
    #[serde(rename = "move")]
    mv: String,
    after: String,
    captured: u8,
    captured_holes: Vec<String>,
    game_over: bool,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let mut pos = super::parse_position(&a.position)?;
    for (i, text) in a.moves.iter().enumerate() {
        let mv = super::parse_move(text, pos)?;
        let (after, outcome) = pos.play_traced(mv).map_err(|e| input(format!("move {}: {e}", i + 1)))?;
        let holes: Vec<String> = outcome.capture.holes().map(|h| h.to_string()).collect();
        if a.json {
            let line = MoveLine {
                position: pos.to_string(),
                legal: pos.legal_moves().map(|m| m.to_string()).collect(),
                mv: mv.to_string(),
                after: after.to_string(),
                captured: outcome.capture.stones,
                captured_holes: holes,
                game_over: outcome.game_over,
            };
            println!("{}", serde_json::to_string(&line)?);
        } else {
            let mut s = format!("{mv}: {after}");
            if outcome.capture.stones > 0 {
                s += &format!("  captured {} ({})", outcome.capture.stones, holes.join(" "));
            }
            if outcome.opponent_passes {
                s += &format!("  {} passes", outcome.mover.other());
            }
            if outcome.game_over {
                s += "  game over";
            }
            println!("{s}");
        }
        pos = after;
    }
    Ok(())
}
