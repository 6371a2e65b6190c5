//! `vlt._vlt.EnvCore`: one game for the environments (PettingZoo, Gymnasium, OpenSpiel), with the
//! hot path (move, repetition, observation, action mask, opponent's reply) in Rust.
//!
//! An action is the number of a hole of the player to move minus one (0-5, N1). An observation is
//! seen from one player's side: its six holes, the opponent's six, its captures, the opponent's.

use crate::game::PyGame;
use crate::opponent::Opponent;
use crate::position::PyPosition;
use crate::tablebase::PyTablebase;
use crate::value_error;
use numpy::PyArray1;
use pyo3::prelude::*;
use vlt_core::playout::SplitMix64;
use vlt_core::{Game, Hole, Move, Player, Position, ROW, Record};

/// What a step did.
pub(crate) const GOING: u8 = 0;
/// The game ended (R6, R7).
pub(crate) const OVER: u8 = 1;
/// The action was illegal; nothing was played.
pub(crate) const ILLEGAL: u8 = 2;

/// The 14 numbers of an observation from `me`'s side.
pub(crate) fn observation(pos: Position, me: Player) -> [f32; 14] {
    let b = pos.board();
    let mut o = [0f32; 14];
    let (mine, theirs) = (me.index() * ROW, me.other().index() * ROW);
    for i in 0..ROW {
        o[i] = f32::from(b[mine + i]);
        o[ROW + i] = f32::from(b[theirs + i]);
    }
    o[12] = f32::from(pos.captured(me));
    o[13] = f32::from(pos.captured(me.other()));
    o
}

/// The move of an action (0-5) of the player to move, if the action is in range.
pub(crate) fn action_move(pos: Position, action: i64) -> Option<Move> {
    let n = u8::try_from(action.checked_add(1)?).ok()?;
    Hole::new(pos.to_move(), n).map(Move)
}

/// The core of one environment: a game (R7 needs its history), a seeded random source, and
/// optionally a built-in opponent playing the side that is not the agent's.
#[pyclass(module = "vlt._vlt")]
pub struct EnvCore {
    game: Game,
    start: Position,
    rng: SplitMix64,
    opponent: Option<Opponent>,
    agent: Player,
}

impl EnvCore {
    /// Plays a move known to be legal; the step's status.
    fn play(&mut self, mv: Move) -> u8 {
        self.game.play(mv).expect("the move is legal and the game not over");
        if self.game.is_over() { OVER } else { GOING }
    }

    /// The opponent moves until it is the agent's turn or the game ends.
    fn reply(&mut self) -> u8 {
        while !self.game.is_over() && self.game.position().to_move() != self.agent {
            let Some(op) = self.opponent.as_mut() else { return GOING };
            let mv = op.choose(&self.game, &mut self.rng);
            self.play(mv);
        }
        if self.game.is_over() { OVER } else { GOING }
    }

    fn diff(&self) -> i32 {
        self.game.position().capture_diff(self.agent)
    }
}

#[pymethods]
impl EnvCore {
    /// A game from `start` (the start position by default); `opponent` ("random", "greedy",
    /// "level:N", "perfect") plays the side that is not `agent`'s.
    #[new]
    #[pyo3(signature = (opponent = None, tablebase = None, seed = 0, start = None, agent = "B"))]
    fn new(
        opponent: Option<&str>,
        tablebase: Option<PyRef<'_, PyTablebase>>,
        seed: u64,
        start: Option<&Bound<'_, PyAny>>,
        agent: &str,
    ) -> PyResult<Self> {
        let start = match start {
            Some(s) => crate::position::position_arg(s)?,
            None => Position::START,
        };
        let opponent = opponent.map(|o| Opponent::parse(o, tablebase.map(|t| t.tables()))).transpose()?;
        Ok(EnvCore {
            game: Game::new(start),
            start,
            rng: SplitMix64(seed),
            opponent,
            agent: crate::position::player_arg(agent)?,
        })
    }

    /// Starts a new game from the start position (reseeding the random source when `seed` is
    /// given); with an opponent, plays its moves until the agent is to move. Returns the status.
    #[pyo3(signature = (seed = None, agent = None))]
    fn reset(&mut self, seed: Option<u64>, agent: Option<&str>) -> PyResult<u8> {
        if let Some(s) = seed {
            self.rng = SplitMix64(s);
        }
        if let Some(a) = agent {
            self.agent = crate::position::player_arg(a)?;
        }
        self.game = Game::new(self.start);
        Ok(if self.game.is_over() { OVER } else { self.reply() })
    }

    /// Plays `action` (0-5: hole 1-6 of the player to move). Returns `(status, captured)`: status
    /// 0 = the game goes on, 1 = it ended (R6, R7), 2 = the action is illegal (nothing played).
    fn step(&mut self, action: i64) -> (u8, u8) {
        let pos = self.game.position();
        match action_move(pos, action).filter(|&m| !self.game.is_over() && pos.check(m).is_ok()) {
            None => (ILLEGAL, 0),
            Some(m) => {
                let before = pos.captured(pos.to_move());
                let s = self.play(m);
                (s, self.game.position().captured(pos.to_move()) - before)
            }
        }
    }

    /// The agent plays `action`, then the opponent replies until it is the agent's turn again.
    /// Returns `(status, reward)`, the reward being the change of the agent's capture difference.
    /// An illegal action forfeits: status 2, and the reward counts every stone left on the board
    /// for the opponent.
    fn step_against(&mut self, action: i64) -> (u8, i32) {
        let before = self.diff();
        let (s, _) = self.step(action);
        if s == ILLEGAL {
            return (ILLEGAL, -(self.game.position().stones_on_board() as i32));
        }
        let s = if s == OVER { OVER } else { self.reply() };
        (s, self.diff() - before)
    }

    /// The opponent's move in the current position, without playing it.
    fn opponent_move(&mut self) -> PyResult<String> {
        if self.game.is_over() {
            return Err(value_error("the game is over: there is no move to make"));
        }
        let op = self.opponent.as_mut().ok_or_else(|| value_error("this environment has no opponent"))?;
        Ok(op.choose(&self.game, &mut self.rng).to_string())
    }

    /// The player to move: 0 = B, 1 = A.
    #[getter]
    fn to_move(&self) -> usize {
        self.game.position().to_move().index()
    }

    /// The agent's side: 0 = B, 1 = A.
    #[getter]
    fn agent(&self) -> usize {
        self.agent.index()
    }

    /// True once the game has ended.
    #[getter]
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// Moves played since the start.
    #[getter]
    fn plies(&self) -> usize {
        self.game.moves().len()
    }

    /// The observation from `player`'s side (0 = B, 1 = A): float32[14].
    fn observation<'py>(&self, py: Python<'py>, player: usize) -> Bound<'py, PyArray1<f32>> {
        PyArray1::from_slice(py, &observation(self.game.position(), Player::from_index(player & 1)))
    }

    /// The legal actions of `player` as int8[6] (all zero when it is not to move).
    fn action_mask<'py>(&self, py: Python<'py>, player: usize) -> Bound<'py, PyArray1<i8>> {
        let pos = self.game.position();
        let mut m = [0i8; 6];
        if !self.game.is_over() && pos.to_move().index() == player {
            let bits = pos.legal_moves().mask();
            for (i, v) in m.iter_mut().enumerate() {
                *v = (bits >> i & 1) as i8;
            }
        }
        PyArray1::from_slice(py, &m)
    }

    /// The legal actions of the player to move as bits (bit k = action k); 0 once the game is over.
    #[getter]
    fn legal_bits(&self) -> u8 {
        if self.game.is_over() { 0 } else { self.game.position().legal_moves().mask() }
    }

    /// The legal actions of the player to move (0-5), ascending.
    fn legal_actions(&self) -> Vec<i64> {
        if self.game.is_over() {
            return Vec::new();
        }
        self.game.position().legal_moves().map(|m| i64::from(m.hole().number()) - 1).collect()
    }

    /// The stones `player` (0 = B, 1 = A) has captured.
    fn captured(&self, player: usize) -> u8 {
        self.game.position().captured(Player::from_index(player & 1))
    }

    /// The winner once the game is over: 0 = B, 1 = A, None for a draw or a game still going.
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.game.result().and_then(|r| r.winner).map(Player::index)
    }

    /// The current position.
    #[getter]
    fn position(&self) -> PyPosition {
        PyPosition(self.game.position())
    }

    /// A copy of the game so far.
    #[getter]
    fn game(&self) -> PyGame {
        PyGame { record: Record::new(self.game.clone()) }
    }

    /// A copy of the game and the random source (not the opponent, which the copy lacks).
    fn clone_game(&self) -> EnvCore {
        EnvCore {
            game: self.game.clone(),
            start: self.start,
            rng: self.rng,
            opponent: None,
            agent: self.agent,
        }
    }

    /// A core from what `__reduce__` saved: the game's record, the random state, the agent.
    #[staticmethod]
    fn restore(record: &str, rng: u64, agent: usize) -> PyResult<EnvCore> {
        let game = Record::parse(record).map_err(value_error)?.game;
        Ok(EnvCore {
            start: game.start(),
            game,
            rng: SplitMix64(rng),
            opponent: None,
            agent: Player::from_index(agent & 1),
        })
    }

    /// Pickling (how pyspiel serialises a state), without the opponent.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String, u64, usize))> {
        let me = slf.borrow();
        let restore = slf.get_type().getattr("restore")?;
        Ok((restore, (Record::new(me.game.clone()).to_string(), me.rng.0, me.agent.index())))
    }

    /// `copy.deepcopy` (how pyspiel clones a state): `clone_game`.
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> EnvCore {
        self.clone_game()
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<EnvCore>()?;
    Ok(())
}
