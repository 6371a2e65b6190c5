//! Game review against the endgame tables: inside the tables every judgement is the tables' own.

use std::sync::Arc;
use vlt_core::{Game, Player, Position};
use vlt_engine::{Class, Engine, EngineConfig, Limits, ReviewLimits, Stop, review_game};
use vlt_tablebase::Tablebase;
use vlt_tablebase::build::build_in_memory;

const TB_STONES: u32 = 12;

/// A game of random moves (a fixed sequence) from the start to the end: it gives stones away often.
fn random_game(seed: u64) -> Game {
    let mut g = Game::default();
    let mut x = seed;
    while !g.is_over() {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let m = g.position().legal_moves().pick(x);
        g.play(m).unwrap();
    }
    g
}

fn limits() -> ReviewLimits {
    ReviewLimits { per_move: Limits { depth: Some(3), ..Limits::default() } }
}

#[test]
fn moves_inside_the_tables_get_the_tables_losses_exactly() {
    let tb = Arc::new(Tablebase::from_layers(build_in_memory(TB_STONES)));
    let mut engine = Engine::new(EngineConfig { hash_mb: 4, ..EngineConfig::default() });
    engine.set_tablebase(Some(Arc::clone(&tb)));
    let mut inside = 0;
    let mut lossy = 0;
    for seed in 1..=4 {
        let game = random_game(seed);
        let mut calls = 0;
        let review = review_game(&mut engine, &game, &limits(), &Stop::new(), &mut |done, total| {
            assert_eq!(total, game.moves().len());
            assert_eq!(done, calls);
            calls += 1;
        });
        assert!(review.complete);
        assert_eq!(review.moves.len(), game.moves().len());
        assert_eq!(calls, game.moves().len() + 1);
        for (i, m) in review.moves.iter().enumerate() {
            let pos: Position = game.positions()[i];
            assert_eq!((m.ply, m.mv, m.player), (i + 1, game.moves()[i], pos.to_move()));
            assert_eq!(m.loss, m.best_value - m.played_value);
            assert_eq!(m.class, Class::of_loss(m.loss));
            if pos.stones_on_board() > TB_STONES {
                continue;
            }
            inside += 1;
            let values = tb.probe_moves(pos).unwrap();
            let best = values.iter().map(|&(_, v)| v).max().unwrap();
            let played = values.iter().find(|&&(x, _)| x == m.mv).unwrap().1;
            assert!(m.exact, "ply {} inside the tables is exact", m.ply);
            assert_eq!(
                (m.best_value, m.played_value, m.loss),
                (best, played, best - played),
                "ply {}",
                m.ply
            );
            assert_eq!(values.iter().find(|&&(x, _)| x == m.best).unwrap().1, best);
            lossy += usize::from(m.loss > 0);
        }
        // The last move's prediction is the final score: nothing is left to guess.
        let last = review.moves.last().unwrap();
        assert_eq!(last.eval_after, game.position().capture_diff(Player::B));
        for p in [Player::B, Player::A] {
            let s = &review.summary[p];
            assert_eq!(s.counts.total(), s.moves);
            assert_eq!(s.moves, review.moves.iter().filter(|m| m.player == p).count());
            assert!((0.0..=100.0).contains(&s.accuracy));
        }
    }
    assert!(inside >= 15, "random games end inside 12-stone tables: {inside} moves there");
    assert!(lossy > 0, "random moves give stones away inside the tables");
}

#[test]
fn a_stopped_review_says_so() {
    let mut engine = Engine::new(EngineConfig { hash_mb: 4, ..EngineConfig::default() });
    let stop = Stop::new();
    stop.stop();
    let game = random_game(7);
    let review = review_game(&mut engine, &game, &limits(), &stop, &mut |_, _| {});
    assert!(!review.complete);
    assert!(review.moves.is_empty());
}

#[test]
fn perfect_moves_are_best_and_score_full_accuracy() {
    // Both sides play the tables' moves from a small study position: every move is best.
    let tb = Arc::new(Tablebase::from_layers(build_in_memory(8)));
    let mut game = Game::new("1,0,2,0,1,0/0,3,0,0,1,0 B 26 26".parse().unwrap());
    while !game.is_over() {
        let (m, _) = tb.best_move(game.position()).unwrap();
        game.play(m).unwrap();
    }
    let mut engine = Engine::new(EngineConfig { hash_mb: 4, ..EngineConfig::default() });
    engine.set_tablebase(Some(tb));
    let review = review_game(&mut engine, &game, &limits(), &Stop::new(), &mut |_, _| {});
    assert!(review.moves.iter().all(|m| m.class == Class::Best && m.exact && m.loss == 0));
    assert_eq!(review.summary.b.accuracy, 100.0);
    assert_eq!(review.start_eval, game.position().capture_diff(Player::B));
}
