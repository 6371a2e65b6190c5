//! The lobby in the store, the same on SQLite and PostgreSQL: the open seeks, each held under the
//! lease of the server it was posted on (a server renews its lease while it runs; once it stops,
//! its seeks leave the lobby within [`crate::servers::SERVER_LEASE_MS`] and are deleted), the games
//! a lobby lists, and the rate-limit state of each address, so that bounds and rates hold for
//! every server sharing the database. Posting checks the bounds and inserts in one transaction,
//! and taking a seek deletes it in one statement, so two accepts of one seek cannot both win.

use super::{Store, StoreError};
use crate::accounts::PlayerRow;
use crate::clock::{Clock, TimeControl};
use crate::kinds::Side;

/// An open seek as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeekRow {
    /// The seek's id.
    pub id: String,
    /// The seeking player's id.
    pub player: String,
    /// The time control, if any.
    pub clock: Option<TimeControl>,
    /// Whether the game will be rated.
    pub rated: bool,
    /// The seeker's side, or none for a side drawn at random when accepted.
    pub colour: Option<Side>,
    /// When it was posted, in milliseconds since the epoch (the lobby lists the oldest first).
    pub created_ms: i64,
}

/// The most seeks the lobby holds: in all, and of one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeekBounds {
    /// Open seeks in the lobby, every server's together.
    pub total: usize,
    /// Open seeks of one player.
    pub per_player: usize,
}

/// What posting a seek did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Posted {
    /// The seek is open.
    Open,
    /// The lobby holds [`SeekBounds::total`] seeks already.
    LobbyFull,
    /// The player holds [`SeekBounds::per_player`] seeks already.
    PlayerFull,
}

/// What taking a seek found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Taking {
    /// The seek, now gone from the lobby: this taker won it.
    Taken(SeekRow),
    /// The seek is the taker's own (left open).
    Own,
    /// No such open seek: accepted, withdrawn, or its server stopped.
    Gone,
}

/// A game the lobby lists as being played now.
#[derive(Clone, Debug)]
pub struct LobbyGame {
    /// The game's id.
    pub id: String,
    /// Its players, B then A.
    pub players: [Option<PlayerRow>; 2],
    /// Its clock.
    pub clock: Option<Clock>,
    /// Whether it is rated.
    pub rated: bool,
    /// Moves played.
    pub moves: usize,
}

/// How one request counts against a shared rate: GCRA, a request every `interval_ms` on average,
/// `burst` at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateStep {
    /// The average spacing of requests, in milliseconds.
    pub interval_ms: i64,
    /// Requests allowed at once.
    pub burst: i64,
}

impl RateStep {
    /// GCRA on the stored theoretical arrival time `tat` (none for a key not seen or refilled):
    /// the new one when the request at `now` is let through, or how many milliseconds to wait.
    ///
    /// # Errors
    /// The wait, when the request is refused.
    pub fn step(self, tat: Option<i64>, now: i64) -> Result<i64, i64> {
        let next = tat.unwrap_or(now).max(now).saturating_add(self.interval_ms);
        let over = next - now - self.burst.saturating_mul(self.interval_ms);
        if over > 0 { Err(over) } else { Ok(next) }
    }
}

/// Milliseconds since the Unix epoch, by this machine's clock (SQLite's; PostgreSQL uses its own).
pub(crate) fn now_ms() -> i64 {
    crate::clock::now_ms()
}

impl Store {
    /// This store's server name when it has one of its own (PostgreSQL's, in its notifications).
    #[must_use]
    pub fn instance(&self) -> Option<&str> {
        match self {
            Store::Sqlite(_) => None,
            Store::Postgres(p) => Some(&p.instance),
        }
    }
}

dispatch! {
    /// Renews server `name`'s lease for `lease_ms`, and deletes what the servers whose leases
    /// expired held (their seeks and socket counts) and rate states that have refilled. Answers the
    /// games whose players' presence this changed.
    fn renew_server(&self, name: &str, lease_ms: i64) -> Vec<String>;
    /// Ends server `name`'s lease now and deletes what it held (a server stopping), answering the
    /// games whose players' presence this changed.
    fn leave_server(&self, name: &str) -> Vec<String>;
    /// Posts `seek` for server `owner` (whose lease it renews) if `bounds` allow, counted and
    /// inserted in one transaction so that servers posting at once cannot overshoot them.
    fn post_seek(&self, owner: &str, seek: &SeekRow, bounds: SeekBounds, lease_ms: i64) -> Posted;
    /// Withdraws seek `id` of player `player`; false when there is no such seek of theirs.
    fn cancel_seek(&self, id: &str, player: &str) -> bool;
    /// Takes open seek `id` for player `taker`, deleting it: of two takers, exactly one wins.
    fn take_seek(&self, id: &str, taker: &str) -> Taking;
    /// The open seeks (their server's lease unexpired), oldest first, with their players.
    fn open_seeks(&self) -> Vec<(SeekRow, PlayerRow)>;
    /// Online games going on with both seats taken, changed at or after `since` (seconds since the
    /// epoch), newest first.
    fn lobby_games(&self, since: i64, limit: usize) -> Vec<LobbyGame>;
    /// Player `player`'s online games going on with both seats taken, newest first.
    fn going_on_of(&self, player: &str, limit: usize) -> Vec<String>;
    /// Counts one request of `key` against `rate`: `None` when let through, else the milliseconds
    /// to wait. Every server's requests count together.
    fn rate_take(&self, key: &str, rate: RateStep) -> Option<i64>;
}

#[cfg(test)]
mod tests {
    use super::RateStep;

    #[test]
    fn a_rate_lets_a_burst_through_then_one_per_interval() {
        let r = RateStep { interval_ms: 1000, burst: 3 };
        let mut tat = None;
        for _ in 0..3 {
            tat = Some(r.step(tat, 0).unwrap());
        }
        assert_eq!(r.step(tat, 0), Err(1000), "the fourth at once waits one interval");
        assert_eq!(r.step(tat, 999), Err(1));
        let t = r.step(tat, 1000).unwrap();
        assert_eq!(r.step(Some(t), 1000), Err(1000));
        assert!(r.step(Some(t), 60_000).is_ok(), "refilled");
    }
}
