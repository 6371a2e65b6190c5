//! Stone-by-stone animation of a move (R3 sowing, R4 capture) from the rules crate's
//! [`MoveOutcome`]: a list of frames, each a board to draw and how long to show it.

use std::time::{Duration, Instant};
use vlt_core::{ByPlayer, HOLES, Hole, MoveOutcome, Player, Position};

/// How long the lifted hole shows empty before the first stone drops.
pub const LIFT: Duration = Duration::from_millis(250);
/// How long each dropped stone shows, for a sowing of up to one lap.
pub const STONE: Duration = Duration::from_millis(160);
/// Per stone for sowings of more than a lap, so a long move does not drag.
pub const STONE_FAST: Duration = Duration::from_millis(90);
/// Each on or off phase of the captured holes' flashing.
pub const FLASH: Duration = Duration::from_millis(180);
/// How many on/off phases the captured holes flash before they empty.
pub const FLASHES: usize = 4;

/// One picture of the board during a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Stones in each hole, in ring order (R1).
    pub board: [u8; HOLES],
    /// Stones captured so far by each player.
    pub stores: ByPlayer<u8>,
    /// Stones still in the mover's hand.
    pub hand: u8,
    /// The hole just sown into (or lifted from).
    pub focus: Option<Hole>,
    /// Holes drawn as captured (flashing), one bit per ring index.
    pub flash: u16,
}

/// A running animation.
#[derive(Clone, Debug)]
pub struct Anim {
    frames: Vec<(Frame, Duration)>,
    start: Instant,
    /// Who moved.
    pub mover: Player,
}

/// The frames of a move from `before` (R3: one stone per hole from the next one on, the starting
/// hole included on full laps; R4: the captured holes flash, then empty into the mover's store).
#[cfg(test)]
pub fn frames(before: Position, outcome: MoveOutcome) -> Vec<(Frame, Duration)> {
    paced_frames(before, outcome, 100)
}

/// The frames of a move, each shown for `percent` of its normal time (the speed setting).
pub fn paced_frames(before: Position, outcome: MoveOutcome, percent: u32) -> Vec<(Frame, Duration)> {
    let pace = |d: Duration| d * percent / 100;
    let mut board = before.board();
    let mut stores = before.captures();
    let from = outcome.sowing.from;
    let stones = outcome.sowing.stones;
    let per = pace(if usize::from(stones) > HOLES { STONE_FAST } else { STONE });
    let mut hand = stones;
    board[from.index()] = 0;
    let mut out = vec![(Frame { board, stores, hand, focus: Some(from), flash: 0 }, pace(LIFT))];
    for h in outcome.sowing.holes() {
        board[h.index()] += 1;
        hand -= 1;
        out.push((Frame { board, stores, hand, focus: Some(h), flash: 0 }, per));
    }
    if !outcome.capture.is_empty() {
        let mask = outcome.capture.holes().fold(0u16, |m, h| m | 1 << h.index());
        for i in 0..FLASHES {
            let flash = if i % 2 == 0 { mask } else { 0 };
            out.push((Frame { board, stores, hand: 0, focus: None, flash }, pace(FLASH)));
        }
        for h in outcome.capture.holes() {
            board[h.index()] = 0;
        }
        stores[outcome.mover] += outcome.capture.stones;
        out.push((Frame { board, stores, hand: 0, focus: None, flash: 0 }, pace(FLASH)));
    }
    out
}

impl Anim {
    /// Starts animating `outcome`, played from `before`, at `now`, each frame shown for
    /// `percent` of its normal time.
    pub fn new(before: Position, outcome: MoveOutcome, now: Instant, percent: u32) -> Anim {
        Anim { frames: paced_frames(before, outcome, percent), start: now, mover: outcome.mover }
    }

    /// The frame to show at `now`, or `None` once the animation is over.
    pub fn frame(&self, now: Instant) -> Option<&Frame> {
        let mut t = now.saturating_duration_since(self.start);
        for (f, d) in &self.frames {
            if t < *d {
                return Some(f);
            }
            t -= *d;
        }
        None
    }

    /// The whole animation's length.
    #[cfg(test)]
    pub fn duration(&self) -> Duration {
        self.frames.iter().map(|(_, d)| *d).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vlt_core::examples::WORKED_EXAMPLES;

    /// The last frame of every worked example is the position after the move (R3, R4).
    #[test]
    fn frames_end_at_the_position_after_the_move() {
        for ex in WORKED_EXAMPLES {
            let before: Position = ex.position.parse().unwrap();
            let (after, outcome) = before.play_traced(ex.mv.parse().unwrap()).unwrap();
            let f = frames(before, outcome);
            let last = &f.last().unwrap().0;
            assert_eq!(last.board, after.board(), "{}", ex.id);
            assert_eq!(last.stores, after.captures(), "{}", ex.id);
            // One lift frame, one per stone, and the capture's flashes and emptying.
            let caps = if ex.captured_holes.is_empty() { 0 } else { FLASHES + 1 };
            assert_eq!(f.len(), 1 + usize::from(outcome.sowing.stones) + caps, "{}", ex.id);
        }
    }

    /// R3: the 12-stone lap drops a stone back into its own hole, which then flashes (R4).
    #[test]
    fn the_lap_refills_the_starting_hole_and_flashes_it() {
        let ex = WORKED_EXAMPLES[1];
        let before: Position = ex.position.parse().unwrap();
        let (_, outcome) = before.play_traced(ex.mv.parse().unwrap()).unwrap();
        let f = frames(before, outcome);
        let from = outcome.sowing.from;
        assert_eq!(f[0].0.board[from.index()], 0);
        assert_eq!(f[12].0.board[from.index()], 1);
        assert_eq!(f[12].0.focus, Some(from));
        assert_eq!(f[12].0.hand, 0);
        assert_ne!(f[13].0.flash & 1 << from.index(), 0);
    }

    #[test]
    fn frame_times_follow_the_clock() {
        let before = Position::START;
        let (_, outcome) = before.play_traced("1B".parse().unwrap()).unwrap();
        let t0 = Instant::now();
        let a = Anim::new(before, outcome, t0, 100);
        assert_eq!(a.frame(t0).unwrap().hand, 5);
        assert_eq!(a.frame(t0 + LIFT).unwrap().hand, 4);
        assert!(a.frame(t0 + a.duration()).is_none());
    }
}
