//! The builder's [`Comm`] over MPI (rsmpi; feature `mpi`): `mpirun -np N vlt tb build …` runs
//! one build on `N` processes, each rank a process that still uses its cores with rayon.
//!
//! Only the thread that initialised MPI calls it ("funneled"): the builder calls its [`Comm`]
//! from the thread that drives the build, never from its workers.

use crate::comm::{Comm, Reduce};
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::{Count, Threading};

/// The processes of an MPI job (its world communicator).
pub struct MpiComm {
    world: SimpleCommunicator,
    // Dropping the universe finalises MPI: it lives as long as the communicator.
    _universe: mpi::environment::Universe,
}

/// Whether this process was started by an MPI launcher (`mpirun`, `srun`): the variables they
/// set. A binary built with MPI that is run alone builds as one process, without MPI.
#[must_use]
pub fn launched_by_mpi() -> bool {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"]
        .iter()
        .any(|v| std::env::var_os(v).is_some())
}

impl MpiComm {
    /// Initialises MPI; `None` when it was already initialised or cannot give funneled threading.
    #[must_use]
    pub fn init() -> Option<MpiComm> {
        let (universe, threading) = mpi::initialize_with_threading(Threading::Funneled)?;
        if threading < Threading::Funneled {
            return None;
        }
        Some(MpiComm { world: universe.world(), _universe: universe })
    }

    /// Ends the whole job with `code` (every rank), for a rank that cannot go on alone.
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }
}

/// Counts and their displacements, as MPI's varying-count collectives take them.
fn displacements(counts: &[Count]) -> Vec<Count> {
    counts
        .iter()
        .scan(0 as Count, |at, &c| {
            let d = *at;
            *at = at.checked_add(c).expect("an exchange of fewer than 2^31 updates");
            Some(d)
        })
        .collect()
}

impl Comm for MpiComm {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn exchange(&self, out: &[Vec<u64>]) -> Vec<u64> {
        let send_counts: Vec<Count> = out
            .iter()
            .map(|l| Count::try_from(l.len()).expect("a batch of fewer than 2^31 updates"))
            .collect();
        let mut recv_counts: Vec<Count> = vec![0; self.size()];
        self.world.all_to_all_into(&send_counts[..], &mut recv_counts[..]);
        let send_displs = displacements(&send_counts);
        let recv_displs = displacements(&recv_counts);
        let send: Vec<u64> = out.concat();
        let mut recv = vec![0u64; recv_counts.iter().map(|&c| c as usize).sum()];
        {
            let sp = Partition::new(&send[..], &send_counts[..], &send_displs[..]);
            let mut rp = PartitionMut::new(&mut recv[..], &recv_counts[..], &recv_displs[..]);
            self.world.all_to_all_varcount_into(&sp, &mut rp);
        }
        recv
    }

    fn reduce(&self, x: u64, op: Reduce) -> u64 {
        let op = match op {
            Reduce::Sum => SystemOperation::sum(),
            Reduce::Max => SystemOperation::max(),
            Reduce::Min => SystemOperation::min(),
            Reduce::And => SystemOperation::bitwise_and(),
        };
        let mut r = 0u64;
        self.world.all_reduce_into(&x, &mut r, op);
        r
    }

    fn broadcast(&self, x: u64, root: usize) -> u64 {
        let mut v = x;
        self.world.process_at_rank(root as i32).broadcast_into(&mut v);
        v
    }

    fn chain(&self, first: u64, step: &mut dyn FnMut(u64) -> u64) -> u64 {
        let (rank, size) = (self.rank(), self.size());
        let x =
            if rank == 0 { first } else { self.world.process_at_rank(rank as i32 - 1).receive::<u64>().0 };
        let y = step(x);
        if rank + 1 < size {
            self.world.process_at_rank(rank as i32 + 1).send(&y);
        }
        self.broadcast(y, size - 1)
    }
}
