//! Fuzzes the game-record reader: it never panics, and a record it accepts writes out to text
//! that reads back to the same record.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vlt_core::Record;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(records) = Record::parse_all(text) {
        for r in records {
            let written = r.to_string();
            let back = Record::parse(&written).expect("a written record reads back");
            assert_eq!(back.game, r.game, "{written}");
        }
    }
});
