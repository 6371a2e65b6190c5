//! The puzzle mode of `vlt play` (`--puzzles`): the shipped puzzles (or a file's) on the game's
//! board. The task says what the one best move wins; a move is judged by the tables' values the
//! puzzle carries, a wrong one shows the solution; the puzzle rating (Glicko-2) and the puzzles
//! tried live in the same file as `vlt puzzles` keeps. State and keys here (no drawing, no
//! terminal, so tests drive it directly); `puzzle_view` draws it, `keys_term` runs it.

use crate::cmd::learn::rating::{RatingFile, Solved};
use crate::i18n::Catalog;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use vlt_core::{Hole, Move, Player};
use vlt_learn::{Difficulty, Puzzle, PuzzleSet, Theme};

/// The difficulties the filter steps through after "any".
const DIFFICULTIES: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

/// What the player's answer to the puzzle shown was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Not answered yet.
    Open,
    /// The best move, at the first try.
    Right(Move),
    /// Another move: its value and how much less than the best it wins.
    Wrong {
        /// The move played.
        mv: Move,
        /// Its value.
        value: i32,
    },
    /// The solution asked for without an answer.
    Shown,
}

/// The puzzle mode.
pub struct Puzzles {
    /// The messages: the board's labels, the window's size and the puzzles' own (as `vlt puzzles`
    /// says them).
    pub cat: Catalog,
    /// The set served.
    pub set: PuzzleSet,
    /// Only puzzles with this theme.
    pub theme: Option<Theme>,
    /// Only puzzles of this difficulty.
    pub difficulty: Option<Difficulty>,
    /// The puzzles the filters keep (indices into the set).
    pub picked: Vec<usize>,
    /// The puzzle shown.
    pub current: usize,
    /// The selected hole.
    pub cursor: Hole,
    /// The answer so far.
    pub answer: Answer,
    /// A refusal or a notice, shown until the next key.
    pub message: String,
    /// The rating and the puzzles tried.
    pub rating: RatingFile,
    /// True once the user asked to leave.
    pub quit: bool,
}

impl Puzzles {
    /// The mode over `set`, filtered; the first puzzle is the one nearest the player's rating
    /// (`first` overrides it). `None` when the filters keep no puzzle.
    pub fn new(
        cat: Catalog,
        set: PuzzleSet,
        filters: (Option<Theme>, Option<Difficulty>),
        rating: RatingFile,
        first: Option<usize>,
    ) -> Option<Puzzles> {
        let mut z = Puzzles {
            cat,
            set,
            theme: filters.0,
            difficulty: filters.1,
            picked: Vec::new(),
            current: 0,
            cursor: Hole::ALL[0],
            answer: Answer::Open,
            message: String::new(),
            rating,
            quit: false,
        };
        z.picked = z.keeps(z.theme, z.difficulty);
        if z.picked.is_empty() {
            return None;
        }
        let first = first.unwrap_or_else(|| z.rating.next(&z.set, &z.picked));
        z.show(first);
        Some(z)
    }

    /// The puzzle shown.
    pub fn puzzle(&self) -> &Puzzle {
        &self.set.puzzles[self.current]
    }

    fn keeps(&self, theme: Option<Theme>, difficulty: Option<Difficulty>) -> Vec<usize> {
        let keep = |p: &Puzzle| {
            theme.is_none_or(|t| p.themes.contains(t)) && difficulty.is_none_or(|d| p.difficulty() == d)
        };
        (0..self.set.puzzles.len()).filter(|&i| keep(&self.set.puzzles[i])).collect()
    }

    fn show(&mut self, i: usize) {
        self.current = i;
        self.answer = Answer::Open;
        let p = self.set.puzzles[i].position;
        self.cursor = p.legal_moves().next().map_or(Hole::ALL[0], |m| m.0);
    }

    /// True once the puzzle shown is answered or its solution shown.
    pub fn done(&self) -> bool {
        self.answer != Answer::Open
    }

    /// Counts the attempt and writes the record; a file that cannot be written is said.
    fn record(&mut self, solved: Solved) {
        let (p, i) = (self.set.puzzles[self.current].clone(), self.current);
        self.rating.record(&p, i, solved);
        if let Err(e) = self.rating.save() {
            self.message = e.to_string();
        }
    }

    /// The player answers `mv`.
    pub fn answer(&mut self, mv: Move) {
        if self.done() {
            self.message = self.cat.t("pz.answered");
            return;
        }
        let Some(value) = self.puzzle().value_of(mv) else {
            self.message = self.cat.f("puzzle.illegal", &[("move", &mv)]);
            return;
        };
        if self.puzzle().accepts(mv) {
            self.answer = Answer::Right(mv);
            self.record(Solved::Yes);
        } else {
            self.answer = Answer::Wrong { mv, value };
            self.record(Solved::No);
        }
    }

    /// The next puzzle (an unanswered one counts as not solved).
    pub fn next(&mut self) {
        if !self.done() {
            self.record(Solved::No);
        }
        let next = self.rating.next(&self.set, &self.picked);
        self.show(next);
    }

    /// Steps a filter: the theme (`theme`) or the difficulty, from "any" through each and back.
    /// A filter that keeps no puzzle is stepped over, and said.
    fn step_filter(&mut self, theme: bool) {
        let (mut t, mut d) = (self.theme, self.difficulty);
        loop {
            if theme {
                t = match t {
                    None => Some(Theme::ALL[0]),
                    Some(x) => {
                        Theme::ALL.iter().position(|&y| y == x).and_then(|i| Theme::ALL.get(i + 1)).copied()
                    }
                };
            } else {
                d = match d {
                    None => Some(DIFFICULTIES[0]),
                    Some(x) => DIFFICULTIES
                        .iter()
                        .position(|&y| y == x)
                        .and_then(|i| DIFFICULTIES.get(i + 1))
                        .copied(),
                };
            }
            let picked = self.keeps(t, d);
            if !picked.is_empty() {
                (self.theme, self.difficulty, self.picked) = (t, d, picked);
                break;
            }
            let name = match (theme, t, d) {
                (true, Some(t), _) => self.cat.t(&format!("theme.{}", t.name())),
                (false, _, Some(d)) => self.cat.t(&format!("puzzle.difficulty.{}", d.name())),
                _ => String::new(),
            };
            self.message = self.cat.f("pz.none", &[("filter", &name)]);
        }
        // A puzzle the new filters leave out is replaced unrated: changing the filter is no answer.
        if !self.picked.contains(&self.current) {
            let next = self.rating.next(&self.set, &self.picked);
            self.show(next);
        }
    }

    /// Acts on a key.
    pub fn key(&mut self, k: KeyEvent) {
        self.message.clear();
        let me = self.puzzle().position.to_move();
        match k.code {
            KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => self.quit = true,
            KeyCode::Char(c @ '1'..='6') => {
                let h = Hole::new(me, c as u8 - b'0').expect("1-6");
                self.cursor = h;
                self.answer(Move(h));
            }
            KeyCode::Enter | KeyCode::Char(' ') => self.answer(Move(self.cursor)),
            KeyCode::Left => self.cursor = step(self.cursor, me, -1),
            KeyCode::Right => self.cursor = step(self.cursor, me, 1),
            KeyCode::Char('s') if !self.done() => {
                self.answer = Answer::Shown;
                self.record(Solved::No);
            }
            KeyCode::Char('n') => self.next(),
            KeyCode::Char('t') => self.step_filter(true),
            KeyCode::Char('d') => self.step_filter(false),
            KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
            _ => {}
        }
    }
}

/// The next hole of `me`'s row on the screen, left or right (A's row runs 1A..6A left to right,
/// B's 6B..1B).
fn step(h: Hole, me: Player, dir: i8) -> Hole {
    let h = if h.owner() == me { h } else { Hole::new(me, 1).expect("1") };
    let screen_dir = if me == Player::A { dir } else { -dir };
    Hole::new(me, (h.number() as i8 + screen_dir).clamp(1, 6) as u8).expect("1-6")
}
