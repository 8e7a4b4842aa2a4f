//! Game status: checkmate, stalemate, insufficient material, the move-count rules, repetition.

use crate::{Bitboard, Color, Position, Role};

/// Why a game is over by rule (no claim needed).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// The side to move is checkmated; the other side wins.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can mate by any series of legal moves (kings with at most one minor piece, or
    /// only bishops all on squares of one colour).
    InsufficientMaterial,
    /// 75 moves by each side without a capture or pawn move (and the last move did not mate).
    SeventyFiveMoves,
    /// The same position for the fifth time.
    FivefoldRepetition,
}

impl GameEnd {
    /// The result in PGN form: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn result(self) -> &'static str {
        match self {
            GameEnd::Checkmate {
                winner: Color::White,
            } => "1-0",
            GameEnd::Checkmate {
                winner: Color::Black,
            } => "0-1",
            _ => "1/2-1/2",
        }
    }

    /// A short English description.
    pub const fn description(self) -> &'static str {
        match self {
            GameEnd::Checkmate { .. } => "checkmate",
            GameEnd::Stalemate => "stalemate",
            GameEnd::InsufficientMaterial => "insufficient material",
            GameEnd::SeventyFiveMoves => "75-move rule",
            GameEnd::FivefoldRepetition => "fivefold repetition",
        }
    }
}

/// The state of play in a position.
///
/// ```
/// use tabla::{GameEnd, Position, Color};
/// let pos = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
/// assert_eq!(pos.status().end, Some(GameEnd::Checkmate { winner: Color::White }));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameStatus {
    /// Set when the game is over by rule.
    pub end: Option<GameEnd>,
    /// The side to move is in check.
    pub check: bool,
    /// A draw may be claimed under the 50-move rule (50 moves each without capture or pawn move).
    pub fifty_move_claim: bool,
    /// A draw may be claimed by threefold repetition (the current position for the third time).
    pub threefold_claim: bool,
}

impl Position {
    /// The game status. Repetitions count only the moves played on this `Position` value.
    pub fn status(&self) -> GameStatus {
        let check = self.is_check();
        let no_moves = self.legal_moves().is_empty();
        let repetitions = self.repetitions();
        let end = if no_moves {
            Some(if check {
                GameEnd::Checkmate {
                    winner: !self.turn(),
                }
            } else {
                GameEnd::Stalemate
            })
        } else if self.is_insufficient_material() {
            Some(GameEnd::InsufficientMaterial)
        } else if self.halfmoves() >= 150 {
            Some(GameEnd::SeventyFiveMoves)
        } else if repetitions >= 4 {
            Some(GameEnd::FivefoldRepetition)
        } else {
            None
        };
        GameStatus {
            end,
            check,
            fifty_move_claim: self.halfmoves() >= 100,
            threefold_claim: repetitions >= 2,
        }
    }

    /// `true` when the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && self.legal_moves().is_empty()
    }

    /// `true` when the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && self.legal_moves().is_empty()
    }

    /// `true` when neither side can ever mate.
    pub fn is_insufficient_material(&self) -> bool {
        Color::ALL
            .into_iter()
            .all(|c| self.has_insufficient_material(c))
    }

    /// `true` when `color` cannot mate by any series of legal moves: a bare king; a king and one
    /// knight when the other side has nothing but its king and queens (no piece could block the
    /// king's flight); or bishops all on squares of one colour, with no knights or pawns anywhere.
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let ours = self.by_color(color);
        let heavy = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        if (ours & heavy).any() {
            return false;
        }
        let knights = self.pieces(color, Role::Knight);
        let bishops = self.pieces(color, Role::Bishop);
        if knights.any() {
            let blockers =
                self.by_color(!color) & !self.by_role(Role::King) & !self.by_role(Role::Queen);
            return knights.count() == 1 && bishops.is_empty() && blockers.is_empty();
        }
        if bishops.is_empty() {
            return true;
        }
        let all_bishops = self.by_role(Role::Bishop);
        let one_square_colour =
            (all_bishops & Bitboard::DARK).is_empty() || (all_bishops & Bitboard::LIGHT).is_empty();
        one_square_colour && (self.by_role(Role::Pawn) | self.by_role(Role::Knight)).is_empty()
    }
}
