//! Compares the solver's two ways of valuing captures beyond the tables on given positions:
//! `cargo run --release --example solve_ab -- DIR POSITION...`.

use vlt_tablebase::Tablebase;
use vlt_tablebase::solve::Solver;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().expect("DIR");
    let tb = Tablebase::open(std::path::Path::new(&dir)).expect("tables");
    for p in args {
        let pos = p.parse().expect("position");
        for exact in [true, false] {
            let mut s = Solver::new(&tb, 20_000_000);
            s.set_exact_exits(exact);
            let v = s.value(pos);
            println!("{p}  exact_exits={exact}  {v:?}  nodes {} tests {}", s.stats().nodes, s.stats().tests);
        }
    }
}
