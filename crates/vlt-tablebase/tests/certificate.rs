//! Certificates: what the solver writes out is accepted by the checker and proves the value the
//! bigger tables give; tampered or damaged certificates are refused.

use vlt_core::{ByPlayer, Player, Position};
use vlt_tablebase::Tablebase;
use vlt_tablebase::build::build_in_memory;
use vlt_tablebase::certificate::{Certificate, CertificateError, Claim, Proof, check, parse, write};
use vlt_tablebase::index::{boards, unrank};
use vlt_tablebase::solve::Solver;

/// The 6-stone tables to solve over and the 10-stone tables to check values against.
fn tables() -> &'static (Tablebase, Tablebase) {
    static T: std::sync::OnceLock<(Tablebase, Tablebase)> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let full = build_in_memory(10);
        (Tablebase::from_layers(full[..=6].to_vec()), Tablebase::from_layers(full))
    })
}

/// Positions of 7–10 stones from greedy-random games, and the rules' R7 cycle (9 stones).
fn positions() -> Vec<Position> {
    let mut rng = vlt_core::playout::SplitMix64(11);
    let mut out: Vec<Position> = Vec::new();
    let mut pos: Position = "1,0,1,0,1,0/1,2,0,1,2,0 A 25 26".parse().expect("position");
    for mv in ["5A", "1B", "2A", "3B", "4A", "5B"] {
        out.push(pos);
        pos = pos.play(mv.parse().expect("move")).expect("legal");
    }
    for n in 7..=10 {
        out.extend((0..40).filter_map(|_| vlt_core::playout::greedy_position(n, &mut rng)).take(8));
    }
    // Positions worth 0 with quiet moves: where endless play may be the defence.
    let (_, big) = tables();
    for n in [9, 10] {
        let mut r = 5;
        let mut found = 0;
        while r < boards(n) && found < 12 {
            for p in Player::BOTH {
                let Ok(pos) = Position::new(unrank(n, r), p, ByPlayer::new(0, 0)) else { continue };
                let quiet = pos.legal_moves().filter(|&m| pos.play_counting(m).1 == 0).count();
                if pos.to_move() == p && big.probe(pos) == Some(0) && quiet > 1 {
                    out.push(pos);
                    found += 1;
                }
            }
            r += 101;
        }
    }
    out
}

fn text(cert: &Certificate) -> String {
    let mut out = Vec::new();
    write(cert, &mut out).expect("in memory");
    String::from_utf8(out).expect("text")
}

fn certify(pos: Position) -> Certificate {
    let (tb, _) = tables();
    Solver::new(tb, u64::MAX).certificate(pos).expect("solved")
}

fn reread(s: &str) -> Result<Certificate, CertificateError> {
    parse(std::io::Cursor::new(s.as_bytes()))
}

#[test]
fn certificates_check_and_prove_the_tables_values() {
    let (tb, big) = tables();
    let all = positions();
    assert!(all.len() > 30, "{}", all.len());
    let mut nodes = 0;
    for pos in all {
        let cert = certify(pos);
        assert_eq!(Some(cert.value), big.probe(pos), "{pos}");
        let again = reread(&text(&cert)).expect("reads back");
        assert_eq!(again, cert, "{pos}: the text round-trips");
        let checked = check(&again, Some(tb)).unwrap_or_else(|e| panic!("{pos}: {e}"));
        assert_eq!(checked.value, cert.value);
        assert!(checked.table_leaves + checked.ends > 0, "{pos}");
        nodes += checked.nodes;
        // Without the tables the table leaves cannot be checked.
        if checked.table_leaves > 0 {
            assert!(matches!(check(&again, None), Err(CertificateError::NeedsTables { .. })));
        }
    }
    assert!(nodes > 100, "{nodes}");
    // Proofs that rest on endless play are rare (none among 800 positions worth 0 at 9–10
    // stones); the checker's rule for them is tested on the rules' cycle in its unit tests.
}

/// The node of the certificate's lower root and the index of a node with a proof of this kind.
fn find(cert: &Certificate, want: impl Fn(&Proof) -> bool) -> usize {
    cert.nodes.iter().position(|n| want(&n.proof)).expect("such a node")
}

#[test]
fn tampered_certificates_are_refused() {
    let (tb, _) = tables();
    // 10 stones over 6-stone tables: proofs with choices, table leaves and several levels.
    let pos = positions().into_iter().rev().find(|p| p.stones_on_board() == 10).expect("a 10-stone position");
    let cert = certify(pos);
    check(&cert, Some(tb)).expect("the original checks");
    let refused = |c: &Certificate, what: &str| {
        let e = check(c, Some(tb)).expect_err(what);
        assert!(!e.to_string().contains('\n'), "one line: {e}");
    };

    // A changed move: another legal hole of the chosen move's mover.
    let i = find(&cert, |p| matches!(p, Proof::Choice(..)));
    let Proof::Choice(hole, step) = cert.nodes[i].proof else { unreachable!() };
    for other in 1..=6 {
        if other != hole {
            let mut c = cert.clone();
            c.nodes[i].proof = Proof::Choice(other, step);
            refused(&c, "a changed move");
        }
    }
    // A changed table value, up or down.
    let i = find(&cert, |p| matches!(p, Proof::Table(_)));
    let Proof::Table(v) = cert.nodes[i].proof else { unreachable!() };
    for d in [-1, 1] {
        let mut c = cert.clone();
        c.nodes[i].proof = Proof::Table(v + d);
        refused(&c, "a changed leaf value");
    }
    // A claimed value one off: the root nodes no longer claim it, and claims stronger than proved.
    for d in [-1, 1] {
        let mut c = cert.clone();
        c.value += d;
        refused(&c, "a changed value");
        let l = c.lower as usize;
        c.nodes[l].claim = Claim::AtLeast(c.value as i8);
        let u = c.upper as usize;
        c.nodes[u].claim = Claim::AtMost(c.value as i8);
        refused(&c, "a changed value with its root claims");
    }
    // A move of an upper bound left out.
    let i = find(&cert, |p| matches!(p, Proof::Every(s) if s.as_slice().len() > 1));
    let Proof::Every(s) = cert.nodes[i].proof else { unreachable!() };
    let mut c = cert.clone();
    c.nodes[i].proof = Proof::Every(vlt_tablebase::certificate::Steps::new(&s.as_slice()[1..]));
    refused(&c, "a missing answer");

    // In the text: truncated anywhere, a changed table digit, garbage.
    let t = text(&cert);
    for cut in [t.len() / 3, t.len() / 2, t.len() - 2] {
        let cut = (0..=cut).rev().find(|&c| t.is_char_boundary(c)).expect("a boundary");
        assert!(reread(&t[..cut]).and_then(|c| check(&c, Some(tb))).is_err(), "cut at {cut}");
    }
    let lines: Vec<&str> = t.lines().collect();
    let drop_last = lines[..lines.len() - 1].join("\n");
    assert!(matches!(reread(&drop_last), Err(CertificateError::Syntax { .. })));
    for bad in ["", "vlt certificate 2\n", "hello\nworld\n", &"x".repeat(100_000)] {
        assert!(matches!(reread(bad), Err(CertificateError::Syntax { .. })), "{bad:.20}");
    }
    let huge = t.replace(&format!("nodes {}", cert.nodes.len()), "nodes 99999999999");
    assert!(matches!(reread(&huge), Err(CertificateError::TooLarge)));
    let more = t.replace(&format!("nodes {}", cert.nodes.len()), "nodes 9999999");
    assert!(matches!(reread(&more), Err(CertificateError::Syntax { .. })), "fewer lines than stated");
}
