//! What the players of a game ask each other, kept with the game in the store so that every server
//! sees it: a takeback asked at a ply (it stands while the game has that many moves), a rematch
//! offered and, once agreed, its game. Each change is one conditional statement, so of two
//! answers given on two servers at once exactly one counts. With a shared database, every change
//! is notified to the other servers (`offers <game>`), as are the players' open sockets that each
//! server counts (`presence <game>`), held under that server's lease.

use super::{Store, StoreError};
use crate::kinds::Side;

/// A game's offers as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoredOffers {
    /// The side asking to take back its last move, and the number of moves when it asked.
    pub takeback: Option<(Side, usize)>,
    /// The side that offered a rematch.
    pub rematch_by: Option<Side>,
    /// The rematch's game, once agreed.
    pub rematch_game: Option<String>,
}

impl StoredOffers {
    /// The takeback asked, if it still stands in a game of `plies` moves.
    #[must_use]
    pub fn takeback_at(&self, plies: usize) -> Option<Side> {
        self.takeback.filter(|t| t.1 == plies).map(|t| t.0)
    }
}

/// A ply count as stored.
pub(crate) fn ply(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A stored ply count (a negative one, which no write makes, reads as none standing).
pub(crate) fn ply_read(n: Option<i64>) -> Option<usize> {
    n.and_then(|n| usize::try_from(n).ok())
}

dispatch! {
    /// The offers of game `game` (none when nothing was ever asked).
    fn offers(&self, game: &str) -> StoredOffers;
    /// Asks for `side` to take back its last move in a game of `plies` moves; false when a
    /// takeback asked at that ply stands already (of either side).
    fn ask_takeback(&self, game: &str, side: Side, plies: usize) -> bool;
    /// Withdraws the takeback standing at `plies` (asked by `by`, or by either side when `None`);
    /// false when there is none.
    fn clear_takeback(&self, game: &str, plies: usize, by: Option<Side>) -> bool;
    /// Offers a rematch for `side`; false when one was offered already (by either side).
    fn offer_rematch(&self, game: &str, side: Side) -> bool;
    /// Agrees to the rematch `by` offered, naming its game; false when there is no such offer, or
    /// it was agreed already.
    fn claim_rematch(&self, game: &str, by: Side, rematch: &str) -> bool;
    /// Takes back an agreement whose game could not be made.
    fn unclaim_rematch(&self, game: &str, rematch: &str) -> ();
    /// Records that server `server` has the players' sockets of each game in `counts` open (a
    /// game's id, then B's and A's count), in one transaction.
    fn publish_presence(&self, server: &str, counts: &[(String, [usize; 2])]) -> ();
    /// The players' sockets open on the other servers (leases unexpired) than `server`, B then A.
    fn remote_presence(&self, server: &str, game: &str) -> [usize; 2];
}
