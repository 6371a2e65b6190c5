//! `vlt.Position`, `vlt.apply` and `vlt.perft`: the rules of one position (R1–R6, N1–N3).

use crate::value_error;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use vlt_core::{ByPlayer, HOLES, Move, Player, Position};

/// Parses a position string (N2) with the command line's message on error.
pub(crate) fn parse_position(text: &str) -> PyResult<Position> {
    text.parse().map_err(value_error)
}

/// A position given as a `Position` or as its string (N2).
pub(crate) fn position_arg(obj: &Bound<'_, PyAny>) -> PyResult<Position> {
    if let Ok(p) = obj.cast::<PyPosition>() {
        return Ok(p.borrow().0);
    }
    match obj.extract::<String>() {
        Ok(s) => parse_position(&s),
        Err(_) => Err(value_error("position: expected a vlt.Position or a position string")),
    }
}

/// A move given as its name (`"3B"`, case-insensitive, N1), or as the number 1-6 of a hole of the
/// player to move; on error the command line's `move: …` message.
pub(crate) fn move_arg(obj: &Bound<'_, PyAny>, pos: Position) -> PyResult<Move> {
    let text = if let Ok(s) = obj.extract::<String>() {
        s
    } else if let Ok(n) = obj.extract::<i64>() {
        n.to_string()
    } else {
        return Err(value_error("move: expected a hole name such as \"3B\" or a number 1-6"));
    };
    Move::parse_with(&text, Some(pos.to_move())).map_err(|e| value_error(format!("move: {e}")))
}

/// The player named `B` or `A` (case-insensitive).
pub(crate) fn player_arg(text: &str) -> PyResult<Player> {
    text.parse().map_err(value_error)
}

/// A position of Vai Lung Thlan: the twelve holes in ring order (1B…6B, 1A…6A), the player to
/// move and both players' captures. Immutable, hashable and picklable; `str()` gives the position
/// string (N2).
///
/// >>> import vlt
/// >>> p = vlt.Position()            # the start, B to move
/// >>> str(p.play("1B"))
/// '0,6,6,6,6,6/5,5,5,5,5,5 A 0 0'
/// >>> vlt.Position("0,0,0,0,1,1/0,0,0,0,0,0 B 0 0").legal_moves()
/// ['5B', '6B']
#[pyclass(name = "Position", module = "vlt", frozen, eq)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PyPosition(pub Position);

#[pymethods]
impl PyPosition {
    /// Parses a position string (N2); without one, the start position.
    #[new]
    #[pyo3(signature = (text = None))]
    fn new(text: Option<&str>) -> PyResult<Self> {
        Ok(PyPosition(match text {
            None => Position::START,
            Some(t) => parse_position(t)?,
        }))
    }

    /// The start position (R1), with `first` ("B" by default, R2) to move.
    #[staticmethod]
    #[pyo3(signature = (first = "B"))]
    fn start(first: &str) -> PyResult<Self> {
        Ok(PyPosition(Position::start(player_arg(first)?)))
    }

    /// A position from its twelve counts in ring order, the player to move and the captures
    /// `(by B, by A)`; normalised as N2 says (a mover with an empty row passes, R5).
    #[staticmethod]
    #[pyo3(signature = (board, to_move = "B", captured = (0, 0)))]
    fn from_board(board: Vec<i64>, to_move: &str, captured: (i64, i64)) -> PyResult<Self> {
        if board.len() != HOLES {
            return Err(value_error(format!("position: board: expected 12 counts, found {}", board.len())));
        }
        let count = |n: i64, what: &str| {
            u8::try_from(n)
                .ok()
                .filter(|&c| c <= 60)
                .ok_or_else(|| value_error(format!("position: {what}: {n} is not 0-60")))
        };
        let mut cells = [0u8; HOLES];
        for (c, &n) in cells.iter_mut().zip(&board) {
            *c = count(n, "board")?;
        }
        let caps = ByPlayer::new(count(captured.0, "captured by B")?, count(captured.1, "captured by A")?);
        Position::new(cells, player_arg(to_move)?, caps)
            .map(PyPosition)
            .map_err(|e| value_error(format!("position: {e}")))
    }

    /// The stones in each hole, in ring order 1B…6B, 1A…6A.
    #[getter]
    fn board(&self) -> [u8; HOLES] {
        self.0.board()
    }

    /// The player to move, "B" or "A" (when the game is over: the opponent of the last mover).
    #[getter(to_move)]
    fn player_to_move(&self) -> String {
        self.0.to_move().to_string()
    }

    /// The stones captured so far, `(by B, by A)`.
    #[getter]
    fn captured(&self) -> (u8, u8) {
        let c = self.0.captures();
        (c.b, c.a)
    }

    /// Stones on the board.
    #[getter]
    fn stones_on_board(&self) -> u32 {
        self.0.stones_on_board()
    }

    /// True when the board is empty: the game is over (R6).
    #[getter]
    fn is_game_over(&self) -> bool {
        self.0.is_game_over()
    }

    /// The stones in one hole, named as a move is ("3A").
    fn stones(&self, hole: &str) -> PyResult<u8> {
        let h: vlt_core::Hole = hole.parse().map_err(|e| value_error(format!("hole: {e}")))?;
        Ok(self.0.stones(h))
    }

    /// The legal moves in ring order (R3), as names: `['1B', '2B', …]`. Empty when the game is over.
    fn legal_moves(&self) -> Vec<String> {
        self.0.legal_moves().map(|m| m.to_string()).collect()
    }

    /// The position after `move` (a name such as "3B", or 1-6 for the mover's hole).
    ///
    /// Raises ValueError when the move does not parse or is illegal here.
    #[pyo3(name = "play")]
    fn play_py(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Self> {
        let mv = move_arg(r#move, self.0)?;
        self.0.play(mv).map(PyPosition).map_err(|e| value_error(format!("move: {e}")))
    }

    /// The capture difference so far from `player`'s side ("B" or "A").
    fn capture_diff(&self, player: &str) -> PyResult<i32> {
        Ok(self.0.capture_diff(player_arg(player)?))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.0)
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.0.hash(&mut h);
        h.finish()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let cls = slf.get_type().into_any();
        let args = PyTuple::new(slf.py(), [slf.get().0.to_string()])?;
        Ok((cls, args))
    }
}

/// Plays `move` in `position` and describes it with exactly the fields of `vlt apply --json` (and
/// of the shared rules vectors): `position`, `legal`, `move`, `after`, `captured`,
/// `captured_holes`, `game_over`.
///
/// >>> vlt.apply("5,5,5,5,5,5/5,5,5,5,5,5 B 0 0", "1B")["after"]
/// '0,6,6,6,6,6/5,5,5,5,5,5 A 0 0'
///
/// Raises ValueError with the command line's message for a bad position or move.
#[pyfunction]
#[pyo3(signature = (position, r#move))]
fn apply<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyAny>,
    r#move: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let pos = position_arg(position)?;
    let mv = move_arg(r#move, pos)?;
    let (after, outcome) = pos.play_traced(mv).map_err(|e| value_error(format!("move 1: {e}")))?;
    let d = PyDict::new(py);
    d.set_item("position", pos.to_string())?;
    d.set_item("legal", pos.legal_moves().map(|m| m.to_string()).collect::<Vec<_>>())?;
    d.set_item("move", mv.to_string())?;
    d.set_item("after", after.to_string())?;
    d.set_item("captured", outcome.capture.stones)?;
    d.set_item("captured_holes", outcome.capture.holes().map(|h| h.to_string()).collect::<Vec<_>>())?;
    d.set_item("game_over", outcome.game_over)?;
    Ok(d)
}

/// The number of move sequences of exactly `depth` moves from `position` (N4; a game that ends
/// earlier adds nothing): the usual check of a move generator. The GIL is released while it counts.
///
/// >>> vlt.perft(vlt.Position(), 2)
/// 36
#[pyfunction]
fn perft(py: Python<'_>, position: &Bound<'_, PyAny>, depth: u32) -> PyResult<u64> {
    let pos = position_arg(position)?;
    if depth > 40 {
        return Err(value_error(format!("depth {depth} is too deep for a count (at most 40)")));
    }
    Ok(py.detach(|| vlt_core::perft(pos, depth)))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPosition>()?;
    m.add_function(wrap_pyfunction!(apply, m)?)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    Ok(())
}
