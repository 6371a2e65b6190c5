//! Does playing the tables' best moves realise their values? From every position of 9 stones up
//! to the tables' top layer (where quiet cycles exist, R7), both sides play the first best move in
//! ring order, as the engine does, until the board is empty or a position occurs a third time
//! (R7). Prints per layer how many games ended by repetition and how many did not end with the
//! capture difference the tables promised (docs/engine.md: none and none, 9–12 stones).
//!
//!     cargo run --release -p vlt-tablebase --example perfect_play -- DIR
use std::collections::HashMap;
use vlt_core::{ByPlayer, Player, Position};
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
                let v = tb.probe(start).expect("in the tables");
                let mover = start.to_move();
                let (mut p, mut diff) = (start, 0i32);
                let mut seen: HashMap<u128, u32> = HashMap::new();
                loop {
                    if p.is_game_over() {
                        break;
                    }
                    let c = seen.entry(p.repetition_key()).or_insert(0);
                    *c += 1;
                    if *c == 3 {
                        r7 += 1;
                        break;
                    }
                    let ms = tb.probe_moves(p).expect("in the tables");
                    let m = ms.into_iter().reduce(|b, m| if m.1 > b.1 { m } else { b }).expect("a move").0;
                    let who = p.to_move();
                    let (q, k) = p.play_counting(m);
                    if k > 0 {
                        seen.clear();
                    }
                    diff += if who == mover { k as i32 } else { -(k as i32) };
                    p = q;
                }
                games += 1;
                wrong += u64::from(diff != v);
            }
        }
        println!("n={n}: {games} positions, {r7} ended by R7, {wrong} not realised");
    }
}
