//! `vlt._vlt.AecCore`: the state and the steps of the PettingZoo AEC environment, in Rust. The
//! Python class `vlt.pettingzoo.vai_lung_thlan_v0.raw_env` derives from it and from PettingZoo's
//! `AECEnv`, so that `step`, `last`, `observe` and `legal_actions` are single native calls.
//!
//! The attributes PettingZoo's conventions name (`agents`, `rewards`, `_cumulative_rewards`,
//! `terminations`, `truncations`, `infos`, `agent_selection`) are ordinary Python objects that
//! `AECEnv`'s own helpers (`_was_dead_step`, `_accumulate_rewards`) and callers read and change;
//! the steps here update them as the Python code of such an environment would. Which steps are
//! dead ones (after the end or the cut) the environment tells from its own record of the end, as
//! it set those dicts, without reading them back.

use crate::callconv;
use crate::env::{Core, GOING, ILLEGAL, Reward, legal_tuple, max_moves_arg};
use crate::position::PyPosition;
use crate::recycle::{Dicts, Tuple};
use crate::smalldict;
use crate::value_error;
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PySuper, PyTuple, PyType};
use std::ffi::CStr;
use vlt_core::{Player, Position};

/// An action given from Python: an int, a numpy integer, or anything `int()` takes.
pub(crate) fn action_arg(action: &Bound<'_, PyAny>) -> PyResult<i64> {
    match action.extract::<i64>() {
        Ok(a) => Ok(a),
        Err(_) => action.call_method0(pyo3::intern!(action.py(), "__int__"))?.extract(),
    }
}

/// `AecCore.step(action)` (see `callconv` for how these three are called).
struct Step;

impl callconv::Named for Step {
    const NAME: &'static CStr = c"step";
    const DOC: &'static CStr =
        c"step($self, action, /)\n--\n\nPlays the action of the agent to move (`None` once its game is over).";
}

impl callconv::Method1 for Step {
    fn call<'py>(slf: &Bound<'py, PyAny>, action: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        AecCore::step_impl(slf.cast::<AecCore>()?, action)?;
        Ok(slf.py().None().into_bound(slf.py()))
    }
}

/// `AecCore.last(observe=True)`.
struct Last;

impl callconv::Named for Last {
    const NAME: &'static CStr = c"last";
    const DOC: &'static CStr = c"last($self, observe=True)\n--\n\n`(observation, cumulative reward, termination, truncation, info)` of the agent to move\n(the observation `None` when `observe` is false).";
}

impl callconv::MethodKw for Last {
    fn call<'py>(
        slf: &Bound<'py, PyAny>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut observe = match args.len() {
            0 => None,
            1 => Some(args.get_item(0)?),
            n => return Err(PyTypeError::new_err(format!("last() takes at most 1 argument ({n} given)"))),
        };
        for (key, value) in kwargs.into_iter().flatten() {
            if key.ne("observe")? {
                return Err(PyTypeError::new_err(format!(
                    "last() got an unexpected keyword argument {}",
                    key.repr()?
                )));
            }
            if observe.replace(value).is_some() {
                return Err(PyTypeError::new_err("last() got multiple values for argument 'observe'"));
            }
        }
        let observe = observe.map_or(Ok(true), |o| o.extract::<bool>())?;
        Ok(slf.cast::<AecCore>()?.borrow_mut().last(slf.py(), observe)?.into_any())
    }
}

/// `AecCore.legal_actions()`.
struct LegalActions;

impl callconv::Named for LegalActions {
    const NAME: &'static CStr = c"legal_actions";
    const DOC: &'static CStr =
        c"legal_actions($self, /)\n--\n\nThe legal actions (0-5) of the agent to move, ascending.";
}

impl callconv::Method0 for LegalActions {
    fn call<'py>(slf: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let bits = slf.cast::<AecCore>()?.borrow().core.legal_bits();
        Ok(legal_tuple(slf.py(), bits).into_any())
    }
}

/// The methods above, put on `cls`.
fn install(cls: &Bound<'_, PyType>) -> PyResult<()> {
    let core = cls.py().get_type::<AecCore>();
    callconv::install(
        cls,
        &core,
        [callconv::one_arg::<Step>(), callconv::with_keywords::<Last>(), callconv::no_args::<LegalActions>()],
    )
}

/// The two agents' state for PettingZoo (see the module's doc).
#[pyclass(subclass, module = "vlt._vlt")]
pub struct AecCore {
    core: Core,
    win: bool,
    max_moves: usize,
    started: bool,
    /// The game is over or cut: every agent is terminated or truncated, and a step is a dead one.
    done: bool,
    /// "player_0" (B) and "player_1" (A), interned.
    names: [Py<PyString>; 2],
    /// Each agent's recycled observation dicts.
    observations: [Dicts; 2],
    /// `last`'s recycled result.
    result: Tuple,
    #[pyo3(get, set)]
    agents: Py<PyAny>,
    // These five are handed out by the getters below, which forget `known`.
    rewards: Py<PyAny>,
    cumulative_rewards: Py<PyAny>,
    terminations: Py<PyAny>,
    truncations: Py<PyAny>,
    infos: Py<PyAny>,
    /// What `last` returns of each agent from the dicts (cumulative reward, termination,
    /// truncation, info), read while nobody else held them. Nobody can change a dict without a
    /// reference to it, and since then the only way to one has been a getter, which forgets
    /// these: so while they are known they are what the dicts hold, and `last` and `step` need not
    /// read the dicts again.
    known: Option<[[Py<PyAny>; 4]; 2]>,
    #[pyo3(get, set)]
    agent_selection: Py<PyAny>,
}

impl AecCore {
    /// 0 for "player_0", 1 for "player_1".
    fn index(&self, agent: &Bound<'_, PyAny>) -> PyResult<usize> {
        let py = agent.py();
        // The names handed out are these very objects: identity first, equality for copies.
        if let Some(i) = self.names.iter().position(|n| agent.is(n.bind(py))) {
            return Ok(i);
        }
        for (i, name) in self.names.iter().enumerate() {
            if agent.eq(name.bind(py))? {
                return Ok(i);
            }
        }
        Err(value_error(format!("unknown agent {agent}: expected player_0 or player_1")))
    }

    /// `{player_0: value, player_1: value}`.
    fn both<'py>(
        &self,
        py: Python<'py>,
        value: impl Fn() -> PyResult<Bound<'py, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let d = PyDict::new(py);
        for name in &self.names {
            d.set_item(name.bind(py), value()?)?;
        }
        Ok(d.into_any().unbind())
    }

    fn name(&self, py: Python<'_>, player: Player) -> Py<PyAny> {
        self.names[player.index()].clone_ref(py).into_any()
    }

    /// `last`: `(observation, cumulative reward, termination, truncation, info)` of the agent to
    /// move (the observation `None` when `observe` is false).
    fn last<'py>(&mut self, py: Python<'py>, observe: bool) -> PyResult<Bound<'py, PyTuple>> {
        let agent = self.agent_selection.bind(py).clone();
        if agent.is_none() {
            return Err(PyRuntimeError::new_err("reset() must be called before last()"));
        }
        let i = self.index(&agent)?;
        let obs = if observe { self.observe(&agent)?.into_any() } else { py.None().into_bound(py) };
        if self.known.is_none() {
            self.known = self.read_known(py)?;
        }
        let [reward, term, trunc, info] = match &self.known {
            Some(k) => k[i].each_ref().map(|v| v.bind(py).clone()),
            None => {
                let of = |d: &Py<PyAny>| smalldict::get(d.bind(py), &agent);
                [
                    of(&self.cumulative_rewards)?,
                    of(&self.terminations)?,
                    of(&self.truncations)?,
                    of(&self.infos)?,
                ]
            }
        };
        self.result.fill(py, [obs, reward, term, trunc, info])
    }

    /// `known`, read from the dicts if nobody else holds them (they are exact dicts and hold both
    /// agents); `None` otherwise.
    fn read_known(&self, py: Python<'_>) -> PyResult<Option<[[Py<PyAny>; 4]; 2]>> {
        let dicts = [&self.cumulative_rewards, &self.terminations, &self.truncations, &self.infos];
        let only_ours = |d: &&Py<PyAny>| {
            let d = d.bind(py);
            d.is_exact_instance_of::<PyDict>() && crate::recycle::refcnt(d) == 1
        };
        if !dicts.iter().all(only_ours) {
            return Ok(None);
        }
        let mut known = Vec::with_capacity(2);
        for name in &self.names {
            let mut values = Vec::with_capacity(4);
            for d in dicts {
                match d.bind(py).cast::<PyDict>()?.get_item(name.bind(py))? {
                    Some(v) => values.push(v.unbind()),
                    None => return Ok(None),
                }
            }
            known.push(<[Py<PyAny>; 4]>::try_from(values).expect("four values"));
        }
        Ok(Some(<[[Py<PyAny>; 4]; 2]>::try_from(known).expect("two agents")))
    }

    /// `step`: plays the action of the agent to move (`None` once its game is over).
    fn step_impl(slf: &Bound<'_, Self>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let py = slf.py();
        let mut me = slf.borrow_mut();
        if !me.started {
            return Err(PyRuntimeError::new_err("reset() must be called before step()"));
        }
        // The environment's own record of the end (every agent terminated or truncated together)
        // tells a dead step, not a look-up in the dicts.
        if me.done {
            drop(me);
            slf.call_method1(pyo3::intern!(py, "_was_dead_step"), (action,))?;
            return Ok(());
        }
        if action.is_none() {
            return Err(value_error("action: None is only for an agent whose game is over"));
        }
        let action = action_arg(action)?;
        let agent = me.agent_selection.bind(py).clone();
        let other = me.names[1 - me.index(&agent)?].bind(py).clone().into_any();
        let (status, captured) = me.core.step(action);
        let rewards = me.rewards.bind(py).clone();
        let cumulative = me.cumulative_rewards.bind(py).clone();
        let c = i64::from(captured);
        if status == GOING {
            let (i, j) = (me.index(&agent)?, 1 - me.index(&agent)?);
            // As `_cumulative_rewards[agent] = 0`, the rewards (none in "win"), then
            // `_accumulate_rewards()`.
            let mine = (if me.win { 0 } else { c }).into_pyobject(py)?.into_any();
            let theirs = match (&me.known, me.win) {
                (_, true) => None,
                (Some(k), false) => Some(k[j][0].bind(py).sub(c)?),
                (None, false) => Some(smalldict::get(&cumulative, &other)?.sub(c)?),
            };
            if !me.win {
                smalldict::set(&rewards, &agent, &mine)?;
                smalldict::set(&rewards, &other, &(-c).into_pyobject(py)?.into_any())?;
            }
            if me.known.as_ref().is_none_or(|k| !k[i][0].bind(py).is(&mine)) {
                smalldict::set(&cumulative, &agent, &mine)?;
            }
            if let Some(theirs) = &theirs {
                smalldict::set(&cumulative, &other, theirs)?;
            }
            if let Some(k) = me.known.as_mut() {
                k[i][0] = mine.unbind();
                if let Some(theirs) = theirs {
                    k[j][0] = theirs.unbind();
                }
            }
            if me.core.plies() >= me.max_moves {
                me.truncations = me.both(py, || Ok(true.into_pyobject(py)?.to_owned().into_any()))?;
                me.done = true;
                me.known = None;
            }
            me.agent_selection = me.name(py, me.core.position().to_move());
            return Ok(());
        }
        let (mine, theirs) = if status == ILLEGAL {
            let info = PyDict::new(py);
            info.set_item("illegal", true)?;
            me.infos.bind(py).set_item(&agent, info)?;
            let loss = if me.win { 1 } else { i64::from(me.core.position().stones_on_board()) };
            (-loss, loss)
        } else if me.win {
            let mover = Player::from_index(me.index(&agent)?);
            match me.core.winner() {
                None => (0, 0),
                Some(w) if w == mover => (1, -1),
                Some(_) => (-1, 1),
            }
        } else {
            (c, -c)
        };
        rewards.set_item(&agent, mine)?;
        rewards.set_item(&other, theirs)?;
        cumulative.set_item(&agent, 0)?;
        me.terminations = me.both(py, || Ok(true.into_pyobject(py)?.to_owned().into_any()))?;
        me.done = true;
        me.known = None;
        drop(me);
        slf.call_method0(pyo3::intern!(py, "_accumulate_rewards"))?;
        Ok(())
    }
}

#[pymethods]
impl AecCore {
    /// Rewards `"win"` (+1/-1/0 at the end) or `"captures"` (each move's captures, + for the
    /// mover and - for the other); games cut after `max_moves` moves. (`render_mode` is the
    /// Python class's.)
    #[new]
    #[pyo3(signature = (reward = "win", max_moves = 1000, render_mode = None))]
    fn new(
        py: Python<'_>,
        reward: &str,
        max_moves: i64,
        render_mode: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let _ = render_mode;
        let win = Reward::parse(reward)? == Reward::Win;
        let max_moves = max_moves_arg(max_moves)?;
        Ok(AecCore {
            core: Core::new(Position::START, 0, None, Player::B, false),
            win,
            max_moves,
            started: false,
            done: false,
            names: [PyString::intern(py, "player_0").unbind(), PyString::intern(py, "player_1").unbind()],
            observations: [Dicts::new(true), Dicts::new(true)],
            result: Tuple::new(),
            agents: PyList::empty(py).into_any().unbind(),
            rewards: PyDict::new(py).into_any().unbind(),
            cumulative_rewards: PyDict::new(py).into_any().unbind(),
            terminations: PyDict::new(py).into_any().unbind(),
            truncations: PyDict::new(py).into_any().unbind(),
            infos: PyDict::new(py).into_any().unbind(),
            known: None,
            agent_selection: py.None(),
        })
    }

    /// Starts a new game (reseeding when `seed` is given; `options` are not used).
    #[pyo3(signature = (seed = None, options = None))]
    fn reset(
        &mut self,
        py: Python<'_>,
        seed: Option<u64>,
        options: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let _ = options;
        self.core.reset(seed);
        self.agents = PyList::new(py, &self.names)?.into_any().unbind();
        let zero = || Ok(0i64.into_pyobject(py)?.into_any());
        self.rewards = self.both(py, zero)?;
        self.cumulative_rewards = self.both(py, zero)?;
        let no = || Ok(false.into_pyobject(py)?.to_owned().into_any());
        self.terminations = self.both(py, no)?;
        self.truncations = self.both(py, no)?;
        self.infos = self.both(py, || Ok(PyDict::new(py).into_any()))?;
        self.agent_selection = self.name(py, self.core.position().to_move());
        self.started = true;
        self.done = false;
        self.known = None;
        Ok(())
    }

    /// What `agent` observes: `{"observation": float32[14], "action_mask": int8[6]}`.
    fn observe<'py>(&mut self, agent: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
        let i = self.index(agent)?;
        let p = Player::from_index(i);
        let (obs, mask) = (self.core.observation(p), self.core.mask(p));
        self.observations[i].take(agent.py(), &obs, &mask)
    }

    /// `{agent: reward}` of the last step.
    #[getter]
    fn rewards(&mut self, py: Python<'_>) -> Py<PyAny> {
        self.known = None;
        self.rewards.clone_ref(py)
    }

    #[setter]
    fn set_rewards(&mut self, value: Py<PyAny>) {
        self.known = None;
        self.rewards = value;
    }

    /// `{agent: reward}` since the agent last moved (what `last` returns).
    #[getter(_cumulative_rewards)]
    fn cumulative_rewards(&mut self, py: Python<'_>) -> Py<PyAny> {
        self.known = None;
        self.cumulative_rewards.clone_ref(py)
    }

    #[setter(_cumulative_rewards)]
    fn set_cumulative_rewards(&mut self, value: Py<PyAny>) {
        self.known = None;
        self.cumulative_rewards = value;
    }

    /// `{agent: bool}`: the game is over.
    #[getter]
    fn terminations(&mut self, py: Python<'_>) -> Py<PyAny> {
        self.known = None;
        self.terminations.clone_ref(py)
    }

    #[setter]
    fn set_terminations(&mut self, value: Py<PyAny>) {
        self.known = None;
        self.terminations = value;
    }

    /// `{agent: bool}`: the game was cut after `max_moves` moves.
    #[getter]
    fn truncations(&mut self, py: Python<'_>) -> Py<PyAny> {
        self.known = None;
        self.truncations.clone_ref(py)
    }

    #[setter]
    fn set_truncations(&mut self, value: Py<PyAny>) {
        self.known = None;
        self.truncations = value;
    }

    /// `{agent: dict}` (`{"illegal": True}` after an illegal action).
    #[getter]
    fn infos(&mut self, py: Python<'_>) -> Py<PyAny> {
        self.known = None;
        self.infos.clone_ref(py)
    }

    #[setter]
    fn set_infos(&mut self, value: Py<PyAny>) {
        self.known = None;
        self.infos = value;
    }

    /// Gives each subclass its own descriptors of `step`, `last` and `legal_actions`, which
    /// CPython calls inline (see `callconv`).
    #[classmethod]
    #[pyo3(signature = (**kwargs))]
    fn __init_subclass__(cls: &Bound<'_, PyType>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
        install(cls)?;
        let core = cls.py().get_type::<AecCore>();
        PySuper::new(&core, cls)?.call_method(pyo3::intern!(cls.py(), "__init_subclass__"), (), kwargs)?;
        Ok(())
    }

    /// The current position.
    #[getter]
    fn position(&self) -> PyPosition {
        PyPosition(self.core.position())
    }

    /// `copy.deepcopy`: an environment of the same class in the same state, its Python attributes
    /// and the dicts above deep-copied.
    fn __deepcopy__<'py>(slf: &Bound<'py, Self>, memo: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let me = slf.borrow();
        let kwargs = PyDict::new(py);
        kwargs.set_item("reward", if me.win { "win" } else { "captures" })?;
        kwargs.set_item("max_moves", me.max_moves)?;
        let ty = slf.get_type();
        let new = ty.call_method("__new__", (&ty,), Some(&kwargs))?;
        memo.set_item(slf.as_ptr() as usize, &new)?;
        let deepcopy = py.import("copy")?.getattr("deepcopy")?;
        let copy =
            |o: &Py<PyAny>| -> PyResult<Py<PyAny>> { Ok(deepcopy.call1((o.bind(py), memo))?.unbind()) };
        {
            let mut n = new.cast::<AecCore>()?.borrow_mut();
            n.core.copy_game_from(&me.core);
            n.started = me.started;
            n.done = me.done;
            n.agents = copy(&me.agents)?;
            n.rewards = copy(&me.rewards)?;
            n.cumulative_rewards = copy(&me.cumulative_rewards)?;
            n.terminations = copy(&me.terminations)?;
            n.truncations = copy(&me.truncations)?;
            n.infos = copy(&me.infos)?;
            n.agent_selection = copy(&me.agent_selection)?;
        }
        drop(me);
        // The memo keeps the originals, and whoever holds it may change them.
        slf.borrow_mut().known = None;
        if let Ok(d) = slf.getattr("__dict__") {
            new.getattr("__dict__")?.call_method1("update", (deepcopy.call1((d, memo))?,))?;
        }
        Ok(new)
    }

    /// Ends the environment: `step` needs a `reset` again.
    fn close(&mut self) {
        self.started = false;
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<AecCore>()?;
    install(&m.py().get_type::<AecCore>())
}
