//! The knight-check position `8/8/8/8/8/kn1b4/2P5/K7 w - - 0 0` (White in check from the b3
//! knight; only Kb1 and cxb3), a classic 0x88 move-generator test (docs/background.md).
//!
//! Its published perft figures are 2, 31, 58, 758, 2669 at depths 1 to 5. Counted independently
//! with python-chess (a plain recursive perft over `Board.legal_moves`): 2, 31, 58, 758, 2669,
//! 37250 at depths 1 to 6. So none of the published figures is wrong; depth 6 is our addition,
//! counted the same way.

use tabla::Position;

const FEN: &str = "8/8/8/8/8/kn1b4/2P5/K7 w - - 0 0";
const COUNTS: [u64; 6] = [2, 31, 58, 758, 2669, 37250];

#[test]
fn perft_matches_python_chess() {
    let mut pos = Position::from_fen(FEN).expect("legal");
    for (depth, &expected) in (1..).zip(&COUNTS) {
        assert_eq!(pos.perft(depth), expected, "depth {depth}");
        assert_eq!(pos.perft_bulk(depth), expected, "depth {depth}, bulk");
    }
    assert_eq!(
        pos.to_fen(),
        "8/8/8/8/8/kn1b4/2P5/K7 w - - 0 1",
        "perft leaves it as it was"
    );
}

#[test]
fn divide_matches_python_chess() {
    // python-chess's divide: Kb1 2115, cxb3 554 at depth 5.
    let mut pos = Position::from_fen(FEN).expect("legal");
    let mut divide: Vec<(String, u64)> = pos
        .divide(5, false)
        .into_iter()
        .map(|(mv, n)| (pos.san(mv), n))
        .collect();
    divide.sort();
    assert_eq!(divide, [("Kb1".to_owned(), 2115), ("cxb3".to_owned(), 554)]);
    assert!(pos.is_check());
}
