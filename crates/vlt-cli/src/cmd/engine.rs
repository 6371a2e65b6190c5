//! `vlt engine`: the engine protocol (docs/protocol.md) over standard input and output. The
//! session and the engine thread live in `vlt-protocol`; this is only the stdio transport.

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use vlt_protocol::{Response, Server};

/// Speak the vlt engine protocol on standard input/output (docs/protocol.md), for graphical front
/// ends, scripts and `vlt match --engine`.
#[derive(clap::Args)]
#[command(
    after_help = "Example:\n  printf 'vlt\\nposition startpos moves 3B\\ngo depth 8\\n' | vlt engine\n\n\
Commands: vlt, isready, setoption name N value V, newgame, position startpos|N2 [moves ...],\n\
go [depth D] [nodes N] [movetime MS] [btime MS] [atime MS] [binc MS] [ainc MS] [infinite],\n\
stop, quit. At the end of input a running search finishes and prints its bestmove."
)]
pub struct Args {
    /// Endgame tables (a folder built by `vlt tb build`): positions with few enough stones are
    /// valued exactly, so the engine plays them perfectly and its `info` lines say `exact`.
    #[arg(long, value_name = "DIR")]
    tablebase: Option<std::path::PathBuf>,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let tb = super::open_tablebase(a.tablebase.as_deref())?;
    let out = Arc::new(Mutex::new(std::io::stdout()));
    let o = out.clone();
    let mut server = Server::with_tablebase(
        tb,
        Arc::new(move |r: Response| {
            let mut w = o.lock().unwrap_or_else(|e| e.into_inner());
            // A closed pipe means the front end is gone; the read loop will see end of input.
            let _ = writeln!(w, "{r}").and_then(|()| w.flush());
        }),
    );
    let stdin = std::io::stdin();
    let mut lines = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        // Bytes, not a String: a line of invalid UTF-8 must get an error reply, not end the session.
        match lines.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf);
                if !server.line(line.trim_end_matches(['\n', '\r'])) {
                    return Ok(());
                }
            }
            Err(e) => return Err(anyhow::anyhow!("standard input: {e}")),
        }
    }
    server.finish();
    Ok(())
}
