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

/// Who is asking: the seat token the request carries (empty if none) and the player its cookie
/// names, if any.
#[derive(Clone, Debug, Default)]
pub struct Caller {
    /// A game's seat token.
    pub token: String,
    /// The player known by the cookie.
    pub player: Option<crate::accounts::PlayerRow>,
}

impl Caller {
    /// A caller with only a seat token.
    #[must_use]
    pub fn token(token: &str) -> Caller {
        Caller { token: token.to_string(), player: None }
    }

    /// The player's id, if known.
    #[must_use]
    pub fn player_id(&self) -> Option<&str> {
        self.player.as_ref().map(|p| p.id.as_str())
    }
}

/// The seat `caller` holds in `row`, if any: by its token (compared by hash) or as the player
/// seated there.
#[must_use]
pub fn seat_of(row: &GameRow, caller: &Caller) -> Option<Seat> {
    let hash = (!caller.token.is_empty()).then(|| crate::identity::token_hash(&caller.token));
    let eq = |t: &Option<String>, p: &Option<String>| {
        let by_token = match (t, &hash) {
            (Some(t), Some(h)) => same_secret(t, h),
            _ => false,
        };
        let by_player = matches!((p, caller.player_id()), (Some(p), Some(c)) if p == c);
        by_token | by_player
    };
    match (eq(&row.token_b, &row.player_b), eq(&row.token_a, &row.player_a)) {
        (true, true) => Some(Seat::Both),
        (true, false) => Some(Seat::One(Player::B)),
        (false, true) => Some(Seat::One(Player::A)),
        (false, false) => None,
    }
}

/// Who holds each seat of `row`, B then A.
#[must_use]
pub fn seat_states(row: &GameRow) -> [SeatState; 2] {
    let one = |side: Side, token: &Option<String>, player: &Option<String>| {
        if row.computer == Some(side) {
            SeatState::Computer
        } else if token.is_some() || player.is_some() {
            SeatState::Taken
        } else {
            SeatState::Free
        }
    };
    [one(Side::B, &row.token_b, &row.player_b), one(Side::A, &row.token_a, &row.player_a)]
}

/// Whether `row` is an online game still waiting for its second player.
#[must_use]
pub fn waiting_for_second(row: &GameRow) -> bool {
    row.mode == Mode::Online && seat_states(row).contains(&SeatState::Free)
}
