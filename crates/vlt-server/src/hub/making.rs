//! Making games: created from a request, imported from a record, joined by a second player.
//! Every way of making a game goes through [`Hub::insert`] or `insert_all`, so the open-games
//! bound is checked in one place, atomically with the insertion.

use super::Hub;
use crate::clock::{Clock, now_ms};
use crate::config::ABANDONED_AFTER;
use crate::error::ApiError;
use crate::identity::token_hash;
use crate::kinds::{Forfeit, Mode, Side, StoredResult};
use crate::live::Live;
use crate::seat::{Caller, Seat};
use crate::store::{GameRow, now};
use crate::view::GameView;
use crate::wire::{Imported, NewGame, Seated};
use std::sync::Arc;
use vlt_core::{Game, Player, Position, Record};
use vlt_engine::Level;

/// The most games one import may bring.
pub const MAX_IMPORT: usize = 100;

/// A random secret of `bytes` bytes, in hex.
pub(crate) fn random_hex(bytes: usize) -> Result<String, ApiError> {
    let mut buf = vec![0u8; bytes];
    getrandom::getrandom(&mut buf).map_err(|e| ApiError::Internal(format!("random: {e}")))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// What a new game's row says beyond its mode and position.
pub(crate) struct Seating {
    pub(crate) token_b: Option<String>,
    pub(crate) token_a: Option<String>,
    pub(crate) player_b: Option<String>,
    pub(crate) player_a: Option<String>,
    pub(crate) rated: bool,
    pub(crate) clock: Option<Clock>,
}

impl Hub {
    /// Creates a game for `caller` (whose player, if known, takes the seat).
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] for a bad field, [`ApiError::Busy`] when too many games are open.
    pub async fn create(self: &Arc<Self>, req: NewGame, caller: &Caller) -> Result<Seated, ApiError> {
        let mode = req.mode.unwrap_or_default();
        let side = Player::from(req.side.unwrap_or(Side::B));
        let start = match &req.position {
            Some(p) => {
                let pos = p.parse::<Position>().map_err(|e| ApiError::BadRequest(e.to_string()))?;
                if pos.is_game_over() {
                    return Err(ApiError::BadRequest(
                        "position: the board is empty, there is no game to play".into(),
                    ));
                }
                pos
            }
            None => Position::start(req.first.unwrap_or(Side::B).into()),
        };
        let level = match mode {
            Mode::Computer => {
                let l = req.level.unwrap_or(3);
                Level::new(l).ok_or_else(|| ApiError::BadRequest(format!("level must be 1-10, not {l}")))?;
                Some(l)
            }
            _ => None,
        };
        let clock = match req.clock {
            Some(c) if mode == Mode::Online => Some(Clock::new(c.checked()?)),
            Some(_) => return Err(ApiError::BadRequest("clock: only online games have clocks".into())),
            None => None,
        };
        let rated = req.rated.unwrap_or(false);
        if rated && (mode != Mode::Online || caller.player.is_none() || req.position.is_some()) {
            return Err(ApiError::BadRequest(
                "rated: only online games from the start position between named players are rated".into(),
            ));
        }
        let token = random_hex(16)?;
        let hash = Some(token_hash(&token));
        let me = caller.player_id().map(str::to_string);
        let (seating, seat) = match (mode, side) {
            (Mode::Local, _) => (
                Seating {
                    token_b: hash.clone(),
                    token_a: hash,
                    player_b: None,
                    player_a: None,
                    rated,
                    clock,
                },
                Seat::Both,
            ),
            (_, Player::B) => (
                Seating { token_b: hash, token_a: None, player_b: me, player_a: None, rated, clock },
                Seat::One(Player::B),
            ),
            (_, Player::A) => (
                Seating { token_b: None, token_a: hash, player_b: None, player_a: me, rated, clock },
                Seat::One(Player::A),
            ),
        };
        let row =
            self.new_row(mode, start, level, (mode == Mode::Computer).then(|| side.other().into()), seating)?;
        self.insert(row, Game::new(start), token, seat).await
    }

    /// A new game's row.
    pub(crate) fn new_row(
        &self,
        mode: Mode,
        start: Position,
        level: Option<u8>,
        computer: Option<Side>,
        s: Seating,
    ) -> Result<GameRow, ApiError> {
        let t = now();
        let mut clock = s.clock;
        if let Some(c) = clock.as_mut().filter(|_| s.player_b.is_some() && s.player_a.is_some()) {
            c.seated(now_ms());
        }
        Ok(GameRow {
            id: random_hex(6)?,
            mode,
            start: start.to_string(),
            level,
            computer,
            token_b: s.token_b,
            token_a: s.token_a,
            resigned: None,
            finished: false,
            result: None,
            created: t,
            updated: t,
            tags: "[]".into(),
            player_b: s.player_b,
            player_a: s.player_a,
            rated: s.rated,
            clock,
            aborted: false,
        })
    }

    pub(crate) async fn insert(
        self: &Arc<Self>,
        row: GameRow,
        game: Game,
        token: String,
        seat: Seat,
    ) -> Result<Seated, ApiError> {
        let mut seated = self.insert_all(vec![(row, game)]).await?;
        let view = seated.swap_remove(0);
        Ok(Seated { seat, token, game: view })
    }

    /// Stores new games, all or none, within the open-games bound (checked in the store's write
    /// transaction, so every way of making games shares it and racing requests cannot overshoot),
    /// then brings them live.
    async fn insert_all(self: &Arc<Self>, games: Vec<(GameRow, Game)>) -> Result<Vec<GameView>, ApiError> {
        let rows: Vec<(GameRow, Vec<String>)> = games
            .iter()
            .map(|(row, game)| (row.clone(), game.moves().iter().map(ToString::to_string).collect()))
            .collect();
        let bound = (self.bounds.max_open_games, now() - ABANDONED_AFTER.as_secs() as i64);
        if !super::game_write!(self, insert_games(rows, Some(bound)))? {
            return Err(ApiError::Busy(format!(
                "the server holds {} unfinished games, its limit; finish or resign one first",
                bound.0
            )));
        }
        let mut views = Vec::with_capacity(games.len());
        for (row, game) in games {
            let cards = self.cards(&row).await?;
            let live = Arc::new(Live::new(row, game, &self.epoch, cards, self.bounds.abort_ms));
            let view = {
                let mut g = live.state.lock().await;
                self.arm(&live, &mut g);
                g.view()
            };
            let live = self.games.insert(&view.id, live);
            self.spawn_computer(&live);
            views.push(view);
        }
        Ok(views)
    }

    /// Imports a record (as written by `GET /record` or `vlt replay`) as new two-on-one-screen
    /// games, every game of it or none; one token holds both seats of each.
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] naming what is wrong in the record (nothing is imported then),
    /// [`ApiError::Busy`] when the games would pass the open-games bound.
    pub async fn import(self: &Arc<Self>, text: &str) -> Result<Imported, ApiError> {
        let records = Record::parse_all(text).map_err(|e| ApiError::BadRequest(e.to_string()))?;
        if records.is_empty() {
            return Err(ApiError::BadRequest(vlt_core::RecordError::Empty.to_string()));
        }
        if records.len() > MAX_IMPORT {
            return Err(ApiError::BadRequest(format!(
                "the record holds {} games; at most {MAX_IMPORT} are imported at once",
                records.len()
            )));
        }
        let token = random_hex(16)?;
        let mut games = Vec::with_capacity(records.len());
        let hash = Some(token_hash(&token));
        for rec in records {
            let game = rec.game;
            let seating = Seating {
                token_b: hash.clone(),
                token_a: hash.clone(),
                player_b: None,
                player_a: None,
                rated: false,
                clock: None,
            };
            let mut row = self.new_row(Mode::Local, game.start(), None, None, seating)?;
            row.resigned = game.result().and_then(|r| Forfeit::of(r.termination));
            row.finished = game.is_over();
            row.result = game.result().map(StoredResult);
            row.tags = serde_json::to_string(&rec.tags).unwrap_or_else(|_| "[]".into());
            games.push((row, game));
        }
        let mut views = self.insert_all(games).await?;
        let ids = views.iter().map(|v| v.id.clone()).collect();
        let first = views.swap_remove(0);
        Ok(Imported { seated: Seated { seat: Seat::Both, token, game: first }, games: ids })
    }

    /// Takes the free seat of an online game (the invite link) for `caller`.
    ///
    /// # Errors
    /// [`ApiError::Conflict`] when no seat is free, [`ApiError::Forbidden`] for non-online games.
    pub async fn join(self: &Arc<Self>, id: &str, caller: &Caller) -> Result<Seated, ApiError> {
        let live = self.get(id).await?;
        let mut g = live.state.lock().await;
        if g.row.mode != Mode::Online {
            return Err(ApiError::Forbidden("only online games can be joined".into()));
        }
        let seat = if g.row.token_b.is_none() && g.row.player_b.is_none() {
            Player::B
        } else if g.row.token_a.is_none() && g.row.player_a.is_none() {
            Player::A
        } else {
            return Err(ApiError::Conflict("both seats are taken; you can watch this game".into()));
        };
        let me = caller.player_id().map(str::to_string);
        if me.is_some() && (g.row.player_b == me || g.row.player_a == me) {
            return Err(ApiError::Conflict("you already sit in this game".into()));
        }
        if g.row.rated && me.is_none() {
            return Err(ApiError::Forbidden("a rated game is joined by a player with a name".into()));
        }
        let token = random_hex(16)?;
        let mut clock = g.row.clock;
        if let Some(c) = clock.as_mut() {
            c.seated(now_ms());
        }
        let (key, hash, who) = (id.to_string(), token_hash(&token), me.clone());
        let took = super::game_write!(self, take_seat(&key, seat.into(), &hash, who.as_deref(), clock))?;
        if !took {
            return Err(ApiError::Conflict("the seat was just taken".into()));
        }
        match seat {
            Player::B => (g.row.token_b, g.row.player_b) = (Some(token_hash(&token)), me),
            Player::A => (g.row.token_a, g.row.player_a) = (Some(token_hash(&token)), me),
        }
        g.row.clock = clock;
        g.players = self.cards(&g.row).await?;
        g.version += 1;
        self.arm(&live, &mut g);
        let view = g.view();
        live.broadcast(&g);
        Ok(Seated { seat: Seat::One(seat), token, game: view })
    }
}
