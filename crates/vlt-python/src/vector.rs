//! `vlt.vector.VectorGames`: many games stepped at once from numpy arrays. The observations,
//! masks, rewards and flags live in numpy arrays that the games write in place, so a step copies
//! nothing between Rust and Python.

use crate::env::{Reward, action_move, observation};
use crate::opponent::random_move;
use crate::position::PyPosition;
use crate::tablebase::PyTablebase;
use crate::value_error;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use std::sync::Arc;
use vlt_core::playout::SplitMix64;
use vlt_core::{Move, Player, Position, Repetitions};
use vlt_tablebase::Tablebase;

/// One game of the batch: its position and what R7 needs of its history (vlt-core's
/// `Repetitions`, which `vlt_core::Game` keeps too: one count of occurrences for both).
#[derive(Clone)]
struct Slot {
    pos: Position,
    reps: Repetitions,
    plies: u32,
    over: bool,
}

impl Default for Slot {
    fn default() -> Self {
        Slot { pos: Position::START, reps: Repetitions::new(Position::START), plies: 0, over: false }
    }
}

impl Slot {
    /// Starts again from `pos`.
    fn start(&mut self, pos: Position) {
        self.pos = pos;
        self.reps.restart(pos);
        self.plies = 0;
        self.over = pos.is_game_over();
    }

    /// Plays a legal move; returns the stones captured. Ends the game on an empty board (R6) or
    /// on a position's third occurrence (R7).
    #[inline]
    fn play(&mut self, mv: Move) -> u8 {
        let (next, taken, legal) = self.pos.play_with_moves(mv);
        self.pos = next;
        self.plies += 1;
        self.over = self.reps.push(next, taken > 0) >= 3 || legal.is_empty();
        taken
    }

    /// The winner of a finished game by the captures (R6, R7), `None` for a draw.
    fn winner(&self) -> Option<Player> {
        let d = self.pos.capture_diff(Player::B);
        (d != 0).then_some(if d > 0 { Player::B } else { Player::A })
    }
}

/// `n` games of Vai Lung Thlan stepped together (both sides played by the caller), each reset by
/// itself when it ends. The arrays below are the games' own and are overwritten in place by every
/// `step` and `reset` (copy them to keep them):
///
/// - `obs` float32 (n, 14): from the side of the player to move: its six holes, the opponent's
///   six, its captures, the opponent's.
/// - `legal_mask()` bool (n, 6): the legal actions (hole 1-6 of the player to move, minus one).
/// - `rewards` float32 (n,): for the player who just moved: the stones it captured (reward
///   "captures"), or +1/−1/0 at the end of a game ("win").
/// - `dones` bool (n,): the game ended with this step (and was reset); `truncated` bool (n,): it
///   was cut at `max_moves`; `winners` int8 (n,): 0 = B, 1 = A, −1 = draw, for games just ended.
/// - `to_move` int8 (n,): 0 = B, 1 = A.
/// - with `tablebase`: `values` float32 (n,) the exact value for the player to move (NaN beyond
///   the tables) and `move_values` float32 (n, 6) each action's (NaN for illegal ones).
///
/// >>> import numpy as np, vlt.vector
/// >>> v = vlt.vector.VectorGames(4, seed=1)
/// >>> rng = np.random.default_rng(0)
/// >>> for _ in range(100):
/// ...     a = (rng.random((4, 6)) * v.legal_mask()).argmax(1)
/// ...     obs, rewards, dones = v.step(a)
#[pyclass(name = "VectorGames", module = "vlt.vector")]
pub struct VectorGames {
    games: Vec<Slot>,
    start: Position,
    rng: SplitMix64,
    reward: Reward,
    random_plies: u32,
    max_moves: usize,
    tb: Option<Arc<Tablebase>>,
    /// float32 (n, 14).
    #[pyo3(get)]
    obs: Py<PyArray2<f32>>,
    mask: Py<PyArray2<bool>>,
    /// float32 (n,).
    #[pyo3(get)]
    rewards: Py<PyArray1<f32>>,
    /// bool (n,).
    #[pyo3(get)]
    dones: Py<PyArray1<bool>>,
    /// bool (n,).
    #[pyo3(get)]
    truncated: Py<PyArray1<bool>>,
    /// int8 (n,).
    #[pyo3(get)]
    winners: Py<PyArray1<i8>>,
    /// int8 (n,).
    #[pyo3(get)]
    to_move: Py<PyArray1<i8>>,
    /// float32 (n,), with tables only.
    #[pyo3(get)]
    values: Option<Py<PyArray1<f32>>>,
    /// float32 (n, 6), with tables only.
    #[pyo3(get)]
    move_values: Option<Py<PyArray2<f32>>>,
}

/// Views of the arrays one game writes.
struct Out<'a> {
    obs: &'a mut [f32],
    mask: &'a mut [bool],
    to_move: &'a mut [i8],
    values: Option<(&'a mut [f32], &'a mut [f32])>,
}

impl VectorGames {
    /// Starts game `i` anew: the start position and `random_plies` random moves (fewer if the
    /// game would end).
    fn new_game(&mut self, i: usize) {
        let mut pos = self.start;
        for _ in 0..self.random_plies {
            let next = pos.play_unchecked(random_move(pos, &mut self.rng));
            if next.is_game_over() {
                break;
            }
            pos = next;
        }
        self.games[i].start(pos);
    }

    /// Writes game `i`'s observation, mask, mover and values.
    fn write(tb: Option<&Tablebase>, game: &Slot, i: usize, out: &mut Out<'_>) {
        let pos = game.pos;
        let me = pos.to_move();
        out.obs[i * 14..i * 14 + 14].copy_from_slice(&observation(pos, me));
        let bits = if game.over { 0 } else { pos.legal_moves().mask() };
        for (k, m) in out.mask[i * 6..i * 6 + 6].iter_mut().enumerate() {
            *m = bits >> k & 1 == 1;
        }
        out.to_move[i] = me.index() as i8;
        if let (Some(tb), Some((values, moves))) = (tb, out.values.as_mut()) {
            values[i] = tb.probe(pos).map_or(f32::NAN, |v| v as f32);
            let row = &mut moves[i * 6..i * 6 + 6];
            row.fill(f32::NAN);
            for (m, v) in tb.probe_moves(pos).unwrap_or_default() {
                row[usize::from(m.hole().number()) - 1] = v as f32;
            }
        }
    }
}

macro_rules! out {
    ($self:ident, $py:ident, $obs:ident, $mask:ident, $tm:ident, $vals:ident, $mvals:ident) => {
        let mut $obs = $self.obs.bind($py).readwrite();
        let mut $mask = $self.mask.bind($py).readwrite();
        let mut $tm = $self.to_move.bind($py).readwrite();
        let mut $vals = $self.values.as_ref().map(|a| a.bind($py).readwrite());
        let mut $mvals = $self.move_values.as_ref().map(|a| a.bind($py).readwrite());
    };
}

#[pymethods]
impl VectorGames {
    /// `n` games (1 to 2^24), seeded by `seed` (for `random_plies` random opening moves at each
    /// reset), rewards `"captures"` or `"win"`, games cut after `max_moves` moves, optionally
    /// exact values from a `vlt.Tablebase`, each game starting at `start` (N2 text or a
    /// `vlt.Position`; the start position by default).
    #[new]
    #[pyo3(signature = (n, seed = 0, reward = "captures", random_plies = 0, max_moves = 1000, tablebase = None, start = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        n: usize,
        seed: u64,
        reward: &str,
        random_plies: u32,
        max_moves: usize,
        tablebase: Option<PyRef<'_, PyTablebase>>,
        start: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let start = match start {
            Some(s) => crate::position::position_arg(s)?,
            None => Position::START,
        };
        if start.is_game_over() {
            return Err(value_error(format!("start: the game is over in {start}")));
        }
        if !(1..=1 << 24).contains(&n) {
            return Err(value_error(format!("n {n} is out of range 1-16777216")));
        }
        if max_moves == 0 {
            return Err(value_error("max_moves must be positive"));
        }
        let reward = Reward::parse(reward)?;
        let tb = tablebase.map(|t| t.tables());
        let mut v = VectorGames {
            games: Vec::new(),
            start,
            rng: SplitMix64(seed),
            reward,
            random_plies,
            max_moves,
            obs: PyArray2::zeros(py, [n, 14], false).unbind(),
            mask: PyArray2::zeros(py, [n, 6], false).unbind(),
            rewards: PyArray1::zeros(py, n, false).unbind(),
            dones: PyArray1::zeros(py, n, false).unbind(),
            truncated: PyArray1::zeros(py, n, false).unbind(),
            winners: PyArray1::zeros(py, n, false).unbind(),
            to_move: PyArray1::zeros(py, n, false).unbind(),
            values: tb.as_ref().map(|_| PyArray1::zeros(py, n, false).unbind()),
            move_values: tb.as_ref().map(|_| PyArray2::zeros(py, [n, 6], false).unbind()),
            tb,
        };
        v.games = vec![Slot::default(); n];
        v.reset(py, None)?;
        Ok(v)
    }

    /// How many games.
    fn __len__(&self) -> usize {
        self.games.len()
    }

    /// Starts every game anew (reseeding when `seed` is given); returns `obs`.
    #[pyo3(signature = (seed = None))]
    fn reset(&mut self, py: Python<'_>, seed: Option<u64>) -> PyResult<Py<PyArray2<f32>>> {
        if let Some(s) = seed {
            self.rng = SplitMix64(s);
        }
        for i in 0..self.games.len() {
            self.new_game(i);
        }
        {
            out!(self, py, obs, mask, tm, vals, mvals);
            let mut out = Out {
                obs: obs.as_slice_mut()?,
                mask: mask.as_slice_mut()?,
                to_move: tm.as_slice_mut()?,
                values: match (vals.as_mut(), mvals.as_mut()) {
                    (Some(a), Some(b)) => Some((a.as_slice_mut()?, b.as_slice_mut()?)),
                    _ => None,
                },
            };
            for (i, g) in self.games.iter().enumerate() {
                VectorGames::write(self.tb.as_deref(), g, i, &mut out);
            }
        }
        self.rewards.bind(py).readwrite().as_slice_mut()?.fill(0.0);
        self.dones.bind(py).readwrite().as_slice_mut()?.fill(false);
        self.truncated.bind(py).readwrite().as_slice_mut()?.fill(false);
        self.winners.bind(py).readwrite().as_slice_mut()?.fill(0);
        Ok(self.obs.clone_ref(py))
    }

    /// The legal actions, bool (n, 6): the games' own array, updated in place by each step.
    fn legal_mask(&self, py: Python<'_>) -> Py<PyArray2<bool>> {
        self.mask.clone_ref(py)
    }

    /// Plays one action in every game (`actions`: int64 (n,), each 0-5 and legal: see
    /// `legal_mask()`), resets the games that end, and returns `(obs, rewards, dones)`, the
    /// games' own arrays. Raises ValueError, before playing anything, when an action is illegal.
    #[allow(clippy::type_complexity)]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<(Py<PyArray2<f32>>, Py<PyArray1<f32>>, Py<PyArray1<bool>>)> {
        let n = self.games.len();
        let acts =
            actions.as_slice().map_err(|_| value_error("actions: expected a contiguous int64 array"))?;
        if acts.len() != n {
            return Err(value_error(format!("actions: expected {n} actions, found {}", acts.len())));
        }
        {
            let mask = self.mask.bind(py).readonly();
            let mask = mask.as_slice()?;
            if let Some(i) = (0..n).find(|&i| !(0..6).contains(&acts[i]) || !mask[i * 6 + acts[i] as usize]) {
                return Err(value_error(format!(
                    "actions[{i}]: {} is not a legal action in game {i}",
                    acts[i]
                )));
            }
        }
        let mut rewards = self.rewards.bind(py).readwrite();
        let mut dones = self.dones.bind(py).readwrite();
        let mut truncs = self.truncated.bind(py).readwrite();
        let mut winners = self.winners.bind(py).readwrite();
        let (rewards, dones) = (rewards.as_slice_mut()?, dones.as_slice_mut()?);
        let (truncs, winners) = (truncs.as_slice_mut()?, winners.as_slice_mut()?);
        out!(self, py, obs, mask, tm, vals, mvals);
        let mut out = Out {
            obs: obs.as_slice_mut()?,
            mask: mask.as_slice_mut()?,
            to_move: tm.as_slice_mut()?,
            values: match (vals.as_mut(), mvals.as_mut()) {
                (Some(a), Some(b)) => Some((a.as_slice_mut()?, b.as_slice_mut()?)),
                _ => None,
            },
        };
        for i in 0..n {
            let game = &mut self.games[i];
            let mover: Player = game.pos.to_move();
            let mv = action_move(game.pos, acts[i]).expect("checked above");
            let taken = game.play(mv);
            let over = game.over;
            let cut = !over && game.plies as usize >= self.max_moves;
            rewards[i] = match self.reward {
                Reward::Captures => f32::from(taken),
                Reward::Win if over => match game.winner() {
                    Some(w) if w == mover => 1.0,
                    Some(_) => -1.0,
                    None => 0.0,
                },
                Reward::Win => 0.0,
            };
            dones[i] = over || cut;
            truncs[i] = cut;
            winners[i] = if over { game.winner().map_or(-1, |w| w.index() as i8) } else { -1 };
            if over || cut {
                self.new_game(i);
            }
            VectorGames::write(self.tb.as_deref(), &self.games[i], i, &mut out);
        }
        Ok((self.obs.clone_ref(py), self.rewards.clone_ref(py), self.dones.clone_ref(py)))
    }

    /// The current position of game `i`.
    fn position(&self, i: usize) -> PyResult<PyPosition> {
        self.games
            .get(i)
            .map(|g| PyPosition(g.pos))
            .ok_or_else(|| value_error(format!("game {i} is out of range 0-{}", self.games.len() - 1)))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<VectorGames>()?;
    Ok(())
}
