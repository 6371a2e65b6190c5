//! `vlt puzzles`: puzzles as plain lines in the terminal. Each shows the board and the task; a
//! move is checked against the tables' values the puzzle carries; `s` shows the solution, `n`
//! goes on, `q` ends. The player's puzzle rating (Glicko-2) is kept in a small file.

use super::Pick;
use crate::cmd::learn::rating::{RatingFile, Solved};
use crate::error::input;
use crate::i18n::Catalog;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use vlt_core::{Move, Player};
use vlt_learn::{Puzzle, PuzzleSet};

/// Options of solving (`vlt puzzles` without a subcommand).
#[derive(clap::Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pick: Pick,
    /// Puzzle number N of the set first (default: the one nearest your rating).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    number: Option<u32>,
    /// The language: en, es, ca, ru, de (default: from LC_ALL, LC_MESSAGES, LANG).
    #[arg(long)]
    lang: Option<String>,
    /// The file that keeps your puzzle rating (default: ~/.vlt-puzzles.json).
    #[arg(long)]
    rating_file: Option<PathBuf>,
}

pub fn run(a: SolveArgs) -> anyhow::Result<()> {
    let text = Catalog::for_option(a.lang.as_deref())?;
    let set = a.pick.set()?;
    let picked: Vec<usize> = (0..set.puzzles.len()).filter(|&i| a.pick.keeps(&set.puzzles[i])).collect();
    if picked.is_empty() {
        return Err(input("no puzzle of the set has that theme and difficulty"));
    }
    if let Some(n) = a.number {
        if n as usize > set.puzzles.len() {
            return Err(input(format!("--number: the set has {} puzzles", set.puzzles.len())));
        }
    }
    let path = a.rating_file.or_else(RatingFile::default_path);
    let mut rating = RatingFile::load(path)?;
    let stdin = std::io::stdin();
    let first = a.number.map(|n| n as usize - 1);
    session(&set, &picked, first, &text, &mut rating, stdin.lock(), std::io::stdout().lock())
}

/// A player's name: B or A.
fn side(p: Player) -> String {
    p.to_string()
}

/// The task of a puzzle in words.
pub fn task(text: &Catalog, p: &Puzzle) -> String {
    let mover = side(p.position.to_move());
    if p.value() > 0 {
        text.f("puzzle.task.win", &[("p", &mover), ("n", &p.value())])
    } else {
        text.f("puzzle.task.hold", &[("p", &mover)])
    }
}

/// The solution line in words: the moves, numbered from the puzzle's first.
pub fn solution(text: &Catalog, p: &Puzzle) -> String {
    let line: Vec<String> = p.line.iter().map(Move::to_string).collect();
    text.f("puzzle.solution", &[("move", &p.best), ("line", &line.join(" "))])
}

/// The line above the board: number, rating, difficulty, themes.
fn heading(text: &Catalog, set: &PuzzleSet, i: usize) -> String {
    let p = &set.puzzles[i];
    let mut parts = vec![
        text.f("puzzle.number", &[("n", &(i + 1)), ("total", &set.puzzles.len())]),
        text.f("puzzle.rated", &[("r", &p.rating)]),
        text.t(&format!("puzzle.difficulty.{}", p.difficulty().name())),
    ];
    parts.extend(p.themes.iter().map(|t| text.t(&format!("theme.{}", t.name()))));
    parts.join(" · ")
}

/// Solves puzzles from `picked` (indices into `set`), reading moves and commands from `input`.
pub fn session(
    set: &PuzzleSet,
    picked: &[usize],
    first: Option<usize>,
    text: &Catalog,
    rating: &mut RatingFile,
    mut input: impl BufRead,
    mut out: impl Write,
) -> anyhow::Result<()> {
    let mut current = first.unwrap_or_else(|| rating.next(set, picked));
    let mut line = String::new();
    loop {
        let p = &set.puzzles[current];
        writeln!(out, "\n{}", heading(text, set, current))?;
        write!(out, "{}", crate::cmd::show::draw(p.position))?;
        writeln!(out, "{}", task(text, p))?;
        let mut tried_wrong = false;
        let mut done = false;
        loop {
            write!(out, "{} ", text.t("puzzle.prompt"))?;
            out.flush()?;
            if !vlt_protocol::read_line(&mut input, &mut line)? {
                writeln!(out)?;
                return rating.save();
            }
            let cmd = line.trim();
            match cmd {
                "" => continue,
                "q" | "quit" => return rating.save(),
                "n" | "next" => {
                    if !done {
                        rating.record(p, current, Solved::No);
                    }
                    break;
                }
                "s" | "solution" => {
                    writeln!(out, "{}", solution(text, p))?;
                    if !done {
                        rating.record(p, current, Solved::No);
                        writeln!(out, "{}", rating_line(text, rating))?;
                        done = true;
                    }
                    continue;
                }
                _ => {}
            }
            let Ok(mv) = Move::parse_with(cmd, Some(p.position.to_move())) else {
                writeln!(out, "{}", text.f("puzzle.notmove", &[("text", &cmd)]))?;
                continue;
            };
            let Some(v) = p.value_of(mv) else {
                writeln!(out, "{}", text.f("puzzle.illegal", &[("move", &mv)]))?;
                continue;
            };
            if p.accepts(mv) {
                writeln!(out, "{}", text.f("puzzle.right", &[("move", &mv), ("n", &v)]))?;
                writeln!(out, "{}", solution(text, p))?;
                if !done {
                    rating.record(p, current, if tried_wrong { Solved::No } else { Solved::Yes });
                    writeln!(out, "{}", rating_line(text, rating))?;
                    done = true;
                }
            } else {
                let less = p.value() - v;
                writeln!(out, "{}", text.f("puzzle.wrong", &[("move", &mv), ("v", &v), ("n", &less)]))?;
                tried_wrong = true;
            }
        }
        current = rating.next(set, picked);
    }
}

fn rating_line(text: &Catalog, r: &RatingFile) -> String {
    let (rating, rd) = r.shown();
    text.f("puzzle.yourrating", &[("r", &rating), ("rd", &rd)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_move_then_the_right_one_then_quit() {
        let set = vlt_learn::shipped::set();
        let p = &set.puzzles[0];
        let wrong = p.move_values().into_iter().find(|m| m.0 != p.best).unwrap().0;
        let text = Catalog::new("en").unwrap();
        let mut rating = RatingFile::in_memory();
        let script = format!("xyz\n{wrong}\n{}\nq\n", p.best);
        let mut out = Vec::new();
        session(set, &[0, 1, 2], Some(0), &text, &mut rating, script.as_bytes(), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("xyz is not a move"), "{out}");
        assert!(out.contains("Not the best"), "{out}");
        assert!(out.contains("Right"), "{out}");
        assert!(out.contains(&task(&text, p)));
        // Solved after a wrong try counts as a loss: the rating went down from the start.
        assert!(rating.shown().0 < 1500, "{:?}", rating.shown());
        assert!(out.contains(&format!("Your puzzle rating: {} ± {}", rating.shown().0, rating.shown().1)));
        assert_eq!(rating.attempts(), 1);
    }

    #[test]
    fn the_solution_then_next_shows_another_puzzle_and_the_end_of_input_stops() {
        let set = vlt_learn::shipped::set();
        let text = Catalog::new("de").unwrap();
        let mut rating = RatingFile::in_memory();
        let mut out = Vec::new();
        session(set, &[0, 1], Some(0), &text, &mut rating, &b"s\nn\n"[..], &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains(&solution(&text, &set.puzzles[0])), "{out}");
        assert!(out.contains(&heading(&text, set, 1)), "{out}");
        assert_eq!(rating.attempts(), 1);
    }
}
