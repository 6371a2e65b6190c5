//! Property tests of the rules (proptest): conservation, the 12/13-stone facts of R4, bounds,
//! random games that end (R6, R7), notation round trips and parsers that never panic.

use proptest::prelude::*;
use vlt_core::playout::{SplitMix64, random_playout};
use vlt_core::{ByPlayer, Game, Hole, Move, Player, Position, Record, Termination};

/// Any valid position: up to 60 stones spread over the board and the captures.
fn position() -> impl Strategy<Value = Position> {
    (prop::collection::vec(0u8..=60, 14), any::<bool>(), 0u32..=60).prop_map(|(raw, a, budget)| {
        let mut left = budget;
        let mut take = |x: u8| {
            let n = u32::from(x).min(left);
            left -= n;
            n as u8
        };
        let mut board = [0u8; 12];
        for (i, slot) in board.iter_mut().enumerate() {
            *slot = take(raw[i]);
        }
        let captured = ByPlayer::new(take(raw[12]), take(raw[13]));
        let to_move = if a { Player::A } else { Player::B };
        Position::new(board, to_move, captured).expect("at most 60 stones")
    })
}

fn total(p: Position) -> u32 {
    p.stones_on_board() + u32::from(p.captured(Player::B)) + u32::from(p.captured(Player::A))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// R3, R4: a move moves stones or captures them; none appear or vanish.
    #[test]
    fn stones_are_conserved(p in position(), i in 0usize..6) {
        if let Some(mv) = p.legal_moves().nth_move(i % p.legal_moves().len().max(1)) {
            let (after, o) = p.play_traced(mv).unwrap();
            prop_assert_eq!(total(after), total(p));
            prop_assert_eq!(after.captured(o.mover), p.captured(o.mover) + o.capture.stones);
            prop_assert_eq!(after.captured(o.mover.other()), p.captured(o.mover.other()));
        }
    }

    /// R4: a hole of exactly 12 stones always captures, one of 13 or more never does.
    #[test]
    fn twelve_captures_thirteen_never(p in position(), hole in 0usize..6, extra in 0u8..=8) {
        let mut board = p.board();
        let mover = p.to_move();
        let h = Hole::new(mover, hole as u8 + 1).unwrap();
        let n = 12 + extra;
        let others: u32 = board.iter().enumerate().filter(|&(i, _)| i != h.index()).map(|(_, &c)| u32::from(c)).sum();
        prop_assume!(others + u32::from(n) <= 60);
        board[h.index()] = n;
        let p = Position::new(board, mover, ByPlayer::default()).unwrap();
        let (_, o) = p.play_traced(Move(h)).unwrap();
        if n == 12 {
            prop_assert!(o.capture.stones >= 1);
            prop_assert_eq!(o.capture.last, h);
        } else {
            prop_assert_eq!(o.capture.stones, 0);
        }
    }

    /// R3–R5, N3: counts stay within bounds and the result is a valid position whose mover can
    /// move unless the board is empty; captured holes are empty afterwards.
    #[test]
    fn moves_keep_positions_valid(p in position()) {
        for mv in p.legal_moves() {
            let (after, o) = p.play_traced(mv).unwrap();
            let (fast, taken, next_moves) = p.play_with_moves(mv);
            prop_assert_eq!((fast, taken), (after, o.capture.stones));
            // The moves the fast path hands on are the slow path's: holes of the mover with stones.
            let slow: Vec<Move> = Hole::ALL
                .into_iter()
                .filter(|h| h.owner() == after.to_move() && after.stones(*h) > 0 && !after.is_game_over())
                .map(Move)
                .collect();
            prop_assert_eq!(next_moves.collect::<Vec<_>>(), slow.clone());
            prop_assert_eq!(after.legal_moves().collect::<Vec<_>>(), slow);
            prop_assert!(after.board().iter().all(|&c| c <= 60));
            prop_assert!(total(after) <= 60);
            prop_assert!(after.is_game_over() || !after.legal_moves().is_empty());
            for h in o.capture.holes() {
                prop_assert_eq!(after.stones(h), 0);
            }
            prop_assert!(o.capture.stones as usize <= 12);
            prop_assert_eq!(after.to_string().parse::<Position>().unwrap(), after);
            // The slow description agrees with the fast move: replay the sowing hole by hole.
            let mut board = p.board();
            board[mv.hole().index()] = 0;
            for h in o.sowing.holes() {
                board[h.index()] += 1;
            }
            for h in o.capture.holes() {
                prop_assert_eq!(board[h.index()], 1);
                board[h.index()] = 0;
            }
            prop_assert_eq!(board, after.board());
        }
    }

    /// N2: a position string reads back to the same position.
    #[test]
    fn position_strings_round_trip(p in position()) {
        let s = p.to_string();
        prop_assert_eq!(s.parse::<Position>().unwrap().to_string(), s);
    }

    /// R6, R7: random games from the start end (empty board or third occurrence), and the result
    /// follows the captures.
    #[test]
    fn random_games_end_with_the_right_result(seed in any::<u64>()) {
        let mut rng = SplitMix64(seed);
        let mut game = Game::default();
        while !game.is_over() {
            let legal = game.position().legal_moves();
            prop_assert!(!legal.is_empty());
            let mv = legal.nth_move(rng.below(legal.len() as u32) as usize).unwrap();
            game.play(mv).unwrap();
            prop_assert!(game.moves().len() < 100_000);
        }
        let r = game.result().unwrap();
        let end = game.position();
        match r.termination {
            Termination::EmptyBoard => prop_assert!(end.is_game_over()),
            Termination::Repetition => prop_assert_eq!(game.repetitions(), 3),
            other => prop_assert!(false, "unexpected termination {:?}", other),
        }
        let (b, a) = (end.captured(Player::B), end.captured(Player::A));
        prop_assert_eq!(r.score, ByPlayer::new(b, a));
        prop_assert_eq!(r.winner, match b.cmp(&a) {
            std::cmp::Ordering::Greater => Some(Player::B),
            std::cmp::Ordering::Less => Some(Player::A),
            std::cmp::Ordering::Equal => None,
        });
        // The fast playout plays the same rules: same seed, same game length and end.
        let mut rng = SplitMix64(seed);
        let mut keys = Vec::new();
        let fast = random_playout(Position::START, &mut rng, &mut keys);
        prop_assert_eq!(fast.moves as usize, game.moves().len());
        prop_assert_eq!(fast.end, end);
        // A record of the game reads back to the same game.
        let text = Record::new(game.clone()).to_string();
        let back = Record::parse(&text).unwrap();
        prop_assert_eq!(back.game, game);
    }

    /// Parsers never panic, whatever the text.
    #[test]
    fn parsers_never_panic(s in ".{0,200}") {
        let _ = s.parse::<Position>();
        let _ = s.parse::<Move>();
        let _ = Move::parse_with(&s, Some(Player::A));
        let _ = Record::parse_all(&s);
    }

    /// Parsers never panic on text that looks almost right.
    #[test]
    fn parsers_never_panic_on_near_misses(s in "[0-9,/ AB]{0,60}", r in r#"(\[[A-Za-z]{0,8} "[^"\n]{0,12}"\]\n){0,4}([0-9]{1,3}\. ?)?([1-7][ABab] ?|\{[a-z ]{0,6}\}? ?|\* ?){0,12}"#) {
        let _ = s.parse::<Position>();
        let _ = Record::parse_all(&r);
    }
}
