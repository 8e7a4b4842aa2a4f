//! Every FEN syntax error kind and every validation problem, each from a hand-made FEN whose fault
//! is known by construction.

use tabla::{FenError, ParseFenError, Position, PositionProblem, Setup, Validation};

fn syntax(fen: &str) -> ParseFenError {
    let err = Setup::from_fen(fen).expect_err(fen);
    // The validated constructors report the same error, wrapped.
    assert_eq!(
        Position::from_fen_with(fen, Validation::Lenient),
        Err(FenError::Syntax(err.clone()))
    );
    err
}

fn s(text: &str) -> String {
    text.to_owned()
}

#[test]
fn empty() {
    assert_eq!(syntax(""), ParseFenError::Empty);
    assert_eq!(syntax(" \t\n "), ParseFenError::Empty);
}

#[test]
fn field_count() {
    assert_eq!(
        syntax("8/8/8/8/8/8/8/8 w -"),
        ParseFenError::FieldCount { found: 3 }
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra"),
        ParseFenError::FieldCount { found: 7 }
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3"),
        ParseFenError::FieldCount { found: 1 }
    );
}

#[test]
fn rank_count() {
    assert_eq!(
        syntax("8/8/8 w - - 0 1"),
        ParseFenError::RankCount {
            text: s("8/8/8"),
            found: 3
        }
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1"),
        ParseFenError::RankCount {
            text: s("4k3/8/8/8/8/8/8/8/4K3"),
            found: 9
        }
    );
}

#[test]
fn rank_too_long() {
    assert_eq!(
        syntax("4k3/ppppppppp/8/8/8/8/8/4K3 w - - 0 1"),
        ParseFenError::RankTooLong {
            rank: 7,
            text: s("ppppppppp")
        }
    );
    // Digits overflowing, and a piece after eight squares.
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K4 w - - 0 1"),
        ParseFenError::RankTooLong {
            rank: 1,
            text: s("4K4")
        }
    );
    assert_eq!(
        syntax("44k/8/8/8/8/8/8/4K3 w - - 0 1"),
        ParseFenError::RankTooLong {
            rank: 8,
            text: s("44k")
        }
    );
}

#[test]
fn rank_too_short() {
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K2 w - - 0 1"),
        ParseFenError::RankTooShort {
            rank: 1,
            text: s("4K2")
        }
    );
    assert_eq!(
        syntax("4k3/8/8//8/8/8/4K3 w - - 0 1"),
        ParseFenError::RankTooShort {
            rank: 5,
            text: s("")
        }
    );
}

#[test]
fn piece_letter() {
    assert_eq!(
        syntax("4k3/8/8/8/3X4/8/8/4K3 w - - 0 1"),
        ParseFenError::PieceLetter { rank: 4, ch: 'X' }
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/0K7 w - - 0 1"),
        ParseFenError::PieceLetter { rank: 1, ch: '0' }
    );
    assert_eq!(
        syntax("9/8/8/8/8/8/8/8 w - - 0 1"),
        ParseFenError::PieceLetter { rank: 8, ch: '9' }
    );
}

#[test]
fn side() {
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3 W - - 0 1"),
        ParseFenError::Side { text: s("W") }
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3 white - - 0 1"),
        ParseFenError::Side { text: s("white") }
    );
}

#[test]
fn castling() {
    for field in ["KK", "X", "KQkq-", "1"] {
        assert_eq!(
            syntax(&format!("r3k2r/8/8/8/8/8/8/R3K2R w {field} - 0 1")),
            ParseFenError::Castling { text: s(field) },
            "{field}"
        );
    }
}

#[test]
fn en_passant() {
    for field in ["e4", "e9", "i3", "e", "e33"] {
        assert_eq!(
            syntax(&format!("4k3/8/8/8/8/8/8/4K3 w - {field} 0 1")),
            ParseFenError::EnPassant { text: s(field) },
            "{field}"
        );
    }
}

#[test]
fn halfmove_clock() {
    for field in ["-1", "x", "1.5", "99999999999"] {
        assert_eq!(
            syntax(&format!("4k3/8/8/8/8/8/8/4K3 w - - {field} 1")),
            ParseFenError::HalfmoveClock { text: s(field) },
            "{field}"
        );
    }
}

#[test]
fn fullmove_number() {
    for field in ["-3", "one", "+1", "99999999999"] {
        assert_eq!(
            syntax(&format!("4k3/8/8/8/8/8/8/4K3 w - - 0 {field}")),
            ParseFenError::FullmoveNumber { text: s(field) },
            "{field}"
        );
    }
}

#[test]
fn messages_quote_the_offending_text() {
    for (fen, needle) in [
        ("4k3/8/8/8/3X4/8/8/4K3 w - - 0 1", "'X'"),
        ("4k3/8/8/8/8/8/8/4K3 W - - 0 1", "\"W\""),
        ("4k3/8/8/8/8/8/8/4K3 w - e4 0 1", "\"e4\""),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "\"x\""),
        // Too large for the counters: the message gives the range, not "a number from 0 up".
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999999",
            "0 to 4294967295",
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - - 4294967296 1", "0 to 4294967295"),
    ] {
        let message = syntax(fen).to_string();
        assert!(message.contains(needle), "{message}");
    }
}

/// The problems the strict validation finds, in reporting order.
fn problems(fen: &str) -> Vec<PositionProblem> {
    let setup = Setup::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let err = Position::from_setup(setup, Validation::Strict).expect_err(fen);
    assert_eq!(
        Position::from_fen(fen).expect_err(fen),
        FenError::Invalid(err)
    );
    err.problems().collect()
}

use PositionProblem::*;

#[test]
fn missing_king() {
    assert_eq!(problems("8/8/8/8/8/8/8/4K3 w - - 0 1"), [MissingKing]);
    assert_eq!(problems("4k3/8/8/8/8/8/8/8 b - - 0 1"), [MissingKing]);
}

#[test]
fn too_many_kings() {
    assert_eq!(problems("4k3/8/8/8/8/8/8/K3K3 w - - 0 1"), [TooManyKings]);
}

#[test]
fn pawns_on_back_rank() {
    assert_eq!(
        problems("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"),
        [PawnsOnBackRank]
    );
    assert_eq!(
        problems("p3k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        [PawnsOnBackRank]
    );
}

#[test]
fn opposite_check() {
    // White to move while the e1 rook attacks the black king.
    assert_eq!(problems("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"), [OppositeCheck]);
}

#[test]
fn bad_castling_rights() {
    // No rook on h1; king off its back rank; a right on a square without a rook.
    assert_eq!(
        problems("4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
        [BadCastlingRights]
    );
    assert_eq!(
        problems("r3k2r/8/8/8/8/8/4K3/R6R w Qk - 0 1"),
        [BadCastlingRights]
    );
    assert_eq!(
        problems("r3k2r/8/8/8/8/8/8/R3K2R w KQkqc - 0 1"),
        [BadCastlingRights]
    );
}

#[test]
fn impossible_en_passant() {
    // No pawn in front of the square; the square on the mover's own side; the origin occupied.
    assert_eq!(
        problems("4k3/8/8/8/8/8/8/4K3 w - e6 0 1"),
        [ImpossibleEnPassant]
    );
    assert_eq!(
        problems("4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1"),
        [ImpossibleEnPassant]
    );
    assert_eq!(
        problems("4k3/4n3/8/4p3/8/8/8/4K3 w - e6 0 1"),
        [ImpossibleEnPassant]
    );
}

#[test]
fn impossible_check() {
    // Two checks along one line, from both sides of the king.
    assert_eq!(
        problems("R3k2Q/8/8/8/8/8/8/4K3 b - - 0 1"),
        [ImpossibleCheck]
    );
    // Three checkers.
    assert_eq!(
        problems("4k3/8/3N1N2/8/4R3/8/8/4K3 b - - 0 1"),
        [ImpossibleCheck]
    );
    // The suite's position: both white bishops check along the long diagonal.
    assert_eq!(
        problems("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1"),
        [ImpossibleCheck]
    );
    // After the double push d7-d5, a check by a rook on the h-file cannot be explained.
    assert_eq!(
        problems("4k3/8/8/3p4/8/8/8/4K2r w - d6 0 1"),
        [ImpossibleCheck]
    );
}

#[test]
fn too_much_material() {
    // Nine pawns; eight pawns and a second queen (a promotion with no pawn missing).
    assert_eq!(
        problems("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1"),
        [TooMuchMaterial]
    );
    assert_eq!(
        problems("4k3/8/8/8/8/8/PPPPPPPP/QQ2K3 w - - 0 1"),
        [TooMuchMaterial]
    );
}

#[test]
fn too_many_moves() {
    // 38 queens (27 targets each at most): more moves than a move list holds.
    let fen = "7k/8/8/QQQQQQQ1/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQK b - - 0 1";
    let found = problems(fen);
    assert!(found.contains(&TooManyMoves), "{found:?}");
    // Unlike too much material, this is not playable, so lenient validation refuses it too.
    let err = Position::from_fen_with(fen, Validation::Lenient).expect_err(fen);
    assert!(matches!(err, FenError::Invalid(e) if e.contains(TooManyMoves)));
}

#[test]
fn every_problem_has_a_test_above() {
    // If a problem kind is added, this list (and a test for it) must follow.
    assert_eq!(
        PositionProblem::ALL,
        [
            MissingKing,
            TooManyKings,
            PawnsOnBackRank,
            OppositeCheck,
            BadCastlingRights,
            ImpossibleEnPassant,
            ImpossibleCheck,
            TooMuchMaterial,
            TooManyMoves,
        ]
    );
}

#[test]
fn several_problems_are_reported_together() {
    // No kings, a pawn on the first rank, a castling right with nothing in place.
    assert_eq!(
        problems("8/8/8/8/8/8/8/P7 w K - 0 1"),
        [MissingKing, PawnsOnBackRank, BadCastlingRights]
    );
    // Black to move: a pawn on a1, White's king attacked by the h1 rook, a queen-side right with
    // no rook beside the king, and an en-passant square with no white pawn on e4.
    assert_eq!(
        problems("4k3/8/8/8/8/8/8/P3K2r b Q e3 0 1"),
        [
            PawnsOnBackRank,
            OppositeCheck,
            BadCastlingRights,
            ImpossibleEnPassant
        ]
    );
    let err = Position::from_fen("4k3/8/8/8/8/8/8/P3K2r b Q e3 0 1").expect_err("illegal");
    let message = err.to_string();
    for p in [
        PawnsOnBackRank,
        OppositeCheck,
        BadCastlingRights,
        ImpossibleEnPassant,
    ] {
        assert!(message.contains(p.description()), "{message}");
    }
}

#[test]
fn lenient_accepts_unusual_but_playable_setups() {
    let fen = "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1";
    let pos = Position::from_fen_with(fen, Validation::Lenient).expect("playable");
    assert_eq!(pos.to_fen(), fen);
    // perftsuite.epd gives this position's depth-1 count.
    let published = common_d1(fen);
    assert_eq!(pos.legal_moves().len() as u64, published);
    // Too much material is playable as well; a missing king is not.
    assert!(
        Position::from_fen_with("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", Validation::Lenient)
            .is_ok()
    );
    assert!(Position::from_fen_with("8/8/8/8/8/8/8/4K3 w - - 0 1", Validation::Lenient).is_err());
}

mod common;

fn common_d1(fen: &str) -> u64 {
    common::suite()
        .into_iter()
        .find(|e| e.fen == fen)
        .and_then(|e| e.d1)
        .expect("position and its D1 count in perftsuite.epd")
}
