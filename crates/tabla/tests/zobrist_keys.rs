//! Zobrist keys and make/unmake: the Polyglot book format's published keys, python-chess's Polyglot
//! keys along random games (`tests/data/polyglot_reference.txt`, written by
//! `crates/tabla/tests/data/gen_polyglot_reference.py`), and property tests that the incremental
//! key always equals the recomputed one and that `undo` restores the exact position.

mod common;

use proptest::prelude::*;
use std::sync::OnceLock;
use tabla::{Position, Validation};

fn lenient(fen: &str) -> Position {
    Position::from_fen_with(fen, Validation::Lenient).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn polyglot_published_keys() {
    // From the Polyglot book format's description ("Random64" keys, test positions).
    let lines: [(&[&str], u64); 9] = [
        (&[], 0x463b96181691fc9c),
        (&["e4"], 0x823c9b50fd114196),
        (&["e4", "d5"], 0x0756b94461c50fb0),
        (&["e4", "d5", "e5"], 0x662fafb965db29d4),
        (&["e4", "d5", "e5", "f5"], 0x22a48b5a8e47ff78),
        (&["e4", "d5", "e5", "f5", "Ke2"], 0x652a607ca3f242c1),
        (&["e4", "d5", "e5", "f5", "Ke2", "Kf7"], 0x00fdd303c946bdd9),
        (&["a4", "b5", "h4", "b4", "c4"], 0x3c8123ea7b067637),
        (
            &["a4", "b5", "h4", "b4", "c4", "bxc3", "Ra3"],
            0x5c3f9b829b279560,
        ),
    ];
    for (sans, key) in lines {
        let mut pos = Position::startpos();
        for san in sans {
            pos.push_san(san).unwrap_or_else(|e| panic!("{san}: {e}"));
        }
        assert_eq!(pos.zobrist(), key, "after {sans:?}");
        assert_eq!(pos.compute_key(), key, "after {sans:?}, recomputed");
        assert_eq!(
            lenient(&pos.to_fen()).zobrist(),
            key,
            "after {sans:?}, from FEN"
        );
    }
}

#[test]
fn polyglot_keys_match_python_chess() {
    let lines = common::reference_lines("polyglot_reference.txt");
    assert!(lines.len() > 100, "{} games", lines.len());
    let mut keys_checked = 0;
    for fields in &lines {
        let [fen, moves, keys] = fields.as_slice() else {
            panic!("malformed line: {fields:?}");
        };
        let keys: Vec<u64> = keys
            .split_whitespace()
            .map(|k| u64::from_str_radix(k, 16).expect("hex key"))
            .collect();
        let moves: Vec<&str> = moves.split_whitespace().collect();
        assert_eq!(keys.len(), moves.len() + 1, "{fen}");
        let mut pos = lenient(fen);
        assert_eq!(pos.zobrist(), keys[0], "{fen}");
        for (uci, &key) in moves.iter().zip(&keys[1..]) {
            let mv = pos
                .parse_uci(uci)
                .unwrap_or_else(|e| panic!("{}: {e}", pos.to_fen()));
            pos.play(mv).expect("a legal move");
            assert_eq!(pos.zobrist(), key, "{fen} after {uci}");
            assert_eq!(pos.compute_key(), key, "{fen} after {uci}, recomputed");
            keys_checked += 1;
        }
        // Taking the moves back retraces the keys.
        for &key in keys.iter().rev().skip(1) {
            pos.undo().expect("a move to undo");
            assert_eq!(pos.zobrist(), key, "{fen}: undo");
        }
    }
    assert!(keys_checked > 2000, "{keys_checked} keys checked");
}

#[test]
fn play_and_undo_two_plies_deep_on_every_suite_position() {
    for mut pos in common::suite_positions() {
        let fen = pos.to_fen();
        let key = pos.zobrist();
        for first in pos.legal_moves() {
            pos.play(first).expect("a legal move");
            assert_eq!(pos.zobrist(), pos.compute_key(), "{fen} {first}");
            let mid = pos.clone();
            let mid_fen = pos.to_fen();
            for second in pos.legal_moves() {
                pos.play(second).expect("a legal move");
                assert_eq!(pos.zobrist(), pos.compute_key(), "{mid_fen} {second}");
                assert_eq!(pos.undo(), Some(second));
                assert_eq!(pos.to_fen(), mid_fen);
                assert_eq!(pos.zobrist(), mid.zobrist());
                assert_eq!(pos, mid);
            }
            assert_eq!(pos.undo(), Some(first));
            assert_eq!(pos.to_fen(), fen);
            assert_eq!(pos.zobrist(), key);
        }
        assert_eq!(pos.undo(), None, "nothing left to undo");
    }
}

fn suite() -> &'static [Position] {
    static SUITE: OnceLock<Vec<Position>> = OnceLock::new();
    SUITE.get_or_init(common::suite_positions)
}

/// Plays a random game from `start` (each choice picks a move by index; a choice with its top bit
/// set plays a null move instead, when not in check), checking the key after every move, then
/// takes everything back, checking that each earlier position returns exactly.
fn random_game(start: &Position, choices: &[u16]) -> Result<(), TestCaseError> {
    let mut pos = start.clone();
    let mut trail = Vec::new();
    for &choice in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        trail.push((pos.clone(), pos.to_fen(), pos.zobrist()));
        if choice & 0x8000 != 0 && !pos.is_check() {
            pos.play_null();
        } else {
            let mv = moves[choice as usize % moves.len()];
            pos.play(mv).expect("a legal move");
            prop_assert_eq!(pos.last_move(), Some(mv));
        }
        prop_assert_eq!(pos.zobrist(), pos.compute_key(), "{}", pos.to_fen());
        // A key built from the FEN alone agrees with the incremental one.
        prop_assert_eq!(lenient(&pos.to_fen()).zobrist(), pos.zobrist());
    }
    while let Some((before, fen, key)) = trail.pop() {
        prop_assert!(pos.undo().is_some());
        prop_assert_eq!(pos.to_fen(), fen);
        prop_assert_eq!(pos.zobrist(), key);
        prop_assert_eq!(&pos, &before);
        prop_assert_eq!(pos.legal_moves(), before.legal_moves());
    }
    prop_assert_eq!(pos.undo(), None);
    prop_assert_eq!(&pos, start);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_games_from_the_start(choices in prop::collection::vec(any::<u16>(), 1..120)) {
        random_game(&Position::startpos(), &choices)?;
    }

    #[test]
    fn random_games_from_suite_positions(
        index in any::<prop::sample::Index>(),
        choices in prop::collection::vec(any::<u16>(), 1..60),
    ) {
        let suite = suite();
        random_game(&suite[index.index(suite.len())], &choices)?;
    }
}
