//! `vlt solve POSITION --certificate FILE` and `vlt solve --check-certificate FILE`: the proof of a
//! solved value written out, and checked by vlt_tablebase::certificate's checker (no search).

use crate::error::input;
use std::io::{BufReader, BufWriter, Write};
use std::path::Path;
use vlt_core::Position;
use vlt_tablebase::Tablebase;
use vlt_tablebase::certificate::{check, parse, write};
use vlt_tablebase::solve::Solver;

/// What was written.
pub struct Written {
    pub nodes: usize,
    pub bytes: u64,
}

/// Writes the certificate of `pos`'s value (which `solver` has found) to `file`.
pub fn write_file(solver: &mut Solver<'_>, pos: Position, file: &Path) -> anyhow::Result<Written> {
    let cert = solver
        .certificate(pos)
        .map_err(|e| input(format!("certificate: {e}; raise --max-nodes or build bigger tables")))?;
    let out = std::fs::File::create(file).map_err(|e| input(format!("{}: {e}", file.display())))?;
    let mut out = BufWriter::new(out);
    write(&cert, &mut out)
        .and_then(|()| out.flush())
        .map_err(|e| input(format!("{}: {e}", file.display())))?;
    let bytes = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
    Ok(Written { nodes: cert.nodes.len(), bytes })
}

/// Reads and checks the certificate in `file` against `tb`: one line with what it proves, or an
/// input error naming the file and the first thing wrong.
pub fn check_file(file: &Path, tb: &Tablebase, json: bool) -> anyhow::Result<()> {
    let name = file.display();
    let f = std::fs::File::open(file).map_err(|e| input(format!("certificate {name}: {e}")))?;
    let cert = parse(BufReader::new(f)).map_err(|e| input(format!("certificate {name}: {e}")))?;
    let ok = check(&cert, Some(tb)).map_err(|e| input(format!("certificate {name} refused: {e}")))?;
    let mut out = std::io::stdout();
    if json {
        let o = serde_json::json!({
            "position": cert.root.to_string(),
            "value": ok.value,
            "nodes": ok.nodes,
            "table_leaves": ok.table_leaves,
            "ends": ok.ends,
            "tables": cert.tables,
        });
        writeln!(out, "{o}")?;
    } else {
        writeln!(
            out,
            "certificate {name}: value {:+} for {} of {} proved ({} nodes, {} table leaves up to {} stones, {} \
             ends of the game)",
            ok.value,
            cert.root.to_move(),
            cert.root,
            ok.nodes,
            ok.table_leaves,
            cert.tables,
            ok.ends
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::exit_code;
    use vlt_tablebase::build::build_in_memory;

    /// Written, checked, then damaged: the damaged file is refused in one line with status 2.
    #[test]
    fn written_certificates_check_and_damaged_ones_are_refused() {
        let tb = Tablebase::from_layers(build_in_memory(8));
        let pos: Position = "0,1,2,0,1,0/2,0,1,3,0,2 B 20 18".parse().expect("position");
        let file = std::env::temp_dir().join(format!("vlt-cert-{}.txt", std::process::id()));
        let mut solver = Solver::new(&tb, 1_000_000);
        let w = write_file(&mut solver, pos, &file).expect("written");
        assert!(w.nodes > 2 && w.bytes > 0);
        check_file(&file, &tb, false).expect("checks");
        let text = std::fs::read_to_string(&file).expect("read");
        // A leaf value changed: find a table leaf and add one to it.
        let line = text.lines().find(|l| l.contains(" t")).expect("a table leaf");
        let (head, v) = line.rsplit_once(" t").expect("value");
        let v: i32 = v.parse().expect("number");
        std::fs::write(&file, text.replacen(line, &format!("{head} t{}", v + 1), 1)).expect("write");
        let e = check_file(&file, &tb, false).expect_err("tampered");
        assert_eq!(exit_code(&e), 2);
        assert!(e.to_string().contains("refused") && !e.to_string().contains('\n'), "{e}");
        std::fs::write(&file, &text[..text.len() / 2]).expect("write");
        assert_eq!(exit_code(&check_file(&file, &tb, false).expect_err("truncated")), 2);
        std::fs::remove_file(&file).ok();
        assert_eq!(exit_code(&check_file(&file, &tb, false).expect_err("missing")), 2);
    }
}
