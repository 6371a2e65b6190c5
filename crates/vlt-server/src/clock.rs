//! Game clocks, kept by the server: the time control a game was created with and each side's time
//! left. Pure arithmetic on milliseconds since the Unix epoch; the flag timers that act on it are
//! the hub's. Stored as JSON in the game's row, so a restart resumes every clock where it was
//! (time that passed while the server was down counts: the clock is on the wall).

use crate::error::ApiError;
use crate::kinds::Side;
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use serde::{Deserialize, Serialize};

/// The longest initial time (and, per move, the longest time for one move): 30 days.
pub const MAX_INITIAL_MS: u64 = 30 * 24 * 3600 * 1000;
/// The longest increment: one hour.
pub const MAX_INCREMENT_MS: u64 = 3600 * 1000;

/// A time control: `initial_ms` for the game plus `increment_ms` after each move (3+2 is 180000 +
/// 2000); with `per_move`, each move has `initial_ms` afresh (correspondence: days per move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    /// Each side's time at the start, in milliseconds (per move: the time for every move).
    pub initial_ms: u64,
    /// Added to the mover's time after each move.
    #[serde(default)]
    pub increment_ms: u64,
    /// True for correspondence: every move has `initial_ms`, unused time is not kept.
    #[serde(default)]
    pub per_move: bool,
}

impl TimeControl {
    /// The control if its numbers are in range.
    ///
    /// # Errors
    /// [`ApiError::BadRequest`] saying which number is out of range.
    pub fn checked(self) -> Result<TimeControl, ApiError> {
        if !(1000..=MAX_INITIAL_MS).contains(&self.initial_ms) {
            return Err(ApiError::BadRequest(format!(
                "clock: initial_ms must be 1000 to {MAX_INITIAL_MS}, not {}",
                self.initial_ms
            )));
        }
        if self.increment_ms > MAX_INCREMENT_MS || (self.per_move && self.increment_ms > 0) {
            return Err(ApiError::BadRequest(format!(
                "clock: increment_ms must be at most {MAX_INCREMENT_MS}, and 0 per move"
            )));
        }
        Ok(self)
    }
}

/// A game's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// The time control.
    pub control: TimeControl,
    /// B's time left when its clock last stopped (or at the start), in milliseconds.
    pub b_ms: i64,
    /// A's time left likewise.
    pub a_ms: i64,
    /// Whose time runs now (none before the first move and after the end).
    pub running: Option<Side>,
    /// When the running clock started (ms since the epoch); before the first move, when both seats
    /// were taken (the first move is awaited from then), or 0 while a seat is free.
    pub since_ms: i64,
}

/// What the game JSON carries: each side's time left at the moment of the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ClockView {
    /// B's time left, in milliseconds.
    pub b_ms: i64,
    /// A's time left.
    pub a_ms: i64,
    /// Whose time runs, or null.
    pub running: Option<Side>,
    /// The time control.
    pub initial_ms: u64,
    /// The increment.
    pub increment_ms: u64,
    /// Correspondence.
    pub per_move: bool,
    /// Before the first move: milliseconds left before the game is aborted.
    pub abort_in_ms: Option<i64>,
}

/// Milliseconds since the Unix epoch.
#[must_use]
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

impl Clock {
    /// A clock at the start of a game.
    #[must_use]
    pub fn new(control: TimeControl) -> Clock {
        let t = control.initial_ms as i64;
        Clock { control, b_ms: t, a_ms: t, running: None, since_ms: 0 }
    }

    fn stored(&self, side: Side) -> i64 {
        match side {
            Side::B => self.b_ms,
            Side::A => self.a_ms,
        }
    }

    fn set(&mut self, side: Side, ms: i64) {
        match side {
            Side::B => self.b_ms = ms,
            Side::A => self.a_ms = ms,
        }
    }

    /// `side`'s time left at `now`.
    #[must_use]
    pub fn left(&self, side: Side, now: i64) -> i64 {
        let ms = self.stored(side);
        if self.running == Some(side) { ms - (now - self.since_ms).max(0) } else { ms }
    }

    /// The side whose time has run out at `now`, if any.
    #[must_use]
    pub fn flagged(&self, now: i64) -> Option<Side> {
        self.running.filter(|&s| self.left(s, now) <= 0)
    }

    /// When the running side's time runs out (ms since the epoch).
    #[must_use]
    pub fn flag_at(&self) -> Option<i64> {
        self.running.map(|s| self.since_ms + self.stored(s))
    }

    /// Notes that both seats are taken at `now`: the first move is awaited from then.
    pub fn seated(&mut self, now: i64) {
        if self.running.is_none() && self.since_ms == 0 {
            self.since_ms = now;
        }
    }

    /// When a game still without moves is aborted, given the server's wait for a first move.
    #[must_use]
    pub fn abort_at(&self, abort_ms: u64) -> Option<i64> {
        let wait = if self.control.per_move { self.control.initial_ms } else { abort_ms };
        (self.running.is_none() && self.since_ms > 0).then(|| self.since_ms + wait as i64)
    }

    /// `mover` moved at `now`; `next` is who moves now (none when the game ended). The mover's
    /// time stops (and gains the increment, or is reset per move) and `next`'s starts.
    pub fn moved(&mut self, mover: Side, next: Option<Side>, now: i64) {
        if self.running == Some(mover) {
            let left = self.left(mover, now);
            let ms = if self.control.per_move {
                self.control.initial_ms as i64
            } else {
                left + self.control.increment_ms as i64
            };
            self.set(mover, ms);
        }
        self.running = next;
        self.since_ms = now;
    }

    /// Stops the running clock at `now` (the game ended other than by a move), keeping its time.
    pub fn stop(&mut self, now: i64) {
        if let Some(s) = self.running {
            let left = self.left(s, now).max(0);
            self.set(s, left);
        }
        self.running = None;
    }

    /// A takeback at `now`: the clock of the side to move after it runs, times kept.
    pub fn switch(&mut self, to: Side, now: i64) {
        if let Some(s) = self.running {
            let left = self.left(s, now).max(0);
            self.set(s, left);
            self.running = Some(to);
            self.since_ms = now;
        }
    }

    /// The clock as the game JSON shows it at `now`.
    #[must_use]
    pub fn view(&self, now: i64, abort_ms: u64) -> ClockView {
        ClockView {
            b_ms: self.left(Side::B, now).max(0),
            a_ms: self.left(Side::A, now).max(0),
            running: self.running,
            initial_ms: self.control.initial_ms,
            increment_ms: self.control.increment_ms,
            per_move: self.control.per_move,
            abort_in_ms: self.abort_at(abort_ms).map(|t| (t - now).max(0)),
        }
    }
}

impl ToSql for Clock {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        serde_json::to_string(self)
            .map(ToSqlOutput::from)
            .map_err(|e| rusqlite::Error::ToSqlConversionFailure(e.into()))
    }
}

impl FromSql for Clock {
    fn column_result(v: ValueRef<'_>) -> FromSqlResult<Self> {
        serde_json::from_str(v.as_str()?).map_err(|e| FromSqlError::Other(e.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(initial_ms: u64, increment_ms: u64) -> TimeControl {
        TimeControl { initial_ms, increment_ms, per_move: false }
    }

    #[test]
    fn the_mover_pays_the_time_it_took_and_gains_the_increment() {
        let mut c = Clock::new(tc(180_000, 2000));
        c.seated(1_000);
        assert_eq!(c.abort_at(30_000), Some(31_000));
        // The first move starts the other side's clock; nobody paid for it.
        c.moved(Side::B, Some(Side::A), 5_000);
        assert_eq!((c.b_ms, c.running), (180_000, Some(Side::A)));
        assert_eq!(c.abort_at(30_000), None);
        assert_eq!(c.left(Side::A, 15_000), 170_000);
        c.moved(Side::A, Some(Side::B), 15_000);
        assert_eq!(c.a_ms, 172_000);
        assert_eq!(c.flag_at(), Some(15_000 + 180_000));
        assert_eq!(c.flagged(15_000 + 179_999), None);
        assert_eq!(c.flagged(15_000 + 180_000), Some(Side::B));
        let v = c.view(15_000 + 200_000, 30_000);
        assert_eq!((v.b_ms, v.a_ms, v.running), (0, 172_000, Some(Side::B)));
        c.stop(20_000);
        assert_eq!((c.b_ms, c.running), (175_000, None));
    }

    #[test]
    fn per_move_clocks_reset_and_controls_are_checked() {
        let day = 24 * 3600 * 1000;
        let mut c = Clock::new(TimeControl { initial_ms: day, increment_ms: 0, per_move: true });
        c.seated(10);
        assert_eq!(c.abort_at(30_000), Some(10 + day as i64), "a correspondence game waits a move's time");
        c.moved(Side::B, Some(Side::A), 100);
        c.moved(Side::A, Some(Side::B), 100 + 3_600_000);
        assert_eq!(c.a_ms, day as i64);
        assert!(tc(999, 0).checked().is_err());
        assert!(tc(60_000, MAX_INCREMENT_MS + 1).checked().is_err());
        assert!(TimeControl { initial_ms: day, increment_ms: 5, per_move: true }.checked().is_err());
        assert!(tc(300_000, 0).checked().is_ok());
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<Clock>(&json).unwrap(), c);
    }
}
