//! UCI move text written straight into a buffer: the hot path of the `uci` column, which
//! [`tabla::Position::uci`] would serve with a new `String` per move.

use tabla::{File, Move, Square};

fn push_square(sq: Square, out: &mut String) {
    out.push(sq.file().char());
    out.push(sq.rank().char());
}

/// Appends the UCI form of a legal move exactly as [`tabla::Position::uci`] writes it (castling
/// as the king's move when the king starts on the e-file and the rook in a corner, as king takes
/// rook otherwise), or `0000` for the null move.
pub(crate) fn push_uci(mv: Move, out: &mut String) {
    if mv.is_null() {
        out.push_str("0000");
        return;
    }
    let standard_castle =
        mv.from().file() == File::E && matches!(mv.to().file(), File::A | File::H);
    let to = match mv.castling_side() {
        Some(_) if !standard_castle => mv.to(),
        _ => mv.king_to(),
    };
    push_square(mv.from(), out);
    push_square(to, out);
    if let Some(role) = mv.promotion() {
        out.push(role.char());
    }
}

#[cfg(test)]
mod tests {
    use super::push_uci;
    use tabla::{Position, Validation};

    #[test]
    fn same_as_the_core_for_every_legal_move() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ] {
            let pos = Position::from_fen_with(fen, Validation::Lenient)
                .unwrap_or_else(|e| panic!("{fen}: {e}"));
            for &mv in pos.legal_moves().iter() {
                let mut text = String::new();
                push_uci(mv, &mut text);
                assert_eq!(text, pos.uci(mv), "{fen}");
            }
        }
        let mut text = String::new();
        push_uci(tabla::Move::NULL, &mut text);
        assert_eq!(text, "0000");
    }
}
