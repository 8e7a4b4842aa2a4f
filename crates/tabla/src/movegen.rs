//! Legal move generation: check evasions, pins, en passant and castling (Chess960 too).

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::{Bitboard, CastlingSide, Color, File, Move, MoveKind, Position, Rank, Role, Square};
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
        let mut moves = MoveList::new();
        self.generate(&mut moves, Bitboard::FULL);
        moves.len()
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

    /// The pieces checking the side to move and the side to move's pieces pinned to its king,
    /// in one pass: every enemy slider that sees the king through enemy-free lines either checks
    /// (nothing between), pins (exactly one of ours between) or does neither.
    #[inline]
    fn checkers_and_pinned(&self) -> (Bitboard, Bitboard) {
        let us = self.turn();
        let king = self.king(us);
        let theirs = self.by_color(!us);
        let ours = self.by_color(us);
        let queens = self.by_role(Role::Queen);
        let snipers = (rook_attacks(king, theirs) & (self.by_role(Role::Rook) | queens)
            | bishop_attacks(king, theirs) & (self.by_role(Role::Bishop) | queens))
            & theirs;
        let mut checkers = (knight_attacks(king) & self.by_role(Role::Knight)
            | pawn_attacks(us, king) & self.by_role(Role::Pawn))
            & theirs;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & (ours | theirs);
            if blockers.is_empty() {
                checkers = checkers.with(sniper);
            } else if !blockers.more_than_one() {
                pinned |= blockers & ours;
            }
        }
        (checkers, pinned)
    }

    fn generate(&self, moves: &mut MoveList, targets: Bitboard) {
        let us = self.turn();
        let king = self.king(us);
        let (checkers, pinned) = self.checkers_and_pinned();
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

    pub(crate) fn gen_castling(&self, moves: &mut MoveList, king: Square, targets: Bitboard) {
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
        let ours = self.by_color(us);
        // With a single target square (resolving SAN, UCI, checking one move), only pieces that
        // reach it need looking at: attacks are symmetric, so they are found from the target.
        let (knight_from, diagonal_from, line_from) = match target.single() {
            Some(to) => (
                knight_attacks(to),
                bishop_attacks(to, occ),
                rook_attacks(to, occ),
            ),
            None => (Bitboard::FULL, Bitboard::FULL, Bitboard::FULL),
        };
        for from in self.pieces(us, Role::Knight) & !pinned & knight_from {
            self.push_targets(moves, from, Role::Knight, knight_attacks(from) & target);
        }
        let queens = self.by_role(Role::Queen);
        for from in (self.by_role(Role::Bishop) | queens) & ours & diagonal_from {
            let mut to = bishop_attacks(from, occ) & target;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            let role = if queens.contains(from) {
                Role::Queen
            } else {
                Role::Bishop
            };
            self.push_targets(moves, from, role, to);
        }
        for from in (self.by_role(Role::Rook) | queens) & ours & line_from {
            let mut to = rook_attacks(from, occ) & target;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            let role = if queens.contains(from) {
                Role::Queen
            } else {
                Role::Rook
            };
            self.push_targets(moves, from, role, to);
        }
    }

    #[inline(always)]
    fn push_targets(&self, moves: &mut MoveList, from: Square, role: Role, targets: Bitboard) {
        for to in targets {
            let capture = self.board().code_at(to) >> 1;
            moves.push(Move::from_raw(from, to, role, capture, MoveKind::Normal));
        }
    }

    fn gen_pawns(&self, moves: &mut MoveList, target: Bitboard, pinned: Bitboard, king: Square) {
        let us = self.turn();
        let them = self.by_color(!us);
        let empty = !self.occupied();
        let pawns = self.pieces(us, Role::Pawn);
        let last = Bitboard::rank(match us {
            Color::White => Rank::Eighth,
            Color::Black => Rank::First,
        });
        // Pinned pawns one by one (rare): only moves along the pin line.
        for from in pawns & pinned {
            let allowed = line(king, from) & target;
            for to in pawn_attacks(us, from) & them & allowed {
                let capture = self.board().code_at(to) >> 1;
                push_pawn_move(moves, from, to, capture, last.contains(to));
            }
            let one = pawn_push(us, Bitboard::from_square(from)) & empty;
            for to in one & allowed {
                push_pawn_move(moves, from, to, 0, last.contains(to));
            }
            for to in pawn_push(us, one & double_push_rank(us)) & empty & allowed {
                moves.push(Move::from_raw(
                    from,
                    to,
                    Role::Pawn,
                    0,
                    MoveKind::DoublePush,
                ));
            }
        }
        // The others set-wise: each target set, then back to the origin by a fixed offset.
        let free = pawns & !pinned;
        let forward: i8 = match us {
            Color::White => 8,
            Color::Black => -8,
        };
        let single = pawn_push(us, free) & empty;
        for to in single & target {
            let from = Square::new_masked((to as i8 - forward) as u8);
            push_pawn_move(moves, from, to, 0, last.contains(to));
        }
        for to in pawn_push(us, single & double_push_rank(us)) & empty & target {
            let from = Square::new_masked((to as i8 - 2 * forward) as u8);
            moves.push(Move::from_raw(
                from,
                to,
                Role::Pawn,
                0,
                MoveKind::DoublePush,
            ));
        }
        let not_a = !Bitboard::file(File::A);
        let not_h = !Bitboard::file(File::H);
        // Captures towards the a-file, then towards the h-file.
        for (mask, delta) in [(not_a, forward - 1), (not_h, forward + 1)] {
            let reached = Bitboard(if delta > 0 {
                (free & mask).0 << delta
            } else {
                (free & mask).0 >> -delta
            });
            for to in reached & them & target {
                let from = Square::new_masked((to as i8 - delta) as u8);
                let capture = self.board().code_at(to) >> 1;
                push_pawn_move(moves, from, to, capture, last.contains(to));
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

/// Pawns pushed one square forward (no occupancy check).
#[inline]
fn pawn_push(us: Color, pawns: Bitboard) -> Bitboard {
    match us {
        Color::White => Bitboard(pawns.0 << 8),
        Color::Black => Bitboard(pawns.0 >> 8),
    }
}

/// The rank a single push must reach for a double push to follow (3rd for White, 6th for Black).
#[inline]
fn double_push_rank(us: Color) -> Bitboard {
    Bitboard::rank(match us {
        Color::White => Rank::Third,
        Color::Black => Rank::Sixth,
    })
}

#[inline]
fn push_pawn_move(moves: &mut MoveList, from: Square, to: Square, capture: u8, promotes: bool) {
    if promotes {
        for role in Role::PROMOTIONS {
            moves.push(Move::from_raw_promotion(from, to, capture, role));
        }
    } else {
        moves.push(Move::from_raw(
            from,
            to,
            Role::Pawn,
            capture,
            MoveKind::Normal,
        ));
    }
}
