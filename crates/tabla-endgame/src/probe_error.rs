//! Why a probe gives no value: the position's material, its placement or its FEN.

use crate::material::{Material, MaterialError};
use tabla::{FenError, Square};

/// Why a placement given by squares is not a legal position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalPlacement {
    /// Two men on one square.
    #[error("two men on {0}")]
    SharedSquare(Square),
    /// The kings stand next to each other.
    #[error("the kings touch")]
    KingsTouch,
    /// The bare king is in check with White to move.
    #[error("the side not to move is in check")]
    OppositeCheck,
    /// Not as many pieces as the material has.
    #[error("{found} pieces given, the material has {expected}")]
    PieceCount {
        /// The material's count.
        expected: usize,
        /// The count given.
        found: usize,
    },
}

/// Why a probe gave no value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    /// The position is not a king and pieces against a bare king.
    #[error(transparent)]
    Material(#[from] MaterialError),
    /// The position's material is not the table's (nor one a capture leads to).
    #[error("the position is {found}; this table solves {table}")]
    WrongMaterial {
        /// The table's material.
        table: Material,
        /// The position's.
        found: Material,
    },
    /// The placement is not a legal position.
    #[error("illegal position: {0}")]
    Illegal(#[from] IllegalPlacement),
    /// The FEN could not be read, or is not a legal position.
    #[error("{0}")]
    Fen(#[from] FenError),
}
