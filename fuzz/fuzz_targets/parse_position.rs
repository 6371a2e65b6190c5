//! Fuzzes the position parser (N2): it never panics, and what it accepts prints back to a string
//! that parses to the same position; every legal move of it plays without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vlt_core::{Move, Player, Position};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = Move::parse_with(text, Some(Player::B));
    if let Ok(p) = text.parse::<Position>() {
        let again: Position = p.to_string().parse().expect("a printed position parses");
        assert_eq!(again, p);
        for m in p.legal_moves() {
            let (after, o) = p.play_traced(m).expect("legal");
            assert_eq!(after.stones_on_board() + u32::from(o.capture.stones), p.stones_on_board());
        }
    }
});
