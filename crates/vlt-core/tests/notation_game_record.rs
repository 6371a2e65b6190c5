//! Position strings (N2, N3), games (R5–R7) and records.

use vlt_core::{
    Game, GameResult, Move, ParsePositionError, PlayError, Player, Position, Record, RecordError, Termination,
};

fn pos(s: &str) -> Position {
    s.parse().unwrap()
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

#[test]
fn n2_start_position_round_trips() {
    assert_eq!(pos("5,5,5,5,5,5/5,5,5,5,5,5 B 0 0"), Position::START);
    assert_eq!(Position::START.to_string(), "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0");
    assert_eq!(Position::start(Player::A).to_string(), "5,5,5,5,5,5/5,5,5,5,5,5 A 0 0");
}

#[test]
fn n2_parser_names_field_and_reason() {
    let cases: &[(&str, &str)] = &[
        ("", "missing field: board"),
        ("5,5,5,5,5/5,5,5,5,5,5 B 0 0", "row B: expected 6 counts, found 5"),
        ("5,5,5,5,5,5/5,5,5,5,5,5,5 B 0 0", "row A: expected 6 counts, found 7"),
        ("5,5,5,5,5,x/5,5,5,5,5,5 B 0 0", "row B: \"x\" is not a whole number"),
        ("5,5,5,5,5,-1/5,5,5,5,5,5 B 0 0", "row B: \"-1\" is not a whole number"),
        ("5,5,5,5,5,5/5,5,5,5,5,5 C 0 0", "player to move: expected A or B, found \"C\""),
        ("5,5,5,5,5,5/5,5,5,5,5,5 B 0", "missing field: captured by A"),
        ("5,5,5,5,5,5/5,5,5,5,5,5", "missing field: player to move"),
        ("5,5,5,5,5,5/5,5,5,5,5,5 B x 0", "captured by B: \"x\" is not a whole number"),
        ("5,5,5,5,5,5/5,5,5,5,5,5 B 0 1", "61 stones in all"),
        ("5,5,5,5,5,5/5,5,5,5,5,5 B 0 0 extra", "unexpected text"),
        ("5,5,5,5,5,5 B 0 0", "separated by '/'"),
        ("99999999999999,0,0,0,0,0/0,0,0,0,0,0 B 0 0", "stones in all"),
    ];
    for (text, want) in cases {
        let err = text.parse::<Position>().unwrap_err().to_string();
        assert!(err.contains(want), "{text:?}: got {err:?}, want {want:?}");
    }
    assert!(matches!(
        "5,5,5,5,5/5,5,5,5,5,5 B 0 0".parse::<Position>(),
        Err(ParsePositionError::RowLength { found: 5, .. })
    ));
}

#[test]
fn n2_allows_fewer_stones_and_normalises_an_empty_row() {
    // A study position with fewer than 60 stones in all.
    assert_eq!(pos("1,0,0,0,0,0/0,0,0,0,0,1 B 0 0").stones_on_board(), 2);
    // B to move with an empty row: the turn passes to A (R5, N2).
    assert_eq!(pos("0,0,0,0,0,0/0,0,3,0,0,0 B 20 37").to_move(), Player::A);
    // An empty board keeps its player field.
    assert_eq!(pos("0,0,0,0,0,0/0,0,0,0,0,0 B 30 30").to_move(), Player::B);
}

#[test]
fn n1_moves_are_case_insensitive_and_digits_need_a_mover() {
    assert_eq!(mv("3b"), mv("3B"));
    assert_eq!(Move::parse_with("3", Some(Player::A)).unwrap(), mv("3A"));
    assert!(Move::parse_with("3", None).is_err());
    assert!(Move::parse_with("7B", Some(Player::B)).is_err());
    assert!(Move::parse_with("0", Some(Player::B)).is_err());
    assert!(Move::parse_with("3C", None).is_err());
}

#[test]
fn illegal_moves_are_refused() {
    let p = Position::START;
    assert!(p.play(mv("1A")).is_err(), "A's hole while B is to move");
    let p = pos("0,1,0,0,0,0/1,0,0,0,0,0 B 29 29");
    assert!(p.play(mv("1B")).is_err(), "an empty hole");
    let over = pos("0,0,0,0,0,0/0,0,0,0,0,0 A 30 30");
    assert!(over.play(mv("1A")).is_err());
    assert!(over.legal_moves().is_empty());
}

#[test]
fn r5_mover_moves_again_while_the_opponent_row_is_empty() {
    // A has nothing; 5B's nine stones go round into A's row and end on 2B (not empty): A moves.
    let p = pos("0,1,0,0,9,0/0,0,0,0,0,0 B 25 25");
    let (after, o) = p.play_traced(mv("5B")).unwrap();
    assert_eq!(after.to_string(), "1,2,0,0,0,1/1,1,1,1,1,1 A 25 25");
    assert!(!o.opponent_passes);
    // 2B's one stone falls into the empty 3B and is captured; A's row is still empty.
    let (after, o) = p.play_traced(mv("2B")).unwrap();
    assert_eq!(o.capture.stones, 1);
    assert!(o.opponent_passes, "A's row is empty, so B moves again");
    assert_eq!(after.to_string(), "0,0,0,0,9,0/0,0,0,0,0,0 B 26 25");
}

#[test]
fn r6_the_last_capture_ends_the_game_and_names_the_opponent() {
    let p = pos("0,0,0,0,1,0/0,0,0,0,0,0 B 56 3");
    let (after, o) = p.play_traced(mv("5B")).unwrap();
    assert!(o.game_over && after.is_game_over());
    assert_eq!(after.to_move(), Player::A, "N3: the opponent of the last mover");
}

/// R7's example cycle: 12 moves without capture bring the position back; its third occurrence
/// ends the game, with the stones on the board counting for nobody.
#[test]
fn r7_third_occurrence_ends_the_game() {
    let start = pos("1,0,1,0,1,0/1,2,0,1,2,0 A 25 26");
    let cycle: Vec<Move> = "5A 1B 2A 3B 4A 5B 6A 2B 1A 4B 3A 6B".split(' ').map(mv).collect();
    let mut game = Game::new(start);
    for round in 1..=2 {
        for (i, &m) in cycle.iter().enumerate() {
            assert!(!game.is_over(), "round {round} move {i}");
            let o = game.play(m).unwrap();
            assert_eq!(o.capture.stones, 0, "no capture inside a cycle");
        }
        assert_eq!(game.position(), start);
        assert_eq!(game.repetitions(), round + 1);
    }
    let r = game.result().expect("third occurrence");
    assert_eq!(r.termination, Termination::Repetition);
    assert_eq!(r.winner, Some(Player::A));
    assert_eq!((r.score.b, r.score.a), (25, 26));
    assert!(matches!(game.play(mv("5A")), Err(PlayError::Finished(_))));
    // Undo reopens the game; redo plays the move again and ends it again.
    assert_eq!(game.undo(), Some(mv("6B")));
    assert!(!game.is_over());
    game.redo().unwrap();
    assert_eq!(game.result(), Some(r));
}

#[test]
fn undo_redo_and_resignation() {
    let mut game = Game::default();
    game.play(mv("3B")).unwrap();
    game.play(mv("2A")).unwrap();
    assert_eq!(game.undo(), Some(mv("2A")));
    assert_eq!(game.undo(), Some(mv("3B")));
    assert_eq!(game.undo(), None);
    assert_eq!(game.position(), Position::START);
    assert_eq!(game.redo_moves(), &[mv("2A"), mv("3B")]);
    game.redo().unwrap();
    assert_eq!(game.moves(), &[mv("3B")]);
    // A different move clears the redo list.
    game.play(mv("1A")).unwrap();
    assert!(game.redo_moves().is_empty());
    let r = game.resign(Player::B).unwrap();
    assert_eq!(r.winner, Some(Player::A));
    assert!(game.resign(Player::A).is_err());
    assert_eq!(r.to_string(), "A wins 0-0 (resignation), B resigned");
}

fn sample_game() -> Record {
    let mut game = Game::default();
    for m in ["3B", "2A", "1B", "6A", "5B"] {
        game.play(mv(m)).unwrap();
    }
    let mut r = Record::new(game);
    r.set_tag("Event", "Test \"quoted\" match");
    r.set_tag("B", "Mawii");
    r.set_tag("A", "vlt level 5");
    r.set_tag("Date", "2026.11.30");
    r.comments.push((0, "opening".into()));
    r.comments.push((2, "a quiet move".into()));
    r
}

#[test]
fn records_round_trip() {
    let r = sample_game();
    let text = r.to_string();
    assert!(text.contains("[Event \"Test \\\"quoted\\\" match\"]"), "{text}");
    assert!(text.contains("[Result \"*\"]"), "{text}");
    assert!(text.contains("{ opening } 1. 3B 2. 2A { a quiet move } 3. 1B"), "{text}");
    let back = Record::parse(&text).unwrap();
    assert_eq!(back, r);
    assert_eq!(back.to_string(), text);
}

#[test]
fn records_of_finished_games_round_trip_with_start_and_result() {
    let start = pos("1,0,1,0,1,0/1,2,0,1,2,0 A 25 26");
    let mut game = Game::new(start);
    for _ in 0..2 {
        for m in "5A 1B 2A 3B 4A 5B 6A 2B 1A 4B 3A 6B".split(' ') {
            game.play(mv(m)).unwrap();
        }
    }
    let text = Record::new(game.clone()).to_string();
    assert!(text.contains("[Start \"1,0,1,0,1,0/1,2,0,1,2,0 A 25 26\"]"));
    assert!(text.contains("[Result \"A\"]") && text.contains("[Termination \"repetition\"]"));
    assert_eq!(Record::parse(&text).unwrap().game, game);
    // Resignation survives the round trip.
    let mut g = Game::default();
    g.play(mv("1B")).unwrap();
    g.resign(Player::A).unwrap();
    let back = Record::parse(&Record::new(g.clone()).to_string()).unwrap();
    assert_eq!(back.game.result(), g.result());
}

#[test]
fn records_report_illegal_moves_with_their_number() {
    let err = Record::parse("[Event \"x\"]\n\n1. 3B 2. 2A 3. 2A *\n").unwrap_err();
    assert!(matches!(err, RecordError::IllegalMove { number: 3, .. }), "{err}");
    assert!(err.to_string().starts_with("record: move 3 (2A):"), "{err}");
    let err = Record::parse("1. 3B 3. 2A").unwrap_err();
    assert!(matches!(err, RecordError::WrongNumber { expected: 2, .. }), "{err}");
    let err = Record::parse("1. 3B 2. 9Q").unwrap_err();
    assert!(matches!(err, RecordError::BadToken { line: 1, .. }), "{err}");
    let err = Record::parse("[Result \"B\"]\n1. 3B *").unwrap_err();
    assert!(matches!(err, RecordError::ResultMismatch { .. }), "{err}");
    assert!(matches!(Record::parse("[Event \"x]\n"), Err(RecordError::BadTag { line: 1, .. })));
    assert!(matches!(Record::parse("1. 3B { open"), Err(RecordError::UnclosedComment { line: 1 })));
    assert!(matches!(Record::parse("  \n ; nothing\n"), Err(RecordError::Empty)));
}

#[test]
fn several_games_in_one_file() {
    let one = sample_game().to_string();
    let mut g = Game::default();
    g.play(mv("6B")).unwrap();
    let two = Record::new(g).to_string();
    let all = Record::parse_all(&format!("{one}\n{two}")).unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[1].game.moves(), &[mv("6B")]);
    // Bare moves, lower case, no numbers, comments to the end of a line: all accepted.
    let r = Record::parse("3b 2a ; first two\n1b").unwrap();
    assert_eq!(r.game.moves().len(), 3);
    let _: Option<GameResult> = r.game.result();
}
