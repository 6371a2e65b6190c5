//! `vlt serve`: the game in a browser, against the computer, two on one screen, or online.

use crate::error::input;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use vlt_server::{Bounds, Hub, Store};

/// Start the web server: the whole game in a browser (against the computer, two on one screen, or
/// online with an invite link), with every game kept in SQLite. Prints the URL to open.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  vlt serve\n  vlt serve --addr 0.0.0.0:8080 --db ~/vlt-games.db\n  \
                        vlt serve --tablebase tb")]
pub struct Args {
    /// Address to listen on (use 0.0.0.0:PORT to let friends on the network join).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The SQLite database file (default: $XDG_DATA_HOME/vlt/games.db or ~/.local/share/vlt/games.db).
    #[arg(long)]
    db: Option<PathBuf>,
    /// The most unfinished games the server holds at once (1-1000000).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_open_games: u32,
    /// The engine's thinking time per move, hint or analysis, in milliseconds (10-60000).
    #[arg(long, default_value_t = 1500, value_parser = clap::value_parser!(u64).range(10..=60_000))]
    engine_ms: u64,
    /// Engine searches running at once (1-64).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=64))]
    engine_threads: u8,
    /// The game review's search time for each position, in milliseconds (1-10000); reviews run
    /// in the background, one at a time, and are stored.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    review_ms: u64,
    /// Endgame tables (a folder built by `vlt tb build`): the computer plays positions with few
    /// enough stones perfectly, and hints and analysis of them are exact.
    #[arg(long, value_name = "DIR")]
    tablebase: Option<PathBuf>,
}

fn default_db() -> PathBuf {
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("vlt").join("games.db")
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let tablebase = super::open_tablebase(a.tablebase.as_deref())?;
    let db = a.db.unwrap_or_else(default_db);
    if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| input(format!("cannot create {}: {e}", dir.display())))?;
    }
    let store = Store::open(&db).map_err(|e| input(format!("{}: {e}", db.display())))?;
    let bounds = Bounds {
        max_open_games: a.max_open_games as usize,
        engine_ms: a.engine_ms,
        engine_threads: usize::from(a.engine_threads),
        review_ms: a.review_ms,
        ..Bounds::default()
    };
    let hub = Hub::with_tablebase(store, bounds, tablebase);
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(a.addr)
            .await
            .map_err(|e| input(format!("cannot listen on {}: {e}", a.addr)))?;
        let local = listener.local_addr()?;
        let host = if local.ip().is_unspecified() { "127.0.0.1".to_string() } else { local.ip().to_string() };
        // Informative only: a closed standard output must not stop the server.
        let _ = writeln!(
            std::io::stdout(),
            "vlt serve: open http://{host}:{}/ (games in {})",
            local.port(),
            db.display()
        );
        vlt_server::serve(listener, hub).await?;
        let _ = writeln!(std::io::stdout(), "vlt serve: stopped");
        Ok(())
    })
}
