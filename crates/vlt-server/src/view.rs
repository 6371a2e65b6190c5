//! The JSON shapes the API sends: a game as the page draws it, and each move as the page animates
//! it. Documented in `docs/api.md`.

use crate::accounts::PlayerCard;
use crate::clock::ClockView;
use crate::kinds::{End, Mode, Side};
use serde::Serialize;
use vlt_core::{Game, GameResult, Hole, MoveOutcome, Player, Position, Termination};

/// One move as played: what was sown where and what was captured, for animation (R3, R4, R5).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PlyView {
    /// The ply number, from 1.
    pub n: usize,
    /// The move (N1).
    #[serde(rename = "move")]
    pub mv: String,
    /// Who moved.
    pub mover: Side,
    /// The hole emptied.
    pub from: String,
    /// The number of stones sown.
    pub stones: u8,
    /// The holes that received a stone, in order (R3; the starting hole on each full lap).
    pub sown: Vec<String>,
    /// The holes captured, from the last sown backwards (R4); empty when nothing was captured.
    pub captured: Vec<String>,
    /// True when the opponent's row is now empty and it must pass (R5).
    pub passes: bool,
    /// The position after the move (N2).
    pub after: String,
}

impl PlyView {
    /// The view of move number `n` (from 1) with its outcome and the position it led to.
    #[must_use]
    pub fn new(n: usize, o: &MoveOutcome, after: Position) -> PlyView {
        let name = |h: Hole| h.to_string();
        PlyView {
            n,
            mv: o.sowing.from.to_string(),
            mover: o.mover.into(),
            from: o.sowing.from.to_string(),
            stones: o.sowing.stones,
            sown: o.sowing.holes().map(name).collect(),
            captured: o.capture.holes().map(name).collect(),
            passes: o.opponent_passes,
            after: after.to_string(),
        }
    }
}

/// A finished game's result (R6, R7, a resignation or a clock run out), in keys the page says in
/// its own language.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct ResultView {
    /// The winner, or null for a draw.
    pub winner: Option<Side>,
    /// How it ended.
    pub termination: End,
    /// Who resigned, if that is how it ended.
    pub resigned: Option<Side>,
    /// Stones captured by B.
    pub score_b: u8,
    /// Stones captured by A.
    pub score_a: u8,
}

impl From<GameResult> for ResultView {
    fn from(r: GameResult) -> Self {
        ResultView {
            winner: r.winner.map(Side::from),
            termination: r.termination.into(),
            resigned: match r.termination {
                Termination::Resignation(p) => Some(p.into()),
                _ => None,
            },
            score_b: r.score.b,
            score_a: r.score.a,
        }
    }
}

/// Who holds a seat.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum SeatState {
    /// Nobody yet: the invite link is still open.
    Free,
    /// A person holds it with a token.
    Taken,
    /// The computer plays it.
    Computer,
}

/// A game as the page draws it. Holes are in ring order (R1): `board[0..6]` = 1B..6B,
/// `board[6..12]` = 1A..6A.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// How the game is played.
    pub mode: Mode,
    /// The computer's level, 1–10 (computer games).
    pub level: Option<u8>,
    /// The start position (N2).
    pub start: String,
    /// The current position (N2).
    pub position: String,
    /// Stones per hole in ring order.
    pub board: Vec<u8>,
    /// Who is to move.
    pub to_move: Side,
    /// Stones captured by B.
    pub captured_b: u8,
    /// Stones captured by A.
    pub captured_a: u8,
    /// Legal moves now (empty when the game is over).
    pub legal: Vec<String>,
    /// Every move played, in order.
    pub plies: Vec<PlyView>,
    /// How often the current position has occurred (R7 ends the game at three).
    pub repetitions: usize,
    /// The result, once the game is over.
    pub result: Option<ResultView>,
    /// Seat B.
    pub seat_b: SeatState,
    /// Seat A.
    pub seat_a: SeatState,
    /// Counts the changes since this server loaded the game: a client keeps the game with the
    /// highest version of one `epoch`, so an answer overtaken by a socket update is not drawn.
    pub version: u64,
    /// Random per server run: versions of different runs do not compare.
    pub epoch: String,
    /// The players seated, B then A, when known by name.
    pub players: Players,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// The clock, for a game with a time control.
    pub clock: Option<ClockView>,
    /// The side asking to take back its last move, if any.
    pub takeback: Option<Side>,
    /// The rematch: who offered it, and the new game once both agreed.
    pub rematch: Rematch,
}

/// The players of a game by side.
#[derive(Clone, Debug, Serialize, PartialEq, Default)]
pub struct Players {
    /// Seat B's player.
    #[serde(rename = "B")]
    pub b: Option<PlayerCard>,
    /// Seat A's player.
    #[serde(rename = "A")]
    pub a: Option<PlayerCard>,
}

/// A rematch's state.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, Default)]
pub struct Rematch {
    /// The side that offered one.
    pub offered_by: Option<Side>,
    /// The new game, colours swapped, once both agreed.
    pub game: Option<String>,
}

/// Builds the view of `game`.
#[must_use]
pub fn game_view(
    id: &str,
    mode: Mode,
    level: Option<u8>,
    seats: [SeatState; 2],
    game: &Game,
    version: (u64, &str),
) -> GameView {
    game_view_since(id, mode, level, seats, game, version, 0)
}

/// Builds the view of `game` with only the plies after the first `from` (a socket's delta).
#[must_use]
pub fn game_view_since(
    id: &str,
    mode: Mode,
    level: Option<u8>,
    seats: [SeatState; 2],
    game: &Game,
    (version, epoch): (u64, &str),
    from: usize,
) -> GameView {
    let pos = game.position();
    let over = game.is_over();
    let plies = game
        .outcomes()
        .iter()
        .zip(&game.positions()[1..])
        .enumerate()
        .skip(from)
        .map(|(i, (o, p))| PlyView::new(i + 1, o, *p))
        .collect();
    GameView {
        id: id.to_string(),
        mode,
        level,
        start: game.start().to_string(),
        position: pos.to_string(),
        board: pos.board().to_vec(),
        to_move: pos.to_move().into(),
        captured_b: pos.captured(Player::B),
        captured_a: pos.captured(Player::A),
        legal: if over { Vec::new() } else { pos.legal_moves().map(|m| m.to_string()).collect() },
        plies,
        repetitions: game.repetitions(),
        result: game.result().map(ResultView::from),
        seat_b: seats[0],
        seat_a: seats[1],
        version,
        epoch: epoch.to_string(),
        players: Players::default(),
        rated: false,
        clock: None,
        takeback: None,
        rematch: Rematch::default(),
    }
}
