//! `vlt match FIRST SECOND`: plays games between two players from a set of openings, each opening
//! both ways round, in parallel; prints wins/draws/losses, the score, the Elo difference with its
//! 95% interval; can stop early on an SPRT; writes every game as a record (docs/records.md).

mod player;
mod stats;

use crate::error::input;
use indicatif::{ProgressBar, ProgressStyle};
use player::{Clocks, Spec, TimeControl};
use rayon::prelude::*;
use stats::{Sprt, Tally, Verdict, fmt_elo};
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use vlt_core::playout::SplitMix64;
use vlt_core::{Game, Player, Position, Record};
use vlt_engine::{Engine, EngineConfig, Limits, Stop};

/// Play a match between two players and measure the difference in strength.
#[derive(clap::Args)]
#[command(after_help = "Players (a comma-separated list, the kind first):
  random                      uniformly random legal moves
  greedy                      the move that captures most now (ties at random)
  level=N[,movetime=MS|depth=D|nodes=N]
                              a built-in level 1-10; limits replace those of levels 6-10
  alphabeta,depth=D|nodes=N|movetime=MS[,threads=T][,hash=MB]   (also: ab,...)
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
    first: String,
    /// The second player.
    second: String,
    /// Games to play (rounded up to an even number: each opening is played both ways round).
    #[arg(long, short = 'n')]
    games: Option<u32>,
    /// A file of openings, one N2 position a line (blank lines and `#` comments skipped); the
    /// default is random balanced openings.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Random moves in a random opening.
    #[arg(long, default_value_t = 4)]
    plies: u32,
    /// A random opening is kept when a shallow search scores it within this many stones.
    #[arg(long, default_value_t = 1)]
    balance: i32,
    /// Games played at once.
    #[arg(long, short = 'j', default_value_t = 1)]
    concurrency: usize,
    /// Stop early on a sequential probability ratio test: elo0,elo1,alpha,beta.
    #[arg(long)]
    sprt: Option<String>,
    /// Write every game as a record: to this file (all games), or into this directory (one
    /// file per game) when it exists or ends with `/`.
    #[arg(long)]
    records: Option<PathBuf>,
    /// Seed of the openings and of the players' chance.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game still running after this many moves is scored by its captures (R7 normally ends
    /// endless games long before).
    #[arg(long, default_value_t = 1000)]
    max_moves: usize,
    /// Play on a clock: BASE[+INCREMENT] seconds for each player (e.g. `60+1`); a player whose
    /// time runs out loses the game. Engines then budget their own time from the clock.
    #[arg(long, value_name = "BASE[+INC]")]
    tc: Option<String>,
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

/// The depth of the search that checks a random opening is balanced.
const BALANCE_DEPTH: u32 = 6;
/// Random openings tried before giving up on finding distinct balanced ones.
const OPENING_TRIES: u32 = 100_000;

/// Reads a file of openings.
fn read_openings(path: &PathBuf) -> anyhow::Result<Vec<Position>> {
    let text = std::fs::read_to_string(path).map_err(|e| input(format!("{}: {e}", path.display())))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let p = if l == "startpos" {
            Position::START
        } else {
            l.parse::<Position>().map_err(|e| input(format!("{} line {}: {e}", path.display(), i + 1)))?
        };
        if p.is_game_over() {
            return Err(input(format!("{} line {}: the game is over there", path.display(), i + 1)));
        }
        out.push(p);
    }
    if out.is_empty() {
        return Err(input(format!("{}: no opening found", path.display())));
    }
    Ok(out)
}

/// `n` distinct random openings: `plies` random moves from the start, without a capture, that a
/// depth-6 search scores within `balance` stones. Deterministic in `seed`.
fn random_openings(n: usize, plies: u32, balance: i32, seed: u64) -> anyhow::Result<Vec<Position>> {
    let mut rng = SplitMix64(seed);
    let mut probe = Engine::new(EngineConfig { hash_mb: 4, ..EngineConfig::default() });
    let limits = Limits { depth: Some(BALANCE_DEPTH), ..Limits::default() };
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(n);
    for _ in 0..OPENING_TRIES {
        if out.len() == n {
            return Ok(out);
        }
        let mut p = Position::START;
        for _ in 0..plies {
            let m = p.legal_moves();
            if m.is_empty() {
                break;
            }
            p = p.play_unchecked(m.nth_move(rng.below(m.len() as u32) as usize).expect("non-empty"));
        }
        if p.is_game_over() || p.captured(Player::B) + p.captured(Player::A) > 0 || !seen.insert(p) {
            continue;
        }
        probe.clear();
        let r = probe.search(&Game::new(p), &limits, &Stop::new(), &mut |_| {});
        if r.is_some_and(|r| r.info.score.abs() <= balance) {
            out.push(p);
        }
    }
    Err(input(format!(
        "found only {} distinct balanced openings of {plies} plies within {balance} stones; \
         try more --plies or a larger --balance",
        out.len()
    )))
}

/// A finished game and what each side spent thinking.
struct Played {
    game: Game,
    /// Thinking time and moves, B's then A's.
    time: [Duration; 2],
    moves: [u32; 2],
}

/// The player who has captured more than half of all the stones (on the board and captured):
/// whatever happens next, it ends with more captures than the other (R6; R7 gives the board to
/// nobody).
fn decided(p: Position) -> Option<Player> {
    let total = p.stones_on_board() + u32::from(p.captured(Player::B)) + u32::from(p.captured(Player::A));
    [Player::B, Player::A].into_iter().find(|&x| 2 * u32::from(p.captured(x)) > total)
}

/// Plays one game; `players[0]` moves for B. On a time control, a move that takes longer than
/// the mover's time left loses the game on time. With `adjudicate`, the game stops once
/// [`decided`].
fn play_game(
    players: &mut [Box<dyn player::Player>; 2],
    start: Position,
    max_moves: usize,
    tc: Option<TimeControl>,
    adjudicate: bool,
) -> anyhow::Result<Played> {
    let mut game = Game::new(start);
    let mut clocks = tc.map(Clocks::new);
    let (mut time, mut moves) = ([Duration::ZERO; 2], [0; 2]);
    while !game.is_over() && game.moves().len() < max_moves {
        if adjudicate && decided(game.position()).is_some() {
            break;
        }
        let mover = game.position().to_move();
        let side = mover.index();
        let t = Instant::now();
        let mv = players[side].choose(&game, clocks.as_ref())?;
        let used = t.elapsed();
        time[side] += used;
        moves[side] += 1;
        if let Some(c) = clocks.as_mut() {
            if !c.charge(mover, used) {
                game.lose_on_time(mover).map_err(|e| anyhow::anyhow!("{e}"))?;
                break;
            }
        }
        game.play(mv).map_err(|e| anyhow::anyhow!("player {} chose {mv}: {e}", ["B", "A"][side]))?;
    }
    Ok(Played { game, time, moves })
}

/// The first player's score in a game where it played `first_side`: 1, ½ or 0 by the game's
/// result (R6, R7: the captures; or a time forfeit), or by the captures when the move cap or an
/// adjudication stopped it.
fn score_for(game: &Game, first_side: Player) -> f64 {
    // Unfinished: more captures wins, as it will (a decided game) or as R7 would score it now.
    let Some(r) = game.result() else {
        let p = game.position();
        return match p.captured(first_side).cmp(&p.captured(first_side.other())) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        };
    };
    match r.winner {
        Some(w) if w == first_side => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
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

struct State {
    tally: Tally,
    sink: Sink,
    verdict: Verdict,
    /// Games won by B (the side moving first in each opening), for the summary.
    b_wins: u32,
    capped: u32,
    /// Games stopped once decided (`--adjudicate`).
    adjudicated: u32,
    /// Games lost on time by the first and by the second player.
    forfeits: [u32; 2],
    /// Thinking time and moves of the first and of the second player.
    time: [Duration; 2],
    moves: [u32; 2],
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let first: Spec = a.first.parse()?;
    let second: Spec = a.second.parse()?;
    let sprt = a.sprt.as_deref().map(str::parse::<Sprt>).transpose().map_err(input)?;
    if !(1..=256).contains(&a.concurrency) {
        return Err(input(format!("concurrency {} is out of range 1-256", a.concurrency)));
    }
    if a.max_moves == 0 {
        return Err(input("max-moves must be at least 1"));
    }
    let tc = a.tc.as_deref().map(str::parse::<TimeControl>).transpose()?;
    let file_openings = a.openings.as_ref().map(read_openings).transpose()?;
    let games = a.games.unwrap_or_else(|| file_openings.as_ref().map_or(20, |o| 2 * o.len() as u32));
    if games == 0 || games > 1_000_000 {
        return Err(input(format!("games {games} is out of range 1-1000000")));
    }
    let pairs = games.div_ceil(2) as usize;
    let openings = match file_openings {
        Some(o) => o,
        None => random_openings(pairs, a.plies, a.balance, a.seed)?,
    };
    let tb = super::open_tablebase(a.tablebase.as_deref())?;
    // Check an external engine starts before spending time on anything else.
    for s in [&first, &second] {
        if matches!(s, Spec::External { .. }) {
            drop(s.make(0, None)?);
        }
    }
    let total = 2 * pairs;
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    if a.json {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let state = Mutex::new(State {
        tally: Tally::default(),
        sink: Sink::open(a.records.as_ref())?,
        verdict: Verdict::Continue,
        b_wins: 0,
        capped: 0,
        adjudicated: 0,
        forfeits: [0; 2],
        time: [Duration::ZERO; 2],
        moves: [0; 2],
    });
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(a.concurrency).build()?;
    let (first_name, second_name) = (a.first.clone(), a.second.clone());
    let result: anyhow::Result<()> = pool.install(|| {
        (0..total).into_par_iter().try_for_each(|i| -> anyhow::Result<()> {
            if stop.load(Ordering::Relaxed) {
                return Ok(());
            }
            let opening = openings[(i / 2) % openings.len()];
            // Game 2k: the first player takes B; game 2k+1: the same opening, sides swapped.
            let first_side = if i % 2 == 0 { Player::B } else { Player::A };
            let seed = a.seed ^ (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let p1 = first.make(seed, tb.as_ref())?;
            let p2 = second.make(seed.rotate_left(17) ^ 0x5eed, tb.as_ref())?;
            let mut players = if first_side == Player::B { [p1, p2] } else { [p2, p1] };
            let played = play_game(&mut players, opening, a.max_moves, tc, a.adjudicate)?;
            let game = played.game;
            let s = score_for(&game, first_side);
            let mut rec = Record::new(game.clone());
            let (b, a_) = if first_side == Player::B {
                (&first_name, &second_name)
            } else {
                (&second_name, &first_name)
            };
            rec.set_tag("Event", "vlt match");
            rec.set_tag("Round", &(i + 1).to_string());
            rec.set_tag("B", b);
            rec.set_tag("A", a_);
            if let Some(t) = &a.tc {
                rec.set_tag("TimeControl", t);
            }
            let mut st = state.lock().unwrap_or_else(|e| e.into_inner());
            st.tally.add(s);
            // Index 0 is the first player: B in even games, A in odd ones.
            let (f, sec) = (first_side.index(), first_side.other().index());
            st.time[0] += played.time[f];
            st.time[1] += played.time[sec];
            st.moves[0] += played.moves[f];
            st.moves[1] += played.moves[sec];
            if let Some(r) = game.result() {
                if let vlt_core::Termination::TimeForfeit(loser) = r.termination {
                    st.forfeits[usize::from(loser != first_side)] += 1;
                }
            }
            if score_for(&game, Player::B) > 0.75 {
                st.b_wins += 1;
            }
            let adjudicated = if a.adjudicate && !game.is_over() { decided(game.position()) } else { None };
            if let Some(w) = adjudicated {
                st.adjudicated += 1;
                rec.comments.push((
                    game.moves().len(),
                    format!("adjudicated: {w} has captured more than half of the stones"),
                ));
            } else if !game.is_over() {
                st.capped += 1;
                rec.comments.push((game.moves().len(), format!("stopped after {} moves", a.max_moves)));
            }
            st.sink.write(i, &rec)?;
            let t = st.tally;
            if let Some(sp) = sprt {
                if st.verdict == Verdict::Continue {
                    st.verdict = sp.verdict(&t);
                    if st.verdict != Verdict::Continue {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
            drop(st);
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
        })
    });
    bar.finish_and_clear();
    result?;
    let st = state.into_inner().unwrap_or_else(|e| e.into_inner());
    let t = st.tally;
    let (lo, hi) = t.elo_interval();
    let secs = started.elapsed().as_secs_f64();
    // Average thinking time a move, in milliseconds, of the first and of the second player.
    let ms_per_move = |i: usize| {
        if st.moves[i] == 0 { 0.0 } else { st.time[i].as_secs_f64() * 1000.0 / f64::from(st.moves[i]) }
    };
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
        let out = serde_json::json!({
            "first": a.first,
            "second": a.second,
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
            "time_control": a.tc,
            "time_forfeits": {"first": st.forfeits[0], "second": st.forfeits[1]},
            "ms_per_move": {"first": num(ms_per_move(0)), "second": num(ms_per_move(1))},
        });
        println!("{out}");
        return Ok(());
    }
    println!("{} vs {}", a.first, a.second);
    println!(
        "games {}  W {}  D {}  L {}  score {:.1}%  Elo {} [{}, {}] (95%)",
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score(),
        fmt_elo(t.elo()),
        fmt_elo(lo),
        fmt_elo(hi)
    );
    if let Some(s) = sprt {
        let (l, h) = s.bounds();
        println!(
            "sprt elo0 {} elo1 {}: llr {:.2} in [{l:.2}, {h:.2}]: {}",
            s.elo0,
            s.elo1,
            t.llr(s.elo0, s.elo1),
            match verdict {
                Some("H1") => "H1 accepted (stopped early)",
                Some(_) => "H0 accepted (stopped early)",
                None => "no decision",
            }
        );
    }
    println!(
        "openings {}  games won by B (first to move) {}  capped at {} moves {}  time {:.1} s",
        openings.len().min(pairs),
        st.b_wins,
        a.max_moves,
        st.capped,
        secs
    );
    println!("thinking time a move: first {:.1} ms, second {:.1} ms", ms_per_move(0), ms_per_move(1));
    if a.adjudicate {
        println!("adjudicated (a player had more than half of the stones) {}", st.adjudicated);
    }
    if let Some(t) = &a.tc {
        println!("time control {t}: lost on time: first {}, second {}", st.forfeits[0], st.forfeits[1]);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use vlt_core::Move;

    #[test]
    fn random_openings_are_distinct_quiet_and_reproducible() {
        let a = random_openings(6, 4, 1, 9).unwrap();
        assert_eq!(a, random_openings(6, 4, 1, 9).unwrap());
        let set: HashSet<_> = a.iter().collect();
        assert_eq!(set.len(), 6);
        for p in &a {
            // Four moves from the start without a capture: all 60 stones still on the board (R1).
            assert_eq!(p.stones_on_board(), 60);
        }
    }

    /// Plays the first legal move after `delay`.
    struct Slow(Duration);

    impl player::Player for Slow {
        fn choose(&mut self, game: &Game, _: Option<&Clocks>) -> anyhow::Result<Move> {
            std::thread::sleep(self.0);
            Ok(game.position().legal_moves().nth_move(0).expect("a legal move"))
        }
    }

    #[test]
    fn the_slow_player_loses_on_time() {
        let tc = TimeControl { base: Duration::from_millis(100), increment: Duration::ZERO };
        // A spends 60 ms a move: its second move overdraws its 100 ms.
        let mut players: [Box<dyn player::Player>; 2] =
            [Box::new(Slow(Duration::ZERO)), Box::new(Slow(Duration::from_millis(60)))];
        let played = play_game(&mut players, Position::START, 1000, Some(tc), false).unwrap();
        let r = played.game.result().expect("the game ended");
        assert_eq!(r.termination, vlt_core::Termination::TimeForfeit(Player::A));
        assert_eq!(played.moves, [2, 2], "B moved twice, A once plus the move that came too late");
        assert_eq!(played.game.moves().len(), 3);
        assert_eq!(score_for(&played.game, Player::B), 1.0);
        // Without a clock the same players finish the game.
        let played = play_game(&mut players, Position::START, 6, None, false).unwrap();
        assert_eq!(played.game.moves().len(), 6);
    }

    #[test]
    fn a_game_is_decided_past_half_the_stones() {
        // 60 stones in all: 31 captured wins whatever the 11 on the board do; 30 does not.
        let p: Position = "1,0,0,0,0,0/0,0,0,0,0,10 B 31 18".parse().unwrap();
        assert_eq!(decided(p), Some(Player::B));
        let p: Position = "2,0,0,0,0,0/0,0,0,0,0,10 A 18 30".parse().unwrap();
        assert_eq!(decided(p), None);
        let p: Position = "2,0,0,0,0,0/0,0,0,0,0,0 A 2 10".parse().unwrap();
        assert_eq!(decided(p), Some(Player::A), "half of 14 is 7");
        // An adjudicated game stops before any move and scores for the player it was decided for.
        let mut players: [Box<dyn player::Player>; 2] =
            [Box::new(Slow(Duration::ZERO)), Box::new(Slow(Duration::ZERO))];
        let start: Position = "1,0,0,0,0,0/0,0,0,0,0,10 B 31 18".parse().unwrap();
        let played = play_game(&mut players, start, 1000, None, true).unwrap();
        assert!(played.game.moves().is_empty() && !played.game.is_over());
        assert_eq!(score_for(&played.game, Player::B), 1.0);
    }

    #[test]
    fn a_time_forfeit_loses_whatever_the_captures() {
        let mut g = Game::new("1,0,0,0,0,0/0,0,0,0,0,1 B 40 18".parse().unwrap());
        g.lose_on_time(Player::B).unwrap();
        assert_eq!(score_for(&g, Player::B), 0.0);
        assert_eq!(score_for(&g, Player::A), 1.0);
    }

    #[test]
    fn score_is_by_captures() {
        let g = Game::new("0,0,0,0,0,0/0,0,0,0,0,0 B 31 29".parse().unwrap());
        assert_eq!(score_for(&g, Player::B), 1.0);
        assert_eq!(score_for(&g, Player::A), 0.0);
        let g = Game::new("0,0,0,0,0,0/0,0,0,0,0,0 A 30 30".parse().unwrap());
        assert_eq!(score_for(&g, Player::A), 0.5);
    }
}
