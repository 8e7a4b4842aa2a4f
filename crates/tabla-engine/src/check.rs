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

    /// Compares with making the move (the core's rule has its own test), over every legal move of positions rich in checks,
    /// discoveries, castling, promotions and en passant.
    #[test]
    fn agrees_with_making_the_move() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "1k1r4/pp1b1R2/8/4p3/2B5/4Q3/PPP2B2/3K4 b - - 0 1",
            "8/8/8/K2pP2q/8/8/8/7k w - d6 0 1",
            "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
            "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
            "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).expect("test data");
            for mv in pos.legal_moves() {
                let mut after = pos.clone();
                after.play_unchecked(mv);
                assert_eq!(
                    CheckInfo::new(&pos).gives_check(&pos, mv),
                    after.is_check(),
                    "{fen} {} (check info)",
                    pos.san(mv)
                );
            }
        }
    }
}
