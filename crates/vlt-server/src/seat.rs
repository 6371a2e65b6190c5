//! Seats: who a token speaks for, and who holds each seat of a game.

use crate::kinds::{Mode, Side};
use crate::store::GameRow;
use crate::view::SeatState;
use serde::{Serialize, Serializer};
use vlt_core::Player;

/// Who a token speaks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// One player's seat.
    One(Player),
    /// Both seats: two people on one screen, or an imported game.
    Both,
}

impl Seat {
    /// The key sent to clients: `B`, `A` or `both`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Seat::One(p) => Side::from(p).as_str(),
            Seat::Both => "both",
        }
    }
}

impl Serialize for Seat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Whether `a` equals `b`, comparing without an early exit so timing does not leak a token.
#[must_use]
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The seat `token` holds in `row`, if any.
#[must_use]
pub fn seat_of(row: &GameRow, token: &str) -> Option<Seat> {
    let eq = |t: &Option<String>| t.as_deref().is_some_and(|t| same_secret(t, token));
    match (eq(&row.token_b), eq(&row.token_a)) {
        (true, true) => Some(Seat::Both),
        (true, false) => Some(Seat::One(Player::B)),
        (false, true) => Some(Seat::One(Player::A)),
        (false, false) => None,
    }
}

/// Who holds each seat of `row`, B then A.
#[must_use]
pub fn seat_states(row: &GameRow) -> [SeatState; 2] {
    let one = |side: Side, token: &Option<String>| {
        if row.computer == Some(side) {
            SeatState::Computer
        } else if token.is_some() {
            SeatState::Taken
        } else {
            SeatState::Free
        }
    };
    [one(Side::B, &row.token_b), one(Side::A, &row.token_a)]
}

/// Whether `row` is an online game still waiting for its second player.
#[must_use]
pub fn waiting_for_second(row: &GameRow) -> bool {
    row.mode == Mode::Online && (row.token_b.is_none() || row.token_a.is_none())
}
