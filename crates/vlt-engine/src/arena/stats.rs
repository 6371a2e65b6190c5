//! Match statistics: score, the Elo difference with its 95% interval, and the sequential
//! probability ratio test (SPRT) used to stop a match early.
//!
//! Elo follows the logistic model: a score `s` means a difference of `-400 log10(1/s - 1)`.
//! The interval uses the normal approximation of the mean game score, with the per-game variance
//! measured from the wins, draws and losses (draws narrow it).

/// A match's results from the first player's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first player won.
    pub wins: u32,
    /// Drawn games (30-30 or equal captures at R7, R6).
    pub draws: u32,
    /// Games the first player lost.
    pub losses: u32,
}

/// The two-sided 95% normal quantile.
const Z95: f64 = 1.959_963_984_540_054;

/// The Elo difference that a score `s` (0..1) implies; infinite at 0 and 1.
#[must_use]
pub fn elo(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score of a player `e` Elo stronger.
#[must_use]
pub fn expected_score(e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-e / 400.0))
}

impl Tally {
    /// Games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Adds one game's result for the first player: 1, ½ or 0.
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// The first player's mean score, 0..1 (½ before any game).
    #[must_use]
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 { 0.5 } else { (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n) }
    }

    /// The variance of one game's score around the mean (the tests check the smoothed one
    /// against it).
    #[cfg(test)]
    pub fn variance(&self) -> f64 {
        let n = f64::from(self.games().max(1));
        let s = self.score();
        (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n
    }

    /// The Elo difference (first minus second).
    #[must_use]
    pub fn elo(&self) -> f64 {
        elo(self.score())
    }

    /// The variance with half a game of each result added: never 0, so that a run of identical
    /// results still has an interval and does not end an SPRT at once.
    #[must_use]
    pub fn smoothed_variance(&self) -> f64 {
        let (w, d, l) =
            (f64::from(self.wins) + 0.5, f64::from(self.draws) + 0.5, f64::from(self.losses) + 0.5);
        let m = (w + 0.5 * d) / (w + d + l);
        (w * (1.0 - m).powi(2) + d * (0.5 - m).powi(2) + l * m.powi(2)) / (w + d + l)
    }

    /// The 95% interval of the Elo difference (a bound is infinite when it passes a score of 0 or
    /// 1, e.g. the upper one after winning every game).
    #[must_use]
    pub fn elo_interval(&self) -> (f64, f64) {
        let n = f64::from(self.games().max(1));
        let half = Z95 * (self.smoothed_variance() / n).sqrt();
        let s = self.score();
        (elo(s - half), elo(s + half))
    }

    /// The log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`), in the normal approximation
    /// `N (s1 - s0)(2 s - s0 - s1) / (2 var)`, with the [`Tally::smoothed_variance`].
    #[must_use]
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        let (s0, s1) = (expected_score(elo0), expected_score(elo1));
        f64::from(n) * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * self.smoothed_variance())
    }
}

/// SPRT settings: H0 "the first player is `elo0` stronger" against H1 "`elo1` stronger", with
/// error rates `alpha` (accepting H1 wrongly) and `beta` (accepting H0 wrongly).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// What an SPRT concludes so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Keep playing.
    Continue,
    /// H0 accepted: not `elo1` stronger.
    H0,
    /// H1 accepted: `elo1` stronger (rather than `elo0`).
    H1,
}

impl std::str::FromStr for Sprt {
    type Err = String;

    /// `elo0,elo1,alpha,beta`, e.g. `0,20,0.05,0.05`.
    fn from_str(s: &str) -> Result<Sprt, String> {
        let v: Vec<f64> = s
            .split(',')
            .map(|x| x.trim().parse::<f64>().map_err(|_| format!("sprt: {x:?} is not a number")))
            .collect::<Result<_, _>>()?;
        let [elo0, elo1, alpha, beta] = v[..] else {
            return Err("sprt: expected elo0,elo1,alpha,beta (e.g. 0,20,0.05,0.05)".into());
        };
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err("sprt: elo0 must be below elo1".into());
        }
        if !(alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5) {
            return Err("sprt: alpha and beta must lie between 0 and 0.5".into());
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }
}

impl Sprt {
    /// The bounds `(lower, upper)` of the log-likelihood ratio (Wald).
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The verdict for a tally.
    #[must_use]
    pub fn verdict(&self, t: &Tally) -> Verdict {
        let llr = t.llr(self.elo0, self.elo1);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Verdict::H1
        } else if llr <= lo {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally { wins, draws, losses }
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(elo(0.5).abs() < 1e-9);
        // 75% is 190.8 Elo; 64% is about 100.
        assert!((elo(0.75) - 190.848).abs() < 0.01);
        assert!((elo(0.64) - 99.95).abs() < 0.1);
        assert!((elo(0.25) + 190.848).abs() < 0.01);
        assert_eq!(elo(1.0), f64::INFINITY);
        assert_eq!(elo(0.0), f64::NEG_INFINITY);
        for e in [-300.0, -10.0, 0.0, 42.0, 500.0] {
            assert!((elo(expected_score(e)) - e).abs() < 1e-6);
        }
    }

    #[test]
    fn score_counts_draws_as_half() {
        let x = t(6, 4, 10);
        assert_eq!(x.games(), 20);
        assert!((x.score() - 0.4).abs() < 1e-12);
        let mut y = Tally::default();
        for s in [1.0, 0.5, 0.0, 1.0] {
            y.add(s);
        }
        assert_eq!(y, t(2, 1, 1));
    }

    #[test]
    fn interval_contains_the_estimate_and_shrinks_with_games() {
        let small = t(6, 2, 2);
        let big = t(600, 200, 200);
        let (lo, hi) = small.elo_interval();
        assert!(lo < small.elo() && small.elo() < hi);
        let (lo2, hi2) = big.elo_interval();
        assert!((big.elo() - small.elo()).abs() < 1e-9);
        assert!(hi2 - lo2 < (hi - lo) / 5.0, "{lo2} {hi2} vs {lo} {hi}");
        // Hand check: s = 0.7, var = (0.6*0.09 + 0.2*0.04 + 0.2*0.49) = 0.16, se = 0.4/sqrt(1000);
        // the smoothing (1.5 extra games in 1000) moves the bound by well under an Elo point.
        assert!((big.variance() - 0.16).abs() < 1e-12);
        let se = 0.4 / 1000f64.sqrt();
        assert!((hi2 - elo(0.7 + Z95 * se)).abs() < 0.5, "{hi2}");
        // All draws: a narrow interval around 0.
        let (a, b) = t(0, 100, 0).elo_interval();
        assert!((a + b).abs() < 1e-9 && b > 0.0 && b < 40.0, "{a} {b}");
        // All wins: a finite lower bound, an infinite upper one.
        let (a, b) = t(20, 0, 0).elo_interval();
        assert!(a.is_finite() && a > 100.0 && b == f64::INFINITY, "{a} {b}");
    }

    #[test]
    fn elo_and_interval_from_known_counts() {
        // 60 wins, 20 draws, 20 losses: a score of 70%, +147.2 Elo; the 95% interval from the
        // per-game variance 0.16 (0.155 smoothed) is 0.7 -+ 0.078, +86.1 to +218.4 Elo.
        let x = t(60, 20, 20);
        assert!((x.score() - 0.7).abs() < 1e-12);
        assert!((x.elo() - 147.19).abs() < 0.01, "{}", x.elo());
        let (lo, hi) = x.elo_interval();
        assert!((lo - 86.10).abs() < 0.01 && (hi - 218.42).abs() < 0.01, "{lo} {hi}");
        // Even counts are 0 Elo, with a symmetric interval; the mirror image negates everything.
        assert!(t(25, 50, 25).elo().abs() < 1e-9);
        let (a, b) = t(20, 20, 60).elo_interval();
        assert!((a + hi).abs() < 1e-6 && (b + lo).abs() < 1e-6, "{a} {b}");
        assert_eq!(Tally::default().score(), 0.5, "no games: no difference");
    }

    #[test]
    fn sprt_accepts_the_right_hypothesis() {
        let sprt: Sprt = "0,50,0.05,0.05".parse().unwrap();
        let (lo, hi) = sprt.bounds();
        assert!((hi - (0.95f64 / 0.05).ln()).abs() < 1e-12 && (lo + hi).abs() < 1e-12);
        assert_eq!(sprt.verdict(&t(0, 0, 0)), Verdict::Continue);
        assert_eq!(sprt.verdict(&t(3, 0, 0)), Verdict::Continue, "three games prove nothing");
        // A clearly stronger player (about +190 Elo) over 200 games.
        assert_eq!(sprt.verdict(&t(140, 20, 40)), Verdict::H1);
        // An equal one: after 100 wins and 100 losses not yet decided (hand check: s0 = 0.5,
        // s1 = 0.5715, var = 0.25, LLR = 200 * 0.0715 * (1 - 1.0715) / 0.5 = -2.04 > -2.94) ...
        let llr = t(100, 0, 100).llr(0.0, 50.0);
        assert!((llr - -2.045).abs() < 0.01, "{llr}");
        assert_eq!(sprt.verdict(&t(100, 0, 100)), Verdict::Continue);
        // ... after twice as many games, H0.
        assert_eq!(sprt.verdict(&t(200, 0, 200)), Verdict::H0);
        assert!(t(140, 20, 40).llr(0.0, 50.0) > 0.0 && t(40, 20, 140).llr(0.0, 50.0) < 0.0);
    }

    #[test]
    fn sprt_parse_errors() {
        for bad in ["", "0,10,0.05", "10,0,0.05,0.05", "0,10,0.6,0.05", "a,b,c,d"] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
    }
}
