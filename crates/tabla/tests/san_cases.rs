//! SAN by hand: disambiguation (the pinned knight, by file, by rank, by both), the strict
//! and lenient readers on the list of informal spellings, and the typed errors.

use tabla::{Position, SanError, SanMode, Square};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn after(sans: &[&str]) -> Position {
    let mut p = Position::startpos();
    for san in sans {
        p.push_san(san).unwrap_or_else(|e| panic!("{san}: {e}"));
    }
    p
}

/// The legal move written `uci` in UCI form (a test expectation independent of SAN).
fn find(p: &Position, uci: &str) -> tabla::Move {
    p.parse_uci(uci)
        .unwrap_or_else(|e| panic!("{}: {e}", p.to_fen()))
}

fn strict(p: &Position, text: &str) -> Result<tabla::Move, SanError> {
    p.parse_san_with(text, SanMode::Strict)
}

fn lenient(p: &Position, text: &str) -> Result<tabla::Move, SanError> {
    p.parse_san_with(text, SanMode::Lenient)
}

fn not_canonical(text: &str, canonical: &str) -> SanError {
    SanError::NotCanonical {
        text: text.to_owned(),
        canonical: canonical.to_owned(),
    }
}

// ---- Disambiguation -------------------------------------------------------------------------

#[test]
fn pinned_knight_needs_no_disambiguation() {
    // The classic case (docs/background.md): the c3 knight is pinned by the b4 bishop against the e1 king, so only the
    // g1 knight can go to e2 and the SAN is plain Ne2.
    let p = pos("4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1");
    let mv = find(&p, "g1e2");
    assert_eq!(p.san(mv), "Ne2");
    assert_eq!(strict(&p, "Ne2"), Ok(mv));
    assert_eq!(lenient(&p, "Nge2"), Ok(mv));
    assert_eq!(strict(&p, "Nge2"), Err(not_canonical("Nge2", "Ne2")));
    assert!(matches!(lenient(&p, "Nce2"), Err(SanError::Illegal { .. })));
    // Without the pin both knights reach e2 and the file is needed.
    let free = pos("4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1");
    assert_eq!(free.san(find(&free, "g1e2")), "Nge2");
    assert_eq!(free.san(find(&free, "c3e2")), "Nce2");
    assert!(matches!(
        strict(&free, "Ne2"),
        Err(SanError::Ambiguous { .. })
    ));
}

#[test]
fn disambiguation_by_file_rank_and_both() {
    // Three queens a1, a3, c1 all reach b2: the a3 queen shares its file with a1 (rank needed),
    // the c1 queen shares nothing with a3 and not its file with a1 (file suffices), and the a1
    // queen shares its file with a3 and its rank with c1 (both needed).
    let p = pos("6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1");
    assert_eq!(p.san(find(&p, "a1b2")), "Qa1b2");
    assert_eq!(p.san(find(&p, "a3b2")), "Q3b2");
    assert_eq!(p.san(find(&p, "c1b2")), "Qcb2");
    // Rooks on one rank: the file tells them apart.
    let rank = pos("3k4/8/8/8/8/8/1K6/R6R w - - 0 1");
    assert_eq!(rank.san(find(&rank, "a1e1")), "Rae1");
    assert_eq!(rank.san(find(&rank, "h1e1")), "Rhe1");
    // Rooks on one file: the rank does.
    let file = pos("7k/8/R7/8/8/8/8/R2K4 w - - 0 1");
    assert_eq!(file.san(find(&file, "a6a4")), "R6a4");
    assert_eq!(file.san(find(&file, "a1a4")), "R1a4");
    // Captures keep the disambiguation before the x.
    let cap = pos("3k4/8/8/8/8/8/1K6/R3r2R w - - 0 1");
    assert_eq!(cap.san(find(&cap, "a1e1")), "Raxe1");
    assert_eq!(cap.san(find(&cap, "h1e1")), "Rhxe1");
    // Each parses back strictly, and the under-specified form is ambiguous.
    for (p, san) in [(&p, "Qa1b2"), (&p, "Q3b2"), (&p, "Qcb2"), (&rank, "Rae1")] {
        assert_eq!(p.san(strict(p, san).expect(san)), san);
    }
    match strict(&p, "Qab2") {
        Err(SanError::Ambiguous { candidates, .. }) => {
            let mut c = candidates;
            c.sort();
            assert_eq!(c, ["Q3b2", "Qa1b2"]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_pawn_capture_is_never_disambiguated_beyond_its_file() {
    // Two white pawns can take on d5: the file of each is enough.
    let p = pos("4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1");
    assert_eq!(p.san(find(&p, "c4d5")), "cxd5");
    assert_eq!(p.san(find(&p, "e4d5")), "exd5");
}

// ---- Strict and lenient readers ---------------------------------------------------------------

#[test]
fn over_specified_origin() {
    let p = after(&["e4", "e5"]);
    let mv = find(&p, "g1e2");
    assert_eq!(strict(&p, "Ne2"), Ok(mv));
    assert_eq!(lenient(&p, "Nge2"), Ok(mv));
    assert_eq!(lenient(&p, "Ng1e2"), Ok(mv));
    assert_eq!(strict(&p, "Nge2"), Err(not_canonical("Nge2", "Ne2")));
    assert_eq!(strict(&p, "Ng1e2"), Err(not_canonical("Ng1e2", "Ne2")));
}

#[test]
fn castling_with_zeros() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let short = find(&p, "e1g1");
    let long = find(&p, "e1c1");
    assert_eq!(strict(&p, "O-O"), Ok(short));
    assert_eq!(strict(&p, "O-O-O"), Ok(long));
    assert_eq!(lenient(&p, "0-0"), Ok(short));
    assert_eq!(lenient(&p, "0-0-0"), Ok(long));
    assert_eq!(strict(&p, "0-0"), Err(not_canonical("0-0", "O-O")));
    assert_eq!(strict(&p, "0-0-0"), Err(not_canonical("0-0-0", "O-O-O")));
    // Castling is not available when the rights are gone.
    let none = pos("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
    assert!(matches!(
        lenient(&none, "O-O"),
        Err(SanError::Illegal { .. })
    ));
    assert!(matches!(
        lenient(&none, "0-0-0"),
        Err(SanError::Illegal { .. })
    ));
}

#[test]
fn promotion_spellings() {
    // The h7 king is not attacked by any piece promoted on e8.
    let p = pos("8/4P2k/8/8/8/8/8/K7 w - - 0 1");
    let queen = find(&p, "e7e8q");
    let knight = find(&p, "e7e8n");
    assert_eq!(p.san(queen), "e8=Q");
    assert_eq!(strict(&p, "e8=Q"), Ok(queen));
    for text in ["e8Q", "e8=q", "e8q", "e8(Q)", "e7e8q", "e7-e8=Q"] {
        assert_eq!(lenient(&p, text), Ok(queen), "{text}");
    }
    assert_eq!(lenient(&p, "e8N"), Ok(knight));
    assert_eq!(lenient(&p, "e8=n"), Ok(knight));
    assert_eq!(strict(&p, "e8Q"), Err(not_canonical("e8Q", "e8=Q")));
    assert_eq!(strict(&p, "e8=q"), Err(not_canonical("e8=q", "e8=Q")));
    // A promotion must name its piece; a king or pawn is no promotion.
    assert!(matches!(lenient(&p, "e8"), Err(SanError::Illegal { .. })));
    assert!(lenient(&p, "e8=K").is_err());
    assert!(lenient(&p, "e8=P").is_err());
}

#[test]
fn missing_or_spurious_capture_sign() {
    let p = after(&["e4", "d5"]);
    let exd5 = find(&p, "e4d5");
    assert_eq!(strict(&p, "exd5"), Ok(exd5));
    assert_eq!(lenient(&p, "ed5"), Ok(exd5));
    assert_eq!(strict(&p, "ed5"), Err(not_canonical("ed5", "exd5")));
    // A piece capture written without x.
    let p = after(&["e4", "d5", "Nc3", "Nf6", "Nf3", "dxe4"]);
    let nxe4 = find(&p, "c3e4");
    assert_eq!(p.san(nxe4), "Nxe4");
    assert_eq!(lenient(&p, "Ne4"), Ok(nxe4));
    assert_eq!(strict(&p, "Ne4"), Err(not_canonical("Ne4", "Nxe4")));
    // A quiet move written with x.
    let p = Position::startpos();
    let nf3 = find(&p, "g1f3");
    assert_eq!(lenient(&p, "Nxf3"), Ok(nf3));
    assert_eq!(strict(&p, "Nxf3"), Err(not_canonical("Nxf3", "Nf3")));
}

#[test]
fn missing_or_wrong_check_signs() {
    // The scholar's mate: Qxf7 is mate, Bxf7 would be check.
    let p = after(&["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"]);
    let qxf7 = find(&p, "h5f7");
    let bxf7 = find(&p, "c4f7");
    assert_eq!(p.san(qxf7), "Qxf7#");
    assert_eq!(p.san(bxf7), "Bxf7+");
    assert_eq!(strict(&p, "Qxf7#"), Ok(qxf7));
    assert_eq!(strict(&p, "Bxf7+"), Ok(bxf7));
    for (text, mv, canonical) in [
        ("Qxf7", qxf7, "Qxf7#"),
        ("Qxf7+", qxf7, "Qxf7#"),
        ("Bxf7", bxf7, "Bxf7+"),
        ("Bxf7#", bxf7, "Bxf7+"),
        ("Bxf7++", bxf7, "Bxf7+"),
    ] {
        assert_eq!(lenient(&p, text), Ok(mv), "{text}");
        assert_eq!(strict(&p, text), Err(not_canonical(text, canonical)));
    }
    // A sign on a move that gives no check.
    let p = Position::startpos();
    assert_eq!(lenient(&p, "e4+"), Ok(find(&p, "e2e4")));
    assert_eq!(strict(&p, "e4+"), Err(not_canonical("e4+", "e4")));
}

#[test]
fn trailing_annotation_glyphs() {
    let p = Position::startpos();
    let e4 = find(&p, "e2e4");
    for text in ["e4!", "e4?", "e4!!", "e4??", "e4!?", "e4?!"] {
        assert_eq!(lenient(&p, text), Ok(e4), "{text}");
        assert_eq!(strict(&p, text), Err(not_canonical(text, "e4")));
    }
    let p = after(&["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"]);
    assert_eq!(lenient(&p, "Qxf7#!!"), Ok(find(&p, "h5f7")));
}

#[test]
fn long_form_and_uci_in_the_san_reader() {
    let p = after(&["e4", "e5"]);
    let ne2 = find(&p, "g1e2");
    for text in ["Ng1-e2", "Ng1xe2", "g1e2", "g1-e2"] {
        assert_eq!(lenient(&p, text), Ok(ne2), "{text}");
        assert_eq!(strict(&p, text), Err(not_canonical(text, "Ne2")));
    }
    // UCI castling, as the king's move and as king takes rook.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(lenient(&p, "e1g1"), Ok(find(&p, "e1g1")));
    assert_eq!(p.parse_uci("e1h1"), Ok(find(&p, "e1g1")));
    assert_eq!(p.san(find(&p, "e1c1")), "O-O-O");
    // The long-form reader itself is strict about its own form.
    let p = Position::startpos();
    assert_eq!(p.parse_long("Ng1-f3"), Ok(find(&p, "g1f3")));
    assert!(p.parse_long("Nf3").is_err());
    assert!(p.parse_long("Ng1xf3").is_err());
    assert!(p.parse_long("e2xe4").is_err());
}

// ---- Typed errors -----------------------------------------------------------------------------

#[test]
fn syntax_errors() {
    let p = Position::startpos();
    for text in [
        "", "hello", "Zf3", "e9", "i4", "N", "xx", "O-O-O-O", "e2e4e6", "Nf3 e5", "--",
    ] {
        for mode in [SanMode::Strict, SanMode::Lenient] {
            assert_eq!(
                p.parse_san_with(text, mode),
                Err(SanError::Syntax {
                    text: text.to_owned()
                }),
                "{text:?} {mode:?}"
            );
        }
    }
}

#[test]
fn illegal_moves() {
    let p = Position::startpos();
    for text in [
        "Ke2", "e5", "O-O", "O-O-O", "Nd4", "Qh5", "exd3", "e2e5", "Bb5+",
    ] {
        for mode in [SanMode::Strict, SanMode::Lenient] {
            assert_eq!(
                p.parse_san_with(text, mode),
                Err(SanError::Illegal {
                    text: text.to_owned()
                }),
                "{text:?} {mode:?}"
            );
        }
    }
    // Legal-looking but the piece is pinned.
    let pinned = pos("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    assert!(matches!(
        pinned.parse_san("Nc3"),
        Err(SanError::Illegal { .. })
    ));
    assert_eq!(
        Position::startpos().parse_uci("e2e5"),
        Err(tabla::UciMoveError::Illegal {
            text: "e2e5".to_owned()
        })
    );
}

#[test]
fn ambiguous_moves_list_their_candidates() {
    let p = pos("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    for mode in [SanMode::Strict, SanMode::Lenient] {
        match p.parse_san_with("Nd2", mode) {
            Err(SanError::Ambiguous { text, candidates }) => {
                assert_eq!(text, "Nd2");
                let mut c = candidates;
                c.sort();
                assert_eq!(c, ["Nbd2", "Nfd2"]);
            }
            other => panic!("{mode:?}: {other:?}"),
        }
    }
    let err = p.parse_san("Nd2").expect_err("ambiguous");
    let message = err.to_string();
    assert!(
        message.contains("Nbd2") && message.contains("Nfd2"),
        "{message}"
    );
    // The four queens around e4 (none of them checks): Qe4 names four moves.
    let q = pos("7k/8/8/3Q1Q2/8/3Q1Q2/8/K7 w - - 0 1");
    match q.parse_san("Qe4") {
        Err(SanError::Ambiguous { candidates, .. }) => {
            let mut c = candidates;
            c.sort();
            assert_eq!(c, ["Qd3e4", "Qd5e4", "Qf3e4", "Qf5e4"]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(q.parse_san("Qd3e4").map(|m| m.from()), Ok(Square::D3));
}
