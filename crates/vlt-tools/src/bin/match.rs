//! A quick in-crate match between two engine settings (the full runner is `vlt match`):
//! `cargo run --release -p vlt-tools --bin match -- PAIRS SPEC1 SPEC2` where a SPEC is
//! `depth:N`, `nodes:N`, `ms:N` or `level:N`, optionally followed by `,untuned` (hand-set weights)
//! `,nolmr` (no late move reductions), `,mcts` (Monte Carlo tree search; then `,uniform` for
//! uniform playouts and `,c=X` for the exploration constant), `,w=W1/W2/...` (evaluation weights
//! in `FEATURE_NAMES` order), `,t=N` (search threads), `,qs` (quiescence search on).

use std::time::Duration;
use vlt_engine::selfplay::{Chooser, play_match};
use vlt_engine::{Algorithm, Engine, EngineConfig, Level, Limits, MctsConfig, Playout, Weights};

fn parse(spec: &str) -> (Engine, Chooser) {
    let mut parts = spec.split(',');
    let main = parts.next().expect("spec");
    let (kind, n) = main.split_once(':').expect("KIND:N");
    let n: u64 = n.parse().expect("a number");
    let chooser = match kind {
        "depth" => Chooser::Search(Limits { depth: Some(n as u32), ..Limits::default() }),
        "nodes" => Chooser::Search(Limits { nodes: Some(n), ..Limits::default() }),
        "ms" => Chooser::Search(Limits { movetime: Some(Duration::from_millis(n)), ..Limits::default() }),
        "level" => Chooser::Level(Level::new(n as u8).expect("level 1-10")),
        _ => panic!("unknown spec {spec}"),
    };
    let mut e = Engine::new(EngineConfig { hash_mb: 16, ..EngineConfig::default() });
    for p in parts {
        match p {
            "untuned" => e.set_weights(Weights::UNTUNED),
            "nolmr" => e.set_reductions(false),
            "qs" => e.set_quiescence(true),
            "mcts" => e.set_config(EngineConfig { algorithm: Algorithm::Mcts, ..e.config() }),
            "uniform" => {
                let c = e.config();
                e.set_config(EngineConfig { mcts: MctsConfig { playout: Playout::Uniform, ..c.mcts }, ..c });
            }
            _ if p.starts_with("t=") => {
                let t = p[2..].parse().expect("t=THREADS");
                e.set_config(EngineConfig { threads: t, ..e.config() });
            }
            _ if p.starts_with("w=") => {
                let v: Vec<i32> = p[2..].split('/').map(|x| x.parse().expect("w=N/N/...")).collect();
                e.set_weights(Weights::from_array(v.try_into().expect("one weight per feature")));
            }
            _ if p.starts_with("c=") => {
                let c = e.config();
                let x = p[2..].parse().expect("c=NUMBER");
                e.set_config(EngineConfig { mcts: MctsConfig { exploration: x, ..c.mcts }, ..c });
            }
            _ => panic!("unknown option {p}"),
        }
    }
    (e, chooser)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pairs: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let (mut a, ca) = parse(args.get(2).map_or("depth:6", String::as_str));
    let (mut b, cb) = parse(args.get(3).map_or("depth:4", String::as_str));
    let seed = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let t = play_match(&mut a, &mut b, [ca, cb], pairs, seed, |i, g, t| {
        if (i + 1) % 10 == 0 {
            eprintln!(
                "game {} ({} moves): +{} ={} -{} score {:.3}",
                i + 1,
                g.moves().len(),
                t.wins,
                t.draws,
                t.losses,
                t.score()
            );
        }
    });
    println!(
        "{} vs {}: {} games +{} ={} -{} score {:.1}% elo {:+.0}",
        args.get(2).map_or("depth:6", String::as_str),
        args.get(3).map_or("depth:4", String::as_str),
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score(),
        t.elo()
    );
}
