//! Lazy SMP: the search on several threads sharing one transposition table, each thread deepening
//! iteratively on its own; the deepest finished iteration is the answer.

use crate::report::to_stones;
use crate::search::{INF, Shared, Thread, aspiration};
use crate::{SearchInfo, SearchResult};
use std::sync::atomic::Ordering;
use std::time::Duration;
use vlt_core::Move;

/// Runs the search of `history`'s last position on `threads` threads (helpers `1..threads`, the
/// main thread reporting through `on_info`) and returns the deepest finished iteration, with the
/// root moves' centistones; `None` when stopped before any finished.
pub(crate) fn search(
    sh: &Shared<'_>,
    history: &[vlt_core::Position],
    max_depth: u32,
    all: bool,
    threads: usize,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> Option<(SearchResult, Vec<i32>)> {
    std::thread::scope(|s| {
        let helpers: Vec<_> = (1..threads)
            .map(|i| s.spawn(move || iterate(sh, history, max_depth, all, i, &mut |_| {})))
            .collect();
        let main = iterate(sh, history, max_depth, all, 0, on_info);
        sh.abort.store(true, Ordering::Relaxed);
        // A helper's iteration deeper than the main thread's last one is the better answer.
        let depth = |r: &Option<(SearchResult, Vec<i32>)>| r.as_ref().map_or(0, |r| r.0.info.depth);
        let mut best = main;
        for h in helpers {
            let r = h.join().unwrap_or(None);
            if depth(&r) > depth(&best) {
                best = r;
            }
        }
        best
    })
}

/// Iterative deepening on one thread. Thread 0 (the main one) reports progress. Helpers (Lazy
/// SMP) fill the shared table ahead of it ([`ahead`] plies deeper than the main thread's current
/// iteration), so the main thread finds much of its tree already in the table. The deepest
/// completed iteration of any thread is the search's answer; a helper that completes the depth
/// limit ends the search.
fn iterate(
    sh: &Shared<'_>,
    history: &[vlt_core::Position],
    max_depth: u32,
    all: bool,
    index: usize,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> Option<(SearchResult, Vec<i32>)> {
    let root_pos = *history.last().expect("the root");
    let mut t = Thread::new(sh, history);
    // First iteration order: bigger captures first (stable, so ring order breaks ties).
    t.root.sort_by_key(|r| std::cmp::Reverse(r.captured));
    let mut result: Option<(SearchResult, Vec<i32>)> = None;
    let mut prev = 0;
    let first = 1 + ahead(index);
    let mut depth = first;
    // How long the last two iterations took, to predict the next one.
    let (mut last, mut before) = (Duration::ZERO, Duration::ZERO);
    while depth <= max_depth {
        let elapsed = sh.start.elapsed();
        let timed = depth > sh.min_depth;
        if depth > first
            && (sh.stop.is_stopped()
                || sh.abort.load(Ordering::Relaxed)
                || (timed && !sh.budget.may_iterate(elapsed, last, before)))
        {
            break;
        }
        let iteration_start = elapsed;
        if index == 0 {
            sh.main_depth.store(depth, Ordering::Relaxed);
        }
        let (mut alpha, mut beta, mut window) = aspiration(depth, prev);
        let score = loop {
            let v = t.search_root(root_pos, depth, alpha, beta, all);
            if t.aborted {
                break v;
            }
            if v <= alpha && alpha > -INF {
                alpha = (alpha - window).max(-INF);
                window *= 2;
            } else if v >= beta && beta < INF {
                beta = (beta + window).min(INF);
                window *= 2;
            } else {
                break v;
            }
        };
        if t.aborted {
            if let Some(r) = result.as_mut() {
                adopt_partial(&t, r);
            }
            break;
        }
        t.commit_root_scores(all);
        (before, last) = (last, sh.start.elapsed() - iteration_start);
        let pv = t.pv();
        t.sort_root();
        if let Some(i) = t.root.iter().position(|r| {
            Some(Move(vlt_core::Hole::from_index(r.hole as usize).expect("hole"))) == pv.first().copied()
        }) {
            let r = t.root.remove(i);
            t.root.insert(0, r);
        }
        prev = score;
        t.flush_nodes();
        let nodes = sh.nodes.load(Ordering::Relaxed);
        let elapsed = sh.start.elapsed();
        let exact = t.proven();
        let info = SearchInfo {
            depth,
            score: to_stones(score),
            exact,
            nodes,
            nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
            elapsed,
            pv: pv.clone(),
        };
        if index == 0 {
            on_info(&info);
        }
        let moves = t
            .root
            .iter()
            .map(|r| (Move(vlt_core::Hole::from_index(r.hole as usize).expect("hole")), to_stones(r.score)))
            .collect();
        let cs = t.root.iter().map(|r| r.score).collect();
        result = Some((SearchResult { best: pv[0], info, moves }, cs));
        // A forced move on the clock: more depth cannot change it, so keep the time.
        let forced = t.root.len() == 1 && sh.budget.soft.is_some();
        // (When the main thread stops, the search sets `abort` and the helpers stop too.)
        if exact || forced || sh.node_limit.is_some_and(|n| nodes >= n) {
            break;
        }
        if depth >= max_depth && index > 0 {
            // A helper reached the depth limit first: its answer is the search's, stop the rest.
            sh.abort.store(true, Ordering::Relaxed);
            break;
        }
        depth += 1;
        if index > 0 {
            // A helper that fell behind the main thread jumps ahead of it.
            depth = depth.max(sh.main_depth.load(Ordering::Relaxed) + ahead(index));
        }
    }
    t.flush_nodes();
    result
}

/// An iteration cut off before its end: when a move other than the last iteration's best proved
/// better than it at the new depth ([`Thread::improver`]), it is the answer, with its score and
/// principal variation; the other moves keep the last finished iteration's scores.
fn adopt_partial(t: &Thread<'_>, (result, cs): &mut (SearchResult, Vec<i32>)) {
    let Some(i) = t.improver() else { return };
    let r = t.root[i];
    let best = Move(vlt_core::Hole::from_index(r.hole as usize).expect("hole"));
    let pv = t.pv();
    if pv.first() != Some(&best) {
        return;
    }
    let Some(j) = result.moves.iter().position(|&(m, _)| m == best) else { return };
    result.moves.remove(j);
    cs.remove(j);
    result.moves.insert(0, (best, to_stones(r.current)));
    cs.insert(0, r.current);
    result.best = best;
    result.info.score = to_stones(r.current);
    result.info.pv = pv;
}

/// How many plies Lazy SMP helper `index` keeps ahead of the main thread's iteration (0 for the
/// main thread): two for odd helpers, one for even ones. Measured with `smp` (vlt-tools) on two
/// cores, a helper two plies ahead gave the main thread the most of its next tree (1.4–1.7x time
/// to depth 17–19, against 1.1–1.2x one ply ahead and 0.9x at the same depth).
fn ahead(index: usize) -> u32 {
    match index {
        0 => 0,
        i if i % 2 == 1 => 2,
        _ => 1,
    }
}
