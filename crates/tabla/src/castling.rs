//! Castling rights, held as the squares of the rooks that may still castle (so Chess960 start
//! positions from X-FEN or Shredder-FEN work as well as the standard one).

use crate::{Bitboard, Color, File, Rank, Square};

/// Which way a king castles.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Towards the h-file (`O-O`).
    KingSide,
    /// Towards the a-file (`O-O-O`).
    QueenSide,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// The file the king lands on: `g` or `c`.
    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        }
    }

    /// The file the rook lands on: `f` or `d`.
    pub const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        }
    }

    /// The square the king of `color` lands on.
    pub const fn king_to(self, color: Color) -> Square {
        Square::from_coords(self.king_to_file(), back_rank(color))
    }

    /// The square the rook of `color` lands on.
    pub const fn rook_to(self, color: Color) -> Square {
        Square::from_coords(self.rook_to_file(), back_rank(color))
    }

    /// `O-O` or `O-O-O`.
    pub const fn san(self) -> &'static str {
        match self {
            CastlingSide::KingSide => "O-O",
            CastlingSide::QueenSide => "O-O-O",
        }
    }
}

/// The first rank for White, the eighth for Black.
#[inline]
pub const fn back_rank(color: Color) -> Rank {
    match color {
        Color::White => Rank::First,
        Color::Black => Rank::Eighth,
    }
}

/// The castling rights of both sides: the rooks that may still castle.
///
/// The classic four flags (K=1, Q=2, k=4, q=8) are available through [`CastlingRights::flags`]
/// once the king squares are known.
///
/// ```
/// use tabla::{CastlingRights, Square};
/// let rights = CastlingRights::STANDARD;
/// assert!(rights.contains(Square::H1) && rights.contains(Square::A8));
/// assert_eq!(rights.without(Square::H1).rooks().count(), 3);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CastlingRights(Bitboard);

impl CastlingRights {
    /// No castling rights.
    pub const NONE: CastlingRights = CastlingRights(Bitboard::EMPTY);
    /// `KQkq` of the standard start position (rooks on a1, h1, a8, h8).
    pub const STANDARD: CastlingRights = CastlingRights(Bitboard(0x8100_0000_0000_0081));

    /// Rights for the given rook squares.
    pub const fn from_rooks(rooks: Bitboard) -> CastlingRights {
        CastlingRights(rooks)
    }

    /// The squares of the rooks that may castle.
    #[inline]
    pub const fn rooks(self) -> Bitboard {
        self.0
    }

    /// The rook squares of one colour (on its back rank).
    #[inline]
    pub const fn rooks_of(self, color: Color) -> Bitboard {
        Bitboard(self.0.0 & Bitboard::rank(back_rank(color)).0)
    }

    /// `true` when the rook on `sq` may castle.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0.contains(sq)
    }

    /// `true` when nobody may castle.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0.is_empty()
    }

    /// The rights with the rook on `sq` removed.
    #[inline]
    pub const fn without(self, sq: Square) -> CastlingRights {
        CastlingRights(self.0.without(sq))
    }

    /// The rights with the rook on `sq` added.
    #[inline]
    pub const fn with(self, sq: Square) -> CastlingRights {
        CastlingRights(self.0.with(sq))
    }

    /// The rights with every right of `color` removed.
    #[inline]
    pub const fn without_color(self, color: Color) -> CastlingRights {
        CastlingRights(Bitboard(self.0.0 & !Bitboard::rank(back_rank(color)).0))
    }

    /// The rook of `color` that castles on `side`, given the king's square: the right-holding rook
    /// on the back rank beyond the king in that direction.
    pub fn rook(self, color: Color, side: CastlingSide, king: Square) -> Option<Square> {
        let rooks = self.rooks_of(color);
        match side {
            CastlingSide::KingSide => rooks.into_iter().filter(|r| r.file() > king.file()).last(),
            CastlingSide::QueenSide => rooks.into_iter().find(|r| r.file() < king.file()),
        }
    }

    /// The classic four flags (K=1, Q=2, k=4, q=8), given both kings' squares.
    pub fn flags(self, kings: [Square; 2]) -> u8 {
        let mut flags = 0;
        for color in Color::ALL {
            let king = kings[color.index()];
            for rook in self.rooks_of(color) {
                let side = if rook.file() > king.file() { 1 } else { 2 };
                flags |= side << (2 * color.index());
            }
        }
        flags
    }
}
