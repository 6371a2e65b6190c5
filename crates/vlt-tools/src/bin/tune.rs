//! Fits the evaluation weights to self-play games (see `docs/engine.md`).
//!
//! `cargo run --release -p vlt-tools --bin tune -- GAMES [SEED] [LEVEL] [CSV] [PLAY]`
//! (PLAY: `untuned`, the default, or `tuned`: the weights the self-play games are played with)
//!
//! 1. Plays GAMES games of the engine against itself at LEVEL (default 4: a 4-ply search choosing
//!    among moves by a softmax on their values, so games are varied), from distinct random balanced
//!    openings, with the hand-set weights.
//! 2. For every position of every game, records the features (`eval::features`, from the side of
//!    the player to move) and the target: the capture difference the player to move actually made
//!    from there to the end of the game (R6; at an R7 repetition the stones left count for nobody).
//! 3. Fits the weights by least squares (a Texel-style regression on game results, with the result
//!    measured in stones, as the search's scores are) with a small ridge term, and prints them as
//!    Rust for `Weights::TUNED`, with the error before and after. CSV, when given, receives the
//!    data set (features and target per position).

use std::io::Write;
use vlt_core::Game;
use vlt_engine::arena::{Choice, EngineContestant, GameRules, play_game, random_openings};
use vlt_engine::{Engine, EngineConfig, FEATURE_NAMES, Level, N_FEATURES, STONE, Weights, features};

/// Ridge regularisation, relative to the number of samples.
const RIDGE: f64 = 1e-3;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(400);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let level = Level::new(args.get(3).and_then(|s| s.parse().ok()).unwrap_or(4)).expect("level 1-10");
    let mut csv = args
        .get(4)
        .filter(|p| *p != "-")
        .map(|p| std::io::BufWriter::new(std::fs::File::create(p).expect("create CSV")));
    if let Some(w) = csv.as_mut() {
        writeln!(w, "{},target", FEATURE_NAMES.join(",")).expect("write");
    }

    let play =
        if args.get(5).map(String::as_str) == Some("tuned") { Weights::TUNED } else { Weights::UNTUNED };
    let rules = GameRules::default();
    let openings = random_openings(games as usize, 4, 2, seed).expect("enough balanced openings");
    let mut samples: Vec<([f64; N_FEATURES], f64)> = Vec::new();
    for (g, &opening) in (0..games).zip(&openings) {
        // Fresh engines each game: games are independent and reproducible.
        let side = |s: u64| {
            let mut e = Engine::new(EngineConfig { hash_mb: 4, ..EngineConfig::default() });
            e.set_weights(play);
            EngineContestant::new(e, Choice::Level(level), s)
        };
        let (mut b, mut a) = (side(seed ^ g), side((seed ^ g).rotate_left(17)));
        let game: Game = play_game([&mut b, &mut a], opening, &rules).expect("the engine moves").game;
        let end = game.position();
        for &p in game.positions() {
            if p.is_game_over() {
                continue;
            }
            let me = p.to_move();
            let target = f64::from(end.capture_diff(me) - p.capture_diff(me));
            let f = features(p).map(f64::from);
            if let Some(w) = csv.as_mut() {
                let fs: Vec<String> = f.iter().map(|x| x.to_string()).collect();
                writeln!(w, "{},{}", fs.join(","), target).expect("write");
            }
            samples.push((f, target));
        }
        if (g + 1) % 50 == 0 {
            eprintln!("{} games, {} positions", g + 1, samples.len());
        }
    }

    // Normal equations (X'X + λI) w = X'y, in stones; the weights are then scaled to centistones.
    let mut xtx = [[0.0f64; N_FEATURES]; N_FEATURES];
    let mut xty = [0.0f64; N_FEATURES];
    for (f, y) in &samples {
        for i in 0..N_FEATURES {
            xty[i] += f[i] * y;
            for j in 0..N_FEATURES {
                xtx[i][j] += f[i] * f[j];
            }
        }
    }
    for (i, row) in xtx.iter_mut().enumerate() {
        row[i] += RIDGE * samples.len() as f64;
    }
    let w = solve(xtx, xty);
    let tuned: [i32; N_FEATURES] = std::array::from_fn(|i| (w[i] * f64::from(STONE)).round() as i32);

    let mse = |weights: [i32; N_FEATURES]| {
        samples
            .iter()
            .map(|(f, y)| {
                let p: f64 =
                    f.iter().zip(weights).map(|(a, b)| a * f64::from(b)).sum::<f64>() / f64::from(STONE);
                (p - y) * (p - y)
            })
            .sum::<f64>()
            / samples.len() as f64
    };
    println!("{} games, {} positions (level {})", games, samples.len(), level.get());
    println!(
        "mean squared error, stones^2: zero {:.3}, untuned {:.3}, tuned {:.3}",
        mse([0; N_FEATURES]),
        mse(Weights::UNTUNED.as_array()),
        mse(tuned)
    );
    println!("    pub const TUNED: Weights = Weights {{");
    for (name, v) in FEATURE_NAMES.iter().zip(tuned) {
        println!("        {name}: {v},");
    }
    println!("    }};");
}

/// Gaussian elimination with partial pivoting.
fn solve(mut a: [[f64; N_FEATURES]; N_FEATURES], mut b: [f64; N_FEATURES]) -> [f64; N_FEATURES] {
    for col in 0..N_FEATURES {
        let piv =
            (col..N_FEATURES).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs())).expect("rows");
        a.swap(col, piv);
        b.swap(col, piv);
        for r in col + 1..N_FEATURES {
            let k = a[r][col] / a[col][col];
            let pivot_row = a[col];
            for (x, p) in a[r].iter_mut().zip(pivot_row).skip(col) {
                *x -= k * p;
            }
            b[r] -= k * b[col];
        }
    }
    let mut x = [0.0; N_FEATURES];
    for r in (0..N_FEATURES).rev() {
        let s: f64 = (r + 1..N_FEATURES).map(|c| a[r][c] * x[c]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    x
}
