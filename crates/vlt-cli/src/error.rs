//! Exit codes and error lines: 2 for usage and input errors (a bad flag, a bad position, an
//! illegal move, an unreadable record), 1 for anything else; either way one line on standard
//! error, `vlt: ` and what is wrong.

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

/// True when `e` comes from writing into a closed pipe (`vlt replay games.vlt | head`): the reader
/// has all it wanted, which is no failure.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The error and its causes on one line. A cause that its error's message already ends with
/// (a library error that names its source) is not repeated.
pub fn one_line(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain() {
        let m = cause.to_string();
        if line.ends_with(&m) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&m);
    }
    line.replace('\n', " ")
}

/// clap's several-line usage error as one line: the message, its notes (a tip, the possible
/// values), the usage if clap gives it, and where the help is. `command` is the (sub)command's
/// path, `vlt tb probe`.
pub fn clap_line(rendered: &str, command: &str) -> String {
    let mut lines = rendered.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("bad arguments");
    let mut out = first.strip_prefix("error: ").unwrap_or(first).to_string();
    let mut usage = None;
    for l in lines {
        if let Some(u) = l.strip_prefix("Usage: ") {
            usage = Some(u.to_string());
        } else if !l.starts_with("For more information") {
            out.push_str("; ");
            out.push_str(l);
        }
    }
    match usage {
        Some(u) => format!("{out} (usage: {u}; see {command} --help)"),
        None => format!("{out} (see {command} --help)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causes_are_not_repeated() {
        let io = std::io::Error::from(std::io::ErrorKind::NotFound);
        let e = anyhow::Error::new(io).context("tb/vlt-tb-00.bin: entity not found");
        assert_eq!(one_line(&e), "tb/vlt-tb-00.bin: entity not found");
        let e = anyhow::anyhow!("disk").context("writing tb");
        assert_eq!(one_line(&e), "writing tb: disk");
    }

    #[test]
    fn a_clap_error_is_one_line() {
        let rendered = "error: unexpected argument '-1' found\n\n  tip: to pass '-1' as a value, use '-- -1'\n\n\
                        Usage: vlt perft <DEPTH> [POSITION]\n\nFor more information, try '--help'.\n";
        assert_eq!(
            clap_line(rendered, "vlt perft"),
            "unexpected argument '-1' found; tip: to pass '-1' as a value, use '-- -1' \
             (usage: vlt perft <DEPTH> [POSITION]; see vlt perft --help)"
        );
        let rendered = "error: invalid value 'x' for '--games <GAMES>'\n  [possible values: greedy, engine]\n\n\
                        For more information, try '--help'.\n";
        assert_eq!(
            clap_line(rendered, "vlt solve"),
            "invalid value 'x' for '--games <GAMES>'; [possible values: greedy, engine] (see vlt solve --help)"
        );
    }

    #[test]
    fn broken_pipes_are_told_apart() {
        let e = anyhow::Error::new(std::io::Error::from(std::io::ErrorKind::BrokenPipe)).context("stdout");
        assert!(is_broken_pipe(&e));
        assert!(!is_broken_pipe(&anyhow::anyhow!("broken pipe")));
    }
}
