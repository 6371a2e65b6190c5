//! Live updates between servers sharing one database: a change heard from another server (see
//! `store::Change`) reloads that game (or its offers, or who of its players is connected) if it is
//! in memory here, and its watchers here receive it as
//! they receive this server's own changes (a delta from what they last had). A move made on one
//! server thus reaches the players and spectators connected to every other.

use crate::error::ApiError;
use crate::hub::Hub;
use crate::live::{LiveGame, rebuild};
use crate::seat::Caller;
use crate::store::Change;
use crate::view::GameView;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

impl Hub {
    /// Follows the other servers' changes while the hub lives (nothing to follow alone).
    pub(crate) fn follow_changes(self: &Arc<Self>) {
        let Some(mut changes) = self.store.changes() else { return };
        let hub = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                let change = changes.recv().await;
                let Some(hub) = hub.upgrade() else { return };
                let rereads = match change {
                    Ok(Change::Game(id)) => vec![Reread::Game(id)],
                    Ok(Change::Offers(id)) => vec![Reread::Offers(id)],
                    Ok(Change::Presence(id)) => vec![Reread::Presence(id)],
                    // Changes may have been missed: every game in memory is read again.
                    Ok(Change::Resync) | Err(RecvError::Lagged(_)) => {
                        hub.games.all().iter().map(|l| Reread::Everything(l.id().to_string())).collect()
                    }
                    Err(RecvError::Closed) => return,
                };
                for r in rereads {
                    let hub = Arc::clone(&hub);
                    // A failure leaves the game as it was here; the next change reads it again.
                    tokio::spawn(async move { hub.reread(r).await });
                }
            }
        });
    }

    /// Reads `r` again, for a game in memory here.
    async fn reread(self: &Arc<Self>, r: Reread) {
        match r {
            Reread::Game(id) => drop(self.refresh(&id).await),
            Reread::Offers(id) => drop(self.refresh_offers(&id).await),
            Reread::Presence(id) => self.refresh_presence(&id).await,
            Reread::Everything(id) => {
                let _ = self.refresh(&id).await;
                let _ = self.refresh_offers(&id).await;
                self.refresh_presence(&id).await;
            }
        }
    }

    /// Plays `mv` for the seat `caller` holds. Committed to the store before it returns. With a
    /// shared store, a move refused because this server had not yet heard of another server's
    /// change (out of turn, or its ply already stored) is tried once more on the game read again.
    ///
    /// # Errors
    /// [`ApiError::Forbidden`] (wrong token), [`ApiError::Conflict`] (out of turn, game over, time
    /// up), [`ApiError::BadRequest`] (not a move), [`ApiError::Illegal`] (R3, R5).
    pub async fn play(self: &Arc<Self>, id: &str, caller: &Caller, mv: &str) -> Result<GameView, ApiError> {
        self.play_answering(id, caller, mv, LiveGame::view).await
    }

    /// [`Hub::play`] answering `answer(game)` once the move is made (a socket's move needs no
    /// view: its update comes through the broadcast, and a whole game's view costs a string per
    /// ply).
    pub(crate) async fn play_answering<T>(
        self: &Arc<Self>,
        id: &str,
        caller: &Caller,
        mv: &str,
        answer: fn(&LiveGame) -> T,
    ) -> Result<T, ApiError> {
        match self.play_here(id, caller, mv, answer).await {
            Err(ApiError::Conflict(_)) if self.store.shared() => {
                self.refresh(id).await?;
                self.play_here(id, caller, mv, answer).await
            }
            r => r,
        }
    }

    /// Reads game `id` again from the store if it is in memory, and tells its watchers here what
    /// changed, if anything.
    ///
    /// # Errors
    /// [`ApiError::Internal`] if the store fails or the stored game does not replay.
    pub(crate) async fn refresh(self: &Arc<Self>, id: &str) -> Result<(), ApiError> {
        let Some(live) = self.games.get(id) else { return Ok(()) };
        let mut g = live.state.lock().await;
        let key = id.to_string();
        let Some((row, moves)) = self.db(move |s| s.load(&key)).await? else { return Ok(()) };
        let common = g.game.moves().iter().zip(&moves).take_while(|(m, s)| m.to_string() == **s).count();
        let same_moves = common == moves.len() && common == g.game.moves().len();
        // The row in memory does not follow `updated`; everything else it does.
        let same_row = GameRowCmp(&row) == GameRowCmp(&g.row);
        if same_moves && same_row {
            return Ok(());
        }
        let game = rebuild(&row, &moves)?;
        g.players = self.cards(&row).await?;
        g.row = row;
        g.game = game;
        if !same_moves {
            g.takeback = None;
        }
        g.version += 1;
        live.rewind_sent(common);
        self.arm(&live, &mut g);
        live.broadcast(&g);
        Ok(())
    }
}

/// What of a game is read again after another server's change.
enum Reread {
    /// Its row and moves.
    Game(String),
    /// Its offers.
    Offers(String),
    /// Its players' sockets open on the other servers.
    Presence(String),
    /// All of these (changes may have been missed).
    Everything(String),
}

/// A game row compared without its `updated` time.
struct GameRowCmp<'a>(&'a crate::store::GameRow);

impl PartialEq for GameRowCmp<'_> {
    fn eq(&self, other: &Self) -> bool {
        let mut a = self.0.clone();
        a.updated = other.0.updated;
        a == *other.0
    }
}
