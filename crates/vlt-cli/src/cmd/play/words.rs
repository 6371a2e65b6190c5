//! The game in words, for the full screen and the plain mode alike: names of the players, what a
//! move did, the result, the replay's caption. Every sentence comes from the catalogue.

use super::setup::{Opponent, Setup};
use crate::i18n::Catalog;
use vlt_core::{ByPlayer, Game, GameResult, Move, MoveOutcome, Player, Termination};

/// A number with its sign, for scores: `+3`, `-2`, `0`.
pub fn signed(n: i32) -> String {
    if n > 0 { format!("+{n}") } else { n.to_string() }
}

/// The name of a player for a setup.
pub fn player_name(cat: &Catalog, setup: &Setup, p: Player) -> String {
    match setup.opponent {
        Opponent::Computer(_) if p == setup.human => cat.f("name_you", &[("p", &p)]),
        Opponent::Computer(_) => cat.f("name_computer", &[("p", &p)]),
        Opponent::Human => cat.f("name_player", &[("p", &p)]),
    }
}

/// What a move did, in words: the sowing, the capture (R4), a pass (R5), the end (R6, R7).
pub fn describe_move(cat: &Catalog, setup: &Setup, game: &Game, mv: Move, o: MoveOutcome) -> String {
    let who = player_name(cat, setup, o.mover);
    let mut s = cat.f("moved", &[("who", &who), ("move", &mv), ("n", &o.sowing.stones)]);
    if !o.capture.is_empty() {
        let holes: Vec<String> = o.capture.holes().map(|h| h.to_string()).collect();
        s.push(' ');
        s.push_str(&cat.f("captured", &[("n", &o.capture.stones), ("holes", &holes.join(" "))]));
    }
    if o.opponent_passes && !o.game_over {
        s.push(' ');
        s.push_str(&cat.f("passes", &[("who", &player_name(cat, setup, o.mover.other())), ("mover", &who)]));
    }
    if let Some(r) = game.result() {
        s.push(' ');
        s.push_str(&result_text(cat, setup, game, r));
    }
    s
}

/// The result in words (R6, R7, resignation).
pub fn result_text(cat: &Catalog, setup: &Setup, game: &Game, r: GameResult) -> String {
    let why = match r.termination {
        Termination::EmptyBoard => cat.t("end_empty"),
        Termination::Repetition => cat.n("end_repetition", u64::from(game.position().stones_on_board()), &[]),
        Termination::Resignation(p) => cat.f("end_resigned", &[("who", &player_name(cat, setup, p))]),
        Termination::TimeForfeit(p) => cat.f("end_time", &[("who", &player_name(cat, setup, p))]),
        _ => String::new(),
    };
    let score = ByPlayer::new(r.score.b, r.score.a);
    let verdict = match r.winner {
        // A resignation decides the game whatever the captures: they are said as they stood.
        Some(p) if matches!(r.termination, Termination::Resignation(_)) => {
            cat.f("wins_resigned", &[("who", &player_name(cat, setup, p)), ("b", &score.b), ("a", &score.a)])
        }
        Some(p) => cat.f("wins", &[("who", &player_name(cat, setup, p)), ("b", &score.b), ("a", &score.a)]),
        None => cat.f("draw", &[("b", &score.b), ("a", &score.a)]),
    };
    format!("{why} {verdict}")
}

/// The replay's caption after `ply` moves.
pub fn replay_text(cat: &Catalog, setup: &Setup, game: &Game, ply: usize) -> String {
    let total = game.moves().len();
    let head = cat.f("replay_at", &[("ply", &ply), ("total", &total)]);
    if ply == 0 {
        return format!("{head} {}", cat.t("replay_start"));
    }
    let pos = game.positions()[ply];
    let mut g = game.clone();
    while g.moves().len() > ply {
        g.undo();
    }
    let text = describe_move(cat, setup, &g, game.moves()[ply - 1], game.outcomes()[ply - 1]);
    let _ = pos;
    format!("{head} {text}")
}
