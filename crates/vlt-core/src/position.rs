//! Positions and moves on them (R1, R3–R6, N2, N3).

use crate::hole::{HOLES, Hole, Move, ROW};
use crate::sowing::{Capture, DELTA, LAST, MAX_STONES, RUN, Sowing};
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
const ROW_MASK: [u128; 2] = [(1u128 << 48) - 1, BOARD_MASK & !((1u128 << 48) - 1)];

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

/// `SELECT[p][mask][i]`: the ring index of the `i`-th hole of player `p`'s row in a 6-bit mask.
static SELECT: [[[u8; ROW]; 64]; 2] = {
    let mut t = [[[0u8; ROW]; 64]; 2];
    let mut m = 0;
    while m < 64 {
        let (mut i, mut bit) = (0, 0);
        while bit < ROW {
            if m >> bit & 1 == 1 {
                t[0][m][i] = bit as u8;
                t[1][m][i] = (ROW + bit) as u8;
                i += 1;
            }
            bit += 1;
        }
        m += 1;
    }
    t
};

/// Bit `i` set when hole `i` holds at least one stone.
#[inline(always)]
fn nonempty_mask(board: u128) -> u32 {
    !bytes_equal_sse2(board, 0) & 0xfff
}

/// Bit `i` set when hole `i` holds exactly one stone.
#[inline(always)]
fn single_mask(board: u128) -> u32 {
    bytes_equal_sse2(board, 1) & 0xfff
}

/// [`bytes_equal`] for callers without the `sse2` attribute.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
#[allow(unsafe_code)]
fn bytes_equal_sse2(x: u128, v: u8) -> u32 {
    // SAFETY: SSE2 is part of the x86-64 baseline: every x86-64 processor has it, so calling a
    // function that needs it is always sound on this architecture.
    unsafe { bytes_equal(x, v) }
}

/// Bit `i` set when byte `i` of `x` equals `v`: one SSE2 compare and a movemask (SSE2 is part of
/// the x86-64 baseline).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn bytes_equal(x: u128, v: u8) -> u32 {
    use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set_epi64x, _mm_set1_epi8};
    let x = _mm_set_epi64x((x >> 64) as i64, x as i64);
    _mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(v as i8))) as u32
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

    #[inline(always)]
    fn bits(self) -> u128 {
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
        Moves {
            mask: (nonempty_mask(self.bits() & ROW_MASK[p.index()]) >> (p.index() * ROW)) as u8,
            owner: p,
        }
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
        let h = mv.hole().index();
        let n = (self.cells[h] as usize).min(MAX_STONES);
        let mover = self.cells[TO_MOVE] as usize & 1;
        // R3: lift the stones, then add one per hole reached (the starting hole included on laps).
        let mut x = self.bits().wrapping_add(DELTA[h][n]);
        let last = LAST[h][n] as usize;
        let mut taken = 0u8;
        // R4: the last stone made a single stone only if its hole was empty before.
        let singles = single_mask(x);
        if singles >> last & 1 != 0 {
            // The ring twice over, so the backward walk from `last` never wraps; at most 12 holes.
            let ring = singles | singles << HOLES;
            let k = ((ring << (31 - (last + HOLES))).leading_ones() as usize).min(HOLES);
            x = x - RUN[last][k] + CAPTURED[mover][k];
            taken = k as u8;
        }
        // N3, R5: the opponent moves next, unless its row is empty and the board is not.
        let opponent = mover ^ 1;
        let stones = nonempty_mask(x);
        let next = if stones >> (ROW * opponent) & 0x3f != 0 || stones == 0 { opponent } else { mover };
        x = (x & !(0xffu128 << (8 * TO_MOVE))) | (next as u128) << (8 * TO_MOVE);
        let moves = Moves { mask: (stones >> (ROW * next)) as u8 & 0x3f, owner: Player::from_index(next) };
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

/// The legal moves of a position, in ring order: a small set that iterates without allocating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moves {
    mask: u8,
    owner: Player,
}

impl Moves {
    /// How many moves.
    #[inline]
    #[must_use]
    pub fn len(self) -> usize {
        self.mask.count_ones() as usize
    }

    /// True when there is no move (only when the game is over).
    #[inline]
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.mask == 0
    }

    /// Whether `mv` is among these moves.
    #[must_use]
    pub fn contains(self, mv: Move) -> bool {
        mv.player() == self.owner && self.mask >> (mv.hole().number() - 1) & 1 == 1
    }

    /// The bits of the mover's holes that hold stones: bit 0 = hole 1 … bit 5 = hole 6.
    #[inline]
    #[must_use]
    pub fn mask(self) -> u8 {
        self.mask
    }

    /// The `i`-th move in ring order (`i < len()`).
    #[inline]
    #[must_use]
    pub fn nth_move(self, i: usize) -> Option<Move> {
        (i < self.len()).then(|| Move(Hole::ring(SELECT[self.owner.index()][self.mask as usize & 0x3f][i])))
    }

    #[inline]
    fn hole_move(self, number: u8) -> Move {
        Move(Hole::ring(self.owner.index() as u8 * ROW as u8 + number - 1))
    }
}

impl Iterator for Moves {
    type Item = Move;
    #[inline]
    fn next(&mut self) -> Option<Move> {
        if self.mask == 0 {
            return None;
        }
        let n = self.mask.trailing_zeros() as u8 + 1;
        self.mask &= self.mask - 1;
        Some(self.hole_move(n))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.mask.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Moves {}
