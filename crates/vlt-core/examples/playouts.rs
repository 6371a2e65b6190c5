//! Plays N random games from the start and prints the moves played: a fixed workload for
//! instruction counting (`valgrind --tool=callgrind`), which is steadier than timing.

use vlt_core::Position;
use vlt_core::playout::{SplitMix64, random_playout};

fn main() {
    let games: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let mut rng = SplitMix64(1);
    let mut keys = Vec::new();
    let moves: u64 =
        (0..games).map(|_| u64::from(random_playout(Position::START, &mut rng, &mut keys).moves)).sum();
    println!("{games} games, {moves} moves");
}
