//! A game with its history: repetition (R7), undo and redo, and the result (R6, R7).

use crate::position::{IllegalMoveError, MoveOutcome};
use crate::repetition::Repetitions;
use crate::{ByPlayer, Move, Player, Position};
use std::fmt;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Termination {
    /// The board is empty (R6).
    EmptyBoard,
    /// A position occurred for the third time (R7); stones left on the board count for nobody.
    Repetition,
    /// The player named gave up.
    Resignation(Player),
    /// The player named ran out of time.
    TimeForfeit(Player),
}

impl Termination {
    /// The word used in records and messages: `empty board`, `repetition`, `resignation`,
    /// `time forfeit`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::EmptyBoard => "empty board",
            Termination::Repetition => "repetition",
            Termination::Resignation(_) => "resignation",
            Termination::TimeForfeit(_) => "time forfeit",
        }
    }
}

/// The result of a finished game (R6, R7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<Player>,
    /// Why the game ended.
    pub termination: Termination,
    /// The stones each player captured.
    pub score: ByPlayer<u8>,
}

impl GameResult {
    /// The result decided by the captures (R6, R7): more wins, equal is a draw.
    #[must_use]
    pub fn by_captures(position: Position, termination: Termination) -> GameResult {
        let score = position.captures();
        let winner = match score.b.cmp(&score.a) {
            std::cmp::Ordering::Greater => Some(Player::B),
            std::cmp::Ordering::Less => Some(Player::A),
            std::cmp::Ordering::Equal => None,
        };
        GameResult { winner, termination, score }
    }

    /// The result when `loser` resigns or loses on time: the other player wins whatever the score.
    #[must_use]
    pub fn forfeit(position: Position, termination: Termination, loser: Player) -> GameResult {
        GameResult { winner: Some(loser.other()), termination, score: position.captures() }
    }
}

impl fmt::Display for GameResult {
    /// For example `B wins 32-28 (empty board)` or `draw 25-25 (repetition)`; the score is B's first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(p) => write!(f, "{p} wins")?,
            None => write!(f, "draw")?,
        }
        write!(f, " {}-{} ({})", self.score.b, self.score.a, self.termination.as_str())?;
        match self.termination {
            Termination::Resignation(p) => write!(f, ", {p} resigned"),
            Termination::TimeForfeit(p) => write!(f, ", {p} ran out of time"),
            _ => Ok(()),
        }
    }
}

/// Why a move cannot be played in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlayError {
    /// The move is illegal in the current position.
    Illegal(IllegalMoveError),
    /// The game has already ended.
    Finished(GameResult),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Illegal(e) => e.fmt(f),
            PlayError::Finished(r) => write!(f, "the game is over: {r}"),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<IllegalMoveError> for PlayError {
    fn from(e: IllegalMoveError) -> Self {
        PlayError::Illegal(e)
    }
}

/// A game: the start position, the moves played, and what they did. Detects the end of the game
/// (R6) and the third occurrence of a position (R7); supports undo and redo.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
    outcomes: Vec<MoveOutcome>,
    redo: Vec<Move>,
    result: Option<GameResult>,
    /// The positions since the last capture, for R7 (boxed: a game stays small to move around).
    reps: Box<Repetitions>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Position::START)
    }
}

impl Game {
    /// A game from `start` (which may be any position; a finished one gives a finished game).
    #[must_use]
    pub fn new(start: Position) -> Game {
        let mut g = Game {
            positions: vec![start],
            moves: Vec::new(),
            outcomes: Vec::new(),
            redo: Vec::new(),
            result: None,
            reps: Box::new(Repetitions::new(start)),
        };
        g.result = g.natural_result();
        g
    }

    /// The position the game started from.
    #[must_use]
    pub fn start(&self) -> Position {
        self.positions[0]
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> Position {
        *self.positions.last().expect("a game always has its start position")
    }

    /// Every position of the game, the start first and the current last.
    #[must_use]
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The moves played.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// What each move did, in order.
    #[must_use]
    pub fn outcomes(&self) -> &[MoveOutcome] {
        &self.outcomes
    }

    /// The result, once the game has ended.
    #[must_use]
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// True once the game has ended.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// How many times the current position (board and player to move) has occurred (R7).
    #[must_use]
    pub fn repetitions(&self) -> usize {
        self.reps.occurrences()
    }

    /// The positions since the last capture, the current one last: the only ones that can repeat
    /// (R7), which is what a search needs to know of the game's history.
    #[must_use]
    pub fn since_last_capture(&self) -> &[Position] {
        let stones = self.position().stones_on_board();
        let from = self.positions.iter().rposition(|p| p.stones_on_board() != stones).map_or(0, |i| i + 1);
        &self.positions[from..]
    }

    fn natural_result(&self) -> Option<GameResult> {
        let p = self.position();
        if p.is_game_over() {
            Some(GameResult::by_captures(p, Termination::EmptyBoard))
        } else if self.repetitions() >= 3 {
            Some(GameResult::by_captures(p, Termination::Repetition))
        } else {
            None
        }
    }

    /// Plays a move; clears the redo list unless the move is the one redo would play.
    ///
    /// # Errors
    /// [`PlayError`] when the game is over or the move is illegal; the game is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<MoveOutcome, PlayError> {
        if let Some(r) = self.result {
            return Err(PlayError::Finished(r));
        }
        let before = self.position();
        let (after, outcome) = before.play_traced(mv)?;
        self.reps.push(after, after.stones_on_board() != before.stones_on_board());
        self.positions.push(after);
        self.moves.push(mv);
        self.outcomes.push(outcome);
        if self.redo.last() == Some(&mv) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.result = self.natural_result();
        Ok(outcome)
    }

    /// Takes back the last move (and any resignation or time forfeit); returns it, or `None` at the
    /// start. The move can be replayed with [`Game::redo`].
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.outcomes.pop();
        *self.reps = Repetitions::from_positions(self.since_last_capture());
        self.redo.push(mv);
        self.result = self.natural_result();
        Some(mv)
    }

    /// Plays again the last move taken back; returns what it did, or `None` when there is none.
    pub fn redo(&mut self) -> Option<MoveOutcome> {
        let mv = *self.redo.last()?;
        self.play(mv).ok()
    }

    /// The moves that [`Game::redo`] would play, the next one last.
    #[must_use]
    pub fn redo_moves(&self) -> &[Move] {
        &self.redo
    }

    /// Ends the game by resignation of `player`.
    ///
    /// # Errors
    /// [`PlayError::Finished`] when the game is already over.
    pub fn resign(&mut self, player: Player) -> Result<GameResult, PlayError> {
        self.forfeit(Termination::Resignation(player), player)
    }

    /// Ends the game because `player` ran out of time.
    ///
    /// # Errors
    /// [`PlayError::Finished`] when the game is already over.
    pub fn lose_on_time(&mut self, player: Player) -> Result<GameResult, PlayError> {
        self.forfeit(Termination::TimeForfeit(player), player)
    }

    fn forfeit(&mut self, t: Termination, loser: Player) -> Result<GameResult, PlayError> {
        if let Some(r) = self.result {
            return Err(PlayError::Finished(r));
        }
        let r = GameResult::forfeit(self.position(), t, loser);
        self.result = Some(r);
        Ok(r)
    }
}
