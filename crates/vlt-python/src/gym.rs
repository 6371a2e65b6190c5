//! `vlt._vlt.GymCore`: the state and the step of the Gymnasium environment, in Rust. The Python
//! class `vlt.gymnasium.VaiLungThlanEnv` derives from it and from `gymnasium.Env`, so that `step`
//! (the agent's move, the opponent's replies, the reward, the end, the observation and the mask)
//! is one native call.

use crate::aec::action_arg;
use crate::callconv;
use crate::env::{Core, GOING, ILLEGAL, Reward, legal_tuple, max_moves_arg};
use crate::opponent::Opponent;
use crate::position::PyPosition;
use crate::recycle::{Arrays, Dicts, Tuple};
use crate::tablebase::PyTablebase;
use crate::value_error;
use numpy::PyArray1;
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyFloat, PySuper, PyTuple, PyType};
use std::ffi::CStr;
use vlt_core::{Player, Position};

/// A reward as a Python float: the integral ones a step can give (-60 to 60) made once, others
/// anew.
fn py_reward<'py>(py: Python<'py>, r: f64) -> Bound<'py, PyAny> {
    static SMALL: PyOnceLock<Vec<Py<PyFloat>>> = PyOnceLock::new();
    let small =
        SMALL.get_or_init(py, || (-60..=60).map(|k| PyFloat::new(py, f64::from(k)).unbind()).collect());
    if r.fract() == 0.0 && (-60.0..=60.0).contains(&r) {
        small[(r + 60.0) as usize].bind(py).clone().into_any()
    } else {
        PyFloat::new(py, r).into_any()
    }
}

/// `GymCore.step(action)` (see `callconv` for how these two are called).
struct Step;

impl callconv::Named for Step {
    const NAME: &'static CStr = c"step";
    const DOC: &'static CStr = c"step($self, action, /)\n--\n\nPlays the agent's action and the opponent's replies: `(observation, reward, terminated,\ntruncated, info)`, with `info[\"action_mask\"]` (and `info[\"illegal\"]` after an illegal\naction, which ends the episode as a forfeit).";
}

impl callconv::Method1 for Step {
    fn call<'py>(slf: &Bound<'py, PyAny>, action: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        Ok(slf.cast::<GymCore>()?.borrow_mut().step_impl(slf.py(), action)?.into_any())
    }
}

/// `GymCore.legal_actions()`.
struct LegalActions;

impl callconv::Named for LegalActions {
    const NAME: &'static CStr = c"legal_actions";
    const DOC: &'static CStr = c"legal_actions($self, /)\n--\n\nThe agent's legal actions (0-5), ascending.";
}

impl callconv::Method0 for LegalActions {
    fn call<'py>(slf: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let me = slf.cast::<GymCore>()?.borrow();
        let bits = if me.core.position().to_move() == me.core.agent { me.core.legal_bits() } else { 0 };
        Ok(legal_tuple(slf.py(), bits).into_any())
    }
}

/// The methods above, put on `cls`.
fn install(cls: &Bound<'_, PyType>) -> PyResult<()> {
    let core = cls.py().get_type::<GymCore>();
    callconv::install(cls, &core, [callconv::one_arg::<Step>(), callconv::no_args::<LegalActions>()])
}

/// One agent against a built-in opponent (see `vlt.gymnasium`).
#[pyclass(subclass, module = "vlt._vlt")]
pub struct GymCore {
    core: Core,
    /// What the environment was made with, for copies.
    opponent: String,
    tables: Option<Py<PyTablebase>>,
    /// The agent's side, `None` for a random side each episode.
    side: Option<Player>,
    win: bool,
    max_moves: usize,
    started: bool,
    observations: Arrays<f32, 14>,
    infos: Dicts,
    /// `step`'s recycled result.
    result: Tuple,
}

impl GymCore {
    fn mask(&self) -> [i8; 6] {
        self.core.mask(self.core.agent)
    }

    /// Plays the agent's action and the opponent's replies: `(observation, reward, terminated,
    /// truncated, info)`, with `info["action_mask"]` (and `info["illegal"]` after an illegal
    /// action, which ends the episode as a forfeit).
    fn step_impl<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        if !self.started {
            let err = py.import("gymnasium.error")?.getattr("ResetNeeded")?;
            return Err(PyErr::from_value(
                err.call1(("Cannot call env.step() before calling env.reset()",))?,
            ));
        }
        let (status, r) = self.core.step_against(action_arg(action)?);
        let me = self.core.agent;
        let obs = self.observations.take(py, &self.core.observation(me)).into_any();
        let mask = self.mask();
        let r = f64::from(r);
        if status == GOING {
            let truncated = self.core.plies() >= self.max_moves;
            let reward = if self.win { 0.0 } else { r };
            let info = self.infos.take(py, &[0.0; 14], &mask)?.into_any();
            let items = [
                obs,
                py_reward(py, reward),
                false.into_bound_py_any(py)?,
                truncated.into_bound_py_any(py)?,
                info,
            ];
            return self.result.fill(py, items);
        }
        let info = PyDict::new(py);
        info.set_item("action_mask", PyArray1::from_slice(py, &mask))?;
        let reward = if status == ILLEGAL {
            info.set_item("illegal", true)?;
            if self.win { -1.0 } else { r }
        } else if self.win {
            match self.core.winner() {
                None => 0.0,
                Some(w) if w == me => 1.0,
                Some(_) => -1.0,
            }
        } else {
            r
        };
        let items = [
            obs,
            py_reward(py, reward),
            true.into_bound_py_any(py)?,
            false.into_bound_py_any(py)?,
            info.into_any(),
        ];
        self.result.fill(py, items)
    }
}

#[pymethods]
impl GymCore {
    /// The opponent ("random", "greedy", "level:N", "perfect" with `tablebase`), the agent's side
    /// ("B", "A", "random"), the rewards ("captures" or "win") and the cut (`max_moves`).
    /// (`render_mode` is the Python class's.)
    #[new]
    #[pyo3(signature = (opponent = "random", agent = "B", reward = "captures", tablebase = None, max_moves = 1000, render_mode = None))]
    fn new(
        opponent: &str,
        agent: &str,
        reward: &str,
        tablebase: Option<Bound<'_, PyTablebase>>,
        max_moves: i64,
        render_mode: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let _ = render_mode;
        let tables = tablebase.as_ref().map(|t| t.clone().unbind());
        let side = match agent {
            "B" => Some(Player::B),
            "A" => Some(Player::A),
            "random" => None,
            _ => {
                return Err(value_error(format!(
                    "agent: expected \"B\", \"A\" or \"random\", found {agent:?}"
                )));
            }
        };
        let win = Reward::parse(reward)? == Reward::Win;
        let max_moves = max_moves_arg(max_moves)?;
        let spec = opponent.to_string();
        let opponent = Opponent::parse(opponent, tablebase.map(|t| t.borrow().tables()))?;
        Ok(GymCore {
            opponent: spec,
            tables,
            core: Core::new(Position::START, 0, Some(opponent), side.unwrap_or(Player::B), false),
            side,
            win,
            max_moves,
            started: false,
            observations: Arrays::new(),
            infos: Dicts::new(false),
            result: Tuple::new(),
        })
    }

    /// Starts an episode (reseeding first when `seed` is given): picks the agent's side, plays
    /// the opponent's moves until the agent is to move. Returns `(observation, info)`.
    #[pyo3(name = "_start", signature = (seed = None))]
    fn start<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<u64>,
    ) -> PyResult<(Bound<'py, PyArray1<f32>>, Bound<'py, PyDict>)> {
        if let Some(s) = seed {
            self.core.rng = vlt_core::playout::SplitMix64(s);
        }
        self.core.agent = self.side.unwrap_or_else(|| Player::from_index(self.core.rng.below(2) as usize));
        self.core.reset(None);
        self.started = true;
        let obs = self.observations.take(py, &self.core.observation(self.core.agent));
        let mask = self.mask();
        Ok((obs, self.infos.take(py, &[0.0; 14], &mask)?))
    }

    /// The legal actions as bool[6] (the convention of maskable policies).
    fn action_masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let m = self.mask();
        PyArray1::from_slice(py, &m.map(|v| v != 0))
    }

    /// `copy.deepcopy`: an environment of the same class in the same state (its opponent made
    /// anew from the same options), its Python attributes deep-copied.
    fn __deepcopy__<'py>(slf: &Bound<'py, Self>, memo: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let me = slf.borrow();
        let kwargs = PyDict::new(py);
        kwargs.set_item("opponent", &me.opponent)?;
        kwargs.set_item("agent", me.side.map_or("random", |p| if p == Player::B { "B" } else { "A" }))?;
        kwargs.set_item("reward", if me.win { "win" } else { "captures" })?;
        kwargs.set_item("tablebase", me.tables.as_ref().map(|t| t.bind(py)))?;
        kwargs.set_item("max_moves", me.max_moves)?;
        let ty = slf.get_type();
        let new = ty.call_method("__new__", (&ty,), Some(&kwargs))?;
        memo.set_item(slf.as_ptr() as usize, &new)?;
        {
            let mut n = new.cast::<GymCore>()?.borrow_mut();
            n.core.copy_game_from(&me.core);
            n.started = me.started;
        }
        if let Ok(d) = slf.getattr("__dict__") {
            let deepcopy = py.import("copy")?.getattr("deepcopy")?;
            new.getattr("__dict__")?.call_method1("update", (deepcopy.call1((d, memo))?,))?;
        }
        Ok(new)
    }

    /// Gives each subclass its own descriptors of `step` and `legal_actions`, which CPython
    /// calls inline (see `callconv`).
    #[classmethod]
    #[pyo3(signature = (**kwargs))]
    fn __init_subclass__(cls: &Bound<'_, PyType>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
        install(cls)?;
        let core = cls.py().get_type::<GymCore>();
        PySuper::new(&core, cls)?.call_method(pyo3::intern!(cls.py(), "__init_subclass__"), (), kwargs)?;
        Ok(())
    }

    /// The agent's side in this episode: 0 = B, 1 = A.
    #[getter]
    fn agent(&self) -> usize {
        self.core.agent.index()
    }

    /// The current position.
    #[getter]
    fn position(&self) -> PyPosition {
        PyPosition(self.core.position())
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<GymCore>()?;
    install(&m.py().get_type::<GymCore>())
}
