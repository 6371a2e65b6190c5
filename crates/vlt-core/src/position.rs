//! Positions and moves on them (R1, R3–R6, N2, N3).

use crate::hole::{HOLES, Hole, Move, ROW};
use crate::moves::Moves;
use crate::sowing::{CAPTURE_TEST, Capture, DELTA, HOLES_POW2, LAST, RUN, STONES_POW2, Sowing};
use crate::swar;
use crate::zobrist;
use crate::{ByPlayer, Player};
use std::fmt;

/// Total stones in a game (R1).
pub const TOTAL_STONES: u32 = 60;

// Byte layout of `Position::cells`, so that one `u128` holds the whole position and a move is a few
// integer operations (no allocation, no loop over the stones):
// 0..12 the holes in ring order, 12 B's captures, 13 A's captures, 14 the player to move, 15 zero.
const CAPTURED_B: usize = 12;
const TO_MOVE: usize = 14;
const BOARD_MASK: u128 = (1u128 << 96) - 1;

/// `CAPTURED[p][k]`: adds `k` to player `p`'s capture byte.
static CAPTURED: [[u128; HOLES + 1]; 2] = {
    let mut t = [[0u128; HOLES + 1]; 2];
    let mut k = 0;
    while k <= HOLES {
        t[0][k] = (k as u128) << (8 * CAPTURED_B);
        t[1][k] = (k as u128) << (8 * (CAPTURED_B + 1));
        k += 1;
    }
    t
};

/// Row `p`'s word of a position's bits (see [`crate::swar`]): B's holes are bytes 0–5, A's 6–11.
#[inline(always)]
fn row(x: u128, p: usize) -> u64 {
    (x >> (8 * ROW * (p & 1))) as u64
}

/// Bit `i` set when hole `i` (ring order) holds exactly one stone.
#[inline(always)]
fn single_mask(x: u128) -> u32 {
    u32::from(swar::gather(swar::single(row(x, 0)))) | u32::from(swar::gather(swar::single(row(x, 1)))) << ROW
}

/// Player `M` (0 = B, 1 = A) sows hole `j` (0..6) of its row in the position with bits `x` (R3–R5,
/// N3): the new bits, the stones captured and the legal moves after. Kept to the data each step
/// needs, since a playout is one long chain of dependent moves: the stone count comes from the
/// row word by a shift, not from memory, and the opponent's moves are the likely outcome.
#[inline(always)]
fn sow<const M: usize>(x: u128, j: usize) -> (u128, u8, Moves) {
    let opponent = 1 - M;
    // Indices masked to the tables' power-of-two sizes need no bounds checks; a valid position
    // has `j < 6` and `n <= 60`, so the masks change nothing.
    let j = j & 7;
    let h = M * ROW + j;
    let n = (row(x, M) >> (8 * j)) as usize & (STONES_POW2 - 1);
    // R3: lift the stones, then add one per hole reached (the starting hole included on laps).
    let mut y = x.wrapping_add(DELTA[h][n]);
    let mut taken = 0u8;
    // R4, tested on the position before the move, so that the test waits on no arithmetic.
    if x.to_le_bytes()[CAPTURE_TEST[h][n] as usize & 15] == 0 {
        let last = LAST[h][n] as usize & (HOLES_POW2 - 1);
        let singles = single_mask(y);
        // The ring twice over, so the backward walk from `last` never wraps; at most 12 holes.
        let ring = singles | singles << HOLES;
        let k = ((ring << (31 - (last + HOLES))).leading_ones() as usize).min(HOLES);
        y = y - RUN[last][k] + CAPTURED[M][k];
        taken = k as u8;
    }
    // N3, R5: the opponent moves next, unless its row is empty and the board is not.
    let theirs = swar::nonempty(row(y, opponent));
    let (next, spread) = if theirs != 0 {
        (opponent, theirs)
    } else {
        let own = swar::nonempty(row(y, M));
        (if own != 0 { M } else { opponent }, own)
    };
    y = y & !(0xffu128 << (8 * TO_MOVE)) | (next as u128) << (8 * TO_MOVE);
    (y, taken, Moves::new(swar::gather(spread), Player::from_index(next)))
}

/// A position (N2): the stones in each hole, the stones each player captured, and whose turn it is.
///
/// A small `Copy` value (16 bytes); playing a move returns a new one and allocates nothing. Every
/// `Position` is valid: at most 60 stones in all, and the player to move has a stone in its row
/// unless the board is empty (R5).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    cells: [u8; 16],
}

/// Why a move cannot be played (R3, R6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IllegalMoveError {
    /// The board is empty: the game is over (R6).
    GameOver,
    /// The hole belongs to the player who is not to move (R3).
    NotYourHole {
        /// The move tried.
        mv: Move,
        /// The player to move.
        to_move: Player,
    },
    /// The hole holds no stone (R3).
    EmptyHole(Move),
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMoveError::GameOver => write!(f, "the game is over: the board is empty"),
            IllegalMoveError::NotYourHole { mv, to_move } => {
                write!(f, "illegal move {mv}: {to_move} is to move and sows from its own row")
            }
            IllegalMoveError::EmptyHole(mv) => write!(f, "illegal move {mv}: the hole is empty"),
        }
    }
}

impl std::error::Error for IllegalMoveError {}

/// Why a set of counts is not a position (N2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InvalidPositionError {
    /// Stones on the board plus both captures exceed 60.
    TooManyStones(u32),
}

impl fmt::Display for InvalidPositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidPositionError::TooManyStones(n) => {
                write!(f, "{n} stones in all (board and captures); at most {TOTAL_STONES}")
            }
        }
    }
}

impl std::error::Error for InvalidPositionError {}

/// What one move did (R3–R5): enough for a front end to animate it and a record to annotate it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveOutcome {
    /// The player who moved.
    pub mover: Player,
    /// The sowing (R3).
    pub sowing: Sowing,
    /// The capture, empty when none (R4).
    pub capture: Capture,
    /// True when the opponent's row is empty afterwards and the mover moves again (R5).
    pub opponent_passes: bool,
    /// True when the move emptied the board: the game is over (R6).
    pub game_over: bool,
}

impl Position {
    /// The start position with B to move (R1, R2): `5,5,5,5,5,5/5,5,5,5,5,5 B 0 0`.
    pub const START: Position = Position::start(Player::B);

    /// The start position with `first` to move (R2 lets a program choose).
    #[must_use]
    pub const fn start(first: Player) -> Position {
        let mut cells = [5u8; 16];
        cells[12] = 0;
        cells[13] = 0;
        cells[TO_MOVE] = first as u8;
        cells[15] = 0;
        Position { cells }
    }

    /// A position from its parts, normalised as N2 says: when the player to move has no stone in
    /// its row and the board is not empty, the turn passes to the other player (R5).
    ///
    /// # Errors
    /// [`InvalidPositionError::TooManyStones`] when the board and captures hold more than 60.
    pub fn new(
        board: [u8; HOLES],
        to_move: Player,
        captured: ByPlayer<u8>,
    ) -> Result<Position, InvalidPositionError> {
        let total =
            board.iter().map(|&c| u32::from(c)).sum::<u32>() + u32::from(captured.b) + u32::from(captured.a);
        if total > TOTAL_STONES {
            return Err(InvalidPositionError::TooManyStones(total));
        }
        let mut cells = [0u8; 16];
        cells[..HOLES].copy_from_slice(&board);
        cells[CAPTURED_B] = captured.b;
        cells[CAPTURED_B + 1] = captured.a;
        cells[TO_MOVE] = to_move as u8;
        let mut p = Position { cells };
        if p.row_stones(to_move) == 0 && !p.is_game_over() {
            p.cells[TO_MOVE] = to_move.other() as u8;
        }
        Ok(p)
    }

    /// The position as one integer: byte `i` of the little-endian `u128` is `cells[i]`.
    #[inline(always)]
    pub(crate) fn bits(self) -> u128 {
        u128::from_le_bytes(self.cells)
    }

    #[inline(always)]
    fn from_bits(x: u128) -> Position {
        Position { cells: x.to_le_bytes() }
    }

    /// The stones in each hole, in ring order `1B`…`6B`, `1A`…`6A` (R1).
    #[must_use]
    pub fn board(self) -> [u8; HOLES] {
        let mut b = [0; HOLES];
        b.copy_from_slice(&self.cells[..HOLES]);
        b
    }

    /// The stones in one hole.
    #[inline]
    #[must_use]
    pub fn stones(self, hole: Hole) -> u8 {
        self.cells[hole.index()]
    }

    /// The player to move (or, when the game is over, the opponent of the last mover: N3).
    #[inline]
    #[must_use]
    pub fn to_move(self) -> Player {
        Player::from_index(self.cells[TO_MOVE] as usize)
    }

    /// The stones `player` has captured (R4).
    #[inline]
    #[must_use]
    pub fn captured(self, player: Player) -> u8 {
        self.cells[CAPTURED_B + player.index()]
    }

    /// Both players' captures.
    #[must_use]
    pub fn captures(self) -> ByPlayer<u8> {
        ByPlayer::new(self.captured(Player::B), self.captured(Player::A))
    }

    /// Stones on the board.
    #[must_use]
    pub fn stones_on_board(self) -> u32 {
        self.cells[..HOLES].iter().map(|&c| u32::from(c)).sum()
    }

    /// Stones in `player`'s row.
    #[must_use]
    pub fn row_stones(self, player: Player) -> u32 {
        let start = player.index() * ROW;
        self.cells[start..start + ROW].iter().map(|&c| u32::from(c)).sum()
    }

    /// True when the board is empty: the game is over (R6).
    #[inline]
    #[must_use]
    pub fn is_game_over(self) -> bool {
        self.bits() & BOARD_MASK == 0
    }

    /// The legal moves (R3): the holes of the player to move that hold a stone. Empty when the game
    /// is over. A player never has to pass here: a position always has its mover set so that it can
    /// move (R5).
    #[inline]
    #[must_use]
    pub fn legal_moves(self) -> Moves {
        let p = self.to_move();
        Moves::new(swar::gather(swar::nonempty(row(self.bits(), p.index()))), p)
    }

    /// Checks that `mv` is legal here.
    ///
    /// # Errors
    /// [`IllegalMoveError`] saying why not.
    pub fn check(self, mv: Move) -> Result<(), IllegalMoveError> {
        if self.is_game_over() {
            Err(IllegalMoveError::GameOver)
        } else if mv.player() != self.to_move() {
            Err(IllegalMoveError::NotYourHole { mv, to_move: self.to_move() })
        } else if self.stones(mv.hole()) == 0 {
            Err(IllegalMoveError::EmptyHole(mv))
        } else {
            Ok(())
        }
    }

    /// Plays a move (R3–R5, N3).
    ///
    /// # Errors
    /// [`IllegalMoveError`] when the move is not legal; the position is unchanged.
    pub fn play(self, mv: Move) -> Result<Position, IllegalMoveError> {
        self.check(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// Plays a move and describes what it did (R3–R5, N3).
    ///
    /// # Errors
    /// [`IllegalMoveError`] when the move is not legal.
    pub fn play_traced(self, mv: Move) -> Result<(Position, MoveOutcome), IllegalMoveError> {
        self.check(mv)?;
        let (after, captured) = self.play_counting(mv);
        let mover = self.to_move();
        let stones = self.stones(mv.hole());
        let sowing = Sowing { from: mv.hole(), stones };
        let outcome = MoveOutcome {
            mover,
            sowing,
            capture: Capture { last: sowing.last(), stones: captured },
            opponent_passes: !after.is_game_over() && after.to_move() == mover,
            game_over: after.is_game_over(),
        };
        Ok((after, outcome))
    }

    /// Plays a move known to be legal; the hot path of search and playouts (R3–R5, N3).
    /// An illegal move gives a meaningless (but valid-looking) position; debug builds panic.
    #[inline]
    #[must_use]
    pub fn play_unchecked(self, mv: Move) -> Position {
        self.play_counting(mv).0
    }

    /// [`Position::play_unchecked`], also returning the stones captured.
    #[inline]
    #[must_use]
    pub fn play_counting(self, mv: Move) -> (Position, u8) {
        let (p, taken, _) = self.play_with_moves(mv);
        (p, taken)
    }

    /// [`Position::play_counting`], also returning the legal moves of the new position, which the
    /// move computes anyway: the hot loop of playouts and search needs no second pass.
    #[inline]
    #[must_use]
    pub fn play_with_moves(self, mv: Move) -> (Position, u8, Moves) {
        debug_assert!(self.check(mv).is_ok(), "illegal move {mv} in {self}");
        // The mover is the owner of the hole (the same as the player to move for a legal move):
        // one well-predicted branch (the players alternate) instead of selects on a runtime mover.
        let h = mv.hole().index();
        let (x, taken, moves) =
            if h < ROW { sow::<0>(self.bits(), h) } else { sow::<1>(self.bits(), h - ROW) };
        (Position::from_bits(x), taken, moves)
    }

    /// The board and the player to move, without the captures: what R7 compares. (Two positions
    /// with the same board in one game always have the same captures too, since no capture can
    /// happen between them.)
    #[inline]
    #[must_use]
    pub fn repetition_key(self) -> u128 {
        self.bits() & (BOARD_MASK | 0xffu128 << (8 * TO_MOVE))
    }

    /// A Zobrist hash of the board and the player to move (not the captures, which do not change
    /// the value of the rest of the game), for transposition tables.
    #[inline]
    #[must_use]
    pub fn zobrist(self) -> u64 {
        zobrist::hash(&self.cells[..HOLES], self.to_move())
    }

    /// The capture difference so far, from `player`'s side.
    #[must_use]
    pub fn capture_diff(self, player: Player) -> i32 {
        i32::from(self.captured(player)) - i32::from(self.captured(player.other()))
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::START
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}
