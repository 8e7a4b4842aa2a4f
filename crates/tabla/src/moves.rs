//! The compact move.

use crate::{CastlingSide, Role, Square};
use std::fmt;

/// What kind of move a [`Move`] is, beyond from, to and promotion.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    /// A piece move or capture, or a single pawn push or capture (maybe promoting).
    Normal = 0,
    /// A pawn's two-square advance.
    DoublePush = 1,
    /// An en-passant capture; the captured pawn is not on the target square.
    EnPassant = 2,
    /// Castling; [`Move::to`] is the castling rook's square (king takes rook).
    Castle = 3,
}

/// A move in 32 bits: from (6), to (6), moving role (3), captured role (3), promotion (3), kind (2).
///
/// It carries everything SAN output and undo need besides the position's own state: the moving
/// piece, what it captured, and what kind of move it is. Castling is stored as "king takes own
/// rook" so that Chess960 castling is unambiguous; [`Move::king_to`] gives the king's destination.
///
/// ```
/// use tabla::{Move, MoveKind, Role, Square};
/// let m = Move::new(Square::E7, Square::D8, Role::Pawn, Some(Role::Rook), Some(Role::Queen), MoveKind::Normal);
/// assert_eq!(m.from(), Square::E7);
/// assert_eq!(m.capture(), Some(Role::Rook));
/// assert_eq!(m.promotion(), Some(Role::Queen));
/// assert_eq!(m.to_string(), "e7d8q");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Move(u32);

const fn role_bits(role: Option<Role>) -> u32 {
    match role {
        Some(r) => r as u32,
        None => 0,
    }
}

const fn bits_role(bits: u32) -> Option<Role> {
    if bits == 0 {
        None
    } else {
        Role::from_index(bits as usize - 1)
    }
}

impl Move {
    /// Packs a move.
    #[inline]
    pub const fn new(
        from: Square,
        to: Square,
        role: Role,
        capture: Option<Role>,
        promotion: Option<Role>,
        kind: MoveKind,
    ) -> Move {
        Move(
            from as u32
                | (to as u32) << 6
                | (role as u32) << 12
                | role_bits(capture) << 15
                | role_bits(promotion) << 18
                | (kind as u32) << 21,
        )
    }

    /// Packs a move from raw role numbers (`Role as u8`, 0 for none), as move generation reads
    /// them straight from the board's piece codes.
    #[inline]
    pub(crate) const fn from_raw(
        from: Square,
        to: Square,
        role: Role,
        capture_bits: u8,
        kind: MoveKind,
    ) -> Move {
        Move(
            from as u32
                | (to as u32) << 6
                | (role as u32) << 12
                | ((capture_bits & 7) as u32) << 15
                | (kind as u32) << 21,
        )
    }

    /// A pawn move promoting to `promotion`, capturing the raw role `capture_bits` (0 for none).
    #[inline]
    pub(crate) const fn from_raw_promotion(
        from: Square,
        to: Square,
        capture_bits: u8,
        promotion: Role,
    ) -> Move {
        Move(
            Move::from_raw(from, to, Role::Pawn, capture_bits, MoveKind::Normal).0
                | (promotion as u32) << 18,
        )
    }

    /// The square the piece leaves.
    #[inline]
    pub const fn from(self) -> Square {
        Square::new_masked(self.0 as u8)
    }

    /// The target square (for castling: the rook's square).
    #[inline]
    pub const fn to(self) -> Square {
        Square::new_masked((self.0 >> 6) as u8)
    }

    /// The moving piece's role.
    #[inline]
    pub const fn role(self) -> Role {
        match bits_role(self.0 >> 12 & 7) {
            Some(r) => r,
            None => Role::Pawn,
        }
    }

    /// The captured role, if any (a pawn for en passant).
    #[inline]
    pub const fn capture(self) -> Option<Role> {
        bits_role(self.0 >> 15 & 7)
    }

    /// The promotion role, if any.
    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        bits_role(self.0 >> 18 & 7)
    }

    /// The kind of move.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 21 & 3 {
            0 => MoveKind::Normal,
            1 => MoveKind::DoublePush,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castle,
        }
    }

    /// `true` for captures, en passant included.
    #[inline]
    pub const fn is_capture(self) -> bool {
        self.0 >> 15 & 7 != 0
    }

    /// `true` for en-passant captures.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        matches!(self.kind(), MoveKind::EnPassant)
    }

    /// The castling side, for castling moves.
    #[inline]
    pub const fn castling_side(self) -> Option<CastlingSide> {
        match self.kind() {
            MoveKind::Castle => Some(if (self.to() as u8) > (self.from() as u8) {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            }),
            _ => None,
        }
    }

    /// Where the king (or the moving piece) ends up: for castling the `g` or `c` file square.
    #[inline]
    pub const fn king_to(self) -> Square {
        match self.castling_side() {
            Some(side) => Square::from_coords(side.king_to_file(), self.from().rank()),
            None => self.to(),
        }
    }

    /// The moving role as its raw number (`Role as u8`; 0 only for the null move).
    #[inline]
    pub const fn role_bits(self) -> u8 {
        (self.0 >> 12 & 7) as u8
    }

    /// The captured role as its raw number, 0 for none.
    #[inline]
    pub const fn capture_bits(self) -> u8 {
        (self.0 >> 15 & 7) as u8
    }

    /// The promotion role as its raw number, 0 for none.
    #[inline]
    pub const fn promotion_bits(self) -> u8 {
        (self.0 >> 18 & 7) as u8
    }

    /// The packed 32-bit value.
    #[inline]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// The move whose [`Move::bits`] are `bits` (only the low 23 bits count), for tables that
    /// store moves packed. Any bits give a value whose accessors answer without panicking, but
    /// bits that did not come from [`Move::bits`] need not be a move of any position: compare
    /// the result with the legal moves before playing it.
    ///
    /// ```
    /// use tabla::Position;
    /// let pos = Position::startpos();
    /// let mv = pos.parse_san("Nf3").unwrap();
    /// assert_eq!(tabla::Move::from_bits(mv.bits()), mv);
    /// ```
    #[inline]
    pub const fn from_bits(bits: u32) -> Move {
        Move(bits & 0x7f_ffff)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self} {:?} {:?}", self.role(), self.kind())?;
        if let Some(c) = self.capture() {
            write!(f, " x{c:?}")?;
        }
        write!(f, ")")
    }
}

/// UCI notation in standard-chess form (castling as the king's two-square move).
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.king_to())?;
        if let Some(p) = self.promotion() {
            write!(f, "{}", p.char())?;
        }
        Ok(())
    }
}

impl Move {
    /// The null move (`--` in PGN): passes the turn.
    pub const NULL: Move = Move(0);

    /// `true` for [`Move::NULL`].
    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 >> 12 & 7 == 0
    }
}
