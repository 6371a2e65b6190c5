//! Search correctness: exact values against a slow brute-force oracle, R7 repetition scoring with
//! the game's history, determinism, limits, levels.

use std::collections::HashMap;
use std::time::Duration;
use vlt_core::playout::SplitMix64;
use vlt_core::{ByPlayer, Game, Move, Player, Position};
use vlt_engine::{Engine, EngineConfig, Level, Limits, Stop};

/// The exact future capture difference for the player to move, by plain memoised negamax over
/// every line (R3–R6). Only for positions of at most 8 stones: R7 says the smallest cycles need 9,
/// so with fewer no position can repeat and the game graph has no cycle (asserted).
fn oracle(pos: Position, memo: &mut HashMap<u128, Option<i32>>) -> i32 {
    if pos.is_game_over() {
        return 0;
    }
    let key = pos.repetition_key();
    match memo.get(&key) {
        Some(Some(v)) => return *v,
        Some(None) => panic!("a cycle with at most 8 stones: {pos}"),
        None => {}
    }
    memo.insert(key, None);
    let me = pos.to_move();
    let best = pos
        .legal_moves()
        .map(|m| {
            let (c, k) = pos.play_counting(m);
            let rest = oracle(c, memo);
            i32::from(k) + if c.to_move() == me && !c.is_game_over() { rest } else { -rest }
        })
        .max()
        .expect("a position that is not over has a move");
    memo.insert(key, Some(best));
    best
}

fn random_small_position(rng: &mut SplitMix64, max_stones: u32) -> Position {
    let stones = 1 + rng.below(max_stones);
    let mut board = [0u8; 12];
    for _ in 0..stones {
        board[rng.below(12) as usize] += 1;
    }
    let to_move = if rng.below(2) == 0 { Player::B } else { Player::A };
    let rest = 60 - stones as u8;
    Position::new(board, to_move, ByPlayer::new(rest / 2, rest - rest / 2)).expect("60 stones")
}

fn search(engine: &mut Engine, game: &Game, limits: Limits) -> vlt_engine::SearchResult {
    engine.search(game, &limits, &Stop::new(), &mut |_| {}).expect("the game is not over")
}

fn depth(d: u32) -> Limits {
    Limits { depth: Some(d), ..Limits::default() }
}

/// With few stones a deep search is a proof: its score is the oracle's exact value, and so is the
/// value of the move it plays; every move's analysed score matches the oracle too.
#[test]
fn exact_values_match_the_brute_force_oracle() {
    let mut rng = SplitMix64(2024);
    let mut memo = HashMap::new();
    let mut engine = Engine::new(EngineConfig { hash_mb: 4, ..EngineConfig::default() });
    let mut nonzero = 0;
    for _ in 0..150 {
        let pos = random_small_position(&mut rng, 8);
        if pos.is_game_over() {
            continue;
        }
        let want = oracle(pos, &mut memo);
        nonzero += usize::from(want != 0);
        let game = Game::new(pos);
        let r = search(&mut engine, &game, depth(100));
        assert!(r.info.exact, "{pos}: a deep search of a small position is a proof");
        assert_eq!(r.info.score, want, "{pos}");
        let a = engine.analyse(&game, &depth(100), &Stop::new(), &mut |_| {}).unwrap();
        for (m, s) in a.moves {
            let (c, k) = pos.play_counting(m);
            let rest = oracle(c, &mut memo);
            let v =
                i32::from(k) + if c.to_move() == pos.to_move() && !c.is_game_over() { rest } else { -rest };
            assert_eq!(s, v, "{pos} move {m}");
        }
    }
    assert!(nonzero > 20, "the sample should contain decisive positions");
}

/// Where one move is strictly best (by the oracle), the search plays it: both immediate captures
/// and quiet moves that force a capture later (R4).
#[test]
fn finds_forced_captures() {
    let mut rng = SplitMix64(77);
    let mut memo = HashMap::new();
    let mut engine = Engine::new(EngineConfig { hash_mb: 4, ..EngineConfig::default() });
    let (mut quiet, mut capturing) = (0, 0);
    for _ in 0..3000 {
        let pos = random_small_position(&mut rng, 8);
        if pos.is_game_over() {
            continue;
        }
        let me = pos.to_move();
        let mut values: Vec<(Move, i32, u8)> = pos
            .legal_moves()
            .map(|m| {
                let (c, k) = pos.play_counting(m);
                let rest = oracle(c, &mut memo);
                (m, i32::from(k) + if c.to_move() == me && !c.is_game_over() { rest } else { -rest }, k)
            })
            .collect();
        values.sort_by_key(|v| -v.1);
        if values.len() < 2 || values[0].1 == values[1].1 || values[0].1 < 1 {
            continue;
        }
        let r = search(&mut engine, &Game::new(pos), depth(100));
        assert_eq!(r.best, values[0].0, "{pos}: {values:?}");
        if values[0].2 == 0 {
            quiet += 1;
        } else {
            capturing += 1;
        }
    }
    assert!(quiet >= 5 && capturing >= 20, "quiet {quiet}, capturing {capturing}");
}

/// R7: a position already seen in the game scores as no further captures. The 9-stone cycle of R7,
/// played once round: the move that continues the cycle leads to a position the game has seen.
#[test]
fn repetition_in_the_game_history_scores_zero() {
    let start: Position = "1,0,1,0,1,0/1,2,0,1,2,0 A 25 26".parse().unwrap();
    let cycle = ["5A", "1B", "2A", "3B", "4A", "5B", "6A", "2B", "1A", "4B", "3A", "6B"];
    let mut game = Game::new(start);
    for m in cycle {
        game.play(m.parse().unwrap()).unwrap();
    }
    assert_eq!(game.position(), start);
    assert_eq!(game.repetitions(), 2);
    let five_a: Move = "5A".parse().unwrap();
    let mut engine = Engine::new(EngineConfig::default());
    for d in [1, 2, 6] {
        let r = engine.analyse(&game, &depth(d), &Stop::new(), &mut |_| {}).unwrap();
        let s = r.moves.iter().find(|(m, _)| *m == five_a).unwrap().1;
        assert_eq!(s, 0, "depth {d}: 5A repeats a position of the game (R7)");
    }
    // Without the history the same move is valued by search, not by R7: the deep, proven value of
    // the fresh position must still be a sound bound on what the repeating game can get.
    let fresh = engine.analyse(&Game::new(start), &depth(30), &Stop::new(), &mut |_| {}).unwrap();
    let hist = engine.analyse(&game, &depth(30), &Stop::new(), &mut |_| {}).unwrap();
    // Repeating is always available to the side that wants it, so neither value can be below 0 for
    // the mover if the cycle's continuation is its best; both scores are finite stones.
    assert!(fresh.info.score.abs() <= 9 && hist.info.score.abs() <= 9);
}

/// One thread, same input: same move, score, pv and node count.
#[test]
fn deterministic_with_one_thread() {
    let game = Game::new("3,0,8,2,1,6/0,4,1,9,2,3 B 10 11".parse().unwrap());
    let run = || {
        let mut e = Engine::new(EngineConfig { hash_mb: 8, ..EngineConfig::default() });
        let r = search(&mut e, &game, depth(12));
        (r.best, r.info.score, r.info.pv.clone(), r.info.nodes, r.moves.clone())
    };
    assert_eq!(run(), run());
    let mut e1 = Engine::new(EngineConfig::default());
    let mut e2 = Engine::new(EngineConfig::default());
    for seed in 0..5 {
        assert_eq!(
            e1.play_level(&game, Level::new(2).unwrap(), seed),
            e2.play_level(&game, Level::new(2).unwrap(), seed)
        );
    }
}

#[test]
fn limits_are_respected() {
    let game = Game::default();
    let mut e = Engine::new(EngineConfig { hash_mb: 8, ..EngineConfig::default() });
    let r = search(&mut e, &game, depth(7));
    assert_eq!(r.info.depth, 7);
    assert_eq!(r.info.pv.len(), 7);
    e.clear();
    let r = search(&mut e, &game, Limits { nodes: Some(5000), ..Limits::default() });
    assert!(r.info.nodes <= 5000, "{} nodes", r.info.nodes);
    assert!(game.position().legal_moves().contains(r.best));
    // Stopped before it starts: still a legal move, from the first iteration only.
    let stop = Stop::new();
    stop.stop();
    let r = e.search(&game, &Limits::default(), &stop, &mut |_| {}).unwrap();
    assert_eq!(r.info.depth, 1);
    // A time limit ends the search (no assertion on how long it took).
    let r = search(&mut e, &game, Limits { movetime: Some(Duration::from_millis(30)), ..Limits::default() });
    assert!(r.info.depth >= 1);
    // A least depth outlasts the time limit: 1 ms a move still finishes 10 plies (level 10's floor).
    e.clear();
    let floor = Limits { movetime: Some(Duration::from_millis(1)), min_depth: Some(10), ..Limits::default() };
    assert!(search(&mut e, &game, floor).info.depth >= 10);
    // Progress is reported once per iteration, depths increasing.
    let mut seen = Vec::new();
    e.search(&game, &depth(5), &Stop::new(), &mut |i| seen.push(i.depth)).unwrap();
    assert_eq!(seen, vec![1, 2, 3, 4, 5]);
}

/// A fixed time a move is spent: iterations start until 85 % of it is used (a cut-off one still
/// answers), so a search that proves nothing never returns before that share, whatever the load.
#[test]
fn a_fixed_movetime_is_spent_to_its_last_start() {
    let game = Game::default(); // 60 stones: nothing is proven within the time
    let mut e = Engine::new(EngineConfig { hash_mb: 8, ..EngineConfig::default() });
    let movetime = Duration::from_millis(200);
    let t = std::time::Instant::now();
    let r = search(&mut e, &game, Limits { movetime: Some(movetime), ..Limits::default() });
    let spent = t.elapsed();
    assert!(!r.info.exact);
    assert!(spent >= movetime * 85 / 100, "returned after {spent:?} of {movetime:?}");
}

#[test]
fn no_result_when_the_game_is_over() {
    let over = Game::new("0,0,0,0,0,0/0,0,0,0,0,0 B 30 30".parse().unwrap());
    let mut e = Engine::new(EngineConfig::default());
    assert!(e.search(&over, &depth(3), &Stop::new(), &mut |_| {}).is_none());
}

#[test]
fn every_level_plays_legal_moves() {
    let mut e = Engine::new(EngineConfig { hash_mb: 8, ..EngineConfig::default() });
    let mut rng = SplitMix64(9);
    for n in 1..=10u8 {
        let level = Level::new(n).unwrap();
        let mut game = Game::default();
        // The deep levels are slow in debug builds: a few moves show they work.
        let moves = match n {
            10 => 1,
            7..=9 => 3,
            _ => 12,
        };
        for _ in 0..moves {
            if game.is_over() {
                break;
            }
            let m = e.play_level(&game, level, rng.next_u64());
            game.play(m).unwrap_or_else(|err| panic!("level {n}: {err}"));
        }
    }
}

#[test]
fn the_lowest_level_is_not_random_but_not_perfect() {
    // Level 1 takes a free capture of 5 stones almost always, yet varies its moves elsewhere.
    let mut e = Engine::new(EngineConfig { hash_mb: 4, ..EngineConfig::default() });
    let start = Game::default();
    let firsts: std::collections::HashSet<Move> =
        (0..40).map(|s| e.play_level(&start, Level::MIN, s)).collect();
    assert!(firsts.len() > 1, "level 1 should vary its play");
}

#[test]
fn engine_is_send() {
    fn is_send<T: Send>() {}
    is_send::<Engine>();
}

#[test]
fn two_threads_give_a_legal_move() {
    let game = Game::new("3,0,8,2,1,6/0,4,1,9,2,3 B 10 11".parse().unwrap());
    let mut e = Engine::new(EngineConfig { hash_mb: 8, threads: 2, ..EngineConfig::default() });
    let r = search(&mut e, &game, depth(10));
    assert!(game.position().legal_moves().contains(r.best));
    assert_eq!(r.info.depth, 10);
}

/// Lazy SMP: helpers search ahead of the main thread, but a proven value is the same however many
/// threads found it, and no thread goes past the depth limit.
#[test]
fn more_threads_prove_the_same_value() {
    // 7 stones: small enough that the search ends with every line finished (R6) or repeated (R7).
    let game = Game::new("0,2,0,1,0,0/1,0,0,2,1,0 B 20 33".parse().unwrap());
    let mut one = Engine::new(EngineConfig { hash_mb: 8, threads: 1, ..EngineConfig::default() });
    let r1 = search(&mut one, &game, depth(60));
    assert!(r1.info.exact);
    for threads in [2, 3, 4] {
        let mut e = Engine::new(EngineConfig { hash_mb: 8, threads, ..EngineConfig::default() });
        let r = search(&mut e, &game, depth(60));
        assert!(r.info.exact, "{threads} threads");
        assert_eq!(r.info.score, r1.info.score, "{threads} threads");
        assert!(r.info.depth <= 60);
    }
    let mut e = Engine::new(EngineConfig { hash_mb: 8, threads: 4, ..EngineConfig::default() });
    let r = search(&mut e, &Game::default(), depth(7));
    assert_eq!(r.info.depth, 7, "the deepest thread's answer, never past the limit");
}

/// MCTS: same seed and iteration limit, same result; it plays legal moves; it respects the limit.
#[test]
fn mcts_is_deterministic_and_legal() {
    use vlt_engine::Algorithm;
    let game = Game::new("3,0,8,2,1,6/0,4,1,9,2,3 B 10 11".parse().unwrap());
    let cfg = EngineConfig { hash_mb: 1, algorithm: Algorithm::Mcts, ..EngineConfig::default() };
    let limits = Limits { nodes: Some(3000), ..Limits::default() };
    let run = || {
        let mut e = Engine::new(cfg);
        let r = search(&mut e, &game, limits);
        (r.best, r.info.nodes, r.info.pv.clone(), r.moves.clone())
    };
    let (best, nodes, pv, moves) = run();
    assert_eq!(run(), (best, nodes, pv.clone(), moves.clone()));
    assert_eq!(nodes, 3000);
    assert!(game.position().legal_moves().contains(best));
    assert_eq!(pv[0], best);
    assert_eq!(moves.len(), game.position().legal_moves().len());
}

/// MCTS sees a big free capture: the 4-stone chain of 1B here (R4) with nothing to fear after it.
#[test]
fn mcts_takes_a_big_capture() {
    use vlt_engine::Algorithm;
    // 1B sows 2B..5B; the last stone falls into the empty 5B and the chain takes 5B, 4B, 3B, 2B.
    let pos: Position = "4,0,0,0,0,0/0,0,0,9,0,0 B 20 27".parse().unwrap();
    let caps: Vec<u8> = pos.legal_moves().map(|m| pos.play_counting(m).1).collect();
    assert_eq!(caps, vec![4]);
    let pos: Position = "4,0,0,0,0,3/0,0,0,9,0,0 B 20 24".parse().unwrap();
    let cfg = EngineConfig { hash_mb: 1, algorithm: Algorithm::Mcts, ..EngineConfig::default() };
    let mut e = Engine::new(cfg);
    let r = search(&mut e, &Game::new(pos), Limits { nodes: Some(20_000), ..Limits::default() });
    let mut ab = Engine::new(EngineConfig::default());
    let want = search(&mut ab, &Game::new(pos), depth(60));
    assert!(want.info.exact);
    assert_eq!(r.best, want.best, "MCTS {:?} vs alpha-beta {:?}", r.moves, want.moves);
}

/// With endgame tables the engine's values are the tables' exact values (R7 included), at the root
/// (straight from the tables) and above them (the search probes at its leaves).
#[test]
fn tablebase_values_are_exact() {
    use std::sync::Arc;
    use vlt_tablebase::{Tablebase, build::build_in_memory};
    let tb = Arc::new(Tablebase::from_layers(build_in_memory(9)));
    let mut e = Engine::new(EngineConfig { hash_mb: 4, ..EngineConfig::default() });
    e.set_tablebase(Some(tb.clone()));
    let mut rng = SplitMix64(5);
    let mut memo = HashMap::new();
    for _ in 0..60 {
        // Inside the tables: the root result comes from them.
        let pos = random_small_position(&mut rng, 9);
        if pos.is_game_over() {
            continue;
        }
        let r = search(&mut e, &Game::new(pos), depth(3));
        assert!(r.info.exact);
        assert_eq!(r.info.score, tb.probe(pos).unwrap(), "{pos}");
        // With several best moves, the one played is the one the PV starts with.
        assert_eq!(r.info.pv.first(), Some(&r.best), "{pos}: {:?}", r.moves);
        if pos.stones_on_board() <= 8 {
            assert_eq!(r.info.score, oracle(pos, &mut memo), "{pos}: tables and oracle agree");
        }
    }
    // Just above the tables (10-11 stones): a deep search is exact, and equals the value computed
    // from the tables one move down.
    let mut checked = 0;
    for _ in 0..200 {
        let pos = random_small_position(&mut rng, 11);
        if pos.stones_on_board() <= 9 || pos.is_game_over() {
            continue;
        }
        let below: Option<i32> = pos
            .legal_moves()
            .map(|m| {
                let (c, k) = pos.play_counting(m);
                if k == 0 {
                    return None;
                }
                let v = tb.probe(c)?;
                Some(i32::from(k) + if c.to_move() == pos.to_move() && !c.is_game_over() { v } else { -v })
            })
            .collect::<Option<Vec<i32>>>()
            .and_then(|v| v.into_iter().max());
        // Only where every move captures, so every child is in the tables and no R7 cycle can
        // start at the root.
        let Some(want) = below else { continue };
        let r = search(&mut e, &Game::new(pos), depth(2));
        assert!(r.info.exact, "{pos}");
        assert_eq!(r.info.score, want, "{pos}");
        checked += 1;
    }
    assert!(checked > 0, "some positions where every move captures");
}

/// The bench signature (STYLE idiom 6): the node count of the fixed benchmark. A change to the
/// search or the evaluation that changes it must say so in its commit and update this number.
#[test]
fn bench_signature() {
    let r = vlt_engine::bench(vlt_engine::BENCH_DEPTH);
    assert_eq!(r.nodes, 1_014_388);
}

/// The optional quiescence search keeps proofs exact (it only runs at the horizon) and plays legal
/// moves from a shallow horizon, where it does run.
#[test]
fn quiescence_keeps_results_sound() {
    let mut rng = SplitMix64(31);
    let mut memo = HashMap::new();
    let mut e = Engine::new(EngineConfig { hash_mb: 4, ..EngineConfig::default() });
    e.set_quiescence(true);
    for _ in 0..40 {
        let pos = random_small_position(&mut rng, 8);
        if pos.is_game_over() {
            continue;
        }
        let r = search(&mut e, &Game::new(pos), depth(100));
        assert_eq!(r.info.score, oracle(pos, &mut memo), "{pos}");
        let r = search(&mut e, &Game::new(pos), depth(1));
        assert!(pos.legal_moves().contains(r.best));
    }
    let game = Game::new("3,0,8,2,1,6/0,4,1,9,2,3 B 10 11".parse().unwrap());
    let r = search(&mut e, &game, depth(6));
    assert!(game.position().legal_moves().contains(r.best));
}

/// Playing endgames perfectly needs more than picking a best move: a player that keeps picking
/// value-preserving quiet moves could go round a cycle until R7 ends the game with no further
/// captures, and a won position would be drawn. The engine plays both sides of games from
/// positions inside 12-stone tables (random ones of 9–12 stones, where quiet cycles exist, and
/// one on RULES.md's R7 cycle, worth +3), and every game ends with the capture difference the
/// tables promised at the start. (Exhaustively over 9–12 stones, with 18-stone tables, no such
/// game ends by repetition at all.)
#[test]
fn perfect_play_from_the_tables_realises_their_value() {
    use std::sync::Arc;
    use vlt_tablebase::{Tablebase, build::build_in_memory};
    let tb = Arc::new(Tablebase::from_layers(build_in_memory(12)));
    let mut e = Engine::new(EngineConfig { hash_mb: 1, ..EngineConfig::default() });
    e.set_tablebase(Some(tb.clone()));
    let mut rng = SplitMix64(12);
    let r7: Position = "1,0,1,0,1,0/1,2,0,1,2,0 A 25 26".parse().expect("RULES.md R7 example");
    let random =
        std::iter::repeat_with(|| random_small_position(&mut rng, 12)).filter(|p| p.stones_on_board() >= 9);
    for pos in std::iter::once(r7).chain(random.take(400)) {
        let want = tb.probe(pos).expect("inside the tables");
        let mover = pos.to_move();
        let mut game = Game::new(pos);
        while !game.is_over() {
            let r = search(&mut e, &game, depth(1));
            game.play(r.best).expect("a legal move");
        }
        let got = game.position().capture_diff(mover) - pos.capture_diff(mover);
        let result = game.result().expect("over");
        assert_eq!(got, want, "{pos}: the tables promise {want}, the game ended {got}: {result:?}");
    }
}
