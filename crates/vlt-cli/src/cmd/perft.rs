//! `vlt perft DEPTH [POSITION]`: move-path counts (N4).

use std::io::Write;
use std::time::Instant;

/// Count the move sequences of exactly DEPTH moves (N4); per-move counts first, the total last.
#[derive(clap::Args)]
#[command(after_help = "Example:\n  vlt perft 8    # from the start position: 835629")]
pub struct Args {
    /// Number of moves.
    depth: u32,
    /// The position string (N2); the start position when omitted.
    #[arg(default_value = "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0")]
    position: String,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let pos = super::parse_position(&a.position)?;
    if a.depth > 40 {
        return Err(crate::error::input(format!("depth {} is too deep for a count (at most 40)", a.depth)));
    }
    let t = Instant::now();
    let mut total = 0;
    if a.depth > 0 {
        for m in pos.legal_moves() {
            let n = vlt_core::perft(pos.play_unchecked(m), a.depth - 1);
            super::note(format_args!("{m}: {n}"));
            total += n;
        }
    } else {
        total = 1;
    }
    super::note(format_args!("{:.3} s", t.elapsed().as_secs_f64()));
    writeln!(std::io::stdout(), "{total}")?;
    Ok(())
}
