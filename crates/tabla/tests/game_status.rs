//! Game status by hand-checked positions and games: checkmate, stalemate, insufficient material
//! (with python-chess's semantics: a lone knight or same-coloured bishops cannot mate, two
//! knights can by a helpmate), the 50-move claim and 75-move end, threefold claim and fivefold end.

use tabla::{Color, GameEnd, GameStatus, Position};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(p: &mut Position, sans: &str) {
    for san in sans.split_whitespace() {
        p.push_san(san)
            .unwrap_or_else(|e| panic!("{}: {e}", p.to_fen()));
    }
}

#[test]
fn checkmate() {
    let p = pos("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    let status = p.status();
    assert_eq!(
        status.end,
        Some(GameEnd::Checkmate {
            winner: Color::White
        })
    );
    assert!(status.check && p.is_checkmate() && !p.is_stalemate());
    assert_eq!(
        GameEnd::Checkmate {
            winner: Color::White
        }
        .result(),
        "1-0"
    );

    // The fool's mate: Black wins.
    let mut p = Position::startpos();
    play(&mut p, "f3 e5 g4 Qh4#");
    assert_eq!(
        p.status().end,
        Some(GameEnd::Checkmate {
            winner: Color::Black
        })
    );
    assert_eq!(p.status().end.map(GameEnd::result), Some("0-1"));
}

#[test]
fn stalemate() {
    for fen in [
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "k7/P7/K7/8/8/8/8/8 b - - 0 1",
    ] {
        let p = pos(fen);
        assert_eq!(p.status().end, Some(GameEnd::Stalemate), "{fen}");
        assert!(!p.status().check && p.is_stalemate() && !p.is_checkmate());
        assert_eq!(GameEnd::Stalemate.result(), "1/2-1/2");
    }
}

#[test]
fn insufficient_material() {
    // (FEN, game over by material). Bishop colours: d5 and f1 are light, c5 and c1 dark.
    let cases = [
        ("8/8/8/4k3/8/8/8/4K3 w - - 0 1", true),     // K v K
        ("8/8/8/4k3/8/8/8/4KN2 w - - 0 1", true),    // KN v K
        ("8/8/8/4k3/8/8/8/4KB2 b - - 0 1", true),    // KB v K
        ("8/8/8/3bk3/8/8/8/4KB2 w - - 0 1", true),   // KB v KB, both light
        ("8/8/8/4k3/8/8/8/3BKB2 w - - 0 1", true),   // KBB v K, both light
        ("8/8/8/2b1k3/8/8/8/4KB2 w - - 0 1", false), // KB v KB, opposite colours
        ("8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1", false), // KBB v K, opposite colours
        ("8/8/8/4k3/8/8/8/3NKN2 w - - 0 1", false),  // KNN v K: a helpmate exists
        ("8/8/8/4k3/8/8/4n3/4KN2 w - - 0 1", false), // KN v KN: a helpmate exists
        ("8/8/8/4k3/8/8/8/4KR2 w - - 0 1", false),   // KR v K
        ("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", false),  // KP v K
        ("8/8/8/4k3/3q4/8/8/4KN2 w - - 0 1", false), // KN v KQ: Black can mate
    ];
    for (fen, insufficient) in cases {
        let p = pos(fen);
        assert_eq!(p.is_insufficient_material(), insufficient, "{fen}");
        assert_eq!(
            p.status().end,
            insufficient.then_some(GameEnd::InsufficientMaterial),
            "{fen}"
        );
    }
    // Per side: in KN v KQ the knight alone can never mate (the queen cannot block a flight
    // square), while the queen can.
    let p = pos("8/8/8/4k3/3q4/8/8/4KN2 w - - 0 1");
    assert!(p.has_insufficient_material(Color::White));
    assert!(!p.has_insufficient_material(Color::Black));
}

fn status_with_clock(halfmoves: u32) -> GameStatus {
    pos(&format!("4k3/8/8/8/8/8/8/R3K3 w - - {halfmoves} 120")).status()
}

#[test]
fn fifty_and_seventy_five_move_rules() {
    let s = status_with_clock(99);
    assert!(!s.fifty_move_claim && s.end.is_none());
    let s = status_with_clock(100);
    assert!(s.fifty_move_claim && s.end.is_none());
    let s = status_with_clock(149);
    assert!(s.fifty_move_claim && s.end.is_none());
    let s = status_with_clock(150);
    assert!(s.fifty_move_claim);
    assert_eq!(s.end, Some(GameEnd::SeventyFiveMoves));

    // Reaching the limits by playing: a quiet move counts, a pawn move resets the clock.
    let mut p = pos("4k3/8/8/8/8/8/4P3/R3K3 w - - 99 120");
    play(&mut p, "Ra2");
    assert!(p.status().fifty_move_claim);
    p.undo();
    play(&mut p, "e4");
    assert_eq!(p.halfmoves(), 0);
    assert!(!p.status().fifty_move_claim);
    let mut p = pos("4k3/8/8/8/8/8/4P3/R3K3 w - - 149 120");
    play(&mut p, "Ra2");
    assert_eq!(p.status().end, Some(GameEnd::SeventyFiveMoves));
}

#[test]
fn mate_on_the_hundred_and_fiftieth_ply_takes_precedence() {
    // Qf8 mates with the move that brings the clock to 150 (FIDE 9.6.2: the mate stands).
    let mut p = pos("7k/8/6K1/8/8/8/8/5Q2 w - - 149 200");
    play(&mut p, "Qf8#");
    assert_eq!(p.halfmoves(), 150);
    assert_eq!(
        p.status().end,
        Some(GameEnd::Checkmate {
            winner: Color::White
        })
    );
    // Any other quiet move ends the game by the 75-move rule instead.
    let mut p = pos("7k/8/6K1/8/8/8/8/5Q2 w - - 149 200");
    play(&mut p, "Qf2");
    assert_eq!(p.status().end, Some(GameEnd::SeventyFiveMoves));
}

const SHUFFLE: &str = "Nf3 Nf6 Ng1 Ng8";

#[test]
fn threefold_and_fivefold_by_knight_shuffles() {
    let mut p = Position::startpos();
    play(&mut p, SHUFFLE); // the start position for the second time
    assert!(!p.status().threefold_claim);
    play(&mut p, "Nf3 Nf6 Ng1");
    assert!(!p.status().threefold_claim);
    play(&mut p, "Ng8"); // third time
    let s = p.status();
    assert!(s.threefold_claim);
    assert_eq!(s.end, None);
    play(&mut p, SHUFFLE); // fourth
    assert!(p.status().threefold_claim);
    assert_eq!(p.status().end, None);
    play(&mut p, "Nf3 Nf6 Ng1");
    assert_eq!(
        p.status().end,
        None,
        "after Ng1 the position occurs for the fourth time"
    );
    play(&mut p, "Ng8"); // fifth
    assert_eq!(p.status().end, Some(GameEnd::FivefoldRepetition));
    assert_eq!(GameEnd::FivefoldRepetition.result(), "1/2-1/2");
    // Taking the last move back undoes the verdict.
    p.undo();
    assert_eq!(p.status().end, None);
}

#[test]
fn a_useless_en_passant_square_does_not_make_a_new_position() {
    // After 1.e4 the recorded en-passant square e3 gives Black no capture, so the position
    // after 1.e4 is the same as after 3.Ng1 and 5.Ng1 (python-chess agrees: is_repetition(3)).
    let mut p = Position::startpos();
    play(&mut p, "e4 Nf6 Nf3 Ng8 Ng1");
    assert!(!p.status().threefold_claim);
    play(&mut p, "Nf6 Nf3 Ng8 Ng1");
    assert!(p.status().threefold_claim);
}

#[test]
fn lost_castling_rights_make_a_new_position() {
    // Same placement after the rook shuffle, but the king-side castling rights are gone: the
    // start does not repeat; the position with only Qq then occurs a first, second and third time
    // (as python-chess's is_repetition counts it).
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let rooks = "Rh2 Rh7 Rh1 Rh8";
    play(&mut p, rooks);
    assert_eq!(
        p.board(),
        pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").board()
    );
    play(&mut p, rooks);
    assert!(
        !p.status().threefold_claim,
        "only twice without castling rights"
    );
    play(&mut p, rooks);
    assert!(p.status().threefold_claim);
}
