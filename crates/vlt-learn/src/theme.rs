//! Puzzle themes, read from the solution: what the right move (or the solver's next one on the
//! tables' line) does.

use vlt_core::{Move, Position};

/// A theme of a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Theme {
    /// A capture of two or more holes in a row (R4's chain).
    Chain = 1,
    /// Sowing a hole of 12 stones or more, once round the ring (R3's lap).
    Lap = 2,
    /// Leaving the opponent's row empty, so that it passes and the mover moves again (R5).
    Starve = 4,
    /// The endless cycle (R7) decides the puzzle: the right move holds a value that rests on R7
    /// (the opponent can keep the stones circling, and ending the play would cost the mover), or
    /// it is the move that leaves the opponent no such defence (crate::cycle).
    Cycle = 8,
}

impl Theme {
    /// Every theme, in a fixed order.
    pub const ALL: [Theme; 4] = [Theme::Chain, Theme::Lap, Theme::Starve, Theme::Cycle];

    /// A stable name, for JSON, catalogues of translated text and the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Theme::Chain => "chain",
            Theme::Lap => "lap",
            Theme::Starve => "starve",
            Theme::Cycle => "cycle",
        }
    }

    /// The theme called `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// A set of themes (one bit each, as stored).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Themes(u8);

impl Themes {
    /// The set of the stored byte, when every bit set names a theme.
    #[must_use]
    pub fn from_bits(bits: u8) -> Option<Themes> {
        let known: u8 = Theme::ALL.iter().map(|&t| t as u8).sum();
        (bits & !known == 0).then_some(Themes(bits))
    }

    /// The stored byte.
    #[must_use]
    pub fn bits(self) -> u8 {
        self.0
    }

    /// Adds `t`.
    pub fn insert(&mut self, t: Theme) {
        self.0 |= t as u8;
    }

    /// True when `t` is in the set.
    #[must_use]
    pub fn contains(self, t: Theme) -> bool {
        self.0 & t as u8 != 0
    }

    /// The themes of the set, in [`Theme::ALL`]'s order.
    pub fn iter(self) -> impl Iterator<Item = Theme> {
        Theme::ALL.into_iter().filter(move |&t| self.contains(t))
    }
}

/// The themes of a solution: `line` starts with the right move in `pos` and follows the tables'
/// best play; `endless` says that R7's endless cycle decides the puzzle (`grade::cycle_theme`).
/// The chain, the lap and the starving are looked for in the right move and in the solver's next
/// move on the line (a move that prepares one of them is as much the point as the move itself).
///
/// # Panics
/// When a move of `line` is not legal where it is played.
#[must_use]
pub fn detect(pos: Position, line: &[Move], endless: bool) -> Themes {
    let solver = pos.to_move();
    let mut themes = Themes::default();
    let mut p = pos;
    let mut solver_moves = 0;
    for &mv in line {
        let mover = p.to_move();
        let (after, o) = p.play_traced(mv).expect("the line is legal");
        if mover == solver {
            if o.capture.holes().count() >= 2 {
                themes.insert(Theme::Chain);
            }
            if usize::from(o.sowing.stones) >= vlt_core::HOLES {
                themes.insert(Theme::Lap);
            }
            if o.opponent_passes {
                themes.insert(Theme::Starve);
            }
            solver_moves += 1;
            if solver_moves == 2 {
                break;
            }
        }
        p = after;
        if p.is_game_over() {
            break;
        }
    }
    if endless {
        themes.insert(Theme::Cycle);
    }
    themes
}

#[cfg(test)]
mod tests {
    use super::*;
    use vlt_core::examples::WORKED_EXAMPLES;

    fn themes_of(pos: &str, mv: &str) -> Themes {
        let pos: Position = pos.parse().unwrap();
        detect(pos, &[mv.parse().unwrap()], false)
    }

    #[test]
    fn the_worked_examples_show_their_themes() {
        // 7 stones capturing one hole: no theme; 12 stones capturing three: lap and chain;
        // 5 stones capturing five across the rows: chain.
        let [seven, twelve, across] = WORKED_EXAMPLES;
        assert_eq!(themes_of(seven.position, seven.mv), Themes::default());
        let t = themes_of(twelve.position, twelve.mv);
        assert!(t.contains(Theme::Lap) && t.contains(Theme::Chain) && !t.contains(Theme::Starve));
        let t = themes_of(across.position, across.mv);
        assert_eq!(t.iter().collect::<Vec<_>>(), vec![Theme::Chain]);
    }

    #[test]
    fn taking_the_last_stones_of_the_other_row_starves_it() {
        // B's 6B lands in the empty 1A and takes A's only stone: A's row is empty (R5).
        let t = themes_of("0,0,0,0,2,1/0,0,0,0,0,0 B 20 37", "6B");
        assert!(t.contains(Theme::Starve));
        assert!(detect("0,0,0,0,2,1/0,0,0,0,0,0 B 20 37".parse().unwrap(), &[], true).contains(Theme::Cycle));
    }

    #[test]
    fn stored_bits_round_trip_and_unknown_bits_are_refused() {
        let mut t = Themes::default();
        t.insert(Theme::Lap);
        t.insert(Theme::Cycle);
        assert_eq!(Themes::from_bits(t.bits()), Some(t));
        assert_eq!(Themes::from_bits(16), None);
        assert_eq!(Theme::from_name("starve"), Some(Theme::Starve));
        assert_eq!(Theme::from_name("nope"), None);
    }
}
