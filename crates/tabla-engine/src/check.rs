//! Whether a move gives check, known before it is made, so that pruning can spare checking moves:
//! the rule is the core's [`Position::gives_check`]; a node's [`CheckInfo`] answers it faster.

use tabla::attacks::{
    aligned, between, bishop_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use tabla::{Bitboard, Move, MoveKind, Position, Role, Square};

/// What a node needs to tell checking moves cheaply: the squares from which each kind of piece
/// of the side to move would check, and its pieces whose departure may uncover a check. Built once
/// per node, it answers for every move in a few bit operations.
pub struct CheckInfo {
    king: Square,
    squares: [Bitboard; 6],
    discoverers: Bitboard,
}

impl CheckInfo {
    /// The check squares and discovering pieces of the side to move in `pos`.
    pub fn new(pos: &Position) -> CheckInfo {
        let us = pos.turn();
        let king = pos.king(!us);
        let occupied = pos.occupied();
        let ours = pos.by_color(us);
        let diagonal = bishop_attacks(king, occupied);
        let straight = rook_attacks(king, occupied);
        let snipers = (bishop_attacks(king, Bitboard::EMPTY)
            & (pos.by_role(Role::Bishop) | pos.by_role(Role::Queen))
            | rook_attacks(king, Bitboard::EMPTY)
                & (pos.by_role(Role::Rook) | pos.by_role(Role::Queen)))
            & ours;
        let mut discoverers = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(sniper, king) & occupied;
            if blockers.count() == 1 {
                discoverers |= blockers & ours;
            }
        }
        CheckInfo {
            king,
            squares: [
                pawn_attacks(!us, king),
                knight_attacks(king),
                diagonal,
                straight,
                diagonal | straight,
                Bitboard::EMPTY,
            ],
            discoverers,
        }
    }

    /// `true` when the legal move `mv` checks, as [`Position::gives_check`] says.
    #[inline]
    pub fn gives_check(&self, pos: &Position, mv: Move) -> bool {
        if mv.promotion().is_some() || matches!(mv.kind(), MoveKind::EnPassant | MoveKind::Castle) {
            return pos.gives_check(mv);
        }
        self.squares[mv.role().index()].contains(mv.to())
            || (self.discoverers.contains(mv.from()) && !aligned(mv.from(), mv.to(), self.king))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Agrees with the core's rule (which has its own test against making the move) on every
    /// legal move of every position of the perft suite in testdata/ (126 positions rich in
    /// checks, pins, castling, promotions and en passant) and of the positions one move on.
    #[test]
    fn agrees_with_the_core() {
        // Read, not included: the workspace's test data is not part of the crate.
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../testdata/perft/perftsuite.epd"
        );
        let suite = std::fs::read_to_string(path).expect("testdata/perft/perftsuite.epd");
        let mut positions = 0;
        for entry in tabla::perft_suite::parse(&suite) {
            let case = entry.expect("testdata/perft/perftsuite.epd is well formed");
            let start =
                Position::from_fen_with(&case.fen, tabla::Validation::Lenient).expect("test data");
            let mut reached = vec![start.clone()];
            for &mv in start.legal_moves().iter() {
                let mut next = start.clone();
                next.play_unchecked(mv);
                reached.push(next);
            }
            for pos in reached {
                positions += 1;
                let info = CheckInfo::new(&pos);
                for &mv in pos.legal_moves().iter() {
                    assert_eq!(
                        info.gives_check(&pos, mv),
                        pos.gives_check(mv),
                        "{pos} {}",
                        pos.san(mv)
                    );
                }
            }
        }
        assert!(positions > 1000, "{positions} positions");
    }
}
