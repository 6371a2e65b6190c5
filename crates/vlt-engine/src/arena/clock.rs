//! Time controls: a base time and an increment for each player, and the two clocks of a game.

use crate::Clock;
use std::time::Duration;
use vlt_core::Player;

/// The longest base time or increment a time control may give, in seconds (one day).
const MAX_SECONDS: f64 = 86_400.0;

/// A time control: every player starts with `base` and gains `increment` after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time on each clock at the start.
    pub base: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

impl std::str::FromStr for TimeControl {
    type Err = String;

    /// `BASE[+INCREMENT]` in seconds, e.g. `60+1` or `5+0.05`.
    fn from_str(s: &str) -> Result<TimeControl, String> {
        let secs = |x: &str, what: &str| {
            x.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && (0.0..=MAX_SECONDS).contains(v))
                .map(Duration::from_secs_f64)
                .ok_or_else(|| format!("time control {s:?}: {what} {x:?} is not 0-86400 seconds"))
        };
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let tc = TimeControl { base: secs(base, "base")?, increment: secs(inc, "increment")? };
        if tc.base.is_zero() {
            return Err(format!("time control {s:?}: the base time must be above 0"));
        }
        Ok(tc)
    }
}

/// Both clocks of a game played on a time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// Time left, B's then A's.
    pub remaining: [Duration; 2],
    /// Time added after each move.
    pub increment: Duration,
}

impl Clocks {
    /// Both clocks at the start of a game.
    #[must_use]
    pub fn new(tc: TimeControl) -> Clocks {
        Clocks { remaining: [tc.base; 2], increment: tc.increment }
    }

    /// `side`'s clock, as the engine sees it.
    #[must_use]
    pub fn of(&self, side: Player) -> Clock {
        Clock { remaining: self.remaining[side.index()], increment: self.increment }
    }

    /// Charges `side` for a move that took `used`: false when its time ran out (a time forfeit).
    pub fn charge(&mut self, side: Player, used: Duration) -> bool {
        let left = &mut self.remaining[side.index()];
        if used > *left {
            *left = Duration::ZERO;
            return false;
        }
        *left = *left - used + self.increment;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse_and_clocks_run() {
        let tc: TimeControl = "5+0.25".parse().unwrap();
        assert_eq!(tc, TimeControl { base: Duration::from_secs(5), increment: Duration::from_millis(250) });
        assert_eq!("60".parse::<TimeControl>().unwrap().increment, Duration::ZERO);
        for bad in ["", "0", "x+1", "5+", "-1+0", "5+1+2", "inf", "1e9"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        let mut c = Clocks::new(tc);
        assert!(c.charge(Player::B, Duration::from_secs(1)));
        assert_eq!(c.of(Player::B).remaining, Duration::from_millis(4250));
        assert_eq!(c.of(Player::A).remaining, Duration::from_secs(5), "only the mover's clock runs");
        assert!(!c.charge(Player::A, Duration::from_millis(5001)), "over the time left is a forfeit");
        assert_eq!(c.of(Player::A).remaining, Duration::ZERO);
    }
}
