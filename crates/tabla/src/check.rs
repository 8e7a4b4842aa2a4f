//! Whether a move gives check, known before it is made.

use crate::attacks::{attacks, bishop_attacks, pawn_attacks, rook_attacks};
use crate::{Bitboard, Move, MoveKind, Position, Role, Square};

impl Position {
    /// `true` when the legal move `mv` checks the opponent's king, directly or by discovery,
    /// found without making the move (search uses it to spare checking moves from pruning).
    ///
    /// ```
    /// use tabla::Position;
    /// // The d7 bishop uncovers the d8 rook: every bishop move checks.
    /// let pos = Position::from_fen("1k1r4/pp1b1R2/8/4p3/2B5/4Q3/PPP2B2/3K4 b - - 0 1").unwrap();
    /// assert!(pos.gives_check(pos.parse_san("Bg4").unwrap()));
    /// assert!(!pos.gives_check(pos.parse_san("a6").unwrap()));
    /// ```
    pub fn gives_check(&self, mv: Move) -> bool {
        let us = self.turn();
        let king = self.king(!us);
        let from = mv.from();
        let ours = self.by_color(us);
        let mut occupied = self.occupied() ^ Bitboard::from_square(from);
        let (piece_sq, role) = match mv.kind() {
            MoveKind::Castle => {
                let Some(side) = mv.castling_side() else {
                    return false;
                };
                let rook_to = side.rook_to(us);
                occupied = (occupied ^ Bitboard::from_square(mv.to()))
                    | Bitboard::from_square(side.king_to(us))
                    | Bitboard::from_square(rook_to);
                return rook_attacks(rook_to, occupied).contains(king);
            }
            MoveKind::EnPassant => {
                let captured = Square::from_coords(mv.to().file(), from.rank());
                occupied =
                    (occupied ^ Bitboard::from_square(captured)) | Bitboard::from_square(mv.to());
                (mv.to(), Role::Pawn)
            }
            _ => {
                occupied |= Bitboard::from_square(mv.to());
                (mv.to(), mv.promotion().unwrap_or(mv.role()))
            }
        };
        let direct = match role {
            Role::King => false,
            Role::Pawn => pawn_attacks(us, piece_sq).contains(king),
            _ => attacks(us, role, piece_sq, occupied).contains(king),
        };
        if direct {
            return true;
        }
        // Discovered: one of our sliders (not the moving piece) sees the king once `from` is empty.
        let movers = Bitboard::from_square(from);
        let diagonal = (self.by_role(Role::Bishop) | self.by_role(Role::Queen)) & ours & !movers;
        let straight = (self.by_role(Role::Rook) | self.by_role(Role::Queen)) & ours & !movers;
        (bishop_attacks(king, occupied) & diagonal).any()
            || (rook_attacks(king, occupied) & straight).any()
    }
}

#[cfg(test)]
mod tests {
    use crate::Position;

    /// Compares with making the move, over every legal move of positions rich in checks,
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
            for &mv in pos.legal_moves().iter() {
                let mut after = pos.clone();
                after.play_unchecked(mv);
                assert_eq!(
                    pos.gives_check(mv),
                    after.is_check(),
                    "{fen} {}",
                    pos.san(mv)
                );
            }
        }
    }
}
