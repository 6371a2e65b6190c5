//! `vlt play`: the game in the terminal, full screen (ratatui + crossterm) or as plain lines
//! (`--plain`) for screen readers, logs and scripts; an analysis board (`--analyse`) and the
//! puzzles (`--puzzles`), which the start menu opens as well.
//!
//! One concept per file: `setup` (how a game is set up), `prefs` (the remembered settings),
//! `app` (state and what changes it, with its action type), `example` (a worked example stepped
//! frame by frame), `words` (the game in words), `board` (the board's geometry and drawing),
//! `render` (drawing the game), `menu` (the start menu's drawing and its hit test), `screens`
//! (the rules and settings screens), `overlay` (the end screen drawn over the board), `input`
//! (keys and mouse to actions, with the hit tests on the drawn board), `anim` (stone-by-stone
//! frames), `worker` (the engine thread), `i18n` (catalogues), `term` (the terminal and its
//! restoring, and the loops of every mode), `plain` (the line mode), `analysis` (the analysis
//! board's state and keys), `analysis_view` (drawing it), `puzzle` (the puzzle mode's state and
//! keys), `puzzle_view` (drawing it), `keys_term` (what a mode driven by keys alone gives the
//! terminal: the analysis board, the puzzles). Imports run one way: term → input → render →
//! menu, screens, overlay → board → app → example, words → setup, prefs, anim, i18n.

pub mod analysis;
pub mod analysis_view;
pub mod anim;
pub mod app;
pub mod board;
pub mod example;
pub mod input;
pub mod keys_term;
pub mod menu;
pub mod overlay;
pub mod plain;
pub mod prefs;
pub mod puzzle;
pub mod puzzle_view;
pub mod render;
pub mod screens;
pub mod setup;
pub mod term;
pub mod words;
pub mod worker;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_analysis;
#[cfg(test)]
mod tests_menu;
#[cfg(test)]
mod tests_puzzle;
#[cfg(test)]
mod tests_screens;

use crate::error::input as input_error;
use setup::{Opponent, Setup};
use vlt_core::Player;
use vlt_engine::Level;

/// Play Vai Lung Thlan in the terminal, against the computer or another person.
///
/// Full screen by default: keys 1-6 (your holes, in sowing order), arrows and Enter, or a mouse
/// click choose a move. With --plain the game runs as plain lines: the board as text, moves read
/// from standard input one a line (1-6 or N1 like 3B), and the commands help, undo, redo, hint,
/// moves, board, save FILE, load FILE, resign, new and quit.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  vlt play\n  vlt play --level 5 --side A --lang es\n  \
                        printf '3\\n5\\n' | vlt play --plain --level 1\n  \
                        vlt play --no-menu --position '0,0,0,1,0,2/1,0,0,0,2,0 B 24 30'\n  \
                        vlt play --load game.vlt\n  \
                        vlt play --analyse --position '2,1,0,3,0,1/1,0,2,0,1,1 B 24 24'\n  \
                        vlt play --puzzles --theme chain --difficulty medium")]
pub struct Args {
    /// Plain lines instead of the full screen: board as text, moves from standard input.
    #[arg(long)]
    plain: bool,
    /// The computer's level, 1 (beginner) to 10 (strongest).
    #[arg(long, default_value_t = 3)]
    level: u8,
    /// Who plays the other side: `computer` or `human` (two people at one keyboard).
    #[arg(long, default_value = "computer")]
    opponent: String,
    /// The side you play against the computer: B (bottom row) or A (top row).
    #[arg(long, default_value = "B")]
    side: String,
    /// Who moves first: B or A (R2; B by default).
    #[arg(long, default_value = "B")]
    first: String,
    /// Start from this position (N2) instead of the usual one; it names who moves.
    #[arg(long)]
    position: Option<String>,
    /// Show moves at once instead of sowing them stone by stone.
    #[arg(long)]
    no_animation: bool,
    /// Start the game at once instead of showing the start menu.
    #[arg(long)]
    no_menu: bool,
    /// Language: en, es, ca, ru or de (default: from LC_ALL, LC_MESSAGES or LANG).
    #[arg(long)]
    lang: Option<String>,
    /// Continue (or replay, with p) the game of this record file (the rules crate's format).
    #[arg(long, value_name = "FILE")]
    load: Option<std::path::PathBuf>,
    /// Seed of the computer's choices, to replay a game exactly (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Endgame tables (a folder built by `vlt tb build`) for the computer, hints and the
    /// evaluation: positions with few enough stones are valued exactly (the strong levels then
    /// play them perfectly).
    #[arg(long, value_name = "DIR")]
    tablebase: Option<std::path::PathBuf>,
    /// The analysis board instead of a game: set up any position (--position, or e then keys),
    /// play moves freely, and see every move's value, the best line and, with --tablebase, the
    /// exact value and the moves to the end.
    #[arg(long, conflicts_with_all = ["plain", "load"])]
    analyse: bool,
    /// Puzzles on the board: find the one best move (values from the endgame tables), with your
    /// puzzle rating kept as `vlt puzzles` keeps it; t and d step the theme and difficulty.
    #[arg(long, conflicts_with_all = ["plain", "load", "analyse"])]
    puzzles: bool,
    #[command(flatten)]
    pick: crate::cmd::puzzles::Pick,
    /// With --puzzles: the file that keeps your puzzle rating (default: ~/.vlt-puzzles.json).
    #[arg(long, value_name = "FILE", requires = "puzzles")]
    rating_file: Option<std::path::PathBuf>,
}

fn parse_player(what: &str, s: &str) -> anyhow::Result<Player> {
    s.parse().map_err(|e| input_error(format!("{what}: {e}")))
}

/// Reads the flags into a setup and a catalogue; the language is the flag's, else the one
/// chosen in the settings (`stored`), else the environment's.
fn setup(a: &Args, stored: Option<&str>) -> anyhow::Result<(crate::i18n::Catalog, Setup)> {
    let code = match &a.lang {
        Some(l) => {
            let known: Vec<&str> = crate::i18n::codes().collect();
            crate::i18n::lang_of_locale(l).ok_or_else(|| {
                input_error(format!("unknown language {l:?}: expected one of {}", known.join(", ")))
            })?
        }
        None => stored
            .and_then(crate::i18n::lang_of_locale)
            .unwrap_or_else(|| crate::i18n::lang_from_env(|v| std::env::var(v).ok())),
    };
    let cat =
        crate::i18n::Catalog::new(code).ok_or_else(|| input_error(format!("no catalogue for {code}")))?;
    let level =
        Level::new(a.level).ok_or_else(|| input_error(format!("level {} is out of range 1-10", a.level)))?;
    let opponent = match a.opponent.to_ascii_lowercase().as_str() {
        "computer" | "engine" => Opponent::Computer(level),
        "human" | "person" => Opponent::Human,
        o => return Err(input_error(format!("opponent {o:?}: expected computer or human"))),
    };
    let position = a.position.as_deref().map(super::parse_position).transpose()?;
    let seed = a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
    });
    let setup = Setup {
        opponent,
        human: parse_player("side", &a.side)?,
        first: parse_player("first", &a.first)?,
        position,
        animate: !a.no_animation,
        seed,
    };
    Ok((cat, setup))
}

/// Reads the game of a record file, as an input error when unreadable or malformed.
fn load(path: &std::path::Path) -> anyhow::Result<vlt_core::Game> {
    let text = std::fs::read_to_string(path).map_err(|e| input_error(format!("{}: {e}", path.display())))?;
    let rec = vlt_core::Record::parse(&text).map_err(|e| input_error(format!("{}: {e}", path.display())))?;
    Ok(rec.game)
}

pub fn run(a: Args) -> anyhow::Result<()> {
    // A settings file that cannot be read leaves the defaults, said once the game shows.
    let prefs_path = prefs::path_from_env(|v| std::env::var_os(v));
    let (stored, bad_prefs) = match prefs_path.as_deref().map(prefs::Prefs::load) {
        Some(Ok(p)) => (p, None),
        Some(Err(e)) => (prefs::Prefs::default(), Some(e)),
        None => (prefs::Prefs::default(), None),
    };
    let (cat, setup) = setup(&a, stored.lang.as_deref())?;
    let game = a.load.as_deref().map(load).transpose()?;
    let tb = super::open_tablebase(a.tablebase.as_deref())?;
    if a.puzzles {
        return alone(puzzles(&a, cat)?);
    }
    if a.pick.given() {
        return Err(input_error("--file, --theme and --difficulty choose puzzles: they need --puzzles"));
    }
    if a.analyse {
        return alone(analysis(cat, &setup, tb));
    }
    if a.plain {
        let stdin = std::io::stdin();
        let stdout = std::io::stdout();
        return plain::run(&cat, setup, tb, game, stdin.lock(), stdout.lock());
    }
    // A loaded game goes straight on: the menu would only start another one.
    let engine = app::EngineThread::On(tb.clone());
    let mut app = app::App::with_engine(cat, setup, !a.no_menu && game.is_none(), engine);
    app.use_prefs(stored, prefs_path);
    if let Some(e) = bad_prefs {
        app.say(app.cat.f("settings_bad", &[("error", &e)]));
    }
    if let (Some(g), Some(path)) = (game, &a.load) {
        app.continue_game(g, &path.display().to_string(), std::time::Instant::now());
    }
    let mut term = term::Term::enter(|| app.cat.t("not_a_terminal"))?;
    // The game, and the modes its menu opens in its place (each in the language chosen by then),
    // until the user quits.
    loop {
        term.game(&mut app)?;
        let left = match app.elsewhere.take() {
            None => break,
            Some(app::Elsewhere::Analysis) => {
                term.keys(&mut analysis(app.cat.clone(), &app.setup, tb.clone()))?
            }
            Some(app::Elsewhere::Puzzles) => match puzzles(&a, app.cat.clone()) {
                Ok(mut z) => term.keys(&mut z)?,
                // The menu stays, the reason said in it (an unreadable rating file, say).
                Err(e) => {
                    app.refuse_mode(e.to_string());
                    keys_term::Leave::Mode
                }
            },
        };
        if left == keys_term::Leave::Program {
            break;
        }
    }
    drop(term);
    term::print_result(&app);
    Ok(())
}

/// Runs a mode driven by keys on its own (its flag chose it) until it is left.
fn alone(mut screen: impl keys_term::KeyScreen) -> anyhow::Result<()> {
    let mut term = term::Term::enter(|| screen.no_terminal())?;
    term.keys(&mut screen)?;
    Ok(())
}

/// The analysis board over the setup's start position (the usual one without --position).
fn analysis(
    cat: crate::i18n::Catalog,
    setup: &Setup,
    tb: Option<std::sync::Arc<vlt_tablebase::Tablebase>>,
) -> analysis::Analysis {
    analysis::Analysis::new(cat, setup.position.unwrap_or(vlt_core::Position::START), tb)
}

/// The puzzle mode over the set and filters the flags name (the shipped set, unfiltered, without
/// them).
fn puzzles(a: &Args, cat: crate::i18n::Catalog) -> anyhow::Result<puzzle::Puzzles> {
    use crate::cmd::learn::rating::RatingFile;
    let set = a.pick.set()?;
    let rating = RatingFile::load(a.rating_file.clone().or_else(RatingFile::default_path))?;
    let filters = a.pick.filters();
    puzzle::Puzzles::new(cat, set, filters, rating, None)
        .ok_or_else(|| input_error("no puzzle of the set has that theme and difficulty"))
}
