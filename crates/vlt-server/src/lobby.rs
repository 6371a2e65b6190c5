//! The lobby: open seeks (a time control, rated or casual, a colour) that another player accepts
//! with one click, and the online games being played now, to watch. Everything the lobby lists is
//! read from the store (`store::seeks`), so every server sharing a database lists the same seeks
//! and games: a seek posted on one server is accepted on another, and its seeker, polling any
//! server, finds the game among theirs. A seek is held under its server's lease: a server that
//! stops takes its seeks out of the lobby (see `servers`).

use crate::accounts::PlayerCard;
use crate::clock::{Clock, TimeControl};
use crate::error::ApiError;
use crate::hub::{Hub, Seating, random_hex};
use crate::identity::token_hash;
use crate::kinds::{Mode, Side};
use crate::seat::{Caller, Seat};
use crate::servers::SERVER_LEASE_MS;
use crate::store::seeks::{LobbyGame, Posted, SeekBounds, SeekRow, Taking};
use crate::store::{Store, now};
use crate::view::Players;
use crate::wire::Seated;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use vlt_core::{Game, Player, Position};

/// Open seeks the lobby holds at most.
const MAX_SEEKS: usize = 500;
/// Open seeks one player may hold.
const SEEKS_PER_PLAYER: usize = 3;
/// Games listed as being played now.
const PLAYING_LISTED: usize = 50;
/// A game is listed as being played now while it changed within this many seconds.
const PLAYING_WITHIN_S: i64 = 3600;
/// The asking player's games going on that the lobby names at most.
const MINE_LISTED: usize = 50;

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

/// This server in the lobby: the name its seeks are held under (its lease's, see `servers`).
#[derive(Debug)]
pub struct Lobby {
    server: Arc<str>,
    /// Set once this server gave its lease up: it renews it no more.
    left: std::sync::atomic::AtomicBool,
}

impl Lobby {
    /// The lobby of a server over `store`: named as the store names this server, if it does.
    #[must_use]
    pub fn new(store: &Store) -> Lobby {
        let name = store.instance().map(str::to_string).or_else(|| random_hex(8).ok());
        let server = Arc::from(name.unwrap_or_else(|| format!("{:x}", crate::clock::now_ms())));
        Lobby { server, left: std::sync::atomic::AtomicBool::new(false) }
    }

    /// Notes that this server gives its lease up.
    pub(crate) fn leave(&self) {
        self.left.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether this server gave its lease up.
    pub(crate) fn has_left(&self) -> bool {
        self.left.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// This server's name.
    #[must_use]
    pub fn server(&self) -> &str {
        &self.server
    }
}

impl Seek {
    fn new(row: SeekRow, player: &crate::accounts::PlayerRow) -> Seek {
        let colour = match row.colour {
            Some(Side::B) => Colour::B,
            Some(Side::A) => Colour::A,
            None => Colour::Random,
        };
        Seek { id: row.id, player: player.card(), clock: row.clock, rated: row.rated, colour }
    }
}

impl Playing {
    fn new(g: LobbyGame) -> Playing {
        let [b, a] = g.players;
        Playing {
            id: g.id,
            players: Players { b: b.map(|p| p.card()), a: a.map(|p| p.card()) },
            clock: g.clock.map(|c| c.control),
            rated: g.rated,
            moves: g.moves,
        }
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
    pub async fn create_seek(&self, caller: &Caller, req: NewSeek) -> Result<Seek, ApiError> {
        let me = named(caller)?.clone();
        let clock = req.clock.map(TimeControl::checked).transpose()?;
        let colour = match req.colour.unwrap_or_default() {
            Colour::B => Some(Side::B),
            Colour::A => Some(Side::A),
            Colour::Random => None,
        };
        let row = SeekRow {
            id: random_hex(6)?,
            player: me.id.clone(),
            clock,
            rated: req.rated.unwrap_or(true),
            colour,
            created_ms: crate::clock::now_ms(),
        };
        let (owner, stored) = (self.lobby.server.to_string(), row.clone());
        let bounds = SeekBounds { total: MAX_SEEKS, per_player: SEEKS_PER_PLAYER };
        match self.db(move |s| s.post_seek(&owner, &stored, bounds, SERVER_LEASE_MS)).await? {
            Posted::Open => Ok(Seek::new(row, &me)),
            Posted::LobbyFull => Err(ApiError::Busy("the lobby is full; accept a seek or try later".into())),
            Posted::PlayerFull => {
                Err(ApiError::Busy(format!("a player holds at most {SEEKS_PER_PLAYER} open seeks")))
            }
        }
    }

    /// Withdraws `caller`'s seek `id`.
    ///
    /// # Errors
    /// [`ApiError::NotFound`] when there is no such seek of theirs.
    pub async fn cancel_seek(&self, id: &str, caller: &Caller) -> Result<(), ApiError> {
        let me = named(caller)?.id.clone();
        let key = id.to_string();
        if !self.db(move |s| s.cancel_seek(&key, &me)).await? {
            return Err(ApiError::NotFound(format!("no seek {}", shown(id))));
        }
        Ok(())
    }

    /// Accepts seek `id` for `caller`: the game starts at once, both players seated. Taking the
    /// seek out of the store decides who wins it, whichever servers two accepts reach.
    ///
    /// # Errors
    /// [`ApiError::NotFound`] when the seek is gone (accepted or withdrawn), [`ApiError::Conflict`]
    /// for one's own seek.
    pub async fn accept_seek(self: &Arc<Self>, id: &str, caller: &Caller) -> Result<Seated, ApiError> {
        let me = named(caller)?.id.clone();
        let (key, taker) = (id.to_string(), me.clone());
        let seek = match self.db(move |s| s.take_seek(&key, &taker)).await? {
            Taking::Taken(seek) => seek,
            Taking::Own => return Err(ApiError::Conflict("this is your own seek".into())),
            Taking::Gone => return Err(ApiError::NotFound(format!("no seek {}", shown(id)))),
        };
        let seeker_side = match seek.colour {
            Some(side) => side,
            None => {
                let mut b = [0u8; 1];
                getrandom::getrandom(&mut b).map_err(|e| ApiError::Internal(format!("random: {e}")))?;
                if b[0] & 1 == 0 { Side::B } else { Side::A }
            }
        };
        let token = random_hex(16)?;
        let mine = Some(token_hash(&token));
        let (player_b, player_a, token_b, token_a) = match seeker_side {
            Side::B => (Some(seek.player.clone()), Some(me), None, mine),
            Side::A => (Some(me), Some(seek.player.clone()), mine, None),
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

    /// The lobby as `caller` sees it: every server's seeks and games.
    ///
    /// # Errors
    /// [`ApiError::Internal`] if the store fails.
    pub async fn lobby_view(&self, caller: &Caller) -> Result<LobbyView, ApiError> {
        let me = caller.player_id().map(str::to_string);
        let since = now() - PLAYING_WITHIN_S;
        let (seeks, playing, mine) = self
            .db(move |s| {
                let mine = match &me {
                    Some(p) => s.going_on_of(p, MINE_LISTED)?,
                    None => Vec::new(),
                };
                Ok((s.open_seeks()?, s.lobby_games(since, PLAYING_LISTED)?, mine))
            })
            .await?;
        Ok(LobbyView {
            seeks: seeks.into_iter().map(|(row, p)| Seek::new(row, &p)).collect(),
            playing: playing.into_iter().map(Playing::new).collect(),
            mine,
        })
    }
}

/// A seek id as an error shows it: bounded.
fn shown(id: &str) -> String {
    id.chars().take(64).collect()
}
