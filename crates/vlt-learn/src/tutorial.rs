//! The tutorial for a first-time player: one step a rule, each a small task on the real board
//! that only the right move (or moves) completes. The texts live in the front ends' catalogues
//! under `tut.<id>.*` (web/i18n/*.json); the steps here say what is on the board, what counts as
//! done and which moves do it.

use vlt_core::examples::WORKED_EXAMPLES;
use vlt_core::{Game, Hole, Move, Player, Position, Termination};

/// What the player must do in a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Sow this hole (a first capture to watch: the text says what happens).
    Sow(&'static str),
    /// The last stone sown falls into this hole (R3).
    LastIn(&'static str),
    /// Sow a hole of 12 stones or more, so that the sowing goes round the ring (R3).
    Lap,
    /// Capture exactly these holes, from the last sown backwards (R4).
    Captures(&'static [&'static str]),
    /// Leave the opponent's row empty, so that it passes and the mover moves again (R5).
    Starve,
    /// Empty the board: the game is over (R6).
    EmptyBoard,
    /// Bring a position back for the third time: the game ends (R7).
    Repetition,
}

/// One step of the tutorial.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// A stable identifier: the catalogues' keys are `tut.<id>.title`, `tut.<id>.text`,
    /// `tut.<id>.task` and `tut.<id>.done`.
    pub id: &'static str,
    /// The position the step starts from (N2).
    pub position: &'static str,
    /// Moves played from `position` before the task (so that a position has already occurred).
    pub history: &'static [&'static str],
    /// What completes the step.
    pub goal: Goal,
    /// The only moves that complete it, in order, all made by the player to move (the opponent
    /// passes in between, R5).
    pub answer: &'static [&'static str],
}

/// The rules' 12-move endless cycle (R7), from `1,0,1,0,1,0/1,2,0,1,2,0 A 25 26`.
const CYCLE: [&str; 12] = ["5A", "1B", "2A", "3B", "4A", "5B", "6A", "2B", "1A", "4B", "3A", "6B"];

/// The cycle played once and again up to its last move: the start position has occurred twice,
/// and B's 6B brings it back a third time.
const CYCLE_TWICE_BUT_ONE: [&str; 23] = {
    let mut h = [""; 23];
    let mut i = 0;
    while i < 23 {
        h[i] = CYCLE[i % 12];
        i += 1;
    }
    h
};

/// The steps, in order.
pub const STEPS: [Step; 8] = [
    Step {
        id: "sowing",
        position: "5,5,5,5,5,5/5,5,5,5,5,5 B 0 0",
        history: &[],
        goal: Goal::LastIn("2A"),
        answer: &["3B"],
    },
    Step {
        id: "lap",
        position: "1,0,13,2,0,1/3,2,0,1,4,2 B 15 16",
        history: &[],
        goal: Goal::Lap,
        answer: &["3B"],
    },
    Step {
        id: WORKED_EXAMPLES[0].id,
        position: WORKED_EXAMPLES[0].position,
        history: &[],
        goal: Goal::Sow(WORKED_EXAMPLES[0].mv),
        answer: &["1B"],
    },
    Step {
        id: WORKED_EXAMPLES[1].id,
        position: WORKED_EXAMPLES[1].position,
        history: &[],
        goal: Goal::Captures(WORKED_EXAMPLES[1].captured_holes),
        answer: &["4B"],
    },
    Step {
        id: WORKED_EXAMPLES[2].id,
        position: WORKED_EXAMPLES[2].position,
        history: &[],
        goal: Goal::Captures(WORKED_EXAMPLES[2].captured_holes),
        answer: &["2B"],
    },
    Step {
        id: "pass",
        position: "13,0,0,0,8,1/0,0,0,0,0,0 B 19 19",
        history: &[],
        goal: Goal::Starve,
        answer: &["6B"],
    },
    Step {
        id: "end",
        position: "0,0,2,0,1,0/0,0,0,0,0,0 B 28 29",
        history: &[],
        goal: Goal::EmptyBoard,
        answer: &["5B", "3B"],
    },
    Step {
        id: "endless",
        position: "1,0,1,0,1,0/1,2,0,1,2,0 A 25 26",
        history: &CYCLE_TWICE_BUT_ONE,
        goal: Goal::Repetition,
        answer: &["6B"],
    },
];

/// Why a step's data does not make a game (a mistake in [`STEPS`], caught by the tests).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("tutorial step {id}: {reason}")]
pub struct StepError {
    /// The step.
    pub id: &'static str,
    /// What is wrong.
    pub reason: String,
}

impl Step {
    /// The step called `id`.
    #[must_use]
    pub fn by_id(id: &str) -> Option<&'static Step> {
        STEPS.iter().find(|s| s.id == id)
    }

    /// The game at the task: the position with the history played.
    ///
    /// # Errors
    /// [`StepError`] when the position or a history move is not valid.
    pub fn game(&self) -> Result<Game, StepError> {
        let err = |reason: String| StepError { id: self.id, reason };
        let pos: Position = self.position.parse().map_err(|e| err(format!("{e}")))?;
        let mut g = Game::new(pos);
        for m in self.history {
            let mv: Move = m.parse().map_err(|e| err(format!("{e}")))?;
            g.play(mv).map_err(|e| err(format!("history {m}: {e}")))?;
        }
        Ok(g)
    }

    /// The answer's moves.
    ///
    /// # Errors
    /// [`StepError`] when a move does not parse.
    pub fn answer_moves(&self) -> Result<Vec<Move>, StepError> {
        self.answer
            .iter()
            .map(|m| m.parse().map_err(|e| StepError { id: self.id, reason: format!("answer {m}: {e}") }))
            .collect()
    }

    /// The player who does the task.
    ///
    /// # Errors
    /// As [`Step::game`].
    pub fn learner(&self) -> Result<Player, StepError> {
        Ok(self.game()?.position().to_move())
    }

    /// True when `mv`, as move number `k` (from 0) of the task, is the right one: the only move
    /// the front ends accept there.
    #[must_use]
    pub fn accepts(&self, k: usize, mv: Move) -> bool {
        self.answer.get(k).and_then(|m| m.parse::<Move>().ok()) == Some(mv)
    }

    /// True when playing `moves` from the task's game completes the goal; false when they do not,
    /// or a move is illegal, or the turn passes to the opponent before the last of them.
    #[must_use]
    pub fn reached(&self, moves: &[Move]) -> bool {
        let Ok(mut g) = self.game() else { return false };
        let learner = g.position().to_move();
        let Some((&last, first)) = moves.split_last() else { return false };
        for &m in first {
            if g.position().to_move() != learner || g.play(m).is_err() || g.is_over() {
                return false;
            }
        }
        if g.position().to_move() != learner {
            return false;
        }
        let Ok(o) = g.play(last) else { return false };
        let names = |hs: &mut dyn Iterator<Item = Hole>| hs.map(|h| h.to_string()).collect::<Vec<_>>();
        match self.goal {
            Goal::Sow(h) => last.to_string() == h,
            Goal::LastIn(h) => o.sowing.last().to_string() == h,
            Goal::Lap => usize::from(o.sowing.stones) >= vlt_core::HOLES,
            Goal::Captures(hs) => names(&mut o.capture.holes()) == hs,
            Goal::Starve => o.opponent_passes,
            Goal::EmptyBoard => g.position().is_game_over(),
            Goal::Repetition => g.result().is_some_and(|r| r.termination == Termination::Repetition),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every sequence of `n` moves by the learner from `g` (the opponent passing in between).
    fn sequences(g: &Game, learner: Player, n: usize) -> Vec<Vec<Move>> {
        if n == 0 {
            return vec![Vec::new()];
        }
        let mut out = Vec::new();
        for m in g.position().legal_moves() {
            let mut next = g.clone();
            next.play(m).unwrap();
            if n == 1 {
                out.push(vec![m]);
            } else if !next.is_over() && next.position().to_move() == learner {
                for mut rest in sequences(&next, learner, n - 1) {
                    rest.insert(0, m);
                    out.push(rest);
                }
            }
        }
        out
    }

    #[test]
    fn only_the_answer_completes_each_step() {
        for step in &STEPS {
            let g = step.game().unwrap();
            assert!(!g.is_over(), "{}", step.id);
            let learner = g.position().to_move();
            let answer = step.answer_moves().unwrap();
            let all = sequences(&g, learner, answer.len());
            let right: Vec<_> = all.iter().filter(|s| step.reached(s)).collect();
            assert_eq!(right, vec![&answer], "step {}: the goal's only way is the answer", step.id);
            // A choice to make: more than one legal move at the task.
            assert!(g.position().legal_moves().len() >= 2, "step {}", step.id);
            for (k, &mv) in answer.iter().enumerate() {
                assert!(step.accepts(k, mv));
                for other in g.position().legal_moves() {
                    assert_eq!(step.accepts(0, other), other == answer[0], "step {}", step.id);
                }
            }
        }
    }

    #[test]
    fn the_capture_steps_are_the_rules_worked_examples() {
        for ex in WORKED_EXAMPLES {
            let step = Step::by_id(ex.id).unwrap();
            assert_eq!(step.position, ex.position);
            assert_eq!(step.answer, [ex.mv]);
        }
    }

    #[test]
    fn the_endless_step_has_seen_its_position_twice() {
        let step = Step::by_id("endless").unwrap();
        let mut g = step.game().unwrap();
        g.play("6B".parse().unwrap()).unwrap();
        assert_eq!(g.position().to_string(), step.position);
        assert_eq!(g.repetitions(), 3);
        assert!(!step.reached(&["1B".parse().unwrap()]));
    }
}
