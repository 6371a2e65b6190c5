//! Tables that guard their integrity: a damaged, truncated or foreign layer file is an error
//! naming it, never a value; verified stamps; the manifest; resuming a build over damage.

use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use vlt_core::Position;
use vlt_tablebase::build::build_in_memory;
use vlt_tablebase::integrity::{open_layer_with, stamp_path};
use vlt_tablebase::verify::verify;
use vlt_tablebase::{Manifest, Tablebase, TbError, build, format, index};

/// A temporary folder, removed when the test ends, passed or failed.
fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("vlt-tb-integrity-{name}-")).tempdir().expect("temporary folder")
}

/// A layer built to `dir` up to `max` stones, with layer `n`'s file read back.
fn built(name: &str, max: u32, n: u32) -> (tempfile::TempDir, PathBuf, Vec<u8>) {
    let dir = temp_dir(name);
    build(dir.path(), max, &|_| {}).expect("build");
    let path = format::layer_path(dir.path(), n);
    let bytes = std::fs::read(&path).expect("read");
    (dir, path, bytes)
}

/// The error is a bad file naming `path`, and says `why`.
fn assert_bad_file<T: std::fmt::Debug>(r: Result<T, TbError>, path: &Path, why: &str) {
    match r {
        Err(e @ TbError::BadFile { .. }) => {
            let text = e.to_string();
            assert!(text.starts_with(&path.display().to_string()), "names the file: {text}");
            assert!(text.contains(why), "{text}");
        }
        other => panic!("expected a bad file {}, got {other:?}", path.display()),
    }
}

/// Every reader refuses a damaged layer (a value changed within its range, so that only the
/// checksum can tell), a truncated one, a foreign file and a forged one (out-of-range value with
/// a matching checksum), naming the file.
#[test]
fn damaged_truncated_and_foreign_layers_are_refused() {
    let (tmp, path, good) = built("damage", 7, 6);
    let dir = tmp.path();
    let i = format::HEADER_LEN + good[format::HEADER_LEN..].iter().position(|&b| b as i8 == 2).expect("a 2");
    let mut damaged = good.clone();
    damaged[i] = 4u8; // still a value of 6 stones
    std::fs::write(&path, &damaged).expect("write");
    assert_bad_file(Tablebase::open(dir), &path, "checksum mismatch");
    assert_bad_file(Tablebase::open_up_to(dir, 6), &path, "checksum mismatch");
    assert!(Tablebase::open_up_to(dir, 5).is_ok(), "layers below the damage still open");
    assert_bad_file(verify(dir, false, &|_, _, _| {}, &mut |_| {}), &path, "checksum mismatch");

    // An impossible value behind a forged checksum: the range check.
    let mut forged = good.clone();
    forged[i] = 127;
    let sum = format::checksum(&forged[format::HEADER_LEN..]);
    forged[32..40].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&path, &forged).expect("write");
    assert_bad_file(Tablebase::open(dir), &path, "1 entries hold 127, not a value of a layer of 6 stones");

    std::fs::write(&path, &good[..good.len() - 1]).expect("write");
    assert_bad_file(Tablebase::open(dir), &path, "bytes of entries, the header says");
    std::fs::write(&path, &good[..10]).expect("write");
    assert_bad_file(Tablebase::open(dir), &path, "too short for a header");
    std::fs::write(&path, vec![0x5a; good.len()]).expect("write");
    assert_bad_file(Tablebase::open(dir), &path, "not a vlt tablebase file");
    // Another layer's file under this name.
    std::fs::copy(format::layer_path(dir, 7), &path).expect("copy");
    assert_bad_file(Tablebase::open(dir), &path, "holds 7 stones, expected 6");

    std::fs::write(&path, &good).expect("write");
    let tb = Tablebase::open(dir).expect("sound again");
    assert_eq!(tb.layer(6), Some(build_in_memory(6)[6].as_slice()));
}

/// Resuming a build over a damaged layer is an error naming it (the build used to panic, building
/// on impossible values); once the file is removed the build resumes and gives the same tables.
#[test]
fn resuming_on_a_damaged_layer_is_an_error_then_resumes() {
    let (tmp, path, mut bytes) = built("resume", 6, 5);
    let dir = tmp.path();
    std::fs::remove_file(format::layer_path(dir, 6)).expect("rm");
    let i = format::HEADER_LEN + 77;
    bytes[i] = if bytes[i] as i8 == 5 { 3 } else { 127 };
    std::fs::write(&path, &bytes).expect("write");
    assert_bad_file(build(dir, 8, &|_| {}), &path, "checksum mismatch");
    assert!(!format::layer_path(dir, 6).exists(), "nothing built on the damaged layer");
    std::fs::remove_file(&path).expect("rm");
    let built = build(dir, 8, &|_| {}).expect("resume");
    assert_eq!(built.len(), 4, "layers 5 to 8");
    let mem = build_in_memory(8);
    let tb = Tablebase::open(dir).expect("open");
    for n in 0..=8u32 {
        assert_eq!(tb.layer(n), Some(mem[n as usize].as_slice()), "layer {n}");
    }
}

/// A stamp spares the full check of an unchanged file; a write to the file, or a copy of it, makes
/// the stamp stale and the full check run again.
#[test]
fn verified_stamps_spare_only_unchanged_files() {
    let (tmp, path, mut bytes) = built("stamp", 6, 6);
    let dir = tmp.path();
    assert!(stamp_path(&path).exists(), "the builder stamps what it writes");
    // Threshold 0: the stamp counts for every layer here.
    let trusted = open_layer_with(dir, 6, 0, false).expect("open");
    assert_eq!(trusted.counts, None, "the stamp spared the full check");
    let full = open_layer_with(dir, 6, 0, true).expect("open in full");
    assert_eq!(full.counts.map(|c| c.positions), Some(vlt_tablebase::manifest::layer_positions(6)));

    // A copy (same bytes, stamps copied along) is another file: checked in full.
    let copy_dir = temp_dir("stamp-copy");
    let copy = copy_dir.path();
    std::fs::create_dir_all(copy).expect("mkdir");
    for n in 0..=6 {
        let from = format::layer_path(dir, n);
        std::fs::copy(&from, format::layer_path(copy, n)).expect("copy");
        std::fs::copy(stamp_path(&from), stamp_path(&format::layer_path(copy, n))).expect("copy stamp");
    }
    assert!(open_layer_with(copy, 6, 0, false).expect("open copy").counts.is_some());
    assert!(open_layer_with(copy, 6, 0, false).expect("open copy").counts.is_none(), "stamped now");

    // Damage in place, the size and modification time kept: the change time tells.
    std::thread::sleep(std::time::Duration::from_millis(30));
    let mtime = std::fs::metadata(&path).expect("meta").modified().expect("mtime");
    let i = format::HEADER_LEN + 5;
    bytes[i] ^= 2;
    let mut f = std::fs::OpenOptions::new().write(true).open(&path).expect("open rw");
    f.seek(SeekFrom::Start(i as u64)).expect("seek");
    f.write_all(&bytes[i..=i]).expect("write");
    f.set_modified(mtime).expect("keep mtime");
    drop(f);
    assert_bad_file(open_layer_with(dir, 6, 0, false), &path, "checksum mismatch");
    // A stamp file that is garbage is no stamp.
    std::fs::write(stamp_path(&format::layer_path(copy, 6)), "rubbish").expect("write");
    assert!(open_layer_with(copy, 6, 0, false).expect("open copy").counts.is_some());
}

/// A value changed in a file after it was opened and checked is never returned as a value.
#[test]
fn values_are_range_checked_where_they_are_read() {
    let (tmp, path, _) = built("range", 4, 4);
    let dir = tmp.path();
    let tb = Tablebase::open(dir).expect("open");
    // A position that a quiet move of another one leads to.
    let (pos, parent) = (0..index::boards(4))
        .find_map(|r| {
            let b = index::unrank(4, r);
            let pos = Position::new(b, vlt_core::Player::B, vlt_core::ByPlayer::new(0, 0)).ok()?;
            let mut parent = None;
            vlt_tablebase::unsow::for_each_predecessor(&b, pos.to_move(), |pb, pp| {
                parent = Position::new(*pb, pp, vlt_core::ByPlayer::new(0, 0)).ok();
            });
            Some((pos, parent?))
        })
        .expect("some quiet move");
    let v = tb.probe(pos).expect("in the tables");
    assert!(v.abs() <= 4);
    let mut f = std::fs::OpenOptions::new().write(true).open(&path).expect("open rw");
    f.seek(SeekFrom::Start(format::HEADER_LEN as u64 + index::index_of(pos))).expect("seek");
    f.write_all(&[127]).expect("write");
    drop(f);
    // The map shows the file as it is now.
    assert_bad_file(tb.try_probe(pos), &path, "holds 127, not a value of 4 stones");
    assert_eq!(tb.probe(pos), None);
    assert!(tb.probe_moves(parent).is_none());
    assert!(tb.try_probe_moves(parent).is_err());
    assert!(tb.best_move(parent).is_none());
}

/// The manifest lists what the folder holds; a copied folder checks against it; a file that
/// disagrees with it, a missing layer, or a foreign manifest is an error naming the file.
#[test]
fn the_manifest_describes_the_folder() {
    let (tmp, _, _) = built("manifest", 8, 8);
    let dir = tmp.path();
    let m = Manifest::read(dir).expect("read").expect("a manifest");
    assert_eq!((m.format_version, m.rules_id, m.max_stones, m.layers.len()), (1, 1, 8, 9));
    for l in &m.layers {
        let (header, map) = format::map_layer(dir, l.stones).expect("map");
        assert_eq!(l.checksum, vlt_tablebase::manifest::checksum_text(header.checksum));
        assert_eq!((l.entries, l.bytes), (index::layer_entries(l.stones), map.len() as u64));
        let stats = vlt_tablebase::stats::layer_stats(l.stones, format::entries(&map));
        assert_eq!((l.positions, l.zeros), (stats.positions, Some(stats.draws())), "layer {}", l.stones);
        assert!(l.build.is_some_and(|b| b.ranks == 1 && b.threads >= 1));
    }

    // Copied elsewhere (layers and manifest, no stamps): verify checks it all.
    let copy_dir = temp_dir("manifest-copy");
    let copy = copy_dir.path();
    std::fs::create_dir_all(copy).expect("mkdir");
    for n in 0..=8 {
        std::fs::copy(format::layer_path(dir, n), format::layer_path(copy, n)).expect("copy");
    }
    std::fs::copy(Manifest::path(dir), Manifest::path(copy)).expect("copy manifest");
    assert_eq!(verify(copy, false, &|_, _, _| {}, &mut |_| {}).expect("verify copy").len(), 9);

    // A layer lost in the copy.
    std::fs::remove_file(format::layer_path(copy, 8)).expect("rm");
    assert_bad_file(
        verify(copy, false, &|_, _, _| {}, &mut |_| {}),
        &format::layer_path(copy, 8),
        "listed in",
    );
    // Another build's layer (sound on its own, but not what the manifest lists).
    let mut other = m.clone();
    other.layers[3].checksum = "0x0000000000000001".into();
    other.write(copy).expect("write");
    assert_bad_file(
        verify(copy, false, &|_, _, _| {}, &mut |_| {}),
        &format::layer_path(copy, 3),
        "checksum",
    );
    // A foreign manifest.
    let text = std::fs::read_to_string(Manifest::path(dir)).expect("read");
    std::fs::write(Manifest::path(copy), text.replace("\"rules_id\": 1", "\"rules_id\": 2")).expect("write");
    assert_bad_file(verify(copy, false, &|_, _, _| {}, &mut |_| {}), &Manifest::path(copy), "rules id 2");
    std::fs::write(Manifest::path(copy), "{").expect("write");
    assert_bad_file(Manifest::read(copy), &Manifest::path(copy), "not a manifest");

    // Resuming rewrites it: the lost layer is built again and listed.
    std::fs::copy(Manifest::path(dir), Manifest::path(copy)).expect("copy manifest");
    build(copy, 8, &|_| {}).expect("resume");
    assert_eq!(
        Manifest::read(copy).expect("read").expect("manifest").layers,
        m.layers
            .iter()
            .map(|l| {
                let mut l = l.clone();
                if l.stones == 8 {
                    l.build = Manifest::read(copy).expect("read").expect("m").layers[8].build;
                }
                l
            })
            .collect::<Vec<_>>()
    );
    verify(copy, false, &|_, _, _| {}, &mut |_| {}).expect("verify");
}
