//! Time management: turns [`Limits`] into a soft budget (no new iteration after it) and a hard
//! deadline (the search stops at once).

use crate::Limits;
use std::time::Duration;

/// Fraction of the remaining clock a move may plan to use.
const CLOCK_MOVES_LEFT: u32 = 25;
/// Share of the increment planned per move, in percent.
const INCREMENT_SHARE: u32 = 80;
/// The hard deadline is this many times the planned time, capped below.
const HARD_FACTOR: u32 = 3;
/// Never plan to use more than this fraction of what is left on the clock.
const MAX_SHARE_DIVISOR: u32 = 4;
/// Kept in reserve for overheads (thread start, output).
const SAFETY: Duration = Duration::from_millis(20);
/// A new iteration starts only while less than this share (percent) of the soft budget is used,
/// since the next iteration usually costs more than all earlier ones together.
pub const NEW_ITERATION_PERCENT: u32 = 55;

/// With a fixed time for the move, iterations start until this share (percent) of it is used: an
/// iteration cut off by the deadline still answers with a better move if it found one.
pub const FIXED_LAST_START_PERCENT: u32 = 85;

/// Iterations shorter than this are not used to predict the next one (timer noise).
const MIN_PREDICTABLE: Duration = Duration::from_millis(5);
/// Bounds on the predicted growth of one iteration over the last (effective branching factor).
const MIN_GROWTH: f64 = 1.3;
const MAX_GROWTH: f64 = 6.0;

/// How long a search may run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeBudget {
    /// No new iteration starts after this.
    pub soft: Option<Duration>,
    /// The search stops here.
    pub hard: Option<Duration>,
}

impl TimeBudget {
    /// The budget for `limits`: a fixed `movetime` is the deadline; a clock is shared out over the
    /// expected remaining moves plus most of the increment.
    #[must_use]
    pub fn from_limits(limits: &Limits) -> TimeBudget {
        let mut b = TimeBudget::default();
        if let Some(t) = limits.movetime {
            b.soft = Some(t);
            b.hard = Some(t);
        }
        if let Some(c) = limits.clock {
            let usable = c.remaining.saturating_sub(SAFETY);
            let planned = (c.remaining / CLOCK_MOVES_LEFT + c.increment * INCREMENT_SHARE / 100)
                .min(usable / MAX_SHARE_DIVISOR);
            let hard = (planned * HARD_FACTOR).min(usable / MAX_SHARE_DIVISOR).max(planned);
            b.soft = Some(b.soft.map_or(planned, |s| s.min(planned)));
            b.hard = Some(b.hard.map_or(hard, |h| h.min(hard)));
        }
        b
    }

    /// True when there is time for another iteration after `elapsed`.
    #[must_use]
    pub fn may_start_iteration(&self, elapsed: Duration) -> bool {
        self.soft.is_none_or(|s| elapsed < s * NEW_ITERATION_PERCENT / 100)
    }

    /// True when the move has a fixed time (`Limits::movetime` alone): the search then spends it,
    /// and no later move is owed what it saves.
    #[must_use]
    pub fn is_fixed(&self) -> bool {
        self.soft.is_some() && self.soft == self.hard
    }

    /// True when another iteration may start after `elapsed`: with a fixed time until
    /// [`FIXED_LAST_START_PERCENT`] of it, since a cut-off iteration still gives the better move it
    /// found ([`TimeBudget::is_fixed`]); otherwise while [`TimeBudget::may_start_iteration`] and
    /// [`TimeBudget::may_finish_iteration`] both allow it.
    #[must_use]
    pub fn may_iterate(&self, elapsed: Duration, last: Duration, before: Duration) -> bool {
        match self.soft {
            Some(s) if self.is_fixed() => elapsed < s * FIXED_LAST_START_PERCENT / 100,
            _ => self.may_start_iteration(elapsed) && self.may_finish_iteration(elapsed, last, before),
        }
    }

    /// True unless the next iteration is predicted to run past the hard deadline, given the times
    /// of the `last` iteration and the one `before` it. An iteration cut off by the deadline is
    /// thrown away, so starting one that cannot finish only wastes the time.
    #[must_use]
    pub fn may_finish_iteration(&self, elapsed: Duration, last: Duration, before: Duration) -> bool {
        let Some(hard) = self.hard else { return true };
        if before.is_zero() || last < MIN_PREDICTABLE {
            return true; // too short to tell: iterations this fast cost nothing
        }
        let growth = (last.as_secs_f64() / before.as_secs_f64()).clamp(MIN_GROWTH, MAX_GROWTH);
        elapsed + last.mul_f64(growth) <= hard
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Clock;

    #[test]
    fn clock_budget_is_a_small_share() {
        let l = Limits {
            clock: Some(Clock { remaining: Duration::from_secs(60), increment: Duration::from_secs(1) }),
            ..Limits::default()
        };
        let b = TimeBudget::from_limits(&l);
        let soft = b.soft.unwrap();
        assert!(soft > Duration::from_secs(2) && soft < Duration::from_secs(4), "{soft:?}");
        assert!(b.hard.unwrap() <= Duration::from_secs(15));
        // Almost no time left: never plan beyond a quarter of it.
        let l = Limits {
            clock: Some(Clock { remaining: Duration::from_millis(100), increment: Duration::ZERO }),
            ..Limits::default()
        };
        assert!(TimeBudget::from_limits(&l).hard.unwrap() <= Duration::from_millis(25));
    }

    #[test]
    fn an_iteration_that_cannot_finish_is_not_started() {
        let ms = Duration::from_millis;
        let b = TimeBudget::from_limits(&Limits { movetime: Some(ms(1000)), ..Limits::default() });
        // The last iteration took 200 ms, twice the one before: the next needs about 400 ms.
        assert!(b.may_finish_iteration(ms(500), ms(200), ms(100)));
        assert!(!b.may_finish_iteration(ms(700), ms(200), ms(100)));
        // Growth is bounded below, so a lucky fast iteration does not promise a free next one.
        assert!(!b.may_finish_iteration(ms(700), ms(250), ms(400)));
        // Tiny iterations tell nothing; no deadline, no limit.
        assert!(b.may_finish_iteration(ms(990), ms(1), ms(1)));
        assert!(TimeBudget::default().may_finish_iteration(ms(10_000), ms(5000), ms(100)));
    }

    #[test]
    fn a_fixed_movetime_starts_iterations_until_late() {
        let ms = Duration::from_millis;
        let fixed = TimeBudget::from_limits(&Limits { movetime: Some(ms(1000)), ..Limits::default() });
        assert!(fixed.is_fixed());
        // An iteration that cannot finish still starts: a cut-off one gives its better move.
        assert!(fixed.may_iterate(ms(700), ms(200), ms(100)));
        assert!(!fixed.may_iterate(ms(900), ms(1), ms(1)));
        // On a clock the saved time is the next moves': the usual rules hold.
        let clock = Limits {
            clock: Some(Clock { remaining: Duration::from_secs(60), increment: Duration::ZERO }),
            ..Limits::default()
        };
        let b = TimeBudget::from_limits(&clock);
        assert!(!b.is_fixed());
        let soft = b.soft.unwrap();
        assert!(b.may_iterate(soft / 4, ms(1), ms(1)));
        assert!(!b.may_iterate(soft * 3 / 5, ms(1), ms(1)));
        assert!(TimeBudget::default().may_iterate(ms(10_000), ms(5000), ms(100)));
    }

    #[test]
    fn movetime_is_used_in_full() {
        let l = Limits { movetime: Some(Duration::from_millis(300)), ..Limits::default() };
        let b = TimeBudget::from_limits(&l);
        assert_eq!(b.hard, Some(Duration::from_millis(300)));
        assert!(b.may_start_iteration(Duration::from_millis(100)));
        assert!(!b.may_start_iteration(Duration::from_millis(200)));
    }
}
