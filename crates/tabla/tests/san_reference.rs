//! python-chess as an oracle: `tests/data/san_reference.txt` (written by
//! `crates/tabla/tests/data/gen_san_reference.py`) holds, for the suite positions, hand-picked
//! endings and positions along random games from them, python-chess's FEN, legal-move count,
//! checkmate / stalemate / insufficient-material flags and the SAN of every legal move. Ours must
//! agree on all of them.

mod common;

use tabla::{GameEnd, Position, Validation};

#[test]
fn san_counts_and_flags_match_python_chess() {
    let lines = common::reference_lines("san_reference.txt");
    assert!(lines.len() > 2000, "{} positions", lines.len());
    let (mut mates, mut stalemates, mut draws) = (0, 0, 0);
    for fields in &lines {
        let [fen, count, flags, sans] = fields.as_slice() else {
            panic!("malformed line: {fields:?}");
        };
        let pos = Position::from_fen_with(fen, Validation::Lenient)
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        // python-chess wrote the en-passant square after every double push, as we do by default.
        assert_eq!(&pos.to_fen(), fen);

        let count: usize = count.parse().expect("count");
        let moves = pos.legal_moves();
        assert_eq!(moves.len(), count, "{fen}");
        let mut ours: Vec<String> = moves.iter().map(|&m| pos.san(m)).collect();
        ours.sort();
        let theirs: Vec<&str> = sans.split_whitespace().collect();
        assert_eq!(ours, theirs, "{fen}");

        let flags: Vec<bool> = flags.split_whitespace().map(|f| f == "1").collect();
        let [checkmate, stalemate, insufficient] = flags[..] else {
            panic!("malformed flags in {fields:?}");
        };
        assert_eq!(pos.is_checkmate(), checkmate, "{fen}");
        assert_eq!(pos.is_stalemate(), stalemate, "{fen}");
        assert_eq!(pos.is_insufficient_material(), insufficient, "{fen}");
        // status() ranks them: no moves first, then material (clocks are low here and there is no
        // history, so neither move-count rule nor repetition applies).
        let expected = if checkmate {
            Some(GameEnd::Checkmate {
                winner: !pos.turn(),
            })
        } else if stalemate {
            Some(GameEnd::Stalemate)
        } else if insufficient {
            Some(GameEnd::InsufficientMaterial)
        } else {
            None
        };
        let status = pos.status();
        assert_eq!(status.end, expected, "{fen}");
        assert_eq!(status.check, pos.is_check(), "{fen}");
        mates += checkmate as usize;
        stalemates += stalemate as usize;
        draws += insufficient as usize;
    }
    // The file must exercise each flag, not only the common case.
    assert!(mates > 0 && stalemates > 0 && draws > 0);
}
