//! `vlt match FIRST SECOND`: plays games between two players from a set of openings, each opening
//! both ways round, in parallel; prints wins/draws/losses, the score, the Elo difference with its
//! 95% interval; can stop early on an SPRT; writes every game as a record (docs/records.md). The
//! engine's arena plays the match; this command parses the arguments and prints.

mod external;

use crate::error::input;
use external::External;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use vlt_core::Record;
use vlt_engine::arena::{
    Contestant, ContestantError, GameReport, GameRules, MatchConfig, Role, Spec, Sprt, Summary, TimeControl,
    Verdict, parse_openings, play_match, random_openings,
};

/// The most games one match may ask for.
const MAX_GAMES: i64 = 1_000_000;
/// The most games played at once.
const MAX_CONCURRENCY: i64 = 256;
/// The most random moves of a random opening.
const MAX_PLIES: i64 = 200;
/// The widest balance of a random opening, in stones (all 60 of R1).
const MAX_BALANCE: i64 = 60;
/// Games played when neither --games nor --openings says how many.
const DEFAULT_GAMES: usize = 20;

/// A player argument: its spec, and the text as typed (the name in the output and the records).
#[derive(Clone, Debug)]
struct PlayerArg {
    text: String,
    /// Boxed: a spec is large beside the other arguments.
    spec: Box<Spec>,
}

impl std::str::FromStr for PlayerArg {
    type Err = vlt_engine::arena::SpecError;
    fn from_str(s: &str) -> Result<PlayerArg, Self::Err> {
        Ok(PlayerArg { text: s.to_string(), spec: Box::new(s.parse()?) })
    }
}

/// A `--tc` argument: the time control, and the text as typed (the records' TimeControl tag).
#[derive(Clone, Debug)]
struct TimeControlArg {
    text: String,
    tc: TimeControl,
}

impl std::str::FromStr for TimeControlArg {
    type Err = String;
    fn from_str(s: &str) -> Result<TimeControlArg, String> {
        Ok(TimeControlArg { text: s.to_string(), tc: s.parse()? })
    }
}

/// Play a match between two players and measure the difference in strength.
#[derive(clap::Args)]
#[command(after_help = "Players (a comma-separated list, the kind first):
  random                      uniformly random legal moves
  greedy                      the move that captures most now (ties at random)
  level=N[,movetime=MS|depth=D|nodes=N]
                              a built-in level 1-10; limits replace those of levels 6-10
  alphabeta,depth=D|nodes=N|movetime=MS[,threads=T][,hash=MB]   (also: ab,...)
                              alphabeta and level=N also take weights=tuned|untuned|
                              W1/.../W10, eval=learned|linear, lmr=on|off, qs=on|off
                              (engine settings to compare)
  mcts,nodes=N|movetime=MS[,threads=T][,explore=C][,greedy=P]
                              C: the UCB1 constant; P: % of playout moves that take
                              the biggest capture (0 = uniform playouts)
  [depth=D,][nodes=N,][movetime=MS,][Option=Value,...]engine=PROGRAM ARGS
                              an external program speaking docs/protocol.md; the program
                              and its arguments run to the end of the spec; other keys are
                              sent as setoption; without limits it gets a plain `go`

Examples:
  vlt match greedy random --games 100
  vlt match level=5 level=4 --games 200 --concurrency 2 --records ladder.vlt
  vlt match level=10,movetime=100 mcts,movetime=100 --games 40 --json
  vlt match 'movetime=50,engine=vlt engine' level=6 --openings openings.txt
  vlt match ab,depth=10 ab,depth=8 --games 1000 --sprt 0,50,0.05,0.05
  vlt match level=10 mcts --tc 10+0.1 --games 20")]
pub struct Args {
    /// The first player (results are from its side).
    first: PlayerArg,
    /// The second player.
    second: PlayerArg,
    /// Games to play (rounded up to an even number: each opening is played both ways round);
    /// the default is 20, or each opening of --openings both ways round.
    #[arg(long, short = 'n', value_parser = clap::value_parser!(u32).range(1..=MAX_GAMES))]
    games: Option<u32>,
    /// A file of openings, one N2 position a line (blank lines and `#` comments skipped); the
    /// default is random balanced openings.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Random moves in a random opening.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=MAX_PLIES))]
    plies: u32,
    /// A random opening is kept when a shallow search scores it within this many stones.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = clap::value_parser!(i32).range(0..=MAX_BALANCE))]
    balance: i32,
    /// Games played at once.
    #[arg(long, short = 'j', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_CONCURRENCY))]
    concurrency: u32,
    /// Stop early on a sequential probability ratio test: elo0,elo1,alpha,beta.
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA")]
    sprt: Option<Sprt>,
    /// Write every game as a record, in round order: to this file (all games), or into this
    /// directory (one file per game) when it exists or ends with `/`.
    #[arg(long)]
    records: Option<PathBuf>,
    /// Seed of the openings and of the players' chance.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game still running after this many moves is scored by its captures (R7 normally ends
    /// endless games long before).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    max_moves: u32,
    /// Play on a clock: BASE[+INCREMENT] seconds for each player (e.g. `60+1`); a player whose
    /// time runs out loses the game. Engines then budget their own time from the clock.
    #[arg(long, value_name = "BASE[+INC]")]
    tc: Option<TimeControlArg>,
    /// End a game as soon as one player has captured more than half of all the stones: nothing
    /// can change the winner any more (R6, R7), so the rest only costs time. Records of such games
    /// end there, with a comment.
    #[arg(long)]
    adjudicate: bool,
    /// Endgame tables (a folder built by `vlt tb build`) for both built-in engines: positions
    /// with few enough stones are valued exactly.
    #[arg(long, value_name = "DIR")]
    tablebase: Option<PathBuf>,
    /// Print one JSON object with the results instead of text.
    #[arg(long)]
    json: bool,
}

/// Formats an Elo value: `+123`, `-45`, `+inf`.
fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "+inf".into() } else { "-inf".into() }
    } else {
        format!("{:+.0}", e.round() + 0.0)
    }
}

/// Reads a file of openings.
fn read_openings(path: &PathBuf) -> anyhow::Result<Vec<vlt_core::Position>> {
    let text = std::fs::read_to_string(path).map_err(|e| input(format!("{}: {e}", path.display())))?;
    parse_openings(&text).map_err(|e| input(format!("{}: {e}", path.display())))
}

/// Where finished games go.
enum Sink {
    None,
    File(std::fs::File),
    Dir(PathBuf),
}

impl Sink {
    fn open(path: Option<&PathBuf>) -> anyhow::Result<Sink> {
        let Some(p) = path else { return Ok(Sink::None) };
        let err = |e: std::io::Error| input(format!("{}: {e}", p.display()));
        if p.is_dir() || p.to_string_lossy().ends_with('/') {
            std::fs::create_dir_all(p).map_err(err)?;
            Ok(Sink::Dir(p.clone()))
        } else {
            Ok(Sink::File(std::fs::File::create(p).map_err(err)?))
        }
    }

    fn write(&mut self, index: usize, rec: &Record) -> anyhow::Result<()> {
        match self {
            Sink::None => Ok(()),
            Sink::File(f) => Ok(writeln!(f, "{rec}")?),
            Sink::Dir(d) => {
                Ok(std::fs::write(d.join(format!("game-{:04}.vlt", index + 1)), rec.to_string())?)
            }
        }
    }
}

/// A fresh contestant of `spec` for one game: a built-in one, or the program started anew.
fn contestant(
    spec: &Spec,
    seed: u64,
    tb: Option<&std::sync::Arc<vlt_tablebase::Tablebase>>,
) -> anyhow::Result<Box<dyn Contestant>> {
    if let Spec::External { command, limits, options } = spec {
        return Ok(Box::new(External::start(command, limits, options)?));
    }
    spec.contestant(seed, tb).ok_or_else(|| anyhow::anyhow!("not a built-in player"))
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let file_openings = a.openings.as_ref().map(read_openings).transpose()?;
    let games = match (a.games, &file_openings) {
        (Some(n), _) => n as usize,
        (None, Some(o)) => 2 * o.len(),
        (None, None) => DEFAULT_GAMES,
    };
    if games > MAX_GAMES as usize {
        return Err(input(format!("{games} games: at most {MAX_GAMES} (give --games)")));
    }
    let config = MatchConfig {
        games,
        concurrency: a.concurrency as usize,
        seed: a.seed,
        rules: GameRules {
            max_moves: a.max_moves as usize,
            time_control: a.tc.as_ref().map(|t| t.tc),
            adjudicate: a.adjudicate,
        },
        sprt: a.sprt,
    };
    let pairs = config.total_games() / 2;
    let openings = match file_openings {
        Some(o) => o,
        None => random_openings(pairs, a.plies, a.balance, a.seed)
            .map_err(|e| input(format!("{e} (--plies, --balance)")))?,
    };
    let tb = super::open_tablebase(a.tablebase.as_deref())?;
    // Check an external engine starts before spending time on anything else.
    for p in [&a.first, &a.second] {
        if matches!(*p.spec, Spec::External { .. }) {
            drop(contestant(&p.spec, 0, None)?);
        }
    }
    let bar = ProgressBar::new(config.total_games() as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    if a.json {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let mut sink = Sink::open(a.records.as_ref())?;
    let make = |role: Role, seed: u64| -> Result<Box<dyn Contestant>, ContestantError> {
        let p = if role == Role::First { &a.first } else { &a.second };
        Ok(contestant(&p.spec, seed, tb.as_ref())?)
    };
    let on_game = |r: &GameReport, s: &Summary| -> anyhow::Result<()> {
        let mut rec = r.record("vlt match", &a.first.text, &a.second.text);
        if let Some(t) = &a.tc {
            rec.set_tag("TimeControl", &t.text);
        }
        sink.write(r.index, &rec)?;
        let t = s.tally;
        bar.inc(1);
        bar.set_message(format!(
            "W {} D {} L {}  {:.1}%  Elo {}",
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.score(),
            fmt_elo(t.elo())
        ));
        Ok(())
    };
    let started = Instant::now();
    let result = play_match(&openings, &config, &make, on_game);
    bar.finish_and_clear();
    let st = result?;
    let sprt = config.sprt;
    let t = st.tally;
    let (lo, hi) = t.elo_interval();
    let secs = started.elapsed().as_secs_f64();
    // Written with errors checked: a reader that has gone (`| head`) ends the program quietly.
    let mut out = std::io::stdout().lock();
    let verdict = match st.verdict {
        Verdict::Continue => None,
        Verdict::H0 => Some("H0"),
        Verdict::H1 => Some("H1"),
    };
    if a.json {
        // Adding 0.0 turns -0.0 into 0.0.
        let num = |x: f64| {
            if x.is_finite() {
                serde_json::json!((x * 10.0).round() / 10.0 + 0.0)
            } else {
                serde_json::Value::Null
            }
        };
        let summary = serde_json::json!({
            "first": a.first.text,
            "second": a.second.text,
            "games": t.games(),
            "wins": t.wins,
            "draws": t.draws,
            "losses": t.losses,
            "score": (t.score() * 10000.0).round() / 10000.0,
            "elo": num(t.elo()),
            "elo_low": num(lo),
            "elo_high": num(hi),
            "openings": openings.len().min(pairs),
            "first_mover_wins": st.b_wins,
            "capped": st.capped,
            "adjudicated": st.adjudicated,
            "sprt": sprt.map(|s| serde_json::json!({
                "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
                "llr": (t.llr(s.elo0, s.elo1) * 1000.0).round() / 1000.0,
                "verdict": verdict,
            })),
            "seconds": (secs * 10.0).round() / 10.0,
            "time_control": a.tc.as_ref().map(|t| &t.text),
            "time_forfeits": {"first": st.first.forfeits, "second": st.second.forfeits},
            "ms_per_move": {"first": num(st.first.ms_per_move()), "second": num(st.second.ms_per_move())},
        });
        writeln!(out, "{summary}")?;
        return Ok(());
    }
    writeln!(out, "{} vs {}", a.first.text, a.second.text)?;
    writeln!(
        out,
        "games {}  W {}  D {}  L {}  score {:.1}%  Elo {} [{}, {}] (95%)",
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score(),
        fmt_elo(t.elo()),
        fmt_elo(lo),
        fmt_elo(hi)
    )?;
    if let Some(s) = sprt {
        let (l, h) = s.bounds();
        writeln!(
            out,
            "sprt elo0 {} elo1 {}: llr {:.2} in [{l:.2}, {h:.2}]: {}",
            s.elo0,
            s.elo1,
            t.llr(s.elo0, s.elo1),
            match verdict {
                Some("H1") => "H1 accepted (stopped early)",
                Some(_) => "H0 accepted (stopped early)",
                None => "no decision",
            }
        )?;
    }
    writeln!(
        out,
        "openings {}  games won by B (first to move) {}  capped at {} moves {}  time {:.1} s",
        openings.len().min(pairs),
        st.b_wins,
        a.max_moves,
        st.capped,
        secs
    )?;
    writeln!(
        out,
        "thinking time a move: first {:.1} ms, second {:.1} ms",
        st.first.ms_per_move(),
        st.second.ms_per_move()
    )?;
    if a.adjudicate {
        writeln!(out, "adjudicated (a player had more than half of the stones) {}", st.adjudicated)?;
    }
    if let Some(t) = &a.tc {
        writeln!(
            out,
            "time control {}: lost on time: first {}, second {}",
            t.text, st.first.forfeits, st.second.forfeits
        )?;
    }
    Ok(())
}
