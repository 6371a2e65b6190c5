//! The tables' line to the end: from a position inside the endgame tables, perfect play (the
//! tables' own choice of move, [`Tablebase::best_move`]) followed until the board is empty (R6) or
//! a position occurs for the third time (R7). Its length is the number of moves to the end that
//! the analysis board shows; the tables store values only, so this is the length of that one
//! perfect line, not the shortest win.

use vlt_core::{Move, Position};
use vlt_tablebase::Tablebase;

/// The longest line followed; lines within tables of up to 24 stones end long before (a line that
/// repeats ends at its third occurrence).
pub const MAX_LINE: usize = 4096;

/// How a perfect line ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum LineEnd {
    /// The board is empty (R6).
    EmptyBoard,
    /// A position occurred for the third time (R7).
    Repetition,
    /// [`MAX_LINE`] moves were followed without an end.
    Cut,
}

/// Perfect play from a position to the end of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerfectLine {
    /// The exact value of the start for its player to move (stones of future capture difference).
    pub value: i32,
    /// The moves, first one first.
    pub moves: Vec<Move>,
    /// How the line ends.
    pub end: LineEnd,
}

/// The tables' perfect line from `history`'s last position, where `history` holds the positions
/// since the last capture (as [`vlt_core::Game::since_last_capture`] gives them, for R7). `None`
/// when the position is beyond the tables (or `history` is empty).
#[must_use]
pub fn perfect_line(tb: &Tablebase, history: &[Position]) -> Option<PerfectLine> {
    let mut pos = *history.last()?;
    let value = tb.probe(pos)?;
    let mut seen: Vec<u128> = history.iter().map(|p| p.repetition_key()).collect();
    let mut moves = Vec::new();
    let end = loop {
        if pos.is_game_over() {
            break LineEnd::EmptyBoard;
        }
        let key = pos.repetition_key();
        if seen.iter().filter(|&&k| k == key).count() >= 3 {
            break LineEnd::Repetition;
        }
        if moves.len() >= MAX_LINE {
            break LineEnd::Cut;
        }
        let Some((m, _)) = tb.best_move(pos) else { break LineEnd::Cut };
        let (next, captured) = pos.play_counting(m);
        moves.push(m);
        if captured > 0 {
            // No earlier position can come back once stones have left the board.
            seen.clear();
        }
        seen.push(next.repetition_key());
        pos = next;
    };
    Some(PerfectLine { value, moves, end })
}

#[cfg(test)]
mod tests {
    use super::*;
    use vlt_tablebase::build::build_in_memory;

    #[test]
    fn the_line_ends_the_game_with_the_tables_value() {
        let tb = Tablebase::from_layers(build_in_memory(6));
        let start: Position = "0,1,0,2,0,0/1,0,0,0,2,0 B 30 24".parse().unwrap();
        let line = perfect_line(&tb, &[start]).unwrap();
        assert_eq!(line.end, LineEnd::EmptyBoard);
        // Replaying the line gives exactly the value promised.
        let mut p = start;
        for &m in &line.moves {
            p = p.play(m).unwrap();
        }
        assert!(p.is_game_over());
        let me = start.to_move();
        assert_eq!(p.capture_diff(me) - start.capture_diff(me), line.value);
    }

    #[test]
    fn beyond_the_tables_there_is_no_line() {
        let tb = Tablebase::from_layers(build_in_memory(4));
        assert!(perfect_line(&tb, &[Position::START]).is_none());
    }
}
