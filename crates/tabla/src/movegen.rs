//! Legal move generation: check evasions, pins, en passant and castling (Chess960 too).

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::{Bitboard, CastlingSide, Color, Move, MoveKind, Position, Rank, Role, Square};
use arrayvec::ArrayVec;

/// How many moves a [`MoveList`] holds. A position reachable in a game has at most 218 legal
/// moves; positions with too much material (accepted by [`Validation::Lenient`](crate::Validation))
/// can have more, and validation rejects any whose mobility bound exceeds this.
pub const MAX_MOVES: usize = 1024;

/// A list of moves on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

impl Position {
    /// All legal moves.
    ///
    /// ```
    /// use tabla::Position;
    /// assert_eq!(Position::startpos().legal_moves().len(), 20);
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.generate(&mut moves, Bitboard::FULL);
        moves
    }

    /// Legal moves into a caller's list (cleared first), only those landing on `targets`
    /// (for castling, the rook's square counts).
    pub fn legal_moves_to(&self, moves: &mut MoveList, targets: Bitboard) {
        moves.clear();
        self.generate(moves, targets);
    }

    /// The number of legal moves, without keeping them.
    pub fn count_legal_moves(&self) -> usize {
        self.legal_moves().len()
    }

    /// `true` when `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        let mut moves = MoveList::new();
        self.generate(&mut moves, Bitboard::from_square(mv.to()));
        moves.contains(&mv)
    }

    /// Pieces of the side to move that are pinned to their king.
    pub fn pinned(&self) -> Bitboard {
        let us = self.turn();
        let king = self.king(us);
        let them = self.by_color(!us);
        let occ = self.occupied();
        let snipers = (rook_attacks(king, them)
            & (self.by_role(Role::Rook) | self.by_role(Role::Queen))
            | bishop_attacks(king, them)
                & (self.by_role(Role::Bishop) | self.by_role(Role::Queen)))
            & them;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occ;
            if !blockers.more_than_one() {
                pinned |= blockers & self.by_color(us);
            }
        }
        pinned
    }

    fn generate(&self, moves: &mut MoveList, targets: Bitboard) {
        let us = self.turn();
        let king = self.king(us);
        let checkers = self.checkers();
        let ours = self.by_color(us);

        let king_targets = king_attacks(king) & !ours & targets;
        self.gen_king(moves, king, king_targets);
        if checkers.more_than_one() {
            return;
        }
        let target = match checkers.single() {
            Some(checker) => (between(king, checker) | Bitboard::from_square(checker)) & targets,
            None => {
                self.gen_castling(moves, king, targets);
                !ours & targets
            }
        };
        let pinned = self.pinned();
        self.gen_pieces(moves, target, pinned, king);
        self.gen_pawns(moves, target, pinned, king);
        if let Some(ep) = self.ep_square() {
            // The capture may also resolve a check by the double-pushed pawn itself.
            if targets.contains(ep) {
                self.gen_en_passant(moves, ep, king);
            }
        }
    }

    fn gen_king(&self, moves: &mut MoveList, king: Square, targets: Bitboard) {
        let them = !self.turn();
        let occ_without_king = self.occupied().without(king);
        for to in targets {
            if (self.attackers_with(to, occ_without_king) & self.by_color(them)).is_empty() {
                let capture = self.piece_at(to).map(|p| p.role);
                moves.push(Move::new(
                    king,
                    to,
                    Role::King,
                    capture,
                    None,
                    MoveKind::Normal,
                ));
            }
        }
    }

    fn gen_castling(&self, moves: &mut MoveList, king: Square, targets: Bitboard) {
        let us = self.turn();
        let rights = self.castling_rights();
        if rights.rooks_of(us).is_empty() {
            return;
        }
        for side in CastlingSide::ALL {
            let Some(rook) = rights.rook(us, side, king) else {
                continue;
            };
            if !targets.contains(rook) {
                continue;
            }
            let king_to = side.king_to(us);
            let rook_to = side.rook_to(us);
            let king_path = between(king, king_to).with(king_to);
            let must_be_empty = (king_path | between(king, rook).with(rook_to))
                .without(king)
                .without(rook);
            let occ = self.occupied();
            if (must_be_empty & occ).any() {
                continue;
            }
            let occ_after = occ.without(king).without(rook);
            let safe = king_path
                .into_iter()
                .all(|sq| (self.attackers_with(sq, occ_after) & self.by_color(!us)).is_empty());
            if safe {
                moves.push(Move::new(
                    king,
                    rook,
                    Role::King,
                    None,
                    None,
                    MoveKind::Castle,
                ));
            }
        }
    }

    fn gen_pieces(&self, moves: &mut MoveList, target: Bitboard, pinned: Bitboard, king: Square) {
        let us = self.turn();
        let occ = self.occupied();
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let mut pieces = self.pieces(us, role);
            if role == Role::Knight {
                pieces = Bitboard(pieces.0 & !pinned.0);
            }
            for from in pieces {
                let mut to_set = match role {
                    Role::Knight => knight_attacks(from),
                    Role::Bishop => bishop_attacks(from, occ),
                    Role::Rook => rook_attacks(from, occ),
                    _ => rook_attacks(from, occ) | bishop_attacks(from, occ),
                } & target;
                if pinned.contains(from) {
                    to_set &= line(king, from);
                }
                for to in to_set {
                    let capture = self.piece_at(to).map(|p| p.role);
                    moves.push(Move::new(from, to, role, capture, None, MoveKind::Normal));
                }
            }
        }
    }

    fn gen_pawns(&self, moves: &mut MoveList, target: Bitboard, pinned: Bitboard, king: Square) {
        let us = self.turn();
        let them = self.by_color(!us);
        let occ = self.occupied();
        let (forward, third, last): (i8, Rank, Rank) = match us {
            Color::White => (8, Rank::Third, Rank::Eighth),
            Color::Black => (-8, Rank::Sixth, Rank::First),
        };
        let third = Bitboard::rank(third);
        let last = Bitboard::rank(last);
        for from in self.pieces(us, Role::Pawn) {
            let allowed = if pinned.contains(from) {
                line(king, from)
            } else {
                Bitboard::FULL
            };
            let captures = pawn_attacks(us, from) & them & target & allowed;
            for to in captures {
                let capture = self.piece_at(to).map(|p| p.role);
                push_pawn_move(
                    moves,
                    from,
                    to,
                    capture,
                    last.contains(to),
                    MoveKind::Normal,
                );
            }
            let one = Square::new_masked((from as i8 + forward) as u8);
            if occ.contains(one) {
                continue;
            }
            if target.contains(one) && allowed.contains(one) {
                push_pawn_move(moves, from, one, None, last.contains(one), MoveKind::Normal);
            }
            if third.contains(one) {
                let two = Square::new_masked((one as i8 + forward) as u8);
                if !occ.contains(two) && target.contains(two) && allowed.contains(two) {
                    moves.push(Move::new(
                        from,
                        two,
                        Role::Pawn,
                        None,
                        None,
                        MoveKind::DoublePush,
                    ));
                }
            }
        }
    }

    fn gen_en_passant(&self, moves: &mut MoveList, ep: Square, king: Square) {
        let us = self.turn();
        let them = !us;
        let captured = Square::from_coords(
            ep.file(),
            match us {
                Color::White => Rank::Fifth,
                Color::Black => Rank::Fourth,
            },
        );
        if !self.pieces(them, Role::Pawn).contains(captured) || self.occupied().contains(ep) {
            return;
        }
        for from in pawn_attacks(them, ep) & self.pieces(us, Role::Pawn) {
            // Simulate the capture: the king must not be attacked afterwards, whether through the
            // two vacated squares (rank or diagonal) or by a checker the capture does not remove.
            let occ = self.occupied().without(from).without(captured).with(ep);
            let attackers = self.attackers_with(king, occ) & self.by_color(them);
            if attackers.without(captured).is_empty() {
                moves.push(Move::new(
                    from,
                    ep,
                    Role::Pawn,
                    Some(Role::Pawn),
                    None,
                    MoveKind::EnPassant,
                ));
            }
        }
    }
}

#[inline]
fn push_pawn_move(
    moves: &mut MoveList,
    from: Square,
    to: Square,
    capture: Option<Role>,
    promotes: bool,
    kind: MoveKind,
) {
    if promotes {
        for role in Role::PROMOTIONS {
            moves.push(Move::new(from, to, Role::Pawn, capture, Some(role), kind));
        }
    } else {
        moves.push(Move::new(from, to, Role::Pawn, capture, None, kind));
    }
}
