//! A build shared by several ranks (threads standing in for MPI processes, through the same
//! communication seam) writes the files one process writes, and resumes from its checkpoints
//! within a layer after an interruption.

use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;
use vlt_tablebase::comm::{Comm, ThreadRanks};
use vlt_tablebase::{BuildEvent, BuildOptions, Manifest, build, build_with, format};

/// A temporary folder, removed when the test ends, passed or failed.
fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("vlt-tb-ranks-{name}-")).tempdir().expect("temporary folder")
}

/// Every file of `a` is in `b` with the same bytes; the manifests agree but for the build figures.
fn assert_same_tables(a: &Path, b: &Path, max: u32) {
    for n in 0..=max {
        let x = std::fs::read(format::layer_path(a, n)).expect("layer");
        let y = std::fs::read(format::layer_path(b, n)).expect("layer");
        assert!(x == y, "layer {n} differs between {} and {}", a.display(), b.display());
    }
    let strip = |d: &Path| {
        let mut m = Manifest::read(d).expect("manifest").expect("a manifest");
        m.layers.iter_mut().for_each(|l| l.build = None);
        m
    };
    assert_eq!(strip(a), strip(b));
}

/// The files left in a folder besides layers, stamps and the manifest (checkpoints, temporaries).
fn leftovers(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(d)
        .expect("folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|f| !(f.ends_with(".bin") || f.ends_with(".verified") || f == "vlt-tb.json"))
        .collect();
    v.sort();
    v
}

#[test]
fn two_three_and_five_ranks_write_the_single_process_files() {
    let single_dir = temp_dir("single");
    let single = single_dir.path();
    let stats1 = build(single, 11, &|_| {}).expect("build");
    assert!(stats1.iter().all(|s| s.exchanged_bytes == 0));
    for ranks in [2usize, 3, 5] {
        let d_dir = temp_dir(&format!("r{ranks}"));
        let d = d_dir.path();
        let stats = ThreadRanks::run(ranks, |c| {
            build_with(d, 11, &|_| {}, &c, &BuildOptions::default()).expect("build")
        });
        assert_same_tables(single, d, 11);
        for (a, b) in stats1.iter().zip(&stats[0]) {
            assert_eq!(
                (a.positions, a.zeros, a.zero_by_quiet_play),
                (b.positions, b.zeros, b.zero_by_quiet_play)
            );
        }
        // Every rank reports the whole layer's figures; updates cross ranks from the quiet layers on.
        assert!(stats.iter().all(|s| s == &stats[0]));
        assert!(stats[0][11].exchanged_bytes > 0, "{ranks} ranks exchange updates");
        let m = Manifest::read(d).expect("manifest").expect("a manifest");
        assert_eq!(m.layers[11].build.map(|b| b.ranks), Some(ranks as u32));
        assert!(leftovers(d).is_empty(), "{:?}", leftovers(d));
    }
}

/// Interrupted right after a checkpoint within layer 11 (every rank stops there, as when the job is
/// killed), the build leaves no layer 11, and the next run resumes from the checkpoint: the same
/// files as one uninterrupted process.
#[test]
fn an_interrupted_layer_resumes_from_its_checkpoint() {
    let single_dir = temp_dir("ckpt-single");
    let single = single_dir.path();
    build(single, 11, &|_| {}).expect("build");
    for ranks in [1usize, 3] {
        let d_dir = temp_dir(&format!("ckpt-r{ranks}"));
        let d = d_dir.path();
        let every = BuildOptions::checkpoint_every(Some(Duration::ZERO));
        let stop = |e: BuildEvent| {
            if e == (BuildEvent::Checkpoint { stones: 11, threshold: 6 }) {
                panic!("interrupted");
            }
        };
        let r = std::panic::catch_unwind(AssertUnwindSafe(|| {
            ThreadRanks::run(ranks, |c| build_with(d, 11, &stop, &c, &every).map(|_| ()))
        }));
        assert!(r.is_err(), "the build was interrupted");
        assert!(!format::layer_path(d, 11).exists(), "no half layer");
        let ckpts: Vec<String> = leftovers(d).into_iter().filter(|f| f.ends_with(".ckpt")).collect();
        let want: Vec<String> = (0..ranks).map(|r| format!("vlt-tb-11-t06-r{r}-of-{ranks}.ckpt")).collect();
        assert_eq!(ckpts, want, "one checkpoint a rank, the latest");

        let seen = Mutex::new(Vec::new());
        let note = |e: BuildEvent| {
            if matches!(e, BuildEvent::LayerResumed { .. } | BuildEvent::LayerKept { stones: 10 }) {
                seen.lock().expect("seen").push(e);
            }
        };
        ThreadRanks::run(ranks, |c| {
            let s = build_with(d, 11, &note, &c, &BuildOptions::default()).expect("resumed build");
            assert_eq!(s.len(), 1, "rank {}: only layer 11 was solved", c.rank());
        });
        let seen = seen.into_inner().expect("seen");
        assert_eq!(seen.len(), 2 * ranks);
        assert!(seen.contains(&BuildEvent::LayerResumed { stones: 11, threshold: 6 }));
        assert_same_tables(single, d, 11);
        assert!(leftovers(d).is_empty(), "checkpoints removed: {:?}", leftovers(d));
    }
}

/// A damaged checkpoint is not used: the layer starts again, and the result is still right.
#[test]
fn a_damaged_checkpoint_makes_the_layer_start_again() {
    let single_dir = temp_dir("bad-single");
    let single = single_dir.path();
    build(single, 10, &|_| {}).expect("build");
    let d_dir = temp_dir("bad");
    let d = d_dir.path();
    let every = BuildOptions::checkpoint_every(Some(Duration::ZERO));
    let stop = |e: BuildEvent| {
        if e == (BuildEvent::Checkpoint { stones: 10, threshold: 4 }) {
            panic!("interrupted");
        }
    };
    let r = std::panic::catch_unwind(AssertUnwindSafe(|| {
        ThreadRanks::run(2, |c| build_with(d, 10, &stop, &c, &every).map(|_| ()))
    }));
    assert!(r.is_err());
    let p = d.join("vlt-tb-10-t04-r1-of-2.ckpt");
    let mut bytes = std::fs::read(&p).expect("checkpoint");
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    std::fs::write(&p, bytes).expect("damage");
    let resumed = Mutex::new(false);
    let note = |e: BuildEvent| {
        if matches!(e, BuildEvent::LayerResumed { .. }) {
            *resumed.lock().expect("flag") = true;
        }
    };
    ThreadRanks::run(2, |c| build_with(d, 10, &note, &c, &BuildOptions::default()).expect("build"));
    assert!(!*resumed.lock().expect("flag"), "a damaged checkpoint is not resumed from");
    assert_same_tables(single, d, 10);
}
