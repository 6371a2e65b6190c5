//! `vlt.Game` and game records: a game with its history, repetition (R7), undo and redo, the
//! result (R6, R7), and the record text format.

use crate::position::{PyPosition, move_arg, player_arg};
use crate::value_error;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use vlt_core::{Game, GameResult, Position, Record};

/// A game: the start position, the moves played and their history. Ends by itself when the board
/// is empty (R6) or a position occurs for the third time (R7). Picklable (through its record).
///
/// >>> g = vlt.Game()
/// >>> g.play("3B"); g.play(1)          # 1 = the mover's hole 1, here 1A
/// 0
/// 0
/// >>> g.moves
/// ['3B', '1A']
/// >>> g.undo()
/// '1A'
/// >>> print(g.to_record())            # doctest: +ELLIPSIS
/// [Rules "vlt R1-R7"]
/// ...
#[pyclass(name = "Game", module = "vlt")]
#[derive(Clone)]
pub struct PyGame {
    pub(crate) record: Record,
}

/// The result as a dict: `winner` ("B", "A" or None for a draw), `termination` ("empty board",
/// "repetition", "resignation", "time forfeit"), `score` (B's, A's) and `text`.
fn result_dict<'py>(py: Python<'py>, r: &GameResult) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("winner", r.winner.map(|p| p.to_string()))?;
    d.set_item("termination", r.termination.as_str())?;
    d.set_item("score", (r.score.b, r.score.a))?;
    d.set_item("text", r.to_string())?;
    Ok(d)
}

impl PyGame {
    fn game(&self) -> &Game {
        &self.record.game
    }
}

#[pymethods]
impl PyGame {
    /// A new game from `start` (a `Position` or position string; the start position by default).
    #[new]
    #[pyo3(signature = (start = None))]
    fn new(start: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let start = match start {
            None => Position::START,
            Some(s) => crate::position::position_arg(s)?,
        };
        Ok(PyGame { record: Record::new(Game::new(start)) })
    }

    /// Reads the first game of a record (see `docs/records.md`); ValueError naming the line or move
    /// that is wrong.
    #[staticmethod]
    fn from_record(text: &str) -> PyResult<Self> {
        Record::parse(text).map(|record| PyGame { record }).map_err(value_error)
    }

    /// The game's record text; reading it back gives an equal game.
    fn to_record(&self) -> String {
        self.record.to_string()
    }

    /// The record's tags other than the ones derived from the game, e.g. `{"Event": …, "B": …}`.
    #[getter]
    fn tags(&self) -> Vec<(String, String)> {
        self.record.tags.clone()
    }

    /// Sets a tag of the record (derived tags such as `Result` are ignored).
    fn set_tag(&mut self, name: &str, value: &str) {
        self.record.set_tag(name, value);
    }

    /// Plays a move ("3B", or 1-6 for the mover's hole) and returns the stones it captured.
    ///
    /// Raises ValueError when the move does not parse, is illegal, or the game is over.
    #[pyo3(name = "play")]
    fn play_py(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<u8> {
        let mv = move_arg(r#move, self.game().position())?;
        let outcome = self.record.game.play(mv).map_err(|e| value_error(format!("move: {e}")))?;
        Ok(outcome.capture.stones)
    }

    /// Takes back the last move and returns it (None at the start); `redo` plays it again.
    fn undo(&mut self) -> Option<String> {
        self.record.game.undo().map(|m| m.to_string())
    }

    /// Plays again the last move taken back and returns it (None when there is none).
    fn redo(&mut self) -> Option<String> {
        let mv = *self.game().redo_moves().last()?;
        self.record.game.redo().map(|_| mv.to_string())
    }

    /// Ends the game by resignation of `player` ("B" or "A"); returns the result.
    fn resign<'py>(&mut self, py: Python<'py>, player: &str) -> PyResult<Bound<'py, PyDict>> {
        let r = self.record.game.resign(player_arg(player)?).map_err(value_error)?;
        result_dict(py, &r)
    }

    /// The current position.
    #[getter]
    fn position(&self) -> PyPosition {
        PyPosition(self.game().position())
    }

    /// The start position.
    #[getter]
    fn start(&self) -> PyPosition {
        PyPosition(self.game().start())
    }

    /// Every position of the game, the start first and the current last.
    #[getter]
    fn positions(&self) -> Vec<PyPosition> {
        self.game().positions().iter().map(|&p| PyPosition(p)).collect()
    }

    /// The moves played, as names.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.game().moves().iter().map(ToString::to_string).collect()
    }

    /// True once the game has ended (R6, R7, or a resignation).
    #[getter]
    fn is_over(&self) -> bool {
        self.game().is_over()
    }

    /// How many times the current position has occurred (R7 ends the game at 3).
    #[getter]
    fn repetitions(&self) -> usize {
        self.game().repetitions()
    }

    /// The legal moves of the current position (none once the game is over).
    fn legal_moves(&self) -> Vec<String> {
        if self.game().is_over() {
            return Vec::new();
        }
        self.game().position().legal_moves().map(|m| m.to_string()).collect()
    }

    /// The result once the game is over, else None: a dict with `winner` ("B", "A" or None for a
    /// draw), `termination`, `score` (B's, A's) and `text` such as "B wins 32-28 (empty board)".
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.game().result().map(|r| result_dict(py, &r)).transpose()
    }

    fn __len__(&self) -> usize {
        self.game().moves().len()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyGame>().is_ok_and(|o| o.borrow().record == self.record)
    }

    fn __repr__(&self) -> String {
        format!("Game(moves={}, position='{}')", self.game().moves().len(), self.game().position())
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let from = slf.get_type().getattr("from_record")?;
        Ok((from, (slf.borrow().record.to_string(),)))
    }
}

/// Reads every game of a record file's text; ValueError for the first one that is wrong.
///
/// >>> games = vlt.read_records(open("games.vlt").read())   # doctest: +SKIP
#[pyfunction]
fn read_records(text: &str) -> PyResult<Vec<PyGame>> {
    Record::parse_all(text)
        .map(|all| all.into_iter().map(|record| PyGame { record }).collect())
        .map_err(value_error)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_function(wrap_pyfunction!(read_records, m)?)?;
    Ok(())
}
