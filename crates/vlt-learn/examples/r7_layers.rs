//! Counts, layer by layer, the positions where a player's value rests on R7 (the endless cycle,
//! `vlt_learn::cycle`): `cargo run --release -p vlt-learn --example r7_layers -- DIR FROM TO`
//! over tables built by `vlt tb build`. Puzzles with the cycle theme need such positions.

use std::path::Path;
use vlt_learn::cycle::LayerAnswers;
use vlt_tablebase::Tablebase;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, from, to] = args.as_slice() else {
        eprintln!("usage: r7_layers DIR FROM TO");
        std::process::exit(2);
    };
    let (from, to): (u32, u32) = match (from.parse(), to.parse()) {
        (Ok(f), Ok(t)) if f <= t => (f, t),
        _ => {
            eprintln!("r7_layers: FROM and TO are stone counts, FROM <= TO");
            std::process::exit(2);
        }
    };
    let tb = match Tablebase::open_up_to(Path::new(dir), to) {
        Ok(tb) => tb,
        Err(e) => {
            eprintln!("r7_layers: {e}");
            std::process::exit(2);
        }
    };
    println!("stones positions mover_rests other_rests seconds");
    for n in from..=to {
        let t = std::time::Instant::now();
        let Some(layer) = LayerAnswers::solve(&tb, n) else { break };
        let c = layer.counts();
        println!(
            "{n:6} {:9} {:11} {:11} {:7.1}",
            c.positions,
            c.mover_rests,
            c.other_rests,
            t.elapsed().as_secs_f64()
        );
    }
}
