"""Positions, moves, games, records and perft, and the shared rules vectors through vlt.apply."""

import copy
import pickle

import pytest

import vlt

START = "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0"


def test_start_position():
    p = vlt.Position()
    assert str(p) == START
    assert p == vlt.Position(START) == vlt.Position.start()
    assert str(vlt.Position.start("A")) == "5,5,5,5,5,5/5,5,5,5,5,5 A 0 0"
    assert p.to_move == "B" and p.captured == (0, 0) and p.stones_on_board == 60
    assert p.board == tuple([5] * 12) or list(p.board) == [5] * 12
    assert not p.is_game_over
    assert p.legal_moves() == ["1B", "2B", "3B", "4B", "5B", "6B"]


def test_play_returns_new_position_and_keeps_old():
    p = vlt.Position()
    q = p.play("1B")
    assert str(q) == "0,6,6,6,6,6/5,5,5,5,5,5 A 0 0"
    assert str(p) == START
    assert q.play(1) == q.play("1a") == q.play("1A")
    assert q.stones("2B") == 6


def test_capture_and_pass():
    # 6B into the empty 1A captures it (R4); A's row is then empty, so B moves again (R5).
    p = vlt.Position("0,0,0,0,1,1/0,0,0,0,0,0 B 0 0").play("6B")
    assert p.captured == (1, 0) and p.to_move == "B"


def test_hash_eq_pickle_repr():
    p = vlt.Position("1,0,1,0,1,0/1,2,0,1,2,0 A 25 26")
    assert hash(p) == hash(vlt.Position(str(p)))
    assert len({p, vlt.Position(str(p)), vlt.Position()}) == 2
    assert pickle.loads(pickle.dumps(p)) == p
    assert eval(repr(p), {"Position": vlt.Position}) == p


def test_from_board():
    p = vlt.Position.from_board([0] * 11 + [1], "B", (30, 29))
    # B's row is empty: N2 gives A the move (R5).
    assert str(p) == "0,0,0,0,0,0/0,0,0,0,0,1 A 30 29"
    with pytest.raises(ValueError, match="61 stones in all"):
        vlt.Position.from_board([5] * 12, "B", (1, 0))
    with pytest.raises(ValueError, match="expected 12 counts"):
        vlt.Position.from_board([5] * 11)


@pytest.mark.parametrize(
    "text, message",
    [
        ("5,5,5,5,5/5,5,5,5,5,5 B 0 0", "position: row B: expected 6 counts, found 5"),
        ("5,5,5,5,5,5/5,5,5,5,5,x B 0 0", 'position: row A: "x" is not a whole number'),
        ("5,5,5,5,5,5/5,5,5,5,5,5 C 0 0", 'position: player to move: expected A or B, found "C"'),
        ("5,5,5,5,5,5/5,5,5,5,5,5 B 0", "position: missing field: captured by A"),
        ("5,5,5,5,5,5/5,5,5,5,5,5 B 1 0", "position: 61 stones in all"),
    ],
)
def test_bad_positions_raise_the_cli_messages(text, message):
    with pytest.raises(ValueError) as e:
        vlt.Position(text)
    assert str(e.value).startswith(message)


def test_bad_moves_raise_clear_errors():
    p = vlt.Position()
    with pytest.raises(ValueError, match=r'^move: "7" is not a hole'):
        p.play(7)
    with pytest.raises(ValueError, match="^move: illegal move 1A"):
        p.play("1A")
    with pytest.raises(ValueError, match="^move: expected a hole name"):
        p.play(1.5)
    with pytest.raises(ValueError, match="empty"):
        vlt.Position("0,5,5,5,5,5/5,5,5,5,5,5 B 0 5").play("1B")


def test_apply_matches_the_shared_rules_vectors(moves_vectors):
    assert len(moves_vectors) >= 1000
    fields = ["position", "legal", "move", "after", "captured", "captured_holes", "game_over"]
    for v in moves_vectors:
        got = vlt.apply(v["position"], v["move"])
        assert list(got) == fields
        assert got == v, v


def test_apply_errors_are_the_cli_messages():
    with pytest.raises(ValueError, match="^move 1: illegal move 1A: B is to move"):
        vlt.apply(START, "1A")
    with pytest.raises(ValueError, match="^position: "):
        vlt.apply("nonsense", "1B")
    with pytest.raises(ValueError, match="^move: "):
        vlt.apply(START, "9Z")


def test_perft():
    assert [vlt.perft(vlt.Position(), d) for d in range(5)] == [1, 6, 36, 190, 1015]
    with pytest.raises(ValueError, match="too deep"):
        vlt.perft(START, 41)


def test_game_history_undo_redo_result():
    g = vlt.Game()
    assert g.play("3B") == 0 and g.play(1) == 0
    assert g.moves == ["3B", "1A"] and len(g) == 2
    assert g.positions[0] == vlt.Position() and g.position == g.positions[-1]
    assert g.undo() == "1A" and g.moves == ["3B"]
    assert g.redo() == "1A" and g.moves == ["3B", "1A"]
    assert g.result is None and not g.is_over
    r = g.resign("B")
    assert r["winner"] == "A" and r["termination"] == "resignation"
    with pytest.raises(ValueError, match="the game is over"):
        g.play(1)


def test_game_ends_by_repetition_r7():
    # The smallest endless cycle (RULES.md R7): twelve moves bring the position back.
    cycle = "5A 1B 2A 3B 4A 5B 6A 2B 1A 4B 3A 6B".split()
    g = vlt.Game("1,0,1,0,1,0/1,2,0,1,2,0 A 25 26")
    for m in cycle * 2:
        g.play(m)
    assert g.is_over and g.repetitions == 3
    assert g.result["termination"] == "repetition" and g.result["winner"] == "A"
    assert g.result["score"] == (25, 26)


def test_game_ends_on_empty_board_r6():
    g = vlt.Game("0,0,0,0,1,0/0,0,0,0,0,0 B 56 3")
    assert g.play("5B") == 1
    assert g.is_over and g.result == {
        "winner": "B", "termination": "empty board", "score": (57, 3), "text": "B wins 57-3 (empty board)"
    }
    assert g.legal_moves() == []


def test_records_round_trip_and_errors():
    g = vlt.Game()
    for m in ["3B", "1A", "2B"]:
        g.play(m)
    g.set_tag("Event", "test")
    text = g.to_record()
    assert '[Event "test"]' in text and "1. 3B 2. 1A 3. 2B" in text
    back = vlt.Game.from_record(text)
    assert back == g and back.tags == [("Event", "test")]
    assert len(vlt.read_records(text + "\n" + text)) == 2
    assert pickle.loads(pickle.dumps(g)) == g and copy.deepcopy(g) == g
    with pytest.raises(ValueError, match="^record: move 1 \\(1A\\)"):
        vlt.Game.from_record("1. 1A *")
    with pytest.raises(ValueError, match="no game"):
        vlt.Game.from_record("")
