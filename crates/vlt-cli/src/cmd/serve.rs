//! `vlt serve`: the game in a browser, against the computer, two on one screen, or online.

use crate::error::input;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;
use vlt_server::ratelimit::Rate;
use vlt_server::store::Database;
use vlt_server::{Bounds, Edge, Hosts, Hub, Store};

/// Start the web server: the whole game in a browser (against the computer, two on one screen, or
/// online with an invite link), with every game kept in SQLite, or in PostgreSQL shared by several
/// servers. Prints the URL to open.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  vlt serve\n  vlt serve --addr 0.0.0.0:8080 --db ~/vlt-games.db\n  \
                        vlt serve --db postgres://vlt:secret@db.internal/vlt\n  \
                        vlt serve --tablebase tb")]
pub struct Args {
    /// Address to listen on (use 0.0.0.0:PORT to let friends on the network join).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Where games are kept: a SQLite file (default: $XDG_DATA_HOME/vlt/games.db or
    /// ~/.local/share/vlt/games.db), or postgres://user:password@host:port/database, a PostgreSQL
    /// database that several servers may share.
    #[arg(long, value_name = "PATH|URL")]
    db: Option<Database>,
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
    /// The address players reach the server at, e.g. https://play.example.org behind a TLS
    /// proxy: only that host is answered, WebSockets only from its pages, and invite links use it.
    /// Without it, localhost and IP addresses are answered, on any port.
    #[arg(long, value_name = "URL")]
    public_url: Option<vlt_server::PublicUrl>,
    /// Connections open at once from one address, WebSockets included (1-1000000). Behind a
    /// reverse proxy every connection comes from the proxy: raise it, and cap clients there.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_connections_per_address: u32,
    /// Connections open at once in all (1-1000000).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_connections: u32,
    /// New games (created or imported) one address may make per minute, on average; 0 for no
    /// limit (0-1000000). Behind a proxy on this machine, the address it forwards counts.
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    games_per_minute: u32,
    /// Lobby seeks one address may post per minute, on average; 0 for no limit (0-1000000).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    seeks_per_minute: u32,
    /// Sign-ups and log-ins one address may make per minute, on average (each costs an argon2
    /// hash); 0 for no limit (0-1000000).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    accounts_per_minute: u32,
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
    let db = a.db.unwrap_or_else(|| Database::Sqlite(default_db()));
    if let Database::Sqlite(path) = &db
        && let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir).map_err(|e| input(format!("cannot create {}: {e}", dir.display())))?;
    }
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    // PostgreSQL's connections and writers on the server's own runtime: a move's commit is then
    // awaited by the task that made it, with no thread in between.
    let store = Store::connect_on(&db, rt.handle().clone()).map_err(|e| input(format!("{db}: {e}")))?;
    let bounds = Bounds {
        max_open_games: a.max_open_games as usize,
        engine_ms: a.engine_ms,
        engine_threads: usize::from(a.engine_threads),
        review_ms: a.review_ms,
        // Reached over HTTPS (through a TLS proxy): the player cookie is never sent in clear.
        secure_cookie: a.public_url.as_ref().is_some_and(|u| u.to_string().starts_with("https:")),
        ..Bounds::default()
    };
    let hub = Hub::with_tablebase(store, bounds, tablebase);
    let defaults = Edge::default();
    let edge = Edge {
        hosts: a.public_url.clone().map_or(Hosts::Local, Hosts::Public),
        max_connections: a.max_connections as usize,
        max_connections_per_address: a.max_connections_per_address as usize,
        games_rate: Rate { per_minute: a.games_per_minute, burst: a.games_per_minute.div_ceil(2) },
        seeks_rate: Rate { per_minute: a.seeks_per_minute, burst: a.seeks_per_minute.div_ceil(2) },
        accounts_rate: Rate { per_minute: a.accounts_per_minute, burst: a.accounts_per_minute.div_ceil(2) },
        ..defaults
    };
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(a.addr)
            .await
            .map_err(|e| input(format!("cannot listen on {}: {e}", a.addr)))?;
        let local = listener.local_addr()?;
        let url = match &a.public_url {
            Some(u) => u.to_string(),
            None if local.ip().is_unspecified() => format!("http://127.0.0.1:{}", local.port()),
            None => format!("http://{local}"),
        };
        // Informative only: a closed standard output must not stop the server.
        let _ = writeln!(std::io::stdout(), "vlt serve: open {url}/ (games in {db})");
        vlt_server::serve(listener, hub, &edge).await?;
        let _ = writeln!(std::io::stdout(), "vlt serve: stopped");
        anyhow::Ok(())
    })?;
    // Sockets still open (stalled clients, WebSockets) are dropped with the runtime, without
    // waiting for them.
    rt.shutdown_timeout(Duration::from_millis(500));
    Ok(())
}
