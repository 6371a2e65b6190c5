//! `vlt play --plain`: the game as plain lines for screen readers, logs and scripts. The board is
//! text, a prompt asks for a move, and moves and commands are read from standard input one a line,
//! so `printf '3\n5\n' | vlt play --plain --level 1` plays two moves and ends at the end of input.

use super::render::{example_lines, text_board};
use super::setup::{Opponent, Setup};
use super::words::{describe_move, player_name, result_text, signed};
use crate::i18n::Catalog;
use std::io::{BufRead, Write};
use vlt_core::examples::WORKED_EXAMPLES;
use vlt_core::{Game, Move, Player, Record};
use vlt_engine::{Engine, EngineConfig};

/// Plays a game reading `input` and writing to `out`, until `quit` or the end of the input.
pub fn run(
    cat: &Catalog,
    setup: Setup,
    tablebase: Option<std::sync::Arc<vlt_tablebase::Tablebase>>,
    loaded: Option<Game>,
    mut input: impl BufRead,
    mut out: impl Write,
) -> anyhow::Result<()> {
    let mut engine = Engine::new(EngineConfig { hash_mb: 16, ..EngineConfig::default() });
    engine.set_tablebase(tablebase);
    let mut game = loaded.unwrap_or_else(|| Game::new(setup.start()));
    let mut line = String::new();
    let name = |p: Player| player_name(cat, &setup, p);
    writeln!(out, "{}", cat.t("plain_welcome"))?;
    show(&mut out, cat, &setup, &game)?;
    loop {
        let pos = game.position();
        if !game.is_over() && setup.is_computer(pos.to_move()) {
            let Opponent::Computer(level) = setup.opponent else { unreachable!("is_computer") };
            let seed = setup.seed.wrapping_add(game.moves().len() as u64);
            let mv = engine.play_level(&game, level, seed);
            let outcome = game.play(mv)?;
            writeln!(out, "{}", describe_move(cat, &setup, &game, mv, outcome))?;
            show(&mut out, cat, &setup, &game)?;
            continue;
        }
        if game.is_over() {
            write!(out, "{} ", cat.t("plain_prompt_over"))?;
        } else {
            write!(out, "{} ", cat.f("plain_prompt", &[("who", &name(pos.to_move()))]))?;
        }
        out.flush()?;
        // Capped while reading (`< /dev/zero` costs no memory); invalid UTF-8 is an unknown word.
        if !vlt_protocol::read_line(&mut input, &mut line)? {
            writeln!(out)?;
            writeln!(out, "{}", cat.t("plain_eof"))?;
            return Ok(());
        }
        let line = line.trim();
        // Echo the input, so a log of a piped game reads like a terminal session.
        writeln!(out, "{line}")?;
        let (word, arg) = line.split_once(' ').map_or((line, ""), |(w, a)| (w, a.trim()));
        match word.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "q" | "exit" => {
                writeln!(out, "{}", cat.t("plain_bye"))?;
                return Ok(());
            }
            "help" | "?" => writeln!(out, "{}", cat.t("plain_help"))?,
            "board" | "b" => show(&mut out, cat, &setup, &game)?,
            "moves" => {
                let list: Vec<String> = if game.is_over() {
                    Vec::new()
                } else {
                    game.position().legal_moves().into_iter().map(|m| m.to_string()).collect()
                };
                let key = if list.is_empty() { "plain_no_moves" } else { "plain_legal" };
                writeln!(out, "{}", cat.f(key, &[("moves", &list.join(" "))]))?;
            }
            "history" => {
                let list: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
                writeln!(out, "{}", cat.f("plain_moves", &[("moves", &list.join(" "))]))?;
            }
            "rules" => {
                writeln!(out, "{}", cat.t("rules_text"))?;
                for ex in WORKED_EXAMPLES {
                    writeln!(out)?;
                    for l in example_lines(cat, ex) {
                        writeln!(out, "{l}")?;
                    }
                }
            }
            "undo" | "u" => {
                if game.undo().is_none() {
                    writeln!(out, "{}", cat.t("nothing_to_undo"))?;
                } else {
                    while setup.is_computer(game.position().to_move()) && !game.moves().is_empty() {
                        game.undo();
                    }
                    writeln!(out, "{}", cat.n("undone", game.moves().len() as u64, &[]))?;
                    show(&mut out, cat, &setup, &game)?;
                }
            }
            "redo" => {
                if game.redo().is_none() {
                    writeln!(out, "{}", cat.t("nothing_to_redo"))?;
                } else {
                    writeln!(out, "{}", cat.n("redone", game.moves().len() as u64, &[]))?;
                    show(&mut out, cat, &setup, &game)?;
                }
            }
            "hint" | "h" => {
                let limits =
                    vlt_engine::Limits { movetime: Some(super::worker::ANALYSIS_TIME), ..Default::default() };
                match engine.search(&game, &limits, &vlt_engine::Stop::new(), &mut |_| {}) {
                    Some(r) => writeln!(
                        out,
                        "{}",
                        cat.f("hint", &[("move", &r.best), ("score", &signed(r.info.score))])
                    )?,
                    None => writeln!(out, "{}", cat.t("hint_unavailable"))?,
                }
            }
            "resign" => {
                let p =
                    if matches!(setup.opponent, Opponent::Computer(_)) { setup.human } else { pos.to_move() };
                match game.resign(p) {
                    Ok(r) => writeln!(out, "{}", result_text(cat, &setup, &game, r))?,
                    Err(e) => writeln!(out, "{e}")?,
                }
            }
            "new" => {
                game = Game::new(setup.start());
                show(&mut out, cat, &setup, &game)?;
            }
            "save" => {
                let path = if arg.is_empty() { "game.vlt" } else { arg };
                let msg = match std::fs::write(path, Record::new(game.clone()).to_string()) {
                    Ok(()) => cat.f("saved", &[("file", &path)]),
                    Err(e) => cat.f("save_failed", &[("file", &path), ("error", &e)]),
                };
                writeln!(out, "{msg}")?;
            }
            "load" => {
                let path = if arg.is_empty() { "game.vlt" } else { arg };
                match std::fs::read_to_string(path)
                    .map_err(|e| e.to_string())
                    .and_then(|t| Record::parse(&t).map_err(|e| e.to_string()))
                {
                    Ok(rec) => {
                        game = rec.game;
                        writeln!(out, "{}", cat.f("loaded", &[("file", &path), ("n", &game.moves().len())]))?;
                        show(&mut out, cat, &setup, &game)?;
                    }
                    Err(e) => writeln!(out, "{}", cat.f("load_failed", &[("file", &path), ("error", &e)]))?,
                }
            }
            _ if game.is_over() => writeln!(out, "{}", cat.t("illegal_over"))?,
            _ => match Move::parse_with(line, Some(pos.to_move())) {
                Err(_) => writeln!(out, "{}", cat.f("plain_unknown", &[("input", &line)]))?,
                Ok(mv) if mv.player() != pos.to_move() => writeln!(
                    out,
                    "{}",
                    cat.f(
                        "illegal_not_yours",
                        &[("hole", &mv), ("player", &name(pos.to_move())), ("row", &pos.to_move())],
                    )
                )?,
                Ok(mv) if pos.stones(mv.hole()) == 0 => {
                    writeln!(out, "{}", cat.f("illegal_empty", &[("hole", &mv)]))?
                }
                Ok(mv) => {
                    let outcome = game.play(mv)?;
                    writeln!(out, "{}", describe_move(cat, &setup, &game, mv, outcome))?;
                    show(&mut out, cat, &setup, &game)?;
                }
            },
        }
    }
}

/// Writes the board, the captures and whose turn it is (or the result).
fn show(out: &mut impl Write, cat: &Catalog, setup: &Setup, game: &Game) -> std::io::Result<()> {
    let pos = game.position();
    writeln!(out)?;
    for l in text_board(pos, &[]) {
        writeln!(out, "{l}")?;
    }
    writeln!(out)?;
    match game.result() {
        Some(r) => writeln!(out, "{}", result_text(cat, setup, game, r)),
        None => {
            writeln!(out, "{}", cat.f("plain_to_move", &[("who", &player_name(cat, setup, pos.to_move()))]))
        }
    }
}
