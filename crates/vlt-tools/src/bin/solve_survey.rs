//! The solver's survey without the CLI's dependencies: `cargo run --release -p vlt-tools --bin
//! solve_survey -- DIR FROM TO PER_STONE SEED [CHECK_DIR]` solves the same greedy-game positions as
//! `vlt solve --survey FROM..=TO --per-stone PER_STONE --seed SEED --dir DIR` (the same draws) and
//! prints the median nodes and tests per stone count; with CHECK_DIR every value is compared with
//! those bigger tables. Environment: `MAX_NODES` (default 50 M); `CERTIFY=1` also writes each
//! value's certificate in memory, checks it and prints the median certificate nodes, all and
//! those the tables do not prove;
//! `BUILD=N` first builds the tables of up to N stones into DIR; `ESSENTIAL=1` also runs, on a
//! fresh solver, only the two tests that pin the value found (`≥ v` and `≥ v + 1`) and prints
//! their median nodes: what a schedule that guessed every value right would cost (and, to
//! stderr, the share of them that proves `≥ v`); `PROFILE=1`
//! prints (to stderr) each stone count's median distinct positions expanded and median proof
//! nodes (the solver's profiling counters), to tell repeated expansions from new ones, and the
//! shares of all the count's expansions by the stones of the expanded positions.

use vlt_core::playout::{SplitMix64, greedy_position};
use vlt_tablebase::Tablebase;
use vlt_tablebase::certificate::check;
use vlt_tablebase::solve::Solver;

fn median(mut v: Vec<u64>) -> u64 {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, from, to, per, seed, rest @ ..] = &args[..] else {
        eprintln!("usage: solve_survey DIR FROM TO PER_STONE SEED [CHECK_DIR]");
        std::process::exit(2);
    };
    let dir = std::path::Path::new(dir);
    if let Some(n) = std::env::var("BUILD").ok().and_then(|s| s.parse().ok()) {
        let start = std::time::Instant::now();
        vlt_tablebase::build(dir, n, &|_| {}).expect("tables built");
        eprintln!("tables of up to {n} stones built in {:.1} s", start.elapsed().as_secs_f64());
    }
    let tb = Tablebase::open(dir).expect("tables");
    let (from, to): (u32, u32) = (from.parse().expect("FROM"), to.parse().expect("TO"));
    let per: usize = per.parse().expect("PER_STONE");
    let mut rng = SplitMix64(seed.parse().expect("SEED"));
    let big = rest.first().map(|d| Tablebase::open_up_to(std::path::Path::new(d), to).expect("check tables"));
    let limit = std::env::var("MAX_NODES").ok().and_then(|s| s.parse().ok()).unwrap_or(50_000_000);
    let certify = std::env::var("CERTIFY").is_ok_and(|v| v == "1");
    let profile = std::env::var("PROFILE").is_ok_and(|v| v == "1");
    let essential = std::env::var("ESSENTIAL").is_ok_and(|v| v == "1");
    let start = std::time::Instant::now();
    println!(
        "stones  median-nodes  median-tests  total-nodes  median-cert-nodes  median-cert-inner  median-essential  total-essential  checked"
    );
    for n in from..=to {
        let (mut nodes, mut tests, mut certs, mut checked, mut tries) =
            (Vec::new(), Vec::new(), Vec::new(), 0, 0);
        // Of each certificate, the nodes the tables do not prove: those a search must expand to
        // find that proof.
        let mut inner = Vec::new();
        let mut pair = Vec::new();
        // Of the essential pair's nodes, those of `≥ v` (the rest refute `≥ v + 1`).
        let mut proof_part = 0u64;
        let (mut proofs, mut distinct) = (Vec::new(), Vec::new());
        let mut by_stones = vec![0u64; n as usize + 1];
        while nodes.len() < per && tries < 1000 * per {
            tries += 1;
            let Some(pos) = greedy_position(n, &mut rng) else { continue };
            let mut solver = Solver::new(&tb, limit);
            solver.set_profile(profile);
            let Ok(v) = solver.value(pos) else {
                nodes.push(u64::MAX);
                tests.push(u64::MAX);
                continue;
            };
            let st = solver.stats();
            nodes.push(st.nodes);
            proofs.push(st.proof_nodes);
            distinct.push(st.distinct);
            for (sum, k) in by_stones.iter_mut().zip(solver.nodes_by_stones().unwrap_or_default()) {
                *sum += k;
            }
            tests.push(st.tests);
            if let Some(want) = big.as_ref().and_then(|b| b.probe(pos)) {
                assert_eq!(v, want, "{pos}: solved {v:+}, the tables say {want:+}");
                checked += 1;
            }
            if essential {
                let mut fresh = Solver::new(&tb, limit);
                let holds = fresh.can_force(pos, v);
                let proving = fresh.stats().nodes;
                let holds = (holds, fresh.can_force(pos, v + 1));
                assert_eq!(holds, (Ok(true), Ok(false)), "{pos}");
                pair.push(fresh.stats().nodes);
                proof_part += proving;
            }
            if certify {
                let cert = solver.certificate(pos).expect("a certificate");
                let ok = check(&cert, Some(&tb)).unwrap_or_else(|e| panic!("{pos}: {e}"));
                assert_eq!(ok.value, v);
                certs.push(ok.nodes);
                inner.push(ok.nodes - ok.table_leaves);
            }
        }
        if profile {
            eprintln!(
                "{n} stones: median distinct positions expanded {}, median proof nodes {}",
                median(distinct),
                median(proofs)
            );
            let all: u64 = by_stones.iter().sum::<u64>().max(1);
            let shares: Vec<String> = (0..=n as usize)
                .filter(|&k| by_stones[k] > 0)
                .map(|k| format!("{k}: {:.1} %", 100.0 * by_stones[k] as f64 / all as f64))
                .collect();
            eprintln!("{n} stones: expansions by stones {}", shares.join(", "));
        }
        let total: u64 = nodes.iter().filter(|&&x| x != u64::MAX).sum();
        let total_pair: u64 = pair.iter().sum();
        println!(
            "{n:>6}  {:>12}  {:>12}  {total:>11}  {:>17}  {:>17}  {:>16}  {total_pair:>15}  {checked:>7}",
            median(nodes),
            median(tests),
            median(certs),
            median(inner),
            median(pair)
        );
        if essential {
            let share = 100.0 * proof_part as f64 / total_pair.max(1) as f64;
            eprintln!("{n} stones: of the essential pair's nodes, {share:.1} % prove `≥ v`");
        }
    }
    eprintln!("{:.1} s", start.elapsed().as_secs_f64());
}
