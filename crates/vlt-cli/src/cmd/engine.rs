//! `vlt engine`: the engine protocol (docs/protocol.md) over standard input and output. The
//! session and the engine thread live in `vlt-protocol`; this is only the stdio transport.

use std::io::Write;
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
    let mut input = std::io::stdin().lock();
    let mut line = String::new();
    // Capped while reading (an endless line costs no memory), and invalid UTF-8 gets an error
    // reply instead of ending the session.
    while vlt_protocol::read_line(&mut input, &mut line)
        .map_err(|e| anyhow::anyhow!("standard input: {e}"))?
    {
        if !server.line(&line) {
            return Ok(());
        }
    }
    server.finish();
    Ok(())
}
