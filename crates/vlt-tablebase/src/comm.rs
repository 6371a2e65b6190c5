//! The builder's communication seam: what the processes that build a layer together (MPI ranks)
//! tell one another. The builder is one algorithm over this trait; one process is its trivial
//! case ([`SingleProcess`]), [`ThreadRanks`] runs ranks as threads of one process (what the tests
//! compare against one process without MPI), and `crate::mpi::MpiComm` (feature `mpi`) is MPI.
//!
//! Every method is collective unless it says otherwise: all ranks call it, in the same order.
//! Only the thread that drives the build calls it (MPI's "funneled" threading); the builder's
//! worker threads never do.

use crate::error::TbError;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Barrier, Mutex};

/// How [`Comm::reduce`] combines the ranks' numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    /// The sum.
    Sum,
    /// The largest.
    Max,
    /// The smallest.
    Min,
    /// The bits set in every rank's number.
    And,
}

impl Reduce {
    /// Combines two numbers.
    #[must_use]
    pub fn apply(self, a: u64, b: u64) -> u64 {
        match self {
            Reduce::Sum => a + b,
            Reduce::Max => a.max(b),
            Reduce::Min => a.min(b),
            Reduce::And => a & b,
        }
    }
}

/// The ranks of a build and what they exchange.
pub trait Comm {
    /// This rank, `0..size()`.
    fn rank(&self) -> usize;
    /// The number of ranks.
    fn size(&self) -> usize;
    /// Sends `out[r]` to rank `r` (`out` has [`Comm::size`] lists; this rank's own is empty) and
    /// returns what the ranks sent this one, in rank order.
    fn exchange(&self, out: &[Vec<u64>]) -> Vec<u64>;
    /// Combines one number of every rank; every rank gets the result.
    fn reduce(&self, x: u64, op: Reduce) -> u64;
    /// Rank `root`'s `x`, on every rank.
    fn broadcast(&self, x: u64, root: usize) -> u64;
    /// Passes a number along the ranks in order: rank `r` gets `step(x)` of rank `r − 1` (rank 0
    /// gets `first`) and returns `step`'s result on the last rank, on every rank. Sequential by
    /// nature (a checksum over the ranks' parts in order).
    fn chain(&self, first: u64, step: &mut dyn FnMut(u64) -> u64) -> u64;
    /// Waits for every rank.
    fn barrier(&self) {
        self.reduce(0, Reduce::Sum);
    }
}

/// Makes a result collective: every rank fails when any rank does (the failing rank with its own
/// error, the others with [`TbError::OtherRank`]), so that no rank waits for another that has
/// stopped.
///
/// # Errors
/// As said.
pub fn agree<T>(comm: &dyn Comm, result: Result<T, TbError>) -> Result<T, TbError> {
    let failed = comm.reduce(u64::from(result.is_err()), Reduce::Max) == 1;
    match result {
        Ok(_) if failed => Err(TbError::OtherRank),
        r => r,
    }
}

/// One process alone: every collective is immediate.
#[derive(Clone, Copy, Debug, Default)]
pub struct SingleProcess;

impl Comm for SingleProcess {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn exchange(&self, out: &[Vec<u64>]) -> Vec<u64> {
        debug_assert!(out.iter().all(Vec::is_empty), "one process sends nothing to itself");
        Vec::new()
    }
    fn reduce(&self, x: u64, _: Reduce) -> u64 {
        x
    }
    fn broadcast(&self, x: u64, _: usize) -> u64 {
        x
    }
    fn chain(&self, first: u64, step: &mut dyn FnMut(u64) -> u64) -> u64 {
        step(first)
    }
}

/// Ranks as threads of one process, for tests: the same exchanges as MPI's, through shared memory.
pub struct ThreadRanks {
    rank: usize,
    shared: Arc<Shared>,
    to_next: Option<Sender<u64>>,
    from_prev: Option<Receiver<u64>>,
}

struct Shared {
    size: usize,
    barrier: Barrier,
    /// `mail[from]`: what rank `from` sends in the current exchange, one list per rank.
    mail: Mutex<Vec<Vec<Vec<u64>>>>,
    /// The numbers of the current reduction or broadcast, one per rank.
    numbers: Mutex<Vec<u64>>,
}

impl ThreadRanks {
    /// Runs `f` on `size` ranks, each on its own thread, and returns their results in rank order.
    ///
    /// # Panics
    /// When `size` is 0 or a rank panics.
    pub fn run<T: Send>(size: usize, f: impl Fn(ThreadRanks) -> T + Sync) -> Vec<T> {
        assert!(size > 0, "at least one rank");
        let shared = Arc::new(Shared {
            size,
            barrier: Barrier::new(size),
            mail: Mutex::new(vec![Vec::new(); size]),
            numbers: Mutex::new(vec![0; size]),
        });
        // Rank r's sender to rank r + 1 and receiver from rank r − 1.
        type Link = (Option<Sender<u64>>, Option<Receiver<u64>>);
        let mut links: Vec<Link> = (0..size).map(|_| (None, None)).collect();
        for r in 1..size {
            let (tx, rx) = channel();
            links[r - 1].0 = Some(tx);
            links[r].1 = Some(rx);
        }
        std::thread::scope(|s| {
            let handles: Vec<_> = links
                .into_iter()
                .enumerate()
                .map(|(rank, (to_next, from_prev))| {
                    let comm = ThreadRanks { rank, shared: Arc::clone(&shared), to_next, from_prev };
                    let f = &f;
                    s.spawn(move || f(comm))
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a rank panicked")).collect()
        })
    }
}

impl Comm for ThreadRanks {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.shared.size
    }
    fn exchange(&self, out: &[Vec<u64>]) -> Vec<u64> {
        assert_eq!(out.len(), self.shared.size, "one list per rank");
        self.shared.mail.lock().expect("mail")[self.rank] = out.to_vec();
        self.shared.barrier.wait();
        let got = {
            let mail = self.shared.mail.lock().expect("mail");
            mail.iter().flat_map(|lists| lists[self.rank].iter().copied()).collect()
        };
        // Nobody writes the next exchange's mail before everyone has read this one's.
        self.shared.barrier.wait();
        got
    }
    fn reduce(&self, x: u64, op: Reduce) -> u64 {
        self.shared.numbers.lock().expect("numbers")[self.rank] = x;
        self.shared.barrier.wait();
        let r = {
            let numbers = self.shared.numbers.lock().expect("numbers");
            numbers[1..].iter().fold(numbers[0], |a, &b| op.apply(a, b))
        };
        self.shared.barrier.wait();
        r
    }
    fn broadcast(&self, x: u64, root: usize) -> u64 {
        if self.rank == root {
            self.shared.numbers.lock().expect("numbers")[root] = x;
        }
        self.shared.barrier.wait();
        let r = self.shared.numbers.lock().expect("numbers")[root];
        self.shared.barrier.wait();
        r
    }
    fn chain(&self, first: u64, step: &mut dyn FnMut(u64) -> u64) -> u64 {
        let x = self.from_prev.as_ref().map_or(first, |rx| rx.recv().expect("the previous rank"));
        let y = step(x);
        if let Some(tx) = &self.to_next {
            tx.send(y).expect("the next rank");
        }
        self.broadcast(y, self.shared.size - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_ranks_exchange_reduce_and_chain() {
        let out = ThreadRanks::run(3, |c| {
            let r = c.rank() as u64;
            // Rank r sends 10·r + d to each other rank d.
            let lists: Vec<Vec<u64>> =
                (0..3).map(|d| if d == c.rank() { Vec::new() } else { vec![10 * r + d as u64] }).collect();
            let got = c.exchange(&lists);
            let sum = c.reduce(r + 1, Reduce::Sum);
            let max = c.reduce(r + 1, Reduce::Max);
            let and = c.reduce(0b110 | (1 << r), Reduce::And);
            let b = c.broadcast(r * 7, 2);
            let chained = c.chain(1, &mut |x| x * 10 + r);
            (got, sum, max, and, b, chained)
        });
        assert_eq!(out[0].0, vec![10, 20]);
        assert_eq!(out[1].0, vec![1, 21]);
        assert_eq!(out[2].0, vec![2, 12]);
        for o in &out {
            assert_eq!((o.1, o.2, o.3, o.4, o.5), (6, 3, 0b110, 14, 1012));
        }
        assert_eq!(SingleProcess.chain(1, &mut |x| x + 1), 2);
    }
}
