//! Reading command lines from a byte stream with their length capped while reading, so that an
//! endless line (`vlt engine < /dev/zero`) costs [`MAX_LINE`] bytes of memory, not all of it.

use crate::session::MAX_LINE;
use std::io::{self, BufRead};

/// Reads the next line of `input` into `line` (without its `\n` or `\r\n`), keeping at most
/// `MAX_LINE + 1` bytes of it and skipping the rest, so that a longer line still reads as too long
/// for [`crate::Session::handle_line`]. Invalid UTF-8 is replaced (U+FFFD), so such a line gets an
/// `error` reply instead of ending the session. Returns false at the end of input.
///
/// # Errors
/// What reading `input` gives.
///
/// ```
/// let mut input = &b"isready\r\ngo depth 3"[..];
/// let mut line = String::new();
/// assert!(vlt_protocol::read_line(&mut input, &mut line).unwrap());
/// assert_eq!(line, "isready");
/// assert!(vlt_protocol::read_line(&mut input, &mut line).unwrap());
/// assert_eq!(line, "go depth 3");
/// assert!(!vlt_protocol::read_line(&mut input, &mut line).unwrap());
/// ```
pub fn read_line(input: &mut impl BufRead, line: &mut String) -> io::Result<bool> {
    let mut bytes = Vec::new();
    let mut any = false;
    let mut cut = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, end) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        // Room for MAX_LINE bytes and a `\r`, and one more to tell that the line is too long.
        let room = (MAX_LINE + 2).saturating_sub(bytes.len());
        cut |= part.len() > room;
        bytes.extend_from_slice(&part[..part.len().min(room)]);
        let used = end.unwrap_or(chunk.len());
        input.consume(used);
        if end.is_some() {
            break;
        }
    }
    if !cut && bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    bytes.truncate(MAX_LINE + 1);
    *line = String::from_utf8_lossy(&bytes).into_owned();
    Ok(any)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out its bytes a few at a time, as a pipe does.
    struct Trickle<'a>(&'a [u8], usize);

    impl io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(buf.len()).min(self.1);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn lines(input: &[u8], step: usize) -> Vec<String> {
        let mut r = io::BufReader::with_capacity(7, Trickle(input, step));
        let mut out = Vec::new();
        let mut line = String::new();
        while read_line(&mut r, &mut line).expect("read") {
            out.push(line.clone());
        }
        out
    }

    #[test]
    fn lines_split_at_newlines_whatever_the_chunks() {
        for step in [1, 3, 64] {
            assert_eq!(lines(b"vlt\r\n\nisready\ngo", step), ["vlt", "", "isready", "go"], "{step}");
        }
        assert!(lines(b"", 1).is_empty());
        assert_eq!(lines(b"\xffx\n", 1), ["\u{fffd}x"]);
    }

    /// An over-long line keeps its first `MAX_LINE + 1` bytes, so it reads as too long, and the
    /// line after it is read whole.
    #[test]
    fn an_endless_line_is_cut_while_reading() {
        let mut input = vec![b'x'; 3 * MAX_LINE];
        input.extend_from_slice(b"\nisready\n");
        let got = lines(&input, 4096);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].len(), MAX_LINE + 1);
        assert_eq!(got[1], "isready");
        let mut exact = vec![b'y'; MAX_LINE];
        exact.extend_from_slice(b"\r\n");
        assert_eq!(lines(&exact, 4096)[0].len(), MAX_LINE, "a line of MAX_LINE bytes is whole");
    }
}
