//! `vlt tutorial`: the rules step by step in the terminal, as plain lines. Each step explains a
//! rule and sets a task on the board; only the step's answer goes on, any other move is refused.

use crate::cmd::show::draw;
use crate::i18n::Catalog;
use std::io::{BufRead, Write};
use vlt_core::Move;
use vlt_learn::tutorial::STEPS;

/// Learn the game: eight small steps, each a task on the board (sowing, laps, captures, passing,
/// the end, endless games).
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  vlt tutorial\n  vlt tutorial --lang es --step 6")]
pub struct Args {
    /// The language: en, es, ca, ru, de (default: from LC_ALL, LC_MESSAGES, LANG).
    #[arg(long)]
    lang: Option<String>,
    /// Start at step N (1-8).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=8))]
    step: u8,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let text = Catalog::for_option(a.lang.as_deref())?;
    session(&text, usize::from(a.step) - 1, std::io::stdin().lock(), std::io::stdout().lock())
}

/// Runs the steps from `first` (from 0), reading moves from `input`, until the last step is done,
/// `q` or the end of the input.
pub fn session(
    text: &Catalog,
    first: usize,
    mut input: impl BufRead,
    mut out: impl Write,
) -> anyhow::Result<()> {
    let mut line = String::new();
    for (k, step) in STEPS.iter().enumerate().skip(first) {
        let mut game = step.game()?;
        writeln!(
            out,
            "\n{} · {}",
            text.f("tut.step", &[("k", &(k + 1)), ("n", &STEPS.len())]),
            text.t(&format!("tut.{}.title", step.id))
        )?;
        writeln!(out, "{}", text.t(&format!("tut.{}.text", step.id)))?;
        let mut made = 0;
        while made < step.answer.len() {
            write!(out, "{}", draw(game.position()))?;
            writeln!(out, "{}", text.t(&format!("tut.{}.task", step.id)))?;
            loop {
                write!(out, "{} ", text.t("tut.prompt"))?;
                out.flush()?;
                if !vlt_protocol::read_line(&mut input, &mut line)? {
                    writeln!(out)?;
                    return Ok(());
                }
                let cmd = line.trim();
                if cmd == "q" || cmd == "quit" {
                    return Ok(());
                }
                let pos = game.position();
                let Ok(mv) = Move::parse_with(cmd, Some(pos.to_move())) else {
                    writeln!(out, "{}", text.f("puzzle.notmove", &[("text", &cmd)]))?;
                    continue;
                };
                if !pos.legal_moves().contains(mv) {
                    writeln!(out, "{}", text.f("puzzle.illegal", &[("move", &mv)]))?;
                } else if step.accepts(made, mv) {
                    game.play(mv)?;
                    made += 1;
                    break;
                } else {
                    writeln!(out, "{}", text.t("tut.wrong"))?;
                }
            }
        }
        write!(out, "{}", draw(game.position()))?;
        writeln!(out, "{}", text.t(&format!("tut.{}.done", step.id)))?;
    }
    writeln!(out, "\n{}", text.t("tut.finished"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_answers_go_on_to_the_end() {
        let text = Catalog::new("en").unwrap();
        // Each step: a wrong legal move first (refused), then the answer.
        let mut script = String::new();
        for step in &STEPS {
            let g = step.game().unwrap();
            let wrong = g.position().legal_moves().into_iter().find(|&m| !step.accepts(0, m)).unwrap();
            script.push_str(&format!("{wrong}\n"));
            for m in step.answer {
                script.push_str(&format!("{m}\n"));
            }
        }
        let mut out = Vec::new();
        session(&text, 0, script.as_bytes(), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert_eq!(out.matches(&text.t("tut.wrong")).count(), STEPS.len(), "{out}");
        for step in &STEPS {
            assert!(out.contains(&text.t(&format!("tut.{}.done", step.id))), "{}", step.id);
        }
        assert!(out.contains(&text.t("tut.finished")));
    }

    #[test]
    fn a_wrong_move_does_not_finish_a_step() {
        let text = Catalog::new("ru").unwrap();
        let mut out = Vec::new();
        session(&text, 0, &b"1B\n2B\n"[..], &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(!out.contains(&text.t("tut.sowing.done")), "{out}");
        assert_eq!(out.matches(&text.t("tut.wrong")).count(), 2);
    }
}
