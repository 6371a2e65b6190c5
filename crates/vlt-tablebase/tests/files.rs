//! Files: build to disk, open, probe, verify, resume after an interruption, detect damage.

use vlt_core::Position;
use vlt_tablebase::build::build_in_memory;
use vlt_tablebase::verify::{verify, verify_from};
use vlt_tablebase::{BuildEvent, Tablebase, TbError, build, format};

/// A temporary folder, removed when the test ends, passed or failed.
fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("vlt-tb-files-{name}-")).tempdir().expect("temporary folder")
}

#[test]
fn build_open_probe_verify_and_resume() {
    let tmp = temp_dir("resume");
    let dir = tmp.path();
    build(dir, 9, &|_| {}).expect("build");
    let tb = Tablebase::open(dir).expect("open");
    assert_eq!(tb.max_stones(), 9);
    let mem = build_in_memory(9);
    for n in 0..=9u32 {
        assert_eq!(tb.layer(n), Some(mem[n as usize].as_slice()), "layer {n} on disk = in memory");
    }
    // probe_moves: the best move's value is the position's value (R4, R5).
    let pos: Position = "1,0,1,0,1,0/1,2,0,1,2,0 A 25 26".parse().expect("position");
    let v = tb.probe(pos).expect("in the tables");
    let moves = tb.probe_moves(pos).expect("in the tables");
    assert_eq!(moves.len(), pos.legal_moves().len());
    assert_eq!(moves.iter().map(|m| m.1).max(), Some(v));
    // best_move: the first best in ring order (several moves are worth +3 here).
    assert!(moves.iter().filter(|m| m.1 == v).count() > 1);
    assert_eq!(tb.best_move(pos), moves.iter().copied().find(|m| m.1 == v));
    assert!(tb.probe("5,5,5,5,5,5/5,5,5,5,5,5 B 0 0".parse().expect("start")).is_none());

    let reports = verify(dir, true, &|_, _, _| {}, &mut |_| {}).expect("verify");
    assert_eq!(reports.len(), 10);
    // Only the layers a resumed build added: 8 and 9, read over the smaller ones.
    let top = verify_from(dir, 8, false, &|_, _, _| {}, &mut |_| {}).expect("verify 8 and 9");
    let counts = |r: &[vlt_tablebase::verify::LayerReport]| {
        r.iter().map(|r| (r.stones, r.positions)).collect::<Vec<_>>()
    };
    assert_eq!(counts(&top), counts(&reports[8..]));
    assert!(matches!(
        verify_from(dir, 10, false, &|_, _, _| {}, &mut |_| {}),
        Err(TbError::NoLayersFrom { from: 10, top: 9, .. })
    ));

    // Interrupt: the last two layers are lost; resuming keeps 0..=7 and rebuilds 8 and 9.
    std::fs::remove_file(format::layer_path(dir, 9)).expect("rm");
    std::fs::remove_file(format::layer_path(dir, 8)).expect("rm");
    let kept = std::sync::Mutex::new(Vec::new());
    let built = build(dir, 9, &|e| {
        if let BuildEvent::LayerKept { stones } = e {
            kept.lock().expect("lock").push(stones);
        }
    })
    .expect("resume");
    assert_eq!(*kept.lock().expect("lock"), (0..=7).collect::<Vec<_>>());
    assert_eq!(built.len(), 2);
    assert_eq!(Tablebase::open(dir).expect("open").layer(9), Some(mem[9].as_slice()));
}

#[test]
fn damage_is_detected() {
    let tmp = temp_dir("damage");
    let dir = tmp.path();
    build(dir, 6, &|_| {}).expect("build");
    let path = format::layer_path(dir, 5);
    let mut bytes = std::fs::read(&path).expect("read");

    // A changed value (still within the layer's range): the checksum catches it.
    let i = format::HEADER_LEN + bytes[format::HEADER_LEN..].iter().position(|&b| b == 1).expect("a 1");
    bytes[i] = bytes[i].wrapping_add(2);
    std::fs::write(&path, &bytes).expect("write");
    assert!(matches!(verify(dir, false, &|_, _, _| {}, &mut |_| {}), Err(TbError::BadFile { .. })));

    // The same damage with a matching checksum: the successor check catches it.
    let sum = format::checksum(&bytes[format::HEADER_LEN..]);
    bytes[32..40].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&path, &bytes).expect("write");
    // The manifest still lists the old checksum and tells; without it, the successor check does.
    assert!(matches!(verify(dir, false, &|_, _, _| {}, &mut |_| {}), Err(TbError::BadFile { .. })));
    std::fs::remove_file(vlt_tablebase::Manifest::path(dir)).expect("rm manifest");
    match verify(dir, false, &|_, _, _| {}, &mut |_| {}) {
        Err(TbError::Mismatch { stones: 5, bad, .. }) => assert!(bad >= 1),
        other => panic!("expected a mismatch, got {other:?}"),
    }

    // A wrong header: open refuses it.
    bytes[12] = 9; // rules id
    std::fs::write(&path, &bytes).expect("write");
    assert!(matches!(Tablebase::open(dir), Err(TbError::BadFile { .. })));
    // A truncated file too.
    std::fs::write(&path, &bytes[..200]).expect("write");
    assert!(matches!(Tablebase::open(dir), Err(TbError::BadFile { .. })));
    // An empty file (nothing to map).
    std::fs::write(&path, b"").expect("write");
    assert!(matches!(Tablebase::open(dir), Err(TbError::BadFile { .. })));
    // No tables at all.
    assert!(matches!(Tablebase::open(temp_dir("none").path()), Err(TbError::NoTables(_))));
}

/// Opened tables are memory-mapped; writing a layer again the builder's way (a new file renamed
/// over the old one) leaves the open tables as they were, and a new open sees the new file.
#[test]
fn open_tables_survive_a_layer_written_again() {
    let tmp = temp_dir("rewrite");
    let dir = tmp.path();
    build(dir, 5, &|_| {}).expect("build");
    let tb = Tablebase::open(dir).expect("open");
    let before = tb.layer(5).expect("layer 5").to_vec();
    // Every value negated: another sound-looking layer (values in range), not the same one.
    let changed: Vec<u8> =
        before.iter().map(|&b| if b as i8 == format::NO_POSITION { b } else { (-(b as i8)) as u8 }).collect();
    assert_ne!(changed, before);
    format::write_layer(dir, 5, &changed).expect("write again");
    assert_eq!(tb.layer(5), Some(before.as_slice()), "the open map still shows the old layer");
    assert_eq!(Tablebase::open(dir).expect("open again").layer(5), Some(changed.as_slice()));
}

/// A sound layer passes both the successor check and the rebuild comparison; a changed value fails
/// the rebuild comparison.
#[test]
fn sound_layers_pass_both_checks() {
    let layers = build_in_memory(9);
    let lower: Vec<&[u8]> = layers[..9].iter().map(Vec::as_slice).collect();
    let nine = &layers[9];
    assert_eq!(vlt_tablebase::verify::rebuild_matches(9, nine, &lower), 0);
    let (_, bad, _) = vlt_tablebase::verify::check_layer(9, nine, &lower, &|_| {});
    assert_eq!(bad, 0);
    let mut lie = nine.clone();
    let i = lie.iter().position(|&v| v as i8 == 3).expect("some position worth 3");
    lie[i] = 5;
    assert_eq!(vlt_tablebase::verify::rebuild_matches(9, &lie, &lower), 1);
    assert!(vlt_tablebase::verify::check_layer(9, &lie, &lower, &|_| {}).1 >= 1);
}
