//! `vlt apply [--json] POSITION MOVE...`: plays moves and reports each one.

use crate::error::input;
use serde::Serialize;
use std::io::Write;
use vlt_core::Game;

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
    /// The moves (N1); a bare digit is a hole of the player to move. They are a game: a move after
    /// its end (an empty board, R6, or a position's third occurrence, R7) is refused.
    #[arg(required = true)]
    moves: Vec<String>,
}

/// One line of `--json` output: exactly the fields of `moves.jsonl` (`game_over` is also true at
/// the third occurrence of a position, R7, which a lone vector cannot show).
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
    // A game, not a lone position: the third occurrence of a position ends it (R7), as in
    // `replay` and in play.
    let mut game = Game::new(super::parse_position(&a.position)?);
    let mut out = std::io::stdout().lock();
    for (i, text) in a.moves.iter().enumerate() {
        let pos = game.position();
        let mv = super::parse_move(text, pos)?;
        let outcome = game.play(mv).map_err(|e| input(format!("move {}: {e}", i + 1)))?;
        let after = game.position();
        let holes: Vec<String> = outcome.capture.holes().map(|h| h.to_string()).collect();
        if a.json {
            let line = MoveLine {
                position: pos.to_string(),
                legal: pos.legal_moves().map(|m| m.to_string()).collect(),
                mv: mv.to_string(),
                after: after.to_string(),
                captured: outcome.capture.stones,
                captured_holes: holes,
                game_over: game.is_over(),
            };
            writeln!(out, "{}", serde_json::to_string(&line)?)?;
        } else {
            let mut s = format!("{mv}: {after}");
            if outcome.capture.stones > 0 {
                s += &format!("  captured {} ({})", outcome.capture.stones, holes.join(" "));
            }
            if outcome.opponent_passes {
                s += &format!("  {} passes", outcome.mover.other());
            }
            if let Some(r) = game.result() {
                s += &format!("  game over: {r}");
            }
            writeln!(out, "{s}")?;
        }
    }
    Ok(())
}
