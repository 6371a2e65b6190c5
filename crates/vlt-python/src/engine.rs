//! `vlt.Engine` and `vlt.analyse`: the engine's search, analysis and playing levels. The GIL is
//! released while the engine searches, so other Python threads run meanwhile.

use crate::game::PyGame;
use crate::position::position_arg;
use crate::tablebase::PyTablebase;
use crate::value_error;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::time::Duration;
use vlt_core::Game;
use vlt_engine::{Engine, EngineConfig, Level, Limits, SearchResult, Stop};

/// A game given as a `Game` (its history matters for R7), a `Position` or a position string.
pub(crate) fn game_arg(obj: &Bound<'_, PyAny>) -> PyResult<Game> {
    if let Ok(g) = obj.cast::<PyGame>() {
        return Ok(g.borrow().record.game.clone());
    }
    Ok(Game::new(position_arg(obj)?))
}

/// The search limits, checked as `vlt analyse` checks them; one second when none is given.
fn limits(depth: Option<u32>, time_ms: Option<u64>, nodes: Option<u64>) -> PyResult<Limits> {
    if let Some(d) = depth {
        if !(1..=100).contains(&d) {
            return Err(value_error(format!("depth {d} is out of range 1-100")));
        }
    }
    if nodes == Some(0) || time_ms == Some(0) {
        return Err(value_error("the search limit must be positive"));
    }
    let mut l = Limits { depth, nodes, ..Limits::default() };
    if depth.is_none() && nodes.is_none() {
        l.movetime = Some(Duration::from_millis(time_ms.unwrap_or(1000)));
    }
    Ok(l)
}

fn config(hash_mb: usize, threads: usize) -> PyResult<EngineConfig> {
    if !(1..=64).contains(&threads) {
        return Err(value_error(format!("threads {threads} is out of range 1-64")));
    }
    if !(1..=4096).contains(&hash_mb) {
        return Err(value_error(format!("hash {hash_mb} MiB is out of range 1-4096")));
    }
    Ok(EngineConfig { hash_mb, threads, ..EngineConfig::default() })
}

/// The result as `vlt analyse --json` prints it.
fn result_dict<'py>(py: Python<'py>, game: &Game, r: &SearchResult) -> PyResult<Bound<'py, PyDict>> {
    let i = &r.info;
    let d = PyDict::new(py);
    d.set_item("position", game.position().to_string())?;
    d.set_item("best", r.best.to_string())?;
    d.set_item("score", i.score)?;
    d.set_item("exact", i.exact)?;
    d.set_item("depth", i.depth)?;
    d.set_item("nodes", i.nodes)?;
    d.set_item("nps", i.nps)?;
    d.set_item("time_ms", i.elapsed.as_millis() as u64)?;
    d.set_item("pv", i.pv.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    let moves = PyDict::new(py);
    for (m, s) in &r.moves {
        moves.set_item(m.to_string(), s)?;
    }
    d.set_item("moves", moves)?;
    Ok(d)
}

/// The engine: alpha-beta search with a transposition table kept between searches, optional exact
/// endgame tables, and the ten playing levels. The GIL is released during every search.
///
/// >>> e = vlt.Engine(hash_mb=16)
/// >>> r = e.analyse(vlt.Position(), depth=6)
/// >>> sorted(r["moves"]) == vlt.Position().legal_moves()
/// True
/// >>> e.level_move(vlt.Position(), level=3, seed=1) in vlt.Position().legal_moves()
/// True
#[pyclass(name = "Engine", module = "vlt")]
pub struct PyEngine {
    engine: Engine,
}

#[pymethods]
impl PyEngine {
    /// A new engine with a `hash_mb` MiB transposition table, `threads` search threads, and
    /// optionally a `vlt.Tablebase` that values the positions it covers exactly.
    #[new]
    #[pyo3(signature = (hash_mb = 64, threads = 1, tablebase = None))]
    fn new(hash_mb: usize, threads: usize, tablebase: Option<PyRef<'_, PyTablebase>>) -> PyResult<Self> {
        let mut engine = Engine::new(config(hash_mb, threads)?);
        engine.set_tablebase(tablebase.map(|t| t.tables()));
        Ok(PyEngine { engine })
    }

    /// Every legal move's exact value (in stones, for the player to move: its future captures
    /// minus the opponent's) within the limits (`depth` in plies 1-100, `time_ms`, `nodes`; one
    /// second when none is given). `game` is a `Game` (whose history counts for R7), a `Position`
    /// or a position string. Returns the fields of `vlt analyse --json`: `best`, `score`, `exact`,
    /// `depth`, `nodes`, `nps`, `time_ms`, `pv`, `moves` (move → value).
    #[pyo3(signature = (game, depth = None, time_ms = None, nodes = None))]
    fn analyse<'py>(
        &mut self,
        py: Python<'py>,
        game: &Bound<'py, PyAny>,
        depth: Option<u32>,
        time_ms: Option<u64>,
        nodes: Option<u64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let game = game_arg(game)?;
        if game.is_over() {
            return Err(value_error("the game is over: the board is empty, there is nothing to analyse"));
        }
        let limits = limits(depth, time_ms, nodes)?;
        let engine = &mut self.engine;
        let r = py
            .detach(|| engine.analyse(&game, &limits, &Stop::new(), &mut |_| {}))
            .ok_or_else(|| value_error("the position has no legal move"))?;
        result_dict(py, &game, &r)
    }

    /// The move a player of `level` (1 weakest … 10 strongest) makes in `game`; `seed` makes the
    /// lower levels' choices among moves reproducible.
    #[pyo3(signature = (game, level, seed = 0))]
    fn level_move(
        &mut self,
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        level: i64,
        seed: u64,
    ) -> PyResult<String> {
        let game = game_arg(game)?;
        let level = level_arg(level)?;
        if game.is_over() {
            return Err(value_error("the game is over: there is no move to make"));
        }
        let engine = &mut self.engine;
        Ok(py.detach(|| engine.play_level(&game, level, seed)).to_string())
    }

    /// Forgets what earlier searches learnt, so the next search behaves as in a fresh engine.
    fn clear(&mut self) {
        self.engine.clear();
    }
}

/// A playing level 1-10, with the command line's message otherwise.
pub(crate) fn level_arg(n: i64) -> PyResult<Level> {
    u8::try_from(n)
        .ok()
        .and_then(Level::new)
        .ok_or_else(|| value_error(format!("level {n} is out of range 1-10")))
}

/// Analyses a position with a fresh engine: every legal move's exact value, the best move, the
/// principal variation and whether the value is proven (`exact`). See `Engine.analyse`.
///
/// >>> r = vlt.analyse("0,0,0,0,1,1/0,0,0,0,0,0 B 0 0", depth=10)
/// >>> r["score"], r["exact"], sorted(r["moves"].items())   # both moves win both stones
/// (2, True, [('5B', 2), ('6B', 2)])
/// >>> r["best"] in ("5B", "6B")
/// True
#[pyfunction]
#[pyo3(signature = (game, depth = None, time_ms = None, nodes = None, threads = 1, hash_mb = 64, tablebase = None))]
#[allow(clippy::too_many_arguments)]
fn analyse<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    depth: Option<u32>,
    time_ms: Option<u64>,
    nodes: Option<u64>,
    threads: usize,
    hash_mb: usize,
    tablebase: Option<PyRef<'py, PyTablebase>>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut e = PyEngine::new(hash_mb, threads, tablebase)?;
    e.analyse(py, game, depth, time_ms, nodes)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEngine>()?;
    m.add_function(wrap_pyfunction!(analyse, m)?)?;
    Ok(())
}
