//! `vlt puzzles`: solve puzzles in the terminal, build a set from games and the tables, list one,
//! check one against the tables (docs/puzzles.md).

mod build;
pub(crate) mod solve;

use crate::error::input;
use std::path::{Path, PathBuf};
use vlt_learn::{Difficulty, Puzzle, PuzzleSet, Theme, shipped};

/// Puzzles with exact values from the endgame tables: find the one best move.
#[derive(clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    after_help = "Examples:\n  vlt puzzles                                   # solve puzzles in the terminal\n  \
                  vlt puzzles --theme chain --lang de\n  \
                  vlt puzzles build --tablebase tb16 --games 600 --seed 1 --out puzzles.vltp\n  \
                  vlt puzzles list --difficulty hard | head\n  vlt puzzles check --tablebase tb16"
)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Sub>,
    #[command(flatten)]
    solve: solve::SolveArgs,
}

#[derive(clap::Subcommand)]
enum Sub {
    Build(build::BuildArgs),
    List(ListArgs),
    Check(CheckArgs),
}

/// List the puzzles of a set, one a line: number, rating, difficulty, value, gap, themes, position.
#[derive(clap::Args)]
struct ListArgs {
    #[command(flatten)]
    pick: Pick,
}

/// Which puzzles: the set, and optionally one theme and one difficulty of it.
#[derive(clap::Args)]
pub(crate) struct Pick {
    /// A puzzle file (default: the set built into vlt).
    #[arg(long)]
    file: Option<PathBuf>,
    /// Only puzzles with this theme (chain, lap, starve, cycle).
    #[arg(long, value_parser = parse_theme)]
    theme: Option<Theme>,
    /// Only puzzles of this difficulty (easy, medium, hard).
    #[arg(long, value_parser = parse_difficulty)]
    difficulty: Option<Difficulty>,
}

impl Pick {
    /// The set the options name.
    pub(crate) fn set(&self) -> anyhow::Result<PuzzleSet> {
        load(self.file.as_deref())
    }

    /// True when any of the options was given.
    pub(crate) fn given(&self) -> bool {
        self.file.is_some() || self.theme.is_some() || self.difficulty.is_some()
    }

    /// The theme and the difficulty asked for.
    pub(crate) fn filters(&self) -> (Option<Theme>, Option<Difficulty>) {
        (self.theme, self.difficulty)
    }

    /// Whether `p` has the theme and difficulty asked for.
    pub(crate) fn keeps(&self, p: &Puzzle) -> bool {
        self.theme.is_none_or(|t| p.themes.contains(t)) && self.difficulty.is_none_or(|d| p.difficulty() == d)
    }
}

/// Check every puzzle of a set against the tables: the values of every move and the one best move.
#[derive(clap::Args)]
struct CheckArgs {
    /// A puzzle file (default: the set built into vlt).
    #[arg(long)]
    file: Option<PathBuf>,
    /// The tables' folder (`vlt tb build`), covering the set's largest puzzle.
    #[arg(long)]
    tablebase: PathBuf,
}

pub(crate) fn parse_theme(s: &str) -> Result<Theme, String> {
    Theme::from_name(s).ok_or_else(|| format!("no theme {s:?} (chain, lap, starve, cycle)"))
}

pub(crate) fn parse_difficulty(s: &str) -> Result<Difficulty, String> {
    [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard]
        .into_iter()
        .find(|d| d.name() == s)
        .ok_or_else(|| format!("no difficulty {s:?} (easy, medium, hard)"))
}

/// The set in `file`, or the built-in one.
pub(crate) fn load(file: Option<&Path>) -> anyhow::Result<PuzzleSet> {
    match file {
        None => Ok(shipped::set().clone()),
        Some(f) => {
            let bytes = std::fs::read(f).map_err(|e| input(format!("{}: {e}", f.display())))?;
            PuzzleSet::decode(&bytes).map_err(|e| input(format!("{}: {e}", f.display())))
        }
    }
}

/// Runs `vlt puzzles`.
pub fn run(a: Args) -> anyhow::Result<()> {
    match a.command {
        Some(Sub::Build(b)) => build::run(b),
        Some(Sub::List(l)) => list(l),
        Some(Sub::Check(c)) => check(c),
        None => solve::run(a.solve),
    }
}

fn list(a: ListArgs) -> anyhow::Result<()> {
    use std::io::Write;
    let set = a.pick.set()?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (i, p) in set.puzzles.iter().enumerate() {
        if !a.pick.keeps(p) {
            continue;
        }
        let themes: Vec<_> = p.themes.iter().map(Theme::name).collect();
        writeln!(
            out,
            "{:5} {:4} {:6} {:+3} gap {:2} {:10} {}  best {}",
            i + 1,
            p.rating,
            p.difficulty().name(),
            p.value(),
            p.gap(),
            if themes.is_empty() { "-".to_string() } else { themes.join(",") },
            p.position,
            p.best
        )?;
    }
    out.flush()?;
    Ok(())
}

fn check(a: CheckArgs) -> anyhow::Result<()> {
    let set = load(a.file.as_deref())?;
    let tb = vlt_tablebase::Tablebase::open(&a.tablebase).map_err(|e| input(format!("--tablebase: {e}")))?;
    for (i, p) in set.puzzles.iter().enumerate() {
        let moves = tb.probe_moves(p.position).ok_or_else(|| {
            input(format!(
                "puzzle {}: {} stones, beyond the tables' {}",
                i + 1,
                p.position.stones_on_board(),
                tb.max_stones()
            ))
        })?;
        if moves != p.move_values() {
            anyhow::bail!("puzzle {}: the tables give {moves:?}, the set {:?}", i + 1, p.move_values());
        }
        let best = moves.iter().map(|m| m.1).max().unwrap_or(i32::MIN);
        if moves.iter().filter(|m| m.1 == best).count() != 1
            || tb.best_move(p.position).map(|m| m.0) != Some(p.best)
        {
            anyhow::bail!("puzzle {}: the best move is not unique or not {}", i + 1, p.best);
        }
    }
    println!("{} puzzles agree with the tables (unique best moves, every value)", set.puzzles.len());
    Ok(())
}
