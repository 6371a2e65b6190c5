//! Fuzzes the engine protocol's command parser and session: no line panics either; a command
//! that parses writes out (its canonical form) to a line that parses to the same command; and the
//! session answers every line, searches aside, with at most a handful of effects.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vlt_protocol::{Command, Session};

fuzz_target!(|data: &[u8]| {
    // As `vlt engine` reads: invalid UTF-8 replaced, one session for all the lines of the input.
    let text = String::from_utf8_lossy(data);
    let mut session = Session::default();
    for line in text.split('\n') {
        if let Ok(c) = line.parse::<Command>() {
            let written = c.to_string();
            let back: Command = written.parse().expect("a written command parses");
            assert_eq!(back, c, "{written}");
        }
        let busy = line.len() % 2 == 1;
        let effects = session.handle_line(line, busy);
        assert!(effects.len() <= 16, "{line}: {effects:?}");
    }
});
