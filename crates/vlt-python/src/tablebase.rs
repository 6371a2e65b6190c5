//! `vlt.Tablebase`: exact values of every position with few enough stones on the board, read from
//! tables built by `vlt tb build` (or built from Python, on disk or in memory).

use crate::position::{PyPosition, position_arg};
use crate::value_error;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::sync::Arc;
use vlt_tablebase::{BuildEvent, Tablebase};

/// The largest layer `in_memory` builds: more would take minutes and gigabytes.
const MAX_IN_MEMORY: u32 = 16;

/// Endgame tables: for every position with at most `max_stones` stones on the board, its exact
/// value under perfect play: the best future capture difference the player to move can force (its
/// captures from here on minus the opponent's; endless games end by R7). Thread-safe; probing
/// memory-maps the files, so opening is immediate.
///
/// >>> tb = vlt.Tablebase.in_memory(6)
/// >>> tb.value("0,0,0,0,1,1/0,0,0,0,0,0 B 0 0")
/// 2
/// >>> tb.moves("0,0,0,0,1,1/0,0,0,0,0,0 B 0 0")
/// {'5B': 2, '6B': 2}
/// >>> tb.value(vlt.Position()) is None          # 60 stones: beyond the tables
/// True
#[pyclass(name = "Tablebase", module = "vlt", frozen)]
pub struct PyTablebase {
    tb: Arc<Tablebase>,
}

impl PyTablebase {
    /// The tables, shared.
    pub(crate) fn tables(&self) -> Arc<Tablebase> {
        Arc::clone(&self.tb)
    }
}

#[pymethods]
impl PyTablebase {
    /// Opens the tables in `dir` (as `vlt tb build` writes them), optionally only the layers of at
    /// most `max_stones` stones. Raises ValueError when the folder holds no tables or a damaged one.
    #[new]
    #[pyo3(signature = (dir, max_stones = None))]
    fn new(py: Python<'_>, dir: PathBuf, max_stones: Option<u32>) -> PyResult<Self> {
        let tb = py
            .detach(|| match max_stones {
                Some(m) => Tablebase::open_up_to(&dir, m),
                None => Tablebase::open(&dir),
            })
            .map_err(value_error)?;
        Ok(PyTablebase { tb: Arc::new(tb) })
    }

    /// Tables of up to `max_stones` (0-16) stones built in memory (a second for 10 stones), for
    /// tests and small experiments. The GIL is released while it builds.
    #[staticmethod]
    fn in_memory(py: Python<'_>, max_stones: u32) -> PyResult<Self> {
        if max_stones > MAX_IN_MEMORY {
            return Err(value_error(format!(
                "max_stones {max_stones} is out of range 0-{MAX_IN_MEMORY} in memory (build on disk for more)"
            )));
        }
        let layers = py.detach(|| vlt_tablebase::build::build_in_memory(max_stones));
        Ok(PyTablebase { tb: Arc::new(Tablebase::from_layers(layers)) })
    }

    /// Builds (or completes, keeping sound layers already there) the tables of up to `max_stones`
    /// stones in `dir`, as `vlt tb build` does, and opens them. `progress(stones, positions)` is
    /// called after each layer is solved. The GIL is released while it builds, except to call
    /// `progress`.
    #[staticmethod]
    #[pyo3(signature = (dir, max_stones, progress = None))]
    fn build(py: Python<'_>, dir: PathBuf, max_stones: u32, progress: Option<Py<PyAny>>) -> PyResult<Self> {
        let events = |e: BuildEvent| {
            if let (BuildEvent::LayerDone { stones, stats }, Some(f)) = (e, progress.as_ref()) {
                Python::attach(|py| {
                    if let Err(err) = f.call1(py, (stones, stats.positions)) {
                        err.print(py);
                    }
                });
            }
        };
        py.detach(|| vlt_tablebase::build(&dir, max_stones, &events)).map_err(value_error)?;
        PyTablebase::new(py, dir, Some(max_stones))
    }

    /// The most stones on the board a position may have to be in the tables.
    #[getter]
    fn max_stones(&self) -> u32 {
        self.tb.max_stones()
    }

    /// The exact value of `position` for the player to move (future captures minus the
    /// opponent's under perfect play); None beyond the tables. The game-over position is worth 0.
    fn value(&self, position: &Bound<'_, PyAny>) -> PyResult<Option<i32>> {
        Ok(self.tb.probe(position_arg(position)?))
    }

    /// Every legal move's exact value for the player to move, as a dict in ring order; None beyond
    /// the tables, empty when the game is over. The best value equals `value(position)`.
    fn moves<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(moves) = self.tb.probe_moves(position_arg(position)?) else { return Ok(None) };
        let d = PyDict::new(py);
        for (m, v) in moves {
            d.set_item(m.to_string(), v)?;
        }
        Ok(Some(d))
    }

    /// The move perfect play makes (the first best in ring order) and its value; None when the game
    /// is over or the position is beyond the tables.
    fn best_move(&self, position: &Bound<'_, PyAny>) -> PyResult<Option<(String, i32)>> {
        Ok(self.tb.best_move(position_arg(position)?).map(|(m, v)| (m.to_string(), v)))
    }

    fn __contains__(&self, position: PyRef<'_, PyPosition>) -> bool {
        position.0.stones_on_board() <= self.tb.max_stones()
    }

    fn __repr__(&self) -> String {
        format!("Tablebase(max_stones={})", self.tb.max_stones())
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTablebase>()?;
    Ok(())
}
