//! A game in memory: its stored row, the rules' view of it, its change counter, and the channel
//! its watchers listen on (with who of the players is connected).

use crate::accounts::PlayerCard;
use crate::clock::now_ms;
use crate::error::ApiError;
use crate::kinds::{End, Side};
use crate::seat::{Caller, Seat, seat_of, seat_states};
use crate::store::GameRow;
use crate::view::{GameView, Players, Rematch, ResultView, game_view_since};
use std::sync::Arc;
use tokio::sync::broadcast;
use vlt_core::{Game, Move, Player, Position};

/// A game's state, behind the game's lock.
#[derive(Debug)]
pub struct LiveGame {
    pub(crate) row: GameRow,
    pub(crate) game: Game,
    pub(crate) version: u64,
    epoch: Arc<str>,
    /// The players' cards, B then A (names and ratings as last read).
    pub(crate) players: [Option<PlayerCard>; 2],
    /// The side asking to take back its last move.
    pub(crate) takeback: Option<Side>,
    /// The rematch offered or agreed.
    pub(crate) rematch: Rematch,
    /// The timer that ends the game when a clock runs out or the first move does not come.
    pub(crate) timer: Option<tokio::task::AbortHandle>,
    /// How long the first move is awaited, in milliseconds.
    pub(crate) abort_ms: u64,
}

impl LiveGame {
    /// The game as the page draws it.
    #[must_use]
    pub fn view(&self) -> GameView {
        self.view_since(0)
    }

    /// The game as the page draws it, with only the plies after the first `from`.
    #[must_use]
    pub fn view_since(&self, from: usize) -> GameView {
        let mut v = game_view_since(
            &self.row.id,
            self.row.mode,
            self.row.level,
            seat_states(&self.row),
            &self.game,
            (self.version, &self.epoch),
            from,
        );
        if self.row.aborted {
            v.legal.clear();
            v.result = Some(ResultView {
                winner: None,
                termination: End::Aborted,
                resigned: None,
                score_b: v.captured_b,
                score_a: v.captured_a,
            });
        }
        v.players = Players { b: self.players[0].clone(), a: self.players[1].clone() };
        v.rated = self.row.rated;
        let over = self.over();
        v.clock = self.row.clock.map(|c| {
            let mut view = c.view(now_ms(), self.abort_ms);
            // A game that is over awaits no first move (its stopped clock cannot tell).
            if over {
                view.abort_in_ms = None;
            }
            view
        });
        v.takeback = self.takeback;
        v.rematch = self.rematch.clone();
        v
    }

    /// Whether the game is over: by the rules, a forfeit, or an abort.
    #[must_use]
    pub fn over(&self) -> bool {
        self.game.is_over() || self.row.aborted
    }

    /// The seat `caller` holds.
    #[must_use]
    pub fn seat(&self, caller: &Caller) -> Option<Seat> {
        seat_of(&self.row, caller)
    }

    /// The player ids of both seats, when both are known.
    #[must_use]
    pub fn both_players(&self) -> Option<[String; 2]> {
        Some([self.row.player_b.clone()?, self.row.player_a.clone()?])
    }

    /// The seat the computer plays, if any.
    #[must_use]
    pub fn computer(&self) -> Option<Player> {
        self.row.computer.map(Player::from)
    }

    /// Whether the game goes on with the computer to move.
    #[must_use]
    pub fn computer_to_move(&self) -> bool {
        !self.game.is_over() && self.computer() == Some(self.game.position().to_move())
    }
}

/// The change a broadcast tells: the game at version `base + 1`, with the plies after `from`.
#[derive(serde::Serialize)]
struct Delta {
    #[serde(rename = "type")]
    kind: &'static str,
    base: u64,
    from: usize,
    game: GameView,
}

/// A live game and the channel its watchers listen on.
#[derive(Debug)]
pub struct Live {
    pub(crate) state: tokio::sync::Mutex<LiveGame>,
    pub(crate) tx: broadcast::Sender<Arc<str>>,
    /// Open sockets of each seat holder on this server, B then A: whether the opponent is there.
    present: std::sync::Mutex<[usize; 2]>,
    /// The same on the other servers sharing the store, as last read from it.
    remote: std::sync::Mutex<[usize; 2]>,
    /// The number of plies the last broadcast left the watchers with: the next one sends only
    /// the plies after it. Written under the game's lock, as the version is.
    plies_sent: std::sync::atomic::AtomicUsize,
    id: String,
}

impl Live {
    /// A game now in memory, as `row` and `game` say, at version 0 of this run.
    #[must_use]
    pub fn new(
        row: GameRow,
        game: Game,
        epoch: &Arc<str>,
        players: [Option<PlayerCard>; 2],
        abort_ms: u64,
    ) -> Live {
        let plies = game.moves().len();
        Live {
            id: row.id.clone(),
            state: tokio::sync::Mutex::new(LiveGame {
                row,
                game,
                version: 0,
                epoch: Arc::clone(epoch),
                players,
                takeback: None,
                rematch: Rematch::default(),
                timer: None,
                abort_ms,
            }),
            tx: broadcast::channel(64).0,
            present: std::sync::Mutex::new([0; 2]),
            remote: std::sync::Mutex::new([0; 2]),
            plies_sent: std::sync::atomic::AtomicUsize::new(plies),
        }
    }

    /// Notes a seat holder's socket opening (`open`) or closing, and tells every watcher.
    pub fn set_present(&self, seat: Player, open: bool) {
        {
            let mut n = self.present.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let i = usize::from(seat == Player::A);
            n[i] = if open { n[i] + 1 } else { n[i].saturating_sub(1) };
        }
        self.send(self.presence_message());
    }

    /// The sockets of each seat holder open on this server, B then A.
    #[must_use]
    pub fn local_sockets(&self) -> [usize; 2] {
        *self.present.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Notes the sockets of each seat holder open on the other servers; tells every watcher when
    /// that changes who is here.
    pub fn set_remote(&self, sockets: [usize; 2]) {
        let before = self.presence();
        *self.remote.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = sockets;
        if self.presence() != before {
            self.send(self.presence_message());
        }
    }

    /// Whether each seat's holder has a socket open now, on any server, B then A.
    #[must_use]
    pub fn presence(&self) -> [bool; 2] {
        let here = self.local_sockets();
        let there = *self.remote.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        [here[0] + there[0] > 0, here[1] + there[1] > 0]
    }

    /// Whether `seat`'s holder has a socket open now.
    #[must_use]
    pub fn is_present(&self, seat: Player) -> bool {
        self.presence()[usize::from(seat == Player::A)]
    }

    /// Who is connected now, as the socket message `{"type":"presence","seats":{"B":…,"A":…}}`.
    #[must_use]
    pub fn presence_message(&self) -> String {
        let [b, a] = self.presence();
        serde_json::json!({ "type": "presence", "seats": { "B": b, "A": a } }).to_string()
    }

    /// Sends `msg` to every watcher (nobody watching is fine).
    pub fn send(&self, msg: String) {
        let _ = self.tx.send(Arc::from(msg));
    }

    /// Tells every watcher that `g` changed. Each change is broadcast exactly once, after its
    /// version was bumped, with only what changed: `{"type": "delta", "base": V-1, "from": N,
    /// "game": {…}}`, the game at version V whose `plies` are those after its first `N` (a watcher
    /// at version V-1 keeps its first `N` plies and appends these: one for a move, none for a
    /// join or a resignation, fewer than it had after an undo). Every other field is whole.
    pub fn broadcast(&self, g: &LiveGame) {
        let plies = g.game.moves().len();
        let from = self.plies_sent.swap(plies, std::sync::atomic::Ordering::Relaxed).min(plies);
        let msg = Delta { kind: "delta", base: g.version.saturating_sub(1), from, game: g.view_since(from) };
        // Written straight from the view, not through a JSON value (a map per object, then
        // written out); a view always serialises, so nothing is sent only if that ever failed.
        if let Ok(text) = serde_json::to_string(&msg) {
            self.send(text);
        }
    }

    /// Makes the next broadcast send the plies after the first `common` (at most), for a change
    /// that replaced moves the watchers already have (one read from another server).
    pub fn rewind_sent(&self, common: usize) {
        self.plies_sent.fetch_min(common, std::sync::atomic::Ordering::Relaxed);
    }

    /// The game's id.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.id
    }

    /// A receiver of this game's updates (JSON text messages).
    #[must_use]
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.tx.subscribe()
    }
}

/// Rebuilds a game from its stored start, moves and forfeit (restart resumes every game).
///
/// # Errors
/// [`ApiError::Internal`] when the stored game does not replay.
pub fn rebuild(row: &GameRow, moves: &[String]) -> Result<Game, ApiError> {
    let start: Position =
        row.start.parse().map_err(|e| ApiError::Internal(format!("stored start of {}: {e}", row.id)))?;
    let mut game = Game::new(start);
    for m in moves {
        let mv: Move =
            m.parse().map_err(|e| ApiError::Internal(format!("stored move of {}: {e}", row.id)))?;
        game.play(mv).map_err(|e| ApiError::Internal(format!("stored move {m} of {}: {e}", row.id)))?;
    }
    if let Some(f) = row.resigned {
        let p = Player::from(f.side);
        let _ = if f.time { game.lose_on_time(p) } else { game.resign(p) };
    }
    Ok(game)
}
