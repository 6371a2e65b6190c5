//! Players through the hub: who a request's cookie names, choosing and changing a name, accounts
//! (password, log-in on another device, log-out), the player page and the leaderboard.

use crate::accounts::{PlayedGame, PlayerCard, RatingPoint, Taken};
use crate::error::ApiError;
use crate::hub::{Hub, random_hex};
use crate::identity::{check_name, hash_password, password_matches, token_hash};
use crate::seat::Caller;
use serde::Serialize;
use std::sync::Arc;

/// The player page.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerPage {
    /// The player.
    pub player: PlayerCard,
    /// The rating after each rated game, oldest first.
    pub history: Vec<RatingPoint>,
    /// Recent games, newest first.
    pub games: Vec<PlayedGame>,
}

/// Games on a player page.
const PAGE_GAMES: usize = 50;

fn taken(t: Taken) -> ApiError {
    match t {
        Taken::Name => ApiError::Conflict("an account already has that name; choose another".into()),
    }
}

impl Hub {
    /// Who is asking: `seat_token` (maybe empty) and the player `cookie` names, if any.
    ///
    /// # Errors
    /// [`ApiError::Internal`] if the store fails.
    pub async fn caller(&self, cookie: Option<String>, seat_token: &str) -> Result<Caller, ApiError> {
        let player = match cookie {
            Some(t) => {
                let h = token_hash(&t);
                self.db(move |s| s.player_by_token(&h)).await?
            }
            None => None,
        };
        Ok(Caller { token: seat_token.to_string(), player })
    }

    /// Names the caller: a new player (with a new cookie token, returned) when the cookie names
    /// nobody, else a new name for the player it names.
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] for a refused name, [`ApiError::Conflict`] when an account has it.
    pub async fn set_name(
        &self,
        caller: &Caller,
        name: &str,
    ) -> Result<(PlayerCard, Option<String>), ApiError> {
        let name = check_name(name)?;
        match &caller.player {
            Some(p) => {
                let (id, n) = (p.id.clone(), name.clone());
                self.db(move |s| s.rename(&id, &n)).await?.map_err(taken)?;
                let mut p = p.clone();
                p.name = name;
                Ok((p.card(), None))
            }
            None => {
                let (id, token) = (random_hex(6)?, random_hex(16)?);
                let (i, n, h) = (id.clone(), name.clone(), token_hash(&token));
                self.db(move |s| s.create_player(&i, &n, &h)).await?;
                let p = self
                    .db(move |s| s.player(&id))
                    .await?
                    .ok_or_else(|| ApiError::Internal("new player".into()))?;
                Ok((p.card(), Some(token)))
            }
        }
    }

    /// Gives the caller's player a password: an account, whose name others cannot take, to log
    /// in with on another device.
    ///
    /// # Errors
    /// [`ApiError::Forbidden`] without a player, [`ApiError::BadRequest`] for a refused password,
    /// [`ApiError::Conflict`] when an account has the name already.
    pub async fn set_password(&self, caller: &Caller, password: &str) -> Result<PlayerCard, ApiError> {
        let p = caller.player.clone().ok_or_else(|| ApiError::Forbidden("choose a name first".into()))?;
        let password = password.to_string();
        // Argon2 takes a while on purpose: off the async threads.
        let hash = tokio::task::spawn_blocking(move || hash_password(&password))
            .await
            .map_err(|e| ApiError::Internal(format!("password task: {e}")))??;
        let id = p.id.clone();
        self.db(move |s| s.set_password(&id, &hash)).await?.map_err(taken)?;
        let id = p.id.clone();
        let p =
            self.db(move |s| s.player(&id)).await?.ok_or_else(|| ApiError::Internal("player gone".into()))?;
        Ok(p.card())
    }

    /// Logs in to the account `name` with `password`: a new cookie token for its player.
    ///
    /// # Errors
    /// [`ApiError::Forbidden`] when the name or password is wrong (the same answer for both).
    pub async fn login(&self, name: &str, password: &str) -> Result<(PlayerCard, String), ApiError> {
        let n = name.to_string();
        let account = self.db(move |s| s.account(&n)).await?;
        let password = password.to_string();
        let ok = tokio::task::spawn_blocking(move || match account {
            Some((id, hash)) => password_matches(&password, &hash).then_some(id),
            None => {
                // The same work for an unknown name, so timing does not tell names apart.
                static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
                let dummy = DUMMY.get_or_init(|| hash_password("no such account").unwrap_or_default());
                let _ = password_matches(&password, dummy);
                None
            }
        })
        .await
        .map_err(|e| ApiError::Internal(format!("password task: {e}")))?;
        let id = ok.ok_or_else(|| ApiError::Forbidden("wrong name or password".into()))?;
        let token = random_hex(16)?;
        let (i, h) = (id.clone(), token_hash(&token));
        self.db(move |s| s.add_token(&i, &h)).await?;
        let p =
            self.db(move |s| s.player(&id)).await?.ok_or_else(|| ApiError::Internal("player gone".into()))?;
        Ok((p.card(), token))
    }

    /// Forgets the cookie's token (log out on this device).
    ///
    /// # Errors
    /// [`ApiError::Internal`] if the store fails.
    pub async fn logout(&self, cookie: Option<String>) -> Result<(), ApiError> {
        if let Some(t) = cookie {
            let h = token_hash(&t);
            self.db(move |s| s.remove_token(&h)).await?;
        }
        Ok(())
    }

    /// Player `id`'s page.
    ///
    /// # Errors
    /// [`ApiError::NotFound`] when there is no such player.
    pub async fn player_page(self: &Arc<Self>, id: &str) -> Result<PlayerPage, ApiError> {
        if id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(ApiError::NotFound("no such player".into()));
        }
        let key = id.to_string();
        self.db(move |s| {
            let Some(p) = s.player(&key)? else { return Ok(None) };
            Ok(Some(PlayerPage {
                player: p.card(),
                history: s.rating_history(&key)?,
                games: s.games_of(&key, PAGE_GAMES)?,
            }))
        })
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no player {id}")))
    }

    /// The best-rated players.
    ///
    /// # Errors
    /// [`ApiError::Internal`] if the store fails.
    pub async fn leaderboard(&self, limit: usize) -> Result<Vec<PlayerCard>, ApiError> {
        let limit = limit.clamp(1, 200);
        Ok(self.db(move |s| s.leaderboard(limit)).await?.iter().map(|p| p.card()).collect())
    }
}
