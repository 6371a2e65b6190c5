//! What one player of an online game asks and the other may agree to: taking back a move, and a
//! rematch with colours swapped. Offers live in memory with the game (a restart forgets them).

use crate::clock::Clock;
use crate::error::ApiError;
use crate::hub::{Hub, Seating};
use crate::kinds::{Mode, Side};
use crate::seat::{Caller, Seat};
use crate::view::GameView;
use std::sync::Arc;
use vlt_core::{Game, Player, Position};

/// The one seat `caller` holds in an online game.
fn own_seat(seat: Seat, mode: Mode) -> Result<Player, ApiError> {
    match (seat, mode) {
        (Seat::One(p), Mode::Online) => Ok(p),
        _ => Err(ApiError::Forbidden("only the players of an online game may ask this".into())),
    }
}

impl Hub {
    /// Asks to take back `caller`'s last move, or, when the opponent asked, agrees and takes back
    /// theirs.
    ///
    /// # Errors
    /// [`ApiError::Forbidden`] for a non-player, [`ApiError::Conflict`] when the game is over or
    /// there is no move to take back.
    pub async fn takeback(self: &Arc<Self>, id: &str, caller: &Caller) -> Result<GameView, ApiError> {
        let live = self.get(id).await?;
        let mut g = live.state.lock().await;
        let me = own_seat(Self::seat_checked(&g, caller)?, g.row.mode)?;
        if g.over() {
            return Err(ApiError::Conflict("the game is over".into()));
        }
        match g.takeback {
            Some(s) if s == Side::from(me) => Err(ApiError::Conflict("you already asked".into())),
            Some(s) => {
                self.take_back(&live, &mut g, Some(s.into())).await?;
                Ok(g.view())
            }
            None => {
                if !g.game.moves().iter().any(|m| m.player() == me) {
                    return Err(ApiError::Conflict("there is no move of yours to take back".into()));
                }
                g.takeback = Some(me.into());
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
        let live = self.get(id).await?;
        let mut g = live.state.lock().await;
        own_seat(Self::seat_checked(&g, caller)?, g.row.mode)?;
        if g.takeback.take().is_none() {
            return Err(ApiError::Conflict("no takeback was asked".into()));
        }
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
        let live = self.get(id).await?;
        let mut g = live.state.lock().await;
        let me = Side::from(own_seat(Self::seat_checked(&g, caller)?, g.row.mode)?);
        if !g.over() {
            return Err(ApiError::Conflict("a rematch is offered once the game is over".into()));
        }
        let Some([b, a]) = g.both_players() else {
            return Err(ApiError::Conflict("a rematch needs both players known by name".into()));
        };
        if g.rematch.game.is_some() {
            return Ok(g.view());
        }
        match g.rematch.offered_by {
            Some(s) if s == me => return Err(ApiError::Conflict("you already offered a rematch".into())),
            None => g.rematch.offered_by = Some(me),
            Some(_) => {
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
                let new = self.insert(row, Game::default(), String::new(), Seat::One(Player::B)).await?;
                g.rematch.game = Some(new.game.id);
            }
        }
        g.version += 1;
        let view = g.view();
        live.broadcast(&g);
        Ok(view)
    }
}
