//! The lobby: open seeks (a time control, rated or casual, a colour) that another player accepts
//! with one click, and the online games being played now, to watch. Seeks live in memory: a
//! restart clears the lobby, not the games.

use crate::accounts::PlayerCard;
use crate::clock::{Clock, TimeControl};
use crate::error::ApiError;
use crate::hub::{Hub, Seating, random_hex};
use crate::identity::token_hash;
use crate::kinds::{Mode, Side};
use crate::seat::{Caller, Seat, waiting_for_second};
use crate::view::Players;
use crate::wire::Seated;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex, MutexGuard};
use vlt_core::{Game, Player, Position};

/// Open seeks the lobby holds at most.
const MAX_SEEKS: usize = 500;
/// Open seeks one player may hold.
const SEEKS_PER_PLAYER: usize = 3;
/// Games listed as being played now.
const PLAYING_LISTED: usize = 50;

/// The colour a seeker asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Colour {
    /// To play B (moves first).
    B,
    /// To play A.
    A,
    /// Either, drawn when the seek is accepted.
    #[default]
    #[serde(rename = "random")]
    Random,
}

/// What posting a seek asks for.
#[derive(Clone, Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct NewSeek {
    /// The time control, or none.
    pub clock: Option<TimeControl>,
    /// Rated (default) or casual.
    pub rated: Option<bool>,
    /// The seeker's colour (default random).
    pub colour: Option<Colour>,
}

/// An open seek.
#[derive(Clone, Debug, Serialize)]
pub struct Seek {
    /// The seek's id.
    pub id: String,
    /// Who seeks.
    pub player: PlayerCard,
    /// The time control.
    pub clock: Option<TimeControl>,
    /// Whether the game will be rated.
    pub rated: bool,
    /// The seeker's colour.
    pub colour: Colour,
}

/// A game being played now, as the lobby lists it.
#[derive(Clone, Debug, Serialize)]
pub struct Playing {
    /// The game's id.
    pub id: String,
    /// Its players.
    pub players: Players,
    /// Its time control.
    pub clock: Option<TimeControl>,
    /// Whether it is rated.
    pub rated: bool,
    /// Moves played.
    pub moves: usize,
}

/// The lobby as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct LobbyView {
    /// Open seeks, oldest first.
    pub seeks: Vec<Seek>,
    /// Online games being played now.
    pub playing: Vec<Playing>,
    /// The asking player's games going on now (a seek of theirs that was accepted shows here).
    pub mine: Vec<String>,
}

/// The seeks.
#[derive(Debug, Default)]
pub struct Lobby {
    seeks: Mutex<Vec<Seek>>,
}

impl Lobby {
    fn lock(&self) -> MutexGuard<'_, Vec<Seek>> {
        self.seeks.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

fn named(caller: &Caller) -> Result<&crate::accounts::PlayerRow, ApiError> {
    caller
        .player
        .as_ref()
        .ok_or_else(|| ApiError::Forbidden("choose a name first: the lobby is for players".into()))
}

impl Hub {
    /// Posts a seek for `caller`.
    ///
    /// # Errors
    /// [`ApiError::Forbidden`] without a name, [`ApiError::BadRequest`] for a bad clock,
    /// [`ApiError::Busy`] when the lobby or the player holds too many seeks.
    pub fn create_seek(&self, caller: &Caller, req: NewSeek) -> Result<Seek, ApiError> {
        let me = named(caller)?;
        let clock = req.clock.map(TimeControl::checked).transpose()?;
        let seek = Seek {
            id: random_hex(6)?,
            player: me.card(),
            clock,
            rated: req.rated.unwrap_or(true),
            colour: req.colour.unwrap_or_default(),
        };
        let mut seeks = self.lobby.lock();
        if seeks.len() >= MAX_SEEKS {
            return Err(ApiError::Busy("the lobby is full; accept a seek or try later".into()));
        }
        if seeks.iter().filter(|s| s.player.id == me.id).count() >= SEEKS_PER_PLAYER {
            return Err(ApiError::Busy(format!("a player holds at most {SEEKS_PER_PLAYER} open seeks")));
        }
        seeks.push(seek.clone());
        Ok(seek)
    }

    /// Withdraws `caller`'s seek `id`.
    ///
    /// # Errors
    /// [`ApiError::NotFound`] when there is no such seek of theirs.
    pub fn cancel_seek(&self, id: &str, caller: &Caller) -> Result<(), ApiError> {
        let me = named(caller)?;
        let mut seeks = self.lobby.lock();
        let before = seeks.len();
        seeks.retain(|s| !(s.id == id && s.player.id == me.id));
        if seeks.len() == before {
            return Err(ApiError::NotFound(format!("seek {id}")));
        }
        Ok(())
    }

    /// Accepts seek `id` for `caller`: the game starts at once, both players seated.
    ///
    /// # Errors
    /// [`ApiError::NotFound`] when the seek is gone (accepted or withdrawn), [`ApiError::Conflict`]
    /// for one's own seek.
    pub async fn accept_seek(self: &Arc<Self>, id: &str, caller: &Caller) -> Result<Seated, ApiError> {
        let me = named(caller)?.id.clone();
        let seek = {
            let mut seeks = self.lobby.lock();
            let i = seeks
                .iter()
                .position(|s| s.id == id)
                .ok_or_else(|| ApiError::NotFound(format!("seek {id}")))?;
            if seeks[i].player.id == me {
                return Err(ApiError::Conflict("this is your own seek".into()));
            }
            seeks.remove(i)
        };
        let seeker_side = match seek.colour {
            Colour::B => Side::B,
            Colour::A => Side::A,
            Colour::Random => {
                let mut b = [0u8; 1];
                getrandom::getrandom(&mut b).map_err(|e| ApiError::Internal(format!("random: {e}")))?;
                if b[0] & 1 == 0 { Side::B } else { Side::A }
            }
        };
        let token = random_hex(16)?;
        let mine = Some(token_hash(&token));
        let (player_b, player_a, token_b, token_a) = match seeker_side {
            Side::B => (Some(seek.player.id.clone()), Some(me), None, mine),
            Side::A => (Some(me), Some(seek.player.id.clone()), mine, None),
        };
        let seating = Seating {
            token_b,
            token_a,
            player_b,
            player_a,
            rated: seek.rated,
            clock: seek.clock.map(Clock::new),
        };
        let row = self.new_row(Mode::Online, Position::start(Player::B), None, None, seating)?;
        let seat = Seat::One(seeker_side.other().into());
        self.insert(row, Game::default(), token, seat).await
    }

    /// The lobby as `caller` sees it.
    #[must_use]
    pub fn lobby_view(&self, caller: &Caller) -> LobbyView {
        let seeks = self.lobby.lock().clone();
        let me = caller.player_id();
        let (mut playing, mut mine) = (Vec::new(), Vec::new());
        for live in self.games.all() {
            // A game busy at this instant is left out of this listing rather than waited for.
            let Ok(g) = live.state.try_lock() else { continue };
            if g.row.mode != Mode::Online || g.over() || waiting_for_second(&g.row) {
                continue;
            }
            if me.is_some() && (g.row.player_b.as_deref() == me || g.row.player_a.as_deref() == me) {
                mine.push(g.row.id.clone());
            }
            playing.push((
                g.row.created,
                Playing {
                    id: g.row.id.clone(),
                    players: Players { b: g.players[0].clone(), a: g.players[1].clone() },
                    clock: g.row.clock.map(|c| c.control),
                    rated: g.row.rated,
                    moves: g.game.moves().len(),
                },
            ));
        }
        playing.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.id.cmp(&b.1.id)));
        let playing = playing.into_iter().take(PLAYING_LISTED).map(|p| p.1).collect();
        LobbyView { seeks, playing, mine }
    }
}
