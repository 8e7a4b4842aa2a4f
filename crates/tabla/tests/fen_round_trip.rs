//! FEN round trip on every suite position, and the canonical-output rules: a position written and
//! read back is the same position, and what is written follows one canonical form whatever the
//! input's spacing, field count or fullmove number.

mod common;

use tabla::{EnPassantMode, Position, Setup, Validation};

fn lenient(fen: &str) -> Position {
    Position::from_fen_with(fen, Validation::Lenient).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn every_suite_position_round_trips() {
    let suite = common::suite();
    assert!(suite.len() > 150, "both suites read: {}", suite.len());
    for entry in &suite {
        let pos = lenient(&entry.fen);
        let fen = pos.to_fen();
        let again = lenient(&fen);
        assert_eq!(again, pos, "{}", entry.fen);
        assert_eq!(again.to_fen(), fen, "output is a fixed point");
        assert_eq!(again.zobrist(), pos.zobrist(), "{}", entry.fen);
        // The suites write canonical FEN already (tricky.perft without the clocks), so the output
        // must be the input itself.
        let expected = match entry.fen.split_whitespace().count() {
            4 => format!("{} 0 1", entry.fen),
            _ => entry.fen.clone(),
        };
        assert_eq!(fen, expected);
        // Through the unvalidated setup as well.
        let setup: Setup = fen.parse().expect("our own output parses");
        assert_eq!(setup, pos.to_setup());
    }
}

#[test]
fn positions_one_ply_deep_round_trip() {
    for mut pos in common::suite_positions() {
        for mv in pos.legal_moves() {
            pos.play(mv).expect("a legal move");
            for mode in [EnPassantMode::Always, EnPassantMode::Legal] {
                let fen = pos.fen_with(mode);
                let again = lenient(&fen);
                assert_eq!(again.fen_with(mode), fen);
                assert_eq!(again.legal_moves(), pos.legal_moves(), "{fen}");
            }
            let again = lenient(&pos.to_fen());
            assert_eq!(again, pos);
            // Not in the "legal" convention: Polyglot keys count an en-passant square whenever a
            // pawn stands beside the pushed one, even when the capture would expose the king.
            assert_eq!(again.zobrist(), pos.zobrist(), "{}", pos.to_fen());
            pos.undo();
        }
    }
}

#[test]
fn fullmove_zero_becomes_one() {
    // The knight-check position as first published (docs/background.md), fullmove 0 and all.
    let pos = Position::from_fen("8/8/8/8/8/kn1b4/2P5/K7 w - - 0 0").expect("legal");
    assert_eq!(pos.fullmoves(), 1);
    assert_eq!(pos.to_fen(), "8/8/8/8/8/kn1b4/2P5/K7 w - - 0 1");
    // The unvalidated setup keeps what was written.
    let setup: Setup = "8/8/8/8/8/kn1b4/2P5/K7 w - - 0 0".parse().expect("syntax");
    assert_eq!(setup.fullmoves, 0);
}

#[test]
fn extra_white_space_is_tolerated() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for text in [
        "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w  KQkq -  0   1 ",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw\tKQkq\t-\t0\t1\n",
        "\r\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\r\n",
    ] {
        let pos = Position::from_fen(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(pos, Position::startpos());
        assert_eq!(pos.to_fen(), start);
    }
}

#[test]
fn missing_clock_fields_get_defaults() {
    let four = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K -").expect("4 fields");
    assert_eq!(four.to_fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    let five = Position::from_fen("4k3/8/8/8/8/8/8/4K2R b K - 7").expect("5 fields");
    assert_eq!((five.halfmoves(), five.fullmoves()), (7, 1));
    assert_eq!(five.to_fen(), "4k3/8/8/8/8/8/8/4K2R b K - 7 1");
}

#[test]
fn castling_field_is_written_in_canonical_order() {
    let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1").expect("legal");
    assert_eq!(pos.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let partial = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b qK - 3 9").expect("legal");
    assert_eq!(partial.castling_fen(), "Kq");
}

#[test]
fn en_passant_conventions() {
    // After 1.e4 no black pawn can take: the square is written by default (PGN standard) and
    // left out in the "legal" convention.
    let mut pos = Position::startpos();
    pos.push_san("e4").expect("legal");
    assert_eq!(
        pos.to_fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    assert_eq!(
        pos.fen_with(EnPassantMode::Legal),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    // 1.e4 Nf6 2.e5 d5: now exd6 is legal and both conventions write d6.
    for san in ["Nf6", "e5", "d5"] {
        pos.push_san(san).expect("legal");
    }
    let fen = "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3";
    assert_eq!(pos.to_fen(), fen);
    assert_eq!(pos.fen_with(EnPassantMode::Legal), fen);
    assert_eq!(Position::from_fen(fen).expect("legal"), pos);
}
