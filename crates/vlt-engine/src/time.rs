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

/// How long a search may run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeBudget {
    /// No new iteration starts after this.
    pub soft: Option<Duration>,
    /// The search stops here.
    pub hard: Option<Duration>,
}

impl TimeBudget {
    /// The budget for `limits`: a fixed `movetime` is used in full; a clock is shared out over the
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
    fn movetime_is_used_in_full() {
        let l = Limits { movetime: Some(Duration::from_millis(300)), ..Limits::default() };
        let b = TimeBudget::from_limits(&l);
        assert_eq!(b.hard, Some(Duration::from_millis(300)));
        assert!(b.may_start_iteration(Duration::from_millis(100)));
        assert!(!b.may_start_iteration(Duration::from_millis(200)));
    }
}
