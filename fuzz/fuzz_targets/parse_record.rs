//! Fuzzes the game-record reader: it never panics; a record it accepts writes out to text that
//! reads back to the same record; and the stream reader, fed a few bytes at a time (characters
//! split between reads), gives the same games and the same error as reading the whole text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vlt_core::record::RecordReader;
use vlt_core::{Record, RecordError};

fuzz_target!(|data: &[u8]| {
    let streamed: Vec<Result<Record, RecordError>> =
        RecordReader::new(std::io::BufReader::with_capacity(7, data)).collect();
    let Ok(text) = std::str::from_utf8(data) else {
        // Not UTF-8 ends the stream in an error: that one, or one in a game before the bad byte.
        assert!(matches!(streamed.last(), Some(Err(_))), "{streamed:?}");
        return;
    };
    match Record::parse_all(text) {
        Ok(records) => {
            let got: Vec<Record> = streamed.into_iter().map(|r| r.expect("the stream reads it too")).collect();
            assert_eq!(got, records);
            for r in records {
                let written = r.to_string();
                let back = Record::parse(&written).expect("a written record reads back");
                assert_eq!(back.game, r.game, "{written}");
            }
        }
        Err(e) => {
            let (last, before) = streamed.split_last().expect("an error at least");
            assert_eq!(last.as_ref().err(), Some(&e));
            assert!(before.iter().all(Result::is_ok), "{streamed:?}");
        }
    }
});
