//! A match: every opening played both ways round, games in parallel, results gathered into a
//! [`Summary`] as they finish, and an optional SPRT that stops the match once it decides.

use super::ArenaError;
use super::contestant::{Contestant, ContestantError};
use super::game::{Ending, GameRules, Played, play_game, score_for};
use super::stats::{Sprt, Tally, Verdict};
use std::collections::BTreeMap;
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::Duration;
use vlt_core::{Player, Position, Record, Termination};

/// A contestant's place in a match: results are from the first one's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// The contestant the results are for.
    First,
    /// Its opponent.
    Second,
}

/// How a match is played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchConfig {
    /// Games to play, rounded up to an even number (each opening is played both ways round).
    pub games: usize,
    /// Games played at once (at least one).
    pub concurrency: usize,
    /// Seed of the contestants' chance.
    pub seed: u64,
    /// How each game is played.
    pub rules: GameRules,
    /// Stop once this test decides.
    pub sprt: Option<Sprt>,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig { games: 20, concurrency: 1, seed: 1, rules: GameRules::default(), sprt: None }
    }
}

impl MatchConfig {
    /// The games the match plays unless an SPRT stops it: `games` rounded up to even.
    #[must_use]
    pub fn total_games(&self) -> usize {
        2 * self.games.div_ceil(2)
    }
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The game's number in the match, from 0: games `2k` and `2k + 1` share an opening.
    pub index: usize,
    /// The side the first contestant played: B in even games, A in odd ones.
    pub first_side: Player,
    /// The game.
    pub played: Played,
    /// The first contestant's score: 1, ½ or 0.
    pub score: f64,
}

impl GameReport {
    /// The game as a record (docs/records.md), tagged with the event, the round and the names of
    /// the first and the second contestant; a game stopped unfinished says why in a comment.
    #[must_use]
    pub fn record(&self, event: &str, first: &str, second: &str) -> Record {
        let game = &self.played.game;
        let mut rec = Record::new(game.clone());
        let (b, a) = if self.first_side == Player::B { (first, second) } else { (second, first) };
        rec.set_tag("Event", event);
        rec.set_tag("Round", &(self.index + 1).to_string());
        rec.set_tag("B", b);
        rec.set_tag("A", a);
        let plies = game.moves().len();
        match self.played.ending {
            Ending::Finished => {}
            Ending::Adjudicated(w) => rec
                .comments
                .push((plies, format!("adjudicated: {w} has captured more than half of the stones"))),
            Ending::Capped => rec.comments.push((plies, format!("stopped after {plies} moves"))),
        }
        rec
    }
}

/// What one contestant spent and lost over a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoleStats {
    /// Thinking time.
    pub time: Duration,
    /// Moves chosen.
    pub moves: u32,
    /// Games lost on time.
    pub forfeits: u32,
}

impl RoleStats {
    /// Average thinking time a move, in milliseconds (0 before any move).
    #[must_use]
    pub fn ms_per_move(&self) -> f64 {
        if self.moves == 0 { 0.0 } else { self.time.as_secs_f64() * 1000.0 / f64::from(self.moves) }
    }
}

/// A match's results so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Wins, draws and losses of the first contestant.
    pub tally: Tally,
    /// The SPRT's verdict so far ([`Verdict::Continue`] without one).
    pub verdict: Verdict,
    /// Games won by B, the side moving first in each opening.
    pub b_wins: u32,
    /// Games stopped at the move cap.
    pub capped: u32,
    /// Games stopped once decided.
    pub adjudicated: u32,
    /// The first contestant's figures.
    pub first: RoleStats,
    /// The second contestant's figures.
    pub second: RoleStats,
}

impl Default for Summary {
    fn default() -> Self {
        Summary {
            tally: Tally::default(),
            verdict: Verdict::Continue,
            b_wins: 0,
            capped: 0,
            adjudicated: 0,
            first: RoleStats::default(),
            second: RoleStats::default(),
        }
    }
}

impl Summary {
    /// Counts one game in.
    pub fn add(&mut self, r: &GameReport) {
        let (game, first, second) = (&r.played.game, r.first_side, r.first_side.other());
        self.tally.add(r.score);
        for (stats, side) in [(&mut self.first, first), (&mut self.second, second)] {
            stats.time += r.played.time[side];
            stats.moves += r.played.moves[side];
            if game.result().is_some_and(|x| x.termination == Termination::TimeForfeit(side)) {
                stats.forfeits += 1;
            }
        }
        if score_for(game, Player::B) > 0.75 {
            self.b_wins += 1;
        }
        match r.played.ending {
            Ending::Finished => {}
            Ending::Adjudicated(_) => self.adjudicated += 1,
            Ending::Capped => self.capped += 1,
        }
    }
}

/// Makes a fresh contestant for one game: its role, and a seed for its chance.
pub type Maker<'a> = dyn Fn(Role, u64) -> Result<Box<dyn Contestant>, ContestantError> + Sync + 'a;

/// The seeds of the two contestants of game `index`: distinct for every game and both roles.
fn seeds(seed: u64, index: usize) -> (u64, u64) {
    let s = seed ^ (index as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (s, s.rotate_left(17) ^ 0x5eed)
}

/// Plays game `index`: opening `index / 2` (cycling through `openings`), the first contestant
/// as B in even games and as A in odd ones.
fn play_one(
    openings: &[Position],
    config: &MatchConfig,
    make: &Maker<'_>,
    index: usize,
) -> Result<GameReport, ArenaError> {
    let opening = openings[(index / 2) % openings.len()];
    let first_side = if index % 2 == 0 { Player::B } else { Player::A };
    let (s1, s2) = seeds(config.seed, index);
    let mut first = make(Role::First, s1).map_err(ArenaError::Start)?;
    let mut second = make(Role::Second, s2).map_err(ArenaError::Start)?;
    let contestants: [&mut dyn Contestant; 2] =
        if first_side == Player::B { [&mut *first, &mut *second] } else { [&mut *second, &mut *first] };
    let played = play_game(contestants, opening, &config.rules)?;
    let score = score_for(&played.game, first_side);
    Ok(GameReport { index, first_side, played, score })
}

/// How far the games being played may run ahead of the first unreported one, in games a thread:
/// finished games wait in memory for their turn to be reported, so this bounds that memory.
const AHEAD_PER_THREAD: usize = 8;

/// What the match's threads share: the next game to start, the finished games that wait for
/// those before them, and what has been reported.
struct Shared<F, E> {
    next: usize,
    waiting: BTreeMap<usize, Result<GameReport, ArenaError>>,
    reported: usize,
    stopped: bool,
    summary: Summary,
    on_game: F,
    error: Option<E>,
}

impl<F: FnMut(&GameReport, &Summary) -> Result<(), E>, E: From<ArenaError>> Shared<F, E> {
    /// Reports the finished games that no unfinished game precedes, in round order; stops the
    /// match at the first error or once the SPRT decides.
    fn report_ready(&mut self, sprt: Option<Sprt>) {
        while !self.stopped {
            let Some(result) = self.waiting.remove(&self.reported) else { return };
            self.reported += 1;
            let report = match result {
                Ok(r) => r,
                Err(e) => {
                    self.error = Some(e.into());
                    self.stopped = true;
                    return;
                }
            };
            self.summary.add(&report);
            if let Some(sprt) = sprt {
                self.summary.verdict = sprt.verdict(&self.summary.tally);
                self.stopped = self.summary.verdict != Verdict::Continue;
            }
            if let Err(e) = (self.on_game)(&report, &self.summary) {
                self.error = Some(e);
                self.stopped = true;
            }
        }
    }
}

/// Plays a match from `openings` (not empty) with contestants from `make`, `config.concurrency`
/// games at once. `on_game` hears of each game with the summary that includes it, one call at a
/// time and in round order, whatever order the games finish in. Each game depends only on its
/// number, the seed and the contestants, and the summary and the SPRT see the games in order, so
/// the results do not depend on the concurrency (except through time limits).
///
/// # Errors
/// The first error of a game ([`ArenaError`]) or of `on_game`, in round order; the match stops
/// there.
///
/// # Panics
/// When `openings` is empty.
pub fn play_match<E: From<ArenaError> + Send>(
    openings: &[Position],
    config: &MatchConfig,
    make: &Maker<'_>,
    on_game: impl FnMut(&GameReport, &Summary) -> Result<(), E> + Send,
) -> Result<Summary, E> {
    assert!(!openings.is_empty(), "a match needs an opening");
    let total = config.total_games();
    let threads = config.concurrency.clamp(1, total.max(1));
    let ahead = AHEAD_PER_THREAD * threads;
    let shared = Mutex::new(Shared {
        next: 0,
        waiting: BTreeMap::new(),
        reported: 0,
        stopped: false,
        summary: Summary::default(),
        on_game,
        error: None,
    });
    let turn = Condvar::new();
    let lock = || shared.lock().unwrap_or_else(PoisonError::into_inner);
    let worker = || {
        loop {
            let mut st = lock();
            while !st.stopped && st.next < total && st.next >= st.reported + ahead {
                st = turn.wait(st).unwrap_or_else(PoisonError::into_inner);
            }
            if st.stopped || st.next >= total {
                return;
            }
            let i = st.next;
            st.next += 1;
            drop(st);
            let report = play_one(openings, config, make, i);
            let mut st = lock();
            st.waiting.insert(i, report);
            st.report_ready(config.sprt);
            drop(st);
            turn.notify_all();
        }
    };
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(worker);
        }
        worker();
    });
    let st = shared.into_inner().unwrap_or_else(PoisonError::into_inner);
    match st.error {
        Some(e) => Err(e),
        None => Ok(st.summary),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::{GameRules, Spec, random_openings};

    fn specs(
        first: &str,
        second: &str,
    ) -> impl Fn(Role, u64) -> Result<Box<dyn Contestant>, ContestantError> + Sync {
        let (f, s): (Spec, Spec) = (first.parse().unwrap(), second.parse().unwrap());
        move |role, seed| {
            let spec = if role == Role::First { &f } else { &s };
            Ok(spec.contestant(seed, None).expect("built in"))
        }
    }

    /// Every game's index, record text and score, in the order reported: round order.
    fn run(
        config: &MatchConfig,
        make: &Maker<'_>,
        openings: &[Position],
    ) -> (Summary, Vec<(usize, String, f64)>) {
        let mut games = Vec::new();
        let summary = play_match::<ArenaError>(openings, config, make, |r, _| {
            games.push((r.index, r.record("test", "one", "two").to_string(), r.score));
            Ok(())
        })
        .unwrap();
        assert!(games.iter().enumerate().all(|(i, g)| g.0 == i), "reported in round order");
        (summary, games)
    }

    #[test]
    fn a_match_is_the_same_whatever_the_concurrency() {
        let openings = random_openings(3, 4, 1, 5).unwrap();
        let make = specs("greedy", "random");
        let one = MatchConfig { games: 5, concurrency: 1, seed: 11, ..MatchConfig::default() };
        let (s1, g1) = run(&one, &make, &openings);
        let (s3, g3) = run(&MatchConfig { concurrency: 3, ..one }, &make, &openings);
        assert_eq!(g1.len(), 6, "five games round up to three openings both ways");
        assert_eq!(g1, g3);
        assert_eq!((s1.tally, s1.b_wins), (s3.tally, s3.b_wins));
        // The tally agrees with the games' scores, and each opening is played both ways round.
        let wins = g1.iter().filter(|g| g.2 == 1.0).count() as u32;
        assert_eq!(s1.tally.wins, wins);
        assert_eq!(s1.tally.games(), 6);
        let records: Vec<_> = g1.iter().map(|g| Record::parse(&g.1).unwrap()).collect();
        assert_eq!(records[0].game.start(), records[1].game.start());
        assert_eq!((records[0].tag("B"), records[1].tag("B")), (Some("one"), Some("two")));
        // Another seed plays other games.
        let (_, g) = run(&MatchConfig { seed: 12, ..one }, &make, &openings);
        assert_ne!(g, g1);
    }

    #[test]
    fn the_summary_counts_capped_games_and_thinking() {
        let rules = GameRules { max_moves: 4, ..GameRules::default() };
        let config = MatchConfig { games: 2, rules, ..MatchConfig::default() };
        let (s, g) = run(&config, &specs("random", "random"), &[Position::START]);
        assert_eq!((s.capped, s.adjudicated), (2, 0));
        assert_eq!((s.first.moves, s.second.moves), (4, 4), "two moves each a game, two games");
        assert!(g[0].1.contains("stopped after 4 moves"), "{}", g[0].1);
    }

    #[test]
    fn an_sprt_stops_a_lopsided_match() {
        let config = MatchConfig {
            games: 400,
            sprt: Some("0,100,0.05,0.05".parse().unwrap()),
            ..MatchConfig::default()
        };
        let openings = random_openings(4, 4, 2, 3).unwrap();
        let (s, g) = run(&config, &specs("greedy", "random"), &openings);
        assert_eq!(s.verdict, Verdict::H1);
        assert!(g.len() < 400 && g.len() == s.tally.games() as usize, "{}", g.len());
        // The test sees the games in round order, so it stops at the same game however many
        // are played at once.
        let (s3, g3) = run(&MatchConfig { concurrency: 3, ..config }, &specs("greedy", "random"), &openings);
        assert_eq!((s3.tally, g3), (s.tally, g));
    }

    #[test]
    fn the_first_error_ends_the_match() {
        let make = |_: Role, _: u64| -> Result<Box<dyn Contestant>, ContestantError> {
            Err("no such program".into())
        };
        let e = play_match::<ArenaError>(&[Position::START], &MatchConfig::default(), &make, |_, _| Ok(()))
            .unwrap_err();
        assert_eq!(e.to_string(), "no such program");
        // An error of the caller's own ends it too, after the first game.
        let mut calls = 0;
        let e = play_match::<ArenaError>(
            &[Position::START],
            &MatchConfig::default(),
            &specs("random", "random"),
            |_, _| {
                calls += 1;
                Err(ArenaError::Start("disk full".into()))
            },
        )
        .unwrap_err();
        assert_eq!((calls, e.to_string()), (1, "disk full".to_string()));
    }
}
