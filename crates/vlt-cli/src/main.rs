//! `vlt`: the command line of the Vai Lung Thlan program. Each subcommand lives in `cmd/`.

mod cmd;
mod error;
mod i18n;

use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;

/// Vai Lung Thlan, the mancala game of the Mizo people: rules, engine, tablebases, play.
/// Shown after the subcommand list: a first session, and where the documentation is.
const AFTER_HELP: &str = "\
Examples:
  vlt play                                      # the game in the terminal (? shows the rules)
  vlt serve                                     # the game in a browser
  vlt tutorial                                  # learn the rules step by step
  vlt puzzles                                   # find the best move, exact by the tables
  vlt analyse --depth 12 '5,5,5,5,5,5/5,5,5,5,5,5 B 0 0'
  vlt replay docs/examples/game.vlt             # check a game record
  vlt review docs/examples/game.vlt             # every move judged
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
    Review(cmd::review::Args),
    Bench(cmd::bench::Args),
    Analyse(cmd::analyse::Args),
    Serve(cmd::serve::Args),
    Loadtest(cmd::loadtest::Args),
    Engine(cmd::engine::Args),
    Match(cmd::r#match::Args),
    Play(cmd::play::Args),
    Tb(cmd::tb::Args),
    Solve(cmd::solve::Args),
    Puzzles(cmd::puzzles::Args),
    Tutorial(cmd::tutorial::Args),
    // New subcommands: add a variant here and an arm below, and a file in cmd/.
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    let result = match cli.command {
        Command::Show(a) => cmd::show::run(a),
        Command::Moves(a) => cmd::moves::run(a),
        Command::Apply(a) => cmd::apply::run(a),
        Command::Perft(a) => cmd::perft::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::Review(a) => cmd::review::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Analyse(a) => cmd::analyse::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Loadtest(a) => cmd::loadtest::run(a),
        Command::Engine(a) => cmd::engine::run(a),
        Command::Match(a) => cmd::r#match::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Tb(a) => cmd::tb::run(a),
        Command::Solve(a) => cmd::solve::run(a),
        Command::Puzzles(a) => cmd::puzzles::run(a),
        Command::Tutorial(a) => cmd::tutorial::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of our output has gone (`| head`): it has what it wanted.
        Err(e) if error::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            cmd::note(format_args!("vlt: {}", error::one_line(&e)));
            ExitCode::from(error::exit_code(&e))
        }
    }
}

/// A command line clap refuses: help and version as clap prints them (so `vlt` or `vlt tb` alone
/// shows the help, exit 2), any other error on one line, exit 2.
fn usage_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        // Only fails when standard output or error is closed, and then nobody reads it.
        let _ = e.print();
        return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
    }
    let rendered = e.render().to_string();
    cmd::note(format_args!("vlt: {}", error::clap_line(&rendered, &command_path())));
    ExitCode::from(2)
}

/// The subcommand the arguments name, as far as they name one: `vlt tb probe`.
fn command_path() -> String {
    let mut cmd = Cli::command();
    let mut path = String::from("vlt");
    for arg in std::env::args_os().skip(1) {
        let Some(arg) = arg.to_str().map(str::to_string) else { break };
        let Some(sub) = cmd.find_subcommand(&arg).cloned() else { break };
        path.push(' ');
        path.push_str(sub.get_name());
        cmd = sub;
    }
    path
}
