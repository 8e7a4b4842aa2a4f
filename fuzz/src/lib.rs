//! Checks shared by tabla's fuzz targets.
//!
//! A fuzz target only finds what it asserts, so beyond "no panic" these functions check the round
//! trips a position built from untrusted text must satisfy: FEN out and back in, every legal move
//! through SAN (lenient and strict), the long form and UCI back to the same move, and play/undo
//! and make/unmake agreeing and restoring the exact position and Zobrist key.

use tabla::{EnPassantMode, Move, Position, Setup, SvgOptions, Validation, board_svg};

/// The first line of `data` (lossily decoded) and the bytes after it.
pub fn split_first_line(data: &[u8]) -> (String, &[u8]) {
    match data.iter().position(|&b| b == b'\n') {
        Some(i) => (
            String::from_utf8_lossy(&data[..i]).into_owned(),
            &data[i + 1..],
        ),
        None => (String::from_utf8_lossy(data).into_owned(), &[]),
    }
}

/// Parses `text` as a FEN both ways (setup only, then each validation mode) and runs
/// [`check_position`] on every position that results. Returns the positions accepted.
pub fn check_fen(text: &str) -> Vec<(Position, Validation)> {
    let setup = Setup::from_fen(text);
    if let Ok(setup) = &setup {
        let _ = setup.problems();
        // The board drawing takes any placement, legal or not (no king, three kings, ...).
        let _ = board_svg(&setup.board, &SvgOptions::new());
    }
    let mut accepted = Vec::new();
    for validation in [Validation::Strict, Validation::Lenient] {
        let result = Position::from_fen_with(text, validation);
        // The syntax verdict does not depend on validation.
        assert_eq!(
            setup.is_err(),
            matches!(result, Err(tabla::FenError::Syntax(_))),
            "{text:?}: Setup::from_fen and Position::from_fen_with disagree on syntax"
        );
        if let Err(err) = &result {
            let _ = err.to_string();
        }
        if let Ok(pos) = result {
            check_position(&pos, validation);
            accepted.push((pos, validation));
        }
    }
    if let (Some((strict, _)), Some((lenient, _))) = (
        accepted.iter().find(|(_, v)| *v == Validation::Strict),
        accepted.iter().find(|(_, v)| *v == Validation::Lenient),
    ) {
        assert_eq!(
            strict, lenient,
            "{text:?}: the modes built different positions"
        );
    }
    accepted
}

/// Everything a valid position must survive, with its round trips asserted.
pub fn check_position(pos: &Position, validation: Validation) {
    let fen = pos.to_fen();
    assert_eq!(
        pos.zobrist(),
        pos.compute_key(),
        "{fen}: key differs from recomputed"
    );

    let again = Position::from_fen_with(&fen, validation)
        .unwrap_or_else(|e| panic!("{fen}: own FEN rejected: {e}"));
    assert_eq!(&again, pos, "{fen}: FEN round trip changed the position");
    assert_eq!(again.to_fen(), fen, "{fen}: FEN not canonical");
    assert_eq!(
        again.zobrist(),
        pos.zobrist(),
        "{fen}: key changed over FEN round trip"
    );

    // Dropping an en-passant square that allows no capture cannot make a position invalid.
    let legal_ep = pos.fen_with(EnPassantMode::Legal);
    if let Err(e) = Position::from_fen_with(&legal_ep, validation) {
        panic!("{fen}: its EnPassantMode::Legal FEN {legal_ep:?} rejected: {e}");
    }
    let via_setup = Position::from_setup(pos.to_setup(), validation)
        .unwrap_or_else(|e| panic!("{fen}: own setup rejected: {e}"));
    assert_eq!(
        &via_setup, pos,
        "{fen}: setup round trip changed the position"
    );

    let _ = pos.text_diagram();
    let _ = pos.unicode_diagram(false);
    let _ = pos.unicode_diagram(true);
    let mut svg = SvgOptions::new().flipped(true);
    if let Some(&mv) = pos.legal_moves().first() {
        svg = svg.last_move(mv);
    }
    let _ = pos.svg(&svg);
    let status = pos.status();
    assert_eq!(
        status.check,
        pos.is_check(),
        "{fen}: status disagrees on check"
    );
    assert_eq!(
        pos.is_check(),
        pos.checkers().any(),
        "{fen}: is_check vs checkers"
    );

    let moves = pos.legal_moves();
    assert_eq!(
        status.end.is_some_and(|e| matches!(
            e,
            tabla::GameEnd::Checkmate { .. } | tabla::GameEnd::Stalemate
        )),
        moves.is_empty(),
        "{fen}: status disagrees with the move list"
    );
    let mut work = pos.clone();
    for &mv in moves.iter() {
        check_move(&mut work, mv);
    }
    assert_eq!(
        &work, pos,
        "{fen}: moves did not leave the position as found"
    );
}

/// Round trips one legal move through every notation, then plays and undoes it.
pub fn check_move(pos: &mut Position, mv: Move) {
    let fen = pos.to_fen();
    let key = pos.zobrist();
    assert!(
        pos.is_legal(mv),
        "{fen}: generated move {mv:?} not is_legal"
    );

    let san = pos.san(mv);
    assert_eq!(pos.parse_san(&san), Ok(mv), "{fen}: SAN {san} round trip");
    assert_eq!(
        pos.parse_san_with(&san, tabla::SanMode::Strict),
        Ok(mv),
        "{fen}: strict SAN {san} round trip"
    );
    assert!(
        san.starts_with(&pos.san_without_suffix(mv)),
        "{fen}: {san} suffix"
    );
    let long = pos.long(mv);
    assert_eq!(
        pos.parse_long(&long),
        Ok(mv),
        "{fen}: long {long} round trip"
    );
    let uci = pos.uci(mv);
    assert_eq!(pos.parse_uci(&uci), Ok(mv), "{fen}: UCI {uci} round trip");

    let us = pos.turn();
    pos.play(mv).expect("a legal move plays");
    assert_eq!(
        pos.zobrist(),
        pos.compute_key(),
        "{fen}: key after {san} differs"
    );
    // An independent legality check: the mover's king is not left attacked.
    assert!(
        !pos.is_attacked(pos.king(us), !us),
        "{fen}: {san} leaves the king in check"
    );
    assert_eq!(
        san.ends_with('+') || san.ends_with('#'),
        pos.is_check(),
        "{fen}: {san} check sign"
    );
    // One ply deeper, so move generation also meets the positions moves lead to.
    let replies = pos.legal_moves();
    assert_eq!(
        san.ends_with('#'),
        pos.is_check() && replies.is_empty(),
        "{fen}: {san} mate sign"
    );
    let _ = pos.status();
    let (fen_after, key_after) = (pos.to_fen(), pos.zobrist());
    assert_eq!(
        pos.undo(),
        Some(mv),
        "{fen}: undo of {san} returned another move"
    );
    assert_eq!(pos.to_fen(), fen, "{fen}: undo of {san} changed the FEN");
    assert_eq!(pos.zobrist(), key, "{fen}: undo of {san} changed the key");

    // The history-free pair search and perft use must agree with play/undo.
    let undo = pos.make(mv);
    assert_eq!(
        pos.to_fen(),
        fen_after,
        "{fen}: make({san}) differs from play"
    );
    assert_eq!(
        pos.zobrist(),
        key_after,
        "{fen}: make({san}) key differs from play"
    );
    pos.unmake(undo);
    assert_eq!(pos.to_fen(), fen, "{fen}: unmake of {san} changed the FEN");
    assert_eq!(pos.zobrist(), key, "{fen}: unmake of {san} changed the key");
}

/// Resolves `text` as a move in every notation; each success must be a legal move that survives
/// [`check_move`], and the strict forms must agree with the lenient one.
pub fn check_move_text(pos: &mut Position, text: &str) {
    let fen = pos.to_fen();
    let lenient = pos.parse_san(text);
    let strict = pos.parse_san_with(text, tabla::SanMode::Strict);
    let long = pos.parse_long(text);
    let uci = pos.parse_uci(text);
    for (what, result) in [
        ("lenient SAN", lenient.clone()),
        ("strict SAN", strict.clone()),
        ("long", long.clone()),
    ] {
        match result {
            Ok(mv) => {
                assert!(
                    pos.legal_moves().contains(&mv),
                    "{fen}: {what} {text:?} gave illegal {mv:?}"
                );
                check_move(pos, mv);
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
    match uci.clone() {
        Ok(mv) => {
            assert!(
                pos.legal_moves().contains(&mv),
                "{fen}: UCI {text:?} gave illegal {mv:?}"
            );
            check_move(pos, mv);
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
    // Whatever the stricter parsers accept, the lenient one accepts as the same move.
    for (what, accepted) in [
        ("strict SAN", strict.ok()),
        ("long", long.ok()),
        ("UCI", uci.ok()),
    ] {
        if let Some(mv) = accepted {
            assert_eq!(
                lenient,
                Ok(mv),
                "{fen}: {what} and lenient SAN disagree on {text:?}"
            );
        }
    }
}
