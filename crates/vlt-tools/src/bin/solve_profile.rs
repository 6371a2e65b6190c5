//! Where a solve's work goes: `cargo run --release -p vlt-tools --bin solve_profile -- DIR POSITION...`
//! prints nodes, nested nodes, distinct positions, proof sizes, tests and time per position, and nodes by
//! stones on the board (environment: `MAX_NODES`, default 20 M).

use vlt_tablebase::Tablebase;
use vlt_tablebase::solve::Solver;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().expect("DIR");
    let tb = Tablebase::open(std::path::Path::new(&dir)).expect("tables");
    let limit = std::env::var("MAX_NODES").ok().and_then(|s| s.parse().ok()).unwrap_or(20_000_000);
    for p in args {
        let pos = p.parse().expect("position");
        let mut s = Solver::new(&tb, limit);
        s.set_profile(true);
        let start = std::time::Instant::now();
        let v = s.value(pos);
        let st = s.stats();
        println!(
            "{p}  {v:?}  nodes {} guess {} nested {} distinct {} proof {} tests {} known {} repetitions {} path-dependent {}  {:.2}s",
            st.nodes,
            st.guess_nodes,
            st.nested_nodes,
            st.distinct,
            st.proof_nodes,
            st.tests,
            st.known,
            st.repetitions,
            st.path_dependent,
            start.elapsed().as_secs_f64()
        );
        let by = s.nodes_by_stones().expect("profiling");
        let layers: Vec<String> =
            by.iter().enumerate().filter(|(_, c)| **c > 0).map(|(n, c)| format!("{n}:{c}")).collect();
        println!("    nodes by stones on the board: {}", layers.join(" "));
    }
}
