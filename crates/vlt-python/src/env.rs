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
use pyo3::sync::PyOnceLock;
use pyo3::types::PyTuple;
use vlt_core::playout::SplitMix64;
use vlt_core::{Game, Hole, Move, Player, Position, ROW, Record, Repetitions};

/// How rewards are counted (the environments' `reward` option).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reward {
    /// The stones the move captured, for the mover (R4).
    Captures,
    /// At the end, +1 when the mover of the last move won, −1 when it lost, 0 for a draw.
    Win,
}

impl Reward {
    /// The option's value, or the error every environment gives for another.
    pub(crate) fn parse(reward: &str) -> PyResult<Reward> {
        match reward {
            "captures" => Ok(Reward::Captures),
            "win" => Ok(Reward::Win),
            _ => Err(value_error(format!("unknown reward {reward:?}: expected \"captures\" or \"win\""))),
        }
    }
}

/// The `max_moves` option: a positive number of moves.
pub(crate) fn max_moves_arg(max_moves: i64) -> PyResult<usize> {
    usize::try_from(max_moves)
        .ok()
        .filter(|&m| m > 0)
        .ok_or_else(|| value_error("max_moves must be positive"))
}

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

/// The legal actions (0-5) of each of the 64 sets of a mover's non-empty holes, as tuples made
/// once: handing one out costs a reference, not a new list.
pub(crate) fn legal_tuple(py: Python<'_>, bits: u8) -> Bound<'_, PyTuple> {
    static LEGAL: PyOnceLock<Vec<Py<PyTuple>>> = PyOnceLock::new();
    let all = LEGAL.get_or_init(py, || {
        (0u8..64)
            .map(|b| {
                let actions: Vec<i64> = (0..6).filter(|k| b >> k & 1 == 1).collect();
                PyTuple::new(py, actions).expect("a tuple of ints").unbind()
            })
            .collect()
    });
    all[usize::from(bits & 63)].bind(py).clone()
}

/// The move of an action (0-5) of the player to move, if the action is in range.
pub(crate) fn action_move(pos: Position, action: i64) -> Option<Move> {
    let n = u8::try_from(action.checked_add(1)?).ok()?;
    Hole::new(pos.to_move(), n).map(Move)
}

/// One game for an environment: the position, what R7 needs of its history (vlt-core's
/// `Repetitions`, as `vlt_core::Game` keeps it), a seeded random source, and optionally a built-in
/// opponent playing the side that is not the agent's. The whole `Game` is kept too where it is
/// needed (OpenSpiel's records, the engine's searches), and only there: a step then costs a move
/// of the rules, not the bookkeeping of a game record. Shared by `EnvCore` (OpenSpiel) and the
/// PettingZoo and Gymnasium environments, which step it from Rust.
pub(crate) struct Core {
    pos: Position,
    /// The legal moves of `pos` as bits (bit k = hole k + 1 of the player to move; 0 once over),
    /// which each move computes anyway.
    legal: u8,
    reps: Repetitions,
    plies: usize,
    over: bool,
    game: Option<Game>,
    pub(crate) start: Position,
    pub(crate) rng: SplitMix64,
    pub(crate) opponent: Option<Opponent>,
    pub(crate) agent: Player,
}

impl Core {
    /// A game from `start`; `record` keeps the whole game (as an engine opponent does anyway).
    pub(crate) fn new(
        start: Position,
        seed: u64,
        opponent: Option<Opponent>,
        agent: Player,
        record: bool,
    ) -> Core {
        let record = record || opponent.as_ref().is_some_and(Opponent::needs_history);
        Core {
            pos: start,
            legal: if start.is_game_over() { 0 } else { start.legal_moves().mask() },
            reps: Repetitions::new(start),
            plies: 0,
            over: start.is_game_over(),
            game: record.then(|| Game::new(start)),
            start,
            rng: SplitMix64(seed),
            opponent,
            agent,
        }
    }

    /// A core for `game` as it stands (which it records).
    fn from_game(game: Game, rng: SplitMix64, agent: Player) -> Core {
        Core {
            pos: game.position(),
            legal: if game.is_over() { 0 } else { game.position().legal_moves().mask() },
            reps: Repetitions::from_positions(game.since_last_capture()),
            plies: game.moves().len(),
            over: game.is_over(),
            start: game.start(),
            game: Some(game),
            rng,
            opponent: None,
            agent,
        }
    }

    /// The current position.
    #[inline]
    pub(crate) fn position(&self) -> Position {
        self.pos
    }

    /// Moves played since the start.
    #[inline]
    pub(crate) fn plies(&self) -> usize {
        self.plies
    }

    /// Plays a move known to be legal; the step's status.
    #[inline]
    fn play(&mut self, mv: Move) -> u8 {
        let (next, taken, legal) = self.pos.play_with_moves(mv);
        self.pos = next;
        self.plies += 1;
        self.over = self.reps.push(next, taken > 0) >= 3 || legal.is_empty();
        self.legal = if self.over { 0 } else { legal.mask() };
        if let Some(g) = self.game.as_mut() {
            g.play(mv).expect("the move is legal and the game not over");
            debug_assert_eq!((g.position(), g.is_over()), (self.pos, self.over));
        }
        if self.over { OVER } else { GOING }
    }

    /// The opponent moves until it is the agent's turn or the game ends.
    fn reply(&mut self) -> u8 {
        while !self.over && self.pos.to_move() != self.agent {
            let Some(op) = self.opponent.as_mut() else { return GOING };
            let mv = op.choose(self.pos, self.game.as_ref(), &mut self.rng);
            self.play(mv);
        }
        if self.over { OVER } else { GOING }
    }

    fn diff(&self) -> i32 {
        self.pos.capture_diff(self.agent)
    }

    /// A new game from the start position (reseeding the random source when `seed` is given);
    /// with an opponent, plays its moves until the agent is to move. The status.
    pub(crate) fn reset(&mut self, seed: Option<u64>) -> u8 {
        if let Some(s) = seed {
            self.rng = SplitMix64(s);
        }
        self.pos = self.start;
        self.reps.restart(self.start);
        self.plies = 0;
        self.over = self.start.is_game_over();
        self.legal = if self.over { 0 } else { self.start.legal_moves().mask() };
        if let Some(g) = self.game.as_mut() {
            *g = Game::new(self.start);
        }
        if self.over { OVER } else { self.reply() }
    }

    /// Plays `action` for the player to move: `(status, stones captured)`.
    #[inline]
    pub(crate) fn step(&mut self, action: i64) -> (u8, u8) {
        let pos = self.pos;
        let legal = (0..6).contains(&action) && self.legal >> action & 1 == 1;
        match action_move(pos, action).filter(|_| legal) {
            None => (ILLEGAL, 0),
            Some(m) => {
                let s = self.play(m);
                (s, self.pos.captured(pos.to_move()) - pos.captured(pos.to_move()))
            }
        }
    }

    /// The agent plays `action`, then the opponent replies until it is the agent's turn again:
    /// `(status, change of the agent's capture difference)`; an illegal action forfeits, the
    /// stones left counting for the opponent.
    pub(crate) fn step_against(&mut self, action: i64) -> (u8, i32) {
        let before = self.diff();
        let (s, _) = self.step(action);
        if s == ILLEGAL {
            return (ILLEGAL, -(self.pos.stones_on_board() as i32));
        }
        let s = if s == OVER { OVER } else { self.reply() };
        (s, self.diff() - before)
    }

    /// The legal actions of the player to move as bits (bit k = action k); 0 once it is over.
    #[inline]
    pub(crate) fn legal_bits(&self) -> u8 {
        self.legal
    }

    /// The legal actions of `player` as int8[6] (all zero when it is not to move).
    #[inline]
    pub(crate) fn mask(&self, player: Player) -> [i8; 6] {
        let bits = if self.pos.to_move() == player { self.legal_bits() } else { 0 };
        std::array::from_fn(|i| (bits >> i & 1) as i8)
    }

    /// The observation from `player`'s side.
    #[inline]
    pub(crate) fn observation(&self, player: Player) -> [f32; 14] {
        observation(self.pos, player)
    }

    /// The winner once the game is over (by the captures, R6 and R7), `None` for a draw or a
    /// game still going.
    pub(crate) fn winner(&self) -> Option<Player> {
        let d = self.pos.capture_diff(Player::B);
        (self.over && d != 0).then_some(if d > 0 { Player::B } else { Player::A })
    }

    /// The whole game, for the cores that record it.
    fn game(&self) -> &Game {
        self.game.as_ref().expect("this core records its game")
    }

    /// Takes the state of `other`'s game (position, history, random source, agent), keeping
    /// this core's opponent.
    pub(crate) fn copy_game_from(&mut self, other: &Core) {
        self.pos = other.pos;
        self.legal = other.legal;
        self.reps = other.reps.clone();
        self.plies = other.plies;
        self.over = other.over;
        self.start = other.start;
        self.rng = other.rng;
        self.agent = other.agent;
        if let (Some(mine), Some(theirs)) = (self.game.as_mut(), other.game.as_ref()) {
            *mine = theirs.clone();
        }
    }

    /// A copy of the game and the random source, without the opponent.
    fn clone_without_opponent(&self) -> Core {
        Core::from_game(self.game().clone(), self.rng, self.agent)
    }
}

/// `vlt._vlt.EnvCore`: a `Core` for Python (the OpenSpiel game steps it).
#[pyclass(module = "vlt._vlt")]
pub struct EnvCore {
    core: Core,
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
        Ok(EnvCore { core: Core::new(start, seed, opponent, crate::position::player_arg(agent)?, true) })
    }

    /// Starts a new game from the start position (reseeding the random source when `seed` is
    /// given); with an opponent, plays its moves until the agent is to move. Returns the status.
    #[pyo3(signature = (seed = None, agent = None))]
    fn reset(&mut self, seed: Option<u64>, agent: Option<&str>) -> PyResult<u8> {
        if let Some(a) = agent {
            self.core.agent = crate::position::player_arg(a)?;
        }
        Ok(self.core.reset(seed))
    }

    /// Plays `action` (0-5: hole 1-6 of the player to move). Returns `(status, captured)`: status
    /// 0 = the game goes on, 1 = it ended (R6, R7), 2 = the action is illegal (nothing played).
    fn step(&mut self, action: i64) -> (u8, u8) {
        self.core.step(action)
    }

    /// The agent plays `action`, then the opponent replies until it is the agent's turn again.
    /// Returns `(status, reward)`, the reward being the change of the agent's capture difference.
    /// An illegal action forfeits: status 2, and the reward counts every stone left on the board
    /// for the opponent.
    fn step_against(&mut self, action: i64) -> (u8, i32) {
        self.core.step_against(action)
    }

    /// The opponent's move in the current position, without playing it.
    fn opponent_move(&mut self) -> PyResult<String> {
        let core = &mut self.core;
        if core.over {
            return Err(value_error("the game is over: there is no move to make"));
        }
        let op = core.opponent.as_mut().ok_or_else(|| value_error("this environment has no opponent"))?;
        Ok(op.choose(core.pos, core.game.as_ref(), &mut core.rng).to_string())
    }

    /// The player to move: 0 = B, 1 = A.
    #[getter]
    fn to_move(&self) -> usize {
        self.core.pos.to_move().index()
    }

    /// The agent's side: 0 = B, 1 = A.
    #[getter]
    fn agent(&self) -> usize {
        self.core.agent.index()
    }

    /// True once the game has ended.
    #[getter]
    fn is_over(&self) -> bool {
        self.core.over
    }

    /// Moves played since the start.
    #[getter]
    fn plies(&self) -> usize {
        self.core.plies
    }

    /// The observation from `player`'s side (0 = B, 1 = A): float32[14].
    fn observation<'py>(&self, py: Python<'py>, player: usize) -> Bound<'py, PyArray1<f32>> {
        PyArray1::from_slice(py, &self.core.observation(Player::from_index(player & 1)))
    }

    /// The legal actions of `player` as int8[6] (all zero when it is not to move).
    fn action_mask<'py>(&self, py: Python<'py>, player: usize) -> Bound<'py, PyArray1<i8>> {
        PyArray1::from_slice(py, &self.core.mask(Player::from_index(player & 1)))
    }

    /// The legal actions of the player to move as bits (bit k = action k); 0 once the game is over.
    #[getter]
    fn legal_bits(&self) -> u8 {
        self.core.legal_bits()
    }

    /// The legal actions of the player to move (0-5), ascending.
    fn legal_actions(&self) -> Vec<i64> {
        let bits = self.core.legal_bits();
        (0..6).filter(|k| bits >> k & 1 == 1).collect()
    }

    /// The stones `player` (0 = B, 1 = A) has captured.
    fn captured(&self, player: usize) -> u8 {
        self.core.pos.captured(Player::from_index(player & 1))
    }

    /// The winner once the game is over: 0 = B, 1 = A, None for a draw or a game still going.
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.core.winner().map(Player::index)
    }

    /// The current position.
    #[getter]
    fn position(&self) -> PyPosition {
        PyPosition(self.core.pos)
    }

    /// A copy of the game so far.
    #[getter]
    fn game(&self) -> PyGame {
        PyGame { record: Record::new(self.core.game().clone()) }
    }

    /// A copy of the game and the random source (not the opponent, which the copy lacks).
    fn clone_game(&self) -> EnvCore {
        EnvCore { core: self.core.clone_without_opponent() }
    }

    /// A core from what `__reduce__` saved: the game's record, the random state, the agent.
    #[staticmethod]
    fn restore(record: &str, rng: u64, agent: usize) -> PyResult<EnvCore> {
        let game = Record::parse(record).map_err(value_error)?.game;
        Ok(EnvCore { core: Core::from_game(game, SplitMix64(rng), Player::from_index(agent & 1)) })
    }

    /// Pickling (how pyspiel serialises a state), without the opponent.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String, u64, usize))> {
        let me = slf.borrow();
        let restore = slf.get_type().getattr("restore")?;
        Ok((restore, (Record::new(me.core.game().clone()).to_string(), me.core.rng.0, me.core.agent.index())))
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
