//! `vlt tb build` as a process: killed within a layer, it leaves no partial layer and the next run
//! resumes from the layer's checkpoint; built with the `mpi` feature, `mpirun -np 2` and `-np 3`
//! write the files of one process, and a rank killed within a layer is resumed from too.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tempfile::TempDir;

const VLT: &str = env!("CARGO_BIN_EXE_vlt");

/// An empty folder, removed when the test ends, passed or failed.
fn temp_dir(name: &str) -> TempDir {
    tempfile::Builder::new().prefix(&format!("vlt-cli-tb-build-{name}-")).tempdir().expect("temporary folder")
}

fn layer(d: &Path, n: u32) -> PathBuf {
    d.join(format!("vlt-tb-{n:02}.bin"))
}

/// `vlt tb build` to `max` stones into `d`, one thread, checkpoints after every threshold.
fn build_args(d: &Path, max: u32) -> Vec<String> {
    ["tb", "build", "--threads", "1", "--checkpoint-minutes", "0", "--max-stones", &max.to_string(), "--dir"]
        .iter()
        .map(|s| s.to_string())
        .chain([d.display().to_string()])
        .collect()
}

fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("runs");
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    out
}

/// The manifest without the build figures (time, threads, processes), which differ from run to run.
fn manifest_without_figures(d: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(d.join("vlt-tb.json")).expect("manifest");
    let mut m: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    for l in m["layers"].as_array_mut().expect("layers") {
        l["build"] = serde_json::Value::Null;
    }
    m
}

fn assert_same_tables(a: &Path, b: &Path, max: u32) {
    for n in 0..=max {
        let x = std::fs::read(layer(a, n)).expect("layer");
        let y = std::fs::read(layer(b, n)).expect("layer");
        assert!(x == y, "layer {n}: {} and {} differ", a.display(), b.display());
    }
    assert_eq!(manifest_without_figures(a), manifest_without_figures(b));
    let left: Vec<String> = std::fs::read_dir(b)
        .expect("folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|f| f.contains("ckpt") || f.ends_with("tmp"))
        .collect();
    assert!(left.is_empty(), "checkpoints and temporary files left: {left:?}");
}

/// Kills (aborts) `rank` right after its first checkpoint within layer `max`, checks what is left,
/// runs the build again and checks that it resumed and that the files equal `reference`'s.
fn kill_and_resume(launch: &dyn Fn() -> Command, d: &Path, max: u32, rank: usize, reference: &Path) {
    let mut first = launch();
    first.args(build_args(d, max)).env("VLT_TB_ABORT_AT", format!("{max}:{rank}"));
    let out = run(&mut first);
    assert!(!out.status.success(), "the killed build fails");
    assert!(layer(d, max - 1).exists(), "the layers before are complete");
    assert!(!layer(d, max).exists(), "no partial layer {max}");
    assert!(
        std::fs::read_dir(d).expect("folder").any(|e| e
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .ends_with(".ckpt")),
        "a checkpoint of layer {max} is left"
    );
    let out = run(launch().args(build_args(d, max)));
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("layer {max}: resumed from its checkpoint")), "{err}");
    assert!(err.contains(&format!("layer {:2}: kept", max - 1)), "{err}");
    assert_same_tables(reference, d, max);
}

#[test]
fn a_killed_build_resumes_within_the_layer() {
    let reference = temp_dir("reference");
    assert!(run(Command::new(VLT).args(build_args(reference.path(), 11))).status.success());
    let d = temp_dir("killed");
    kill_and_resume(&|| Command::new(VLT), d.path(), 11, 0, reference.path());
}

#[cfg(feature = "mpi")]
mod mpi {
    use super::*;

    /// `mpirun -np ranks vlt` (as root where the tests run so, more ranks than cores allowed).
    fn mpirun(ranks: usize) -> Command {
        let mut c = Command::new("mpirun");
        c.args([
            "--allow-run-as-root",
            "--oversubscribe",
            "-np",
            &ranks.to_string(),
            "-x",
            "VLT_TB_ABORT_AT",
            VLT,
        ]);
        c
    }

    #[test]
    fn two_and_three_processes_write_the_files_of_one() {
        let reference = temp_dir("mpi-reference");
        assert!(run(Command::new(VLT).args(build_args(reference.path(), 12))).status.success());
        for ranks in [2, 3] {
            let d = temp_dir(&format!("mpi-{ranks}"));
            let out = run(mpirun(ranks).args(build_args(d.path(), 12)));
            assert!(out.status.success(), "mpirun -np {ranks}");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(stdout.contains(&format!("by {ranks} processes")), "{stdout}");
            assert_eq!(stdout.lines().count(), 1, "only rank 0 reports: {stdout}");
            assert_same_tables(reference.path(), d.path(), 12);
            let m = manifest_without_figures(d.path());
            assert_eq!(m["max_stones"], 12);
            let text = std::fs::read_to_string(d.path().join("vlt-tb.json")).expect("manifest");
            let full: serde_json::Value = serde_json::from_str(&text).expect("JSON");
            assert_eq!(full["layers"][12]["build"]["ranks"], ranks);
        }
    }

    #[test]
    fn a_killed_rank_leaves_no_partial_layer_and_the_next_run_resumes() {
        let reference = temp_dir("mpi-kill-reference");
        assert!(run(Command::new(VLT).args(build_args(reference.path(), 12))).status.success());
        let d = temp_dir("mpi-kill");
        kill_and_resume(&|| mpirun(3), d.path(), 12, 2, reference.path());
    }
}
