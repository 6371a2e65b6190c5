//! What one player of an online game asks and the other may agree to: taking back a move, and a
//! rematch with colours swapped. Offers are kept in the store with the game (`store::offers`), so
//! the two players may be on two servers: each answer is decided by one conditional write, and
//! every other server hears of it and tells its watchers (see `refresh_offers`).

use crate::clock::Clock;
use crate::error::ApiError;
use crate::hub::{Hub, Seating};
use crate::kinds::{Mode, Side};
use crate::live::{Live, LiveGame};
use crate::seat::{Caller, Seat};
use crate::store::offers::StoredOffers;
use crate::view::{GameView, Rematch};
use std::sync::Arc;
use vlt_core::{Game, Player, Position};

/// The one seat `caller` holds in an online game.
fn own_seat(seat: Seat, mode: Mode) -> Result<Player, ApiError> {
    match (seat, mode) {
        (Seat::One(p), Mode::Online) => Ok(p),
        _ => Err(ApiError::Forbidden("only the players of an online game may ask this".into())),
    }
}

/// Makes `g`'s offers those `stored` says; true when that changed them.
fn apply(g: &mut LiveGame, stored: &StoredOffers) -> bool {
    let takeback = stored.takeback_at(g.game.moves().len());
    let rematch = Rematch { offered_by: stored.rematch_by, game: stored.rematch_game.clone() };
    let changed = g.takeback != takeback || g.rematch != rematch;
    g.takeback = takeback;
    g.rematch = rematch;
    changed
}

impl Hub {
    /// Game `id` locked, as the store has it now: another server may have changed its moves or
    /// its offers a moment ago.
    async fn current(self: &Arc<Self>, id: &str) -> Result<Arc<Live>, ApiError> {
        if self.store.shared() {
            self.refresh(id).await?;
        }
        self.get(id).await
    }

    /// Reads game `g`'s offers from the store into it.
    async fn read_offers(&self, g: &mut LiveGame) -> Result<bool, ApiError> {
        let key = g.row.id.clone();
        let stored = self.db(move |s| s.offers(&key)).await?;
        Ok(apply(g, &stored))
    }

    /// Reads the offers of game `id` again if it is in memory here, and tells its watchers when
    /// they changed (another server's player asked or answered).
    pub(crate) async fn refresh_offers(self: &Arc<Self>, id: &str) -> Result<(), ApiError> {
        let Some(live) = self.games.get(id) else { return Ok(()) };
        let mut g = live.state.lock().await;
        if self.read_offers(&mut g).await? {
            g.version += 1;
            live.broadcast(&g);
        }
        Ok(())
    }

    /// Loads the offers of a game just read from the store (an online game only: no other has any).
    pub(crate) async fn load_offers(&self, g: &mut LiveGame) -> Result<(), ApiError> {
        if g.row.mode == Mode::Online {
            self.read_offers(g).await?;
        }
        Ok(())
    }

    /// Asks to take back `caller`'s last move, or, when the opponent asked, agrees and takes back
    /// theirs.
    ///
    /// # Errors
    /// [`ApiError::Forbidden`] for a non-player, [`ApiError::Conflict`] when the game is over or
    /// there is no move to take back.
    pub async fn takeback(self: &Arc<Self>, id: &str, caller: &Caller) -> Result<GameView, ApiError> {
        let live = self.current(id).await?;
        let mut g = live.state.lock().await;
        let me = own_seat(Self::seat_checked(&g, caller)?, g.row.mode)?;
        if g.over() {
            return Err(ApiError::Conflict("the game is over".into()));
        }
        self.read_offers(&mut g).await?;
        let plies = g.game.moves().len();
        match g.takeback {
            Some(s) if s == Side::from(me) => Err(ApiError::Conflict("you already asked".into())),
            Some(s) => {
                // Agreed once only: the offer is taken out of the store first.
                let key = g.row.id.clone();
                if !self.db(move |st| st.clear_takeback(&key, plies, Some(s))).await? {
                    return Err(ApiError::Conflict("the takeback was withdrawn".into()));
                }
                self.take_back(&live, &mut g, Some(s.into())).await?;
                Ok(g.view())
            }
            None => {
                if !g.game.moves().iter().any(|m| m.player() == me) {
                    return Err(ApiError::Conflict("there is no move of yours to take back".into()));
                }
                let (key, side) = (g.row.id.clone(), Side::from(me));
                if !self.db(move |st| st.ask_takeback(&key, side, plies)).await? {
                    return Err(ApiError::Conflict("your opponent asked for a takeback first".into()));
                }
                g.takeback = Some(side);
                g.version += 1;
                let view = g.view();
                live.broadcast(&g);
                Ok(view)
            }
        }
    }

    /// Declines the opponent's takeback request, or withdraws one's own.
    ///
    /// # Errors
    /// [`ApiError::Forbidden`] for a non-player, [`ApiError::Conflict`] when nothing was asked.
    pub async fn decline_takeback(self: &Arc<Self>, id: &str, caller: &Caller) -> Result<GameView, ApiError> {
        let live = self.current(id).await?;
        let mut g = live.state.lock().await;
        own_seat(Self::seat_checked(&g, caller)?, g.row.mode)?;
        let (key, plies) = (g.row.id.clone(), g.game.moves().len());
        if !self.db(move |st| st.clear_takeback(&key, plies, None)).await? {
            return Err(ApiError::Conflict("no takeback was asked".into()));
        }
        g.takeback = None;
        g.version += 1;
        let view = g.view();
        live.broadcast(&g);
        Ok(view)
    }

    /// Offers a rematch of a finished online game, or, when the opponent offered one, starts it:
    /// a new game with colours swapped and the same time control and rating, whose id both
    /// players' sockets then receive in `rematch.game`.
    ///
    /// # Errors
    /// [`ApiError::Forbidden`] for a non-player, [`ApiError::Conflict`] while the game goes on or
    /// when a player is not known by name.
    pub async fn rematch(self: &Arc<Self>, id: &str, caller: &Caller) -> Result<GameView, ApiError> {
        let live = self.current(id).await?;
        let mut g = live.state.lock().await;
        let me = Side::from(own_seat(Self::seat_checked(&g, caller)?, g.row.mode)?);
        if !g.over() {
            return Err(ApiError::Conflict("a rematch is offered once the game is over".into()));
        }
        let Some([b, a]) = g.both_players() else {
            return Err(ApiError::Conflict("a rematch needs both players known by name".into()));
        };
        self.read_offers(&mut g).await?;
        if g.rematch.game.is_none() && g.rematch.offered_by.is_none() {
            let key = g.row.id.clone();
            if self.db(move |st| st.offer_rematch(&key, me)).await? {
                g.rematch.offered_by = Some(me);
                g.version += 1;
                let view = g.view();
                live.broadcast(&g);
                return Ok(view);
            }
            // The opponent offered at the same moment: this is then the agreement.
            self.read_offers(&mut g).await?;
        }
        if g.rematch.game.is_some() {
            return Ok(g.view());
        }
        if g.rematch.offered_by == Some(me) {
            return Err(ApiError::Conflict("you already offered a rematch".into()));
        }
        // Colours swapped: who was A now sits at B, who moves first (R2).
        let seating = Seating {
            token_b: None,
            token_a: None,
            player_b: Some(a),
            player_a: Some(b),
            rated: g.row.rated,
            clock: g.row.clock.map(|c| Clock::new(c.control)),
        };
        let row = self.new_row(Mode::Online, Position::start(Player::B), None, None, seating)?;
        // Agreed once only: the offer names its game before the game is made.
        let (key, new, by) = (g.row.id.clone(), row.id.clone(), me.other());
        let claimed = new.clone();
        if !self.db(move |st| st.claim_rematch(&key, by, &claimed)).await? {
            self.read_offers(&mut g).await?;
            return Ok(g.view());
        }
        if let Err(e) = self.insert(row, Game::default(), String::new(), Seat::One(Player::B)).await {
            let (key, claimed) = (g.row.id.clone(), new);
            // Best effort: the offer stands again for a later try.
            let _ = self.db(move |st| st.unclaim_rematch(&key, &claimed)).await;
            return Err(e);
        }
        g.rematch.game = Some(new);
        g.version += 1;
        let view = g.view();
        live.broadcast(&g);
        Ok(view)
    }
}
