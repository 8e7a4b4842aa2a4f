//! The 0x88 board: 128 cells, index = rank * 16 + file, `index & 0x88 != 0` off the board.

use crate::{Piece, Square};

/// Piece placement on a 0x88 array (see docs/background.md): each cell holds a piece code
/// ([`Piece::code`]: role * 2 + colour) or 0 for an empty square; the 64 cells with
/// `index & 0x88 != 0` are the off-board half and stay 0.
///
/// This array is the position's source of truth for "what stands where"; the bitboards a
/// [`Position`](crate::Position) keeps beside it are derived and updated with it.
///
/// ```
/// use tabla::{Board, Color, Piece, Role, Square};
/// let board = Board::standard();
/// assert_eq!(board.piece_at(Square::E1), Some(Piece::new(Color::White, Role::King)));
/// assert_eq!(board.code_0x88(0x74), Piece::new(Color::Black, Role::King).code());
/// assert_eq!(board.piece_at(Square::E4), None);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [u8; 128],
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

impl Board {
    /// A board with no pieces.
    pub const fn empty() -> Board {
        Board { cells: [0; 128] }
    }

    /// The standard start position's placement.
    pub fn standard() -> Board {
        use crate::{Color, Role};
        let mut b = Board::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (file, role) in back.into_iter().enumerate() {
            let f = file as u8;
            b.set(Square::new_masked(f), Some(Piece::new(Color::White, role)));
            b.set(
                Square::new_masked(8 + f),
                Some(Piece::new(Color::White, Role::Pawn)),
            );
            b.set(
                Square::new_masked(48 + f),
                Some(Piece::new(Color::Black, Role::Pawn)),
            );
            b.set(
                Square::new_masked(56 + f),
                Some(Piece::new(Color::Black, role)),
            );
        }
        b
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.code_at(sq))
    }

    /// The raw code at a 0x88 index (0 for empty or off-board cells, and for `index >= 128`).
    #[inline]
    pub fn code_0x88(&self, index: u8) -> u8 {
        self.cells.get(index as usize).copied().unwrap_or(0)
    }

    /// Puts `piece` on `sq` (or empties it).
    #[inline]
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.set_code(sq, piece.map_or(0, Piece::code));
    }

    /// The raw piece code on `sq` (0 when empty).
    #[inline]
    pub fn code_at(&self, sq: Square) -> u8 {
        self.cells[(sq.to_0x88() & 0x7f) as usize]
    }

    /// Writes a raw piece code (0 to empty the square).
    #[inline]
    pub(crate) fn set_code(&mut self, sq: Square, code: u8) {
        self.cells[(sq.to_0x88() & 0x7f) as usize] = code;
    }

    /// All pieces with their squares, `a1` first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::ALL
            .into_iter()
            .filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
    }

    /// The raw 128 cells.
    pub fn cells(&self) -> &[u8; 128] {
        &self.cells
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in (0..8u8).rev() {
            for file in 0..8u8 {
                let c = Piece::from_code(self.cells[(rank * 16 + file) as usize])
                    .map_or('.', Piece::char);
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
