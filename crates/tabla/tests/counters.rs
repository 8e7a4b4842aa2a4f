//! The move counters at the top of their range (found by reading the fuzz targets' code): a FEN
//! may carry any u32 clock, and playing a move must neither panic nor break undo.

use tabla::Position;

#[test]
fn halfmove_clock_at_u32_max_saturates_and_undo_restores_it() {
    let fen = "4k3/8/8/8/8/8/8/4K3 w - - 4294967295 1";
    let mut pos = Position::from_fen(fen).expect("valid");
    let mv = pos.parse_san("Kd1").expect("legal");
    assert_eq!(pos.san(mv), "Kd1");
    pos.play(mv).expect("a legal move");
    assert_eq!(pos.halfmoves(), u32::MAX);
    pos.undo();
    assert_eq!(pos.to_fen(), fen);
    pos.play_null();
    pos.undo();
    assert_eq!(pos.to_fen(), fen);
}

#[test]
fn fullmove_number_at_u32_max_saturates_and_undo_restores_it() {
    let fen = "4k3/8/8/8/8/8/8/4K3 b - - 0 4294967295";
    let mut pos = Position::from_fen(fen).expect("valid");
    let mv = pos.parse_san("Kd8").expect("legal");
    let undo = pos.make(mv);
    assert_eq!(pos.fullmoves(), u32::MAX);
    pos.unmake(undo);
    assert_eq!(pos.to_fen(), fen);
    pos.play_null();
    pos.undo();
    assert_eq!(pos.to_fen(), fen);
}
