//! What the engine's replies do to the game: the computer's move, a hint, the evaluation (one
//! value for a position however it is reached again).

use super::{App, MIN_THINK};
use crate::cmd::play::worker::{Job, Reply};
#[cfg(test)]
use std::time::{Duration, Instant};
use vlt_core::{Move, Player, Position};

/// The engine's view of a position, in one unit for the bar and the hint alike: the final score
/// it predicts (each player's captures at the end, if both play their best).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Eval {
    /// The predicted final captures, B's and A's (they add up to the captures now plus the stones
    /// left on the board).
    pub b: u8,
    /// A's predicted final captures.
    pub a: u8,
    /// The depth the engine reached.
    pub depth: u32,
}

impl Eval {
    /// The prediction for `pos` from the engine's score `future` (the capture difference still to
    /// come, for the player to move).
    pub fn new(pos: Position, future: i32, depth: u32) -> Eval {
        let left = pos.stones_on_board() as i32; // at most 60
        let future_b = if pos.to_move() == Player::B { future } else { -future };
        let share = ((left + future_b + 1).div_euclid(2)).clamp(0, left);
        let caps = pos.captures();
        Eval { b: caps.b + share as u8, a: caps.a + (left - share) as u8, depth }
    }
}

impl App {
    /// Takes in an engine reply: the computer's move, a hint or an evaluation.
    pub fn on_reply(&mut self, r: Reply) {
        let Some(i) = self.pending.iter().position(|p| p.id == r.id) else { return };
        let p = self.pending.remove(i);
        match r.job {
            Job::Play(..) => {
                if let Some(mv) = r.mv {
                    self.ready = Some((mv, p.since + MIN_THINK));
                }
            }
            Job::Hint => {
                if let (Some(mv), Some(s)) = (r.mv, r.score) {
                    let e = self.take_eval(s, r.depth);
                    self.hints.insert(self.game.position(), mv);
                    self.show_hint(mv, e);
                }
            }
            Job::Eval => {
                if let Some(s) = r.score {
                    self.take_eval(s, r.depth);
                }
            }
        }
    }

    /// Takes in the engine's score for the current position; a position already valued keeps its
    /// first value.
    pub fn take_eval(&mut self, future: i32, depth: u32) -> Eval {
        let pos = self.game.position();
        let e = *self.evals.entry(pos).or_insert_with(|| Eval::new(pos, future, depth));
        self.eval = Some(e);
        e
    }

    pub(super) fn show_hint(&mut self, mv: Move, e: Eval) {
        self.hint = Some(mv);
        self.cursor = mv.hole();
        self.eval = Some(e);
        self.say(self.cat.f("hint", &[("move", &mv), ("b", &e.b), ("a", &e.a)]));
    }

    /// Waits (up to `timeout`) for the engine, for tests that have no event loop.
    #[cfg(test)]
    pub fn wait_engine(&mut self, timeout: Duration) -> bool {
        let reply = self.worker.as_ref().and_then(|w| w.recv_timeout(timeout));
        match reply {
            Some(r) => {
                let now = Instant::now();
                self.on_reply(r);
                if let Some((mv, _)) = self.ready.take() {
                    self.end_anim();
                    if let Err(e) = self.play(mv, now) {
                        self.say(e.to_string());
                    }
                    self.end_anim();
                }
                true
            }
            None => false,
        }
    }
}
