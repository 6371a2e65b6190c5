//! Does playing the tables' best moves realise their values? From every position of 9 stones up
//! to the tables' top layer (where quiet cycles exist, R7), both sides play the first best move in
//! ring order, as the engine does, until the board is empty or a position occurs a third time
//! (R7). Prints per layer how many games ended by repetition and how many did not end with the
//! capture difference the tables promised (docs/engine.md: none and none, 9–12 stones).
//!
//!     cargo run --release -p vlt-tablebase --example perfect_play -- DIR
use vlt_core::{ByPlayer, Game, Player, Position, Termination};
use vlt_tablebase::{Tablebase, index};

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: perfect_play DIR (tables as vlt tb build writes them)");
        std::process::exit(2);
    };
    let tb = match Tablebase::open(std::path::Path::new(&dir)) {
        Ok(tb) => tb,
        Err(e) => {
            eprintln!("perfect_play: {e}");
            std::process::exit(2);
        }
    };
    for n in 9..=tb.max_stones() {
        let (mut games, mut r7, mut wrong) = (0u64, 0u64, 0u64);
        for r in 0..index::boards(n) {
            let board = index::unrank(n, r);
            for pl in [Player::A, Player::B] {
                let start = Position::new(board, pl, ByPlayer { a: 0, b: 0 }).expect("at most 60 stones");
                if start.to_move() != pl {
                    continue; // not a position: normalised to the other player (R5)
                }
                let mut game = Game::new(start);
                while !game.is_over() {
                    let (m, _) = tb.best_move(game.position()).expect("in the tables, not over");
                    game.play(m).expect("a legal move");
                }
                let mover = start.to_move();
                let got = game.position().capture_diff(mover) - start.capture_diff(mover);
                games += 1;
                r7 += u64::from(game.result().is_some_and(|r| r.termination == Termination::Repetition));
                wrong += u64::from(Some(got) != tb.probe(start));
            }
        }
        println!("n={n}: {games} positions, {r7} ended by R7, {wrong} not realised");
    }
}
