//! Builds the tables of up to N stones in DIR as `vlt tb build` does, without the command line's
//! progress bars: a small binary for timing the builder.
//!
//!     cargo run --release -p vlt-tablebase --example build_tables -- N DIR
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(n), Some(dir)) = (args.get(1).and_then(|a| a.parse::<u32>().ok()), args.get(2)) else {
        eprintln!("usage: build_tables N DIR");
        std::process::exit(2);
    };
    let stats = vlt_tablebase::build::build(std::path::Path::new(dir), n, &|_| {});
    match stats {
        Ok(all) => {
            for (n, s) in all.iter().enumerate() {
                eprintln!("layer {n}: {} positions, {:.3} s", s.positions, s.micros as f64 / 1e6);
            }
        }
        Err(e) => {
            eprintln!("build_tables: {e}");
            std::process::exit(2);
        }
    }
}
