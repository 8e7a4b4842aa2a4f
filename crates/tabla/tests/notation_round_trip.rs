//! Notation round trips on every suite position and on positions one and two plies deep from
//! them: every legal move's SAN (strict and lenient), long form and UCI form resolve back to that
//! same move, and no two moves share a SAN.

mod common;

use std::collections::HashSet;
use tabla::{Position, SanMode};

/// Checks every legal move of `pos`; returns how many were checked.
fn check_position(pos: &Position) -> usize {
    let moves = pos.legal_moves();
    let mut sans = HashSet::new();
    for &mv in &moves {
        let fen = pos.to_fen();
        let san = pos.san(mv);
        assert!(sans.insert(san.clone()), "{fen}: two moves written {san}");
        assert_eq!(
            pos.parse_san_with(&san, SanMode::Strict),
            Ok(mv),
            "{fen}: strict {san}"
        );
        assert_eq!(
            pos.parse_san_with(&san, SanMode::Lenient),
            Ok(mv),
            "{fen}: lenient {san}"
        );
        let bare = pos.san_without_suffix(mv);
        assert!(san.starts_with(&bare), "{fen}: {san} vs {bare}");
        assert_eq!(pos.parse_san(&bare), Ok(mv), "{fen}: lenient {bare}");

        let long = pos.long(mv);
        assert_eq!(pos.parse_long(&long), Ok(mv), "{fen}: long {long}");
        // The long form is also accepted by the lenient SAN reader.
        assert_eq!(pos.parse_san(&long), Ok(mv), "{fen}: lenient long {long}");

        let uci = pos.uci(mv);
        assert_eq!(pos.parse_uci(&uci), Ok(mv), "{fen}: uci {uci}");
        assert_eq!(pos.parse_san(&uci), Ok(mv), "{fen}: lenient uci {uci}");
    }
    moves.len()
}

/// Checks `pos` and every position up to `depth` plies below it; returns the moves checked.
fn walk(pos: &mut Position, depth: u32) -> usize {
    let mut checked = check_position(pos);
    if depth > 0 {
        for mv in pos.legal_moves() {
            pos.play(mv).expect("a legal move");
            checked += walk(pos, depth - 1);
            pos.undo();
        }
    }
    checked
}

#[test]
fn suite_positions_and_two_plies_below() {
    let checked: usize = common::suite_positions()
        .iter_mut()
        .map(|pos| walk(pos, 2))
        .sum();
    assert!(checked > 900_000, "{checked} moves checked");
}
