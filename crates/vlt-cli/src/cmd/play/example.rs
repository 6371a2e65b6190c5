//! A worked example of the rule texts (vlt-core's `examples`) stepped through on the board: the
//! position before the move, then each frame of the move's animation (the lifted hole, each stone
//! dropped, the captured holes flashing and emptying), one key press a step or played through.

use super::anim::{Frame, paced_frames};
use std::time::{Duration, Instant};
use vlt_core::examples::WorkedExample;
use vlt_core::{Move, MoveOutcome, Position};

/// One worked example being shown.
#[derive(Clone, Debug)]
pub struct Stepper {
    /// The example (its text key is `example_{id}`).
    pub example: WorkedExample,
    /// The position before the move.
    pub before: Position,
    /// The move the example plays.
    pub mv: Move,
    /// What the move does.
    pub outcome: MoveOutcome,
    frames: Vec<(Frame, Duration)>,
    /// The step shown: 0 is the position before the move, `i` the move's `i`-th frame.
    step: usize,
    /// When playing through, the time the shown step began.
    playing: Option<Instant>,
}

impl Stepper {
    /// The stepper for `example`, at the position before its move, frames shown for `percent` of
    /// their normal time when played through; `None` if the example does not parse (a rules
    /// crate bug its tests catch).
    pub fn new(example: WorkedExample, percent: u32) -> Option<Stepper> {
        let before: Position = example.position.parse().ok()?;
        let mv: Move = example.mv.parse().ok()?;
        let (_, outcome) = before.play_traced(mv).ok()?;
        // A little slower than a game's moves (this is for reading), and never instant.
        let percent = if percent == 0 { 100 } else { percent };
        let frames = paced_frames(before, outcome, percent * 3 / 2);
        Some(Stepper { example, before, mv, outcome, frames, step: 0, playing: None })
    }

    /// The number of the last step (the position after the move).
    pub fn last(&self) -> usize {
        self.frames.len()
    }

    /// The step shown at `now`: playing through moves on by the frames' times.
    pub fn step(&self, now: Instant) -> usize {
        let Some(since) = self.playing else { return self.step };
        let mut t = now.saturating_duration_since(since);
        let mut step = self.step;
        while step < self.last() {
            // Step 0 (before the move) shows as long as the lift.
            let d = self.frames[step.saturating_sub(1)].1;
            if t < d {
                break;
            }
            t -= d;
            step += 1;
        }
        step
    }

    /// True while playing through.
    pub fn playing(&self, now: Instant) -> bool {
        self.playing.is_some() && self.step(now) < self.last()
    }

    /// The frame of the step shown, `None` before the move.
    pub fn frame(&self, now: Instant) -> Option<&Frame> {
        let s = self.step(now);
        (s > 0).then(|| &self.frames[s - 1].0)
    }

    /// Stops playing through, keeping the step reached.
    fn hold(&mut self, now: Instant) {
        self.step = self.step(now);
        self.playing = None;
    }

    /// One step on (`true`) or back.
    pub fn advance(&mut self, forward: bool, now: Instant) {
        self.hold(now);
        self.step = if forward { (self.step + 1).min(self.last()) } else { self.step.saturating_sub(1) };
    }

    /// Plays the move through from the start, or holds it where it is when already playing.
    pub fn play(&mut self, now: Instant) {
        if self.playing(now) {
            self.hold(now);
        } else {
            self.step = 0;
            self.playing = Some(now);
        }
    }

    /// Back to the position before the move (`false`) or on to the one after it.
    pub fn jump(&mut self, end: bool) {
        self.playing = None;
        self.step = if end { self.last() } else { 0 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vlt_core::examples::WORKED_EXAMPLES;

    #[test]
    fn steps_run_from_the_position_before_to_the_one_after() {
        let ex = WORKED_EXAMPLES[0];
        let mut s = Stepper::new(ex, 100).unwrap();
        let now = Instant::now();
        assert_eq!(s.step(now), 0);
        assert!(s.frame(now).is_none());
        s.advance(false, now);
        assert_eq!(s.step(now), 0, "no step before the first");
        s.advance(true, now);
        // The first frame lifts the stones: the hole sown from is empty, 7 in hand.
        let f = s.frame(now).unwrap();
        assert_eq!(f.board[s.mv.hole().index()], 0);
        assert_eq!(f.hand, 7);
        s.jump(true);
        let (after, _) = s.before.play_traced(s.mv).unwrap();
        assert_eq!(s.frame(now).unwrap().board, after.board());
        assert_eq!(s.frame(now).unwrap().stores, after.captures());
        s.advance(true, now);
        assert_eq!(s.step(now), s.last(), "no step after the last");
    }

    #[test]
    fn playing_through_follows_the_clock_and_can_be_held() {
        let mut s = Stepper::new(WORKED_EXAMPLES[2], 100).unwrap();
        let t0 = Instant::now();
        s.play(t0);
        assert!(s.playing(t0));
        let later = t0 + Duration::from_secs(60);
        assert_eq!(s.step(later), s.last());
        assert!(!s.playing(later));
        // Held part way, it stays there.
        s.play(later);
        let t1 = later + Duration::from_millis(700);
        s.play(t1);
        let held = s.step(t1);
        assert!(held > 0 && held < s.last(), "{held}");
        assert_eq!(s.step(t1 + Duration::from_secs(60)), held);
    }
}
