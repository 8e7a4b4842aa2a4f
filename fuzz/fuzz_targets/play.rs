//! Differential fuzzing against shakmaty: the first line is a FEN (the start position when it is
//! not valid), each further byte picks one of the legal moves. At every position along the way,
//! tabla and shakmaty must agree on the legal moves, their SAN, check, checkmate, stalemate,
//! insufficient material, the FEN and the Polyglot Zobrist key; at the end, undoing every move
//! must restore the start.

#![no_main]

use libfuzzer_sys::fuzz_target;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{FromSetup as _, Position as _};
use std::num::NonZeroU32;
use tabla::{Color, EnPassantMode, Move, Position, Role, Validation};

/// Plies played at most, so one input stays fast.
const MAX_PLIES: usize = 32;

fuzz_target!(|data: &[u8]| {
    let (fen, choices) = tabla_fuzz::split_first_line(data);
    let mut pos =
        Position::from_fen_with(&fen, Validation::Lenient).unwrap_or_else(|_| Position::startpos());
    // Positions shakmaty refuses (its validation differs at the edges) cannot be compared.
    let Some(mut oracle) = to_shakmaty(&pos) else {
        return;
    };
    let start_fen = pos.to_fen();
    let start_key = pos.zobrist();
    let mut plies = 0;
    for &choice in choices.iter().take(MAX_PLIES) {
        let moves = compare(&pos, &oracle);
        if moves.is_empty() {
            break;
        }
        let (mv, theirs) = moves[usize::from(choice) % moves.len()];
        let their_san = shakmaty::san::SanPlus::from_move(oracle.clone(), theirs).to_string();
        assert_eq!(
            pos.san(mv),
            their_san,
            "{}: SAN with suffix differs",
            pos.to_fen()
        );
        pos.play(mv).expect("a legal move plays");
        oracle.play_unchecked(theirs);
        plies += 1;
    }
    compare(&pos, &oracle);
    for _ in 0..plies {
        assert!(
            pos.undo().is_some(),
            "{start_fen}: history shorter than the moves played"
        );
    }
    assert!(
        pos.undo().is_none(),
        "{start_fen}: history longer than the moves played"
    );
    assert_eq!(
        pos.to_fen(),
        start_fen,
        "undoing every move did not restore the start"
    );
    assert_eq!(
        pos.zobrist(),
        start_key,
        "{start_fen}: undoing every move changed the key"
    );
});

/// Asserts that both libraries see the same position; returns the legal moves paired up.
fn compare(pos: &Position, oracle: &shakmaty::Chess) -> Vec<(Move, shakmaty::Move)> {
    let fen = pos.to_fen();
    let ours = pos.legal_moves();
    let mut theirs: Vec<(String, shakmaty::Move)> = oracle
        .legal_moves()
        .into_iter()
        .map(|m| (m.to_uci(shakmaty::CastlingMode::Chess960).to_string(), m))
        .collect();
    theirs.sort_by(|a, b| a.0.cmp(&b.0));
    let mut paired = Vec::with_capacity(ours.len());
    let mut our_ucis: Vec<String> = ours.iter().map(|&m| king_takes_rook_uci(m)).collect();
    our_ucis.sort();
    let their_ucis: Vec<&str> = theirs.iter().map(|(u, _)| u.as_str()).collect();
    assert_eq!(
        our_ucis, their_ucis,
        "{fen}: legal moves differ from shakmaty's"
    );
    for &mv in ours.iter() {
        let uci = king_takes_rook_uci(mv);
        let Ok(i) = theirs.binary_search_by(|(u, _)| u.as_str().cmp(&uci)) else {
            unreachable!("the move lists were just found equal");
        };
        let their_mv = theirs[i].1;
        // Disambiguation for every move; the check suffix, which costs a move played on both
        // sides, only for the move chosen (below).
        let their_san = shakmaty::san::San::from_move(oracle, their_mv).to_string();
        assert_eq!(
            pos.san_without_suffix(mv),
            their_san,
            "{fen}: SAN differs from shakmaty's"
        );
        paired.push((mv, their_mv));
    }

    assert_eq!(pos.is_check(), oracle.is_check(), "{fen}: check");
    assert_eq!(
        pos.is_checkmate(),
        oracle.is_checkmate(),
        "{fen}: checkmate"
    );
    assert_eq!(
        pos.is_stalemate(),
        oracle.is_stalemate(),
        "{fen}: stalemate"
    );
    for (color, their_color) in [
        (Color::White, shakmaty::Color::White),
        (Color::Black, shakmaty::Color::Black),
    ] {
        assert_eq!(
            pos.has_insufficient_material(color),
            oracle.has_insufficient_material(their_color),
            "{fen}: insufficient material of {color:?}"
        );
    }
    let their_fen =
        shakmaty::fen::Fen::from_position(oracle, shakmaty::EnPassantMode::Legal).to_string();
    assert_eq!(
        pos.fen_with(EnPassantMode::Legal),
        their_fen,
        "{fen}: FEN differs"
    );
    let their_key = oracle
        .zobrist_hash::<Zobrist64>(shakmaty::EnPassantMode::PseudoLegal)
        .0;
    assert_eq!(pos.zobrist(), their_key, "{fen}: Polyglot key differs");
    paired
}

/// The move in UCI with castling as king takes rook, the form shakmaty uses for Chess960.
fn king_takes_rook_uci(mv: Move) -> String {
    let mut s = format!("{}{}", mv.from(), mv.to());
    if let Some(role) = mv.promotion() {
        s.push(role.char());
    }
    s
}

/// The same position for shakmaty, built from tabla's parts rather than by re-parsing the FEN,
/// so both start from one placement and one set of castling rooks.
fn to_shakmaty(pos: &Position) -> Option<shakmaty::Chess> {
    let mut setup = shakmaty::Setup::empty();
    for (sq, piece) in pos.board().pieces() {
        let color = match piece.color {
            Color::White => shakmaty::Color::White,
            Color::Black => shakmaty::Color::Black,
        };
        setup
            .board
            .set_piece_at(square(sq), role(piece.role).of(color));
    }
    setup.turn = match pos.turn() {
        Color::White => shakmaty::Color::White,
        Color::Black => shakmaty::Color::Black,
    };
    for rook in pos.castling_rights().rooks() {
        setup.castling_rights.add(square(rook));
    }
    setup.ep_square = pos.ep_square().map(square);
    setup.halfmoves = pos.halfmoves();
    setup.fullmoves = NonZeroU32::new(pos.fullmoves())?;
    shakmaty::Chess::from_setup(setup, shakmaty::CastlingMode::Chess960)
        .or_else(shakmaty::PositionError::ignore_too_much_material)
        .or_else(shakmaty::PositionError::ignore_impossible_check)
        .ok()
}

fn square(sq: tabla::Square) -> shakmaty::Square {
    shakmaty::Square::new(sq.index() as u32)
}

fn role(role: Role) -> shakmaty::Role {
    match role {
        Role::Pawn => shakmaty::Role::Pawn,
        Role::Knight => shakmaty::Role::Knight,
        Role::Bishop => shakmaty::Role::Bishop,
        Role::Rook => shakmaty::Role::Rook,
        Role::Queen => shakmaty::Role::Queen,
        Role::King => shakmaty::Role::King,
    }
}
