//! Exit codes: 2 for usage and input errors (a bad position, an illegal move, an unreadable
//! record), 1 for anything else.

use std::fmt;

/// An error in what the user gave us; the program exits with status 2.
#[derive(Debug)]
pub struct InputError(pub String);

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

/// Wraps any displayable error as an [`InputError`].
pub fn input(e: impl fmt::Display) -> anyhow::Error {
    anyhow::Error::new(InputError(e.to_string()))
}

/// The exit status for `e`.
pub fn exit_code(e: &anyhow::Error) -> u8 {
    if e.chain().any(|c| c.is::<InputError>()) { 2 } else { 1 }
}
