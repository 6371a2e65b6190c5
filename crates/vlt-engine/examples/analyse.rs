//! How to use the engine: analyse a position to a fixed depth and print every move's score, then
//! let a playing level choose a move.
//!
//! ```text
//! cargo run --release -p vlt-engine --example analyse -- [POSITION] [DEPTH]
//! ```

use vlt_core::{Game, Position};
use vlt_engine::{Engine, EngineConfig, Level, Limits, Stop};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let pos: Position = match args.next() {
        Some(text) => text.parse()?,
        None => Position::START,
    };
    let depth: u32 = args.next().map_or(Ok(10), |d| d.parse())?;
    let game = Game::new(pos);
    let mut engine = Engine::new(EngineConfig { hash_mb: 16, ..EngineConfig::default() });
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    // `analyse` scores every move exactly (to the depth); `search` proves only the best one.
    let Some(result) = engine.analyse(&game, &limits, &Stop::new(), &mut |info| {
        println!("depth {:>2}  score {:+}  nodes {}", info.depth, info.score, info.nodes);
    }) else {
        println!("the game is over");
        return Ok(());
    };
    // Scores are stones of future capture difference for the player to move.
    for (mv, score) in &result.moves {
        println!("{mv}  {score:+}");
    }
    println!("best {}", result.best);
    println!("level 3 plays {}", engine.play_level(&game, Level::new(3).expect("1..=10"), 1));
    Ok(())
}
