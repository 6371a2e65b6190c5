//! `vlt`: the command line of the Vai Lung Thlan program. Each subcommand lives in `cmd/`.

mod cmd;
mod error;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Vai Lung Thlan, the mancala game of the Mizo people: rules, engine, tablebases, play.
/// Shown after the subcommand list: a first session, and where the documentation is.
const AFTER_HELP: &str = "\
Examples:
  vlt play                                      # the game in the terminal (? shows the rules)
  vlt serve                                     # the game in a browser
  vlt analyse --depth 12 '5,5,5,5,5,5/5,5,5,5,5,5 B 0 0'
  vlt replay docs/examples/game.vlt             # check a game record
  vlt help tb                                   # any subcommand's options and examples

Positions are written as in RULES.md N2, moves as in N1 (3B, 6A). Documentation: README.md and
docs/ in the source (docs/RULES.md: the rules).";

#[derive(Parser)]
#[command(
    name = "vlt",
    version,
    about = "Vai Lung Thlan, the mancala game of the Mizo people: play, analyse, solve",
    propagate_version = true,
    after_help = AFTER_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Show(cmd::show::Args),
    Moves(cmd::moves::Args),
    Apply(cmd::apply::Args),
    Perft(cmd::perft::Args),
    Replay(cmd::replay::Args),
    Bench(cmd::bench::Args),
    Analyse(cmd::analyse::Args),
    Serve(cmd::serve::Args),
    Loadtest(cmd::loadtest::Args),
    Engine(cmd::engine::Args),
    Match(cmd::match_::Args),
    Play(cmd::play::Args),
    Tb(cmd::tb::Args),
    Solve(cmd::solve::Args),
    // New subcommands: add a variant here and an arm below, and a file in cmd/.
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Show(a) => cmd::show::run(a),
        Command::Moves(a) => cmd::moves::run(a),
        Command::Apply(a) => cmd::apply::run(a),
        Command::Perft(a) => cmd::perft::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Analyse(a) => cmd::analyse::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Loadtest(a) => cmd::loadtest::run(a),
        Command::Engine(a) => cmd::engine::run(a),
        Command::Match(a) => cmd::match_::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Tb(a) => cmd::tb::run(a),
        Command::Solve(a) => cmd::solve::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("vlt: {e:#}");
            ExitCode::from(error::exit_code(&e))
        }
    }
}
