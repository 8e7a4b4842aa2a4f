//! Zobrist keys, with the Polyglot book format's numbers so that keys equal other tools'.

mod polyglot_keys;
mod wide;

pub use wide::{key_columns, key_from_columns};

use crate::{Piece, Square};
use polyglot_keys::POLYGLOT;

/// Piece-square keys indexed by [`Piece::code`] (role * 2 + colour), so the hot path needs no
/// arithmetic: Polyglot's "kind" is 2 * (role - 1) + (1 for White).
static PIECE_KEYS: [[u64; 64]; 16] = {
    let mut table = [[0u64; 64]; 16];
    let mut code = 2;
    while code < 14 {
        let kind = 2 * (code / 2 - 1) + (1 - code % 2);
        let mut sq = 0;
        while sq < 64 {
            table[code][sq] = POLYGLOT[64 * kind + sq];
            sq += 1;
        }
        code += 1;
    }
    table
};

/// The key of `piece` standing on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    code_key(piece.code(), sq)
}

/// The key of the piece with [`Piece::code`] `code` standing on `sq` (0 for code 0).
#[inline]
pub(crate) fn code_key(code: u8, sq: Square) -> u64 {
    PIECE_KEYS[(code & 15) as usize][sq.index()]
}

/// The key of one castling flag: `flag` is the bit index of [`CastlingRights::flags`](crate::CastlingRights::flags)
/// (0 K, 1 Q, 2 k, 3 q).
#[inline]
pub fn castling_key(flag: usize) -> u64 {
    POLYGLOT[768 + flag]
}

/// The keys of all set flags in the castling bits (K=1, Q=2, k=4, q=8).
#[inline]
pub fn castling_flags_key(flags: u8) -> u64 {
    (0..4)
        .filter(|i| flags >> i & 1 != 0)
        .fold(0, |k, i| k ^ castling_key(i))
}

/// The key of an en-passant file (used only when the side to move has a pawn beside the pushed one).
#[inline]
pub fn en_passant_key(file: crate::File) -> u64 {
    POLYGLOT[772 + file.index() as usize]
}

/// The key added when White is to move.
#[inline]
pub fn white_to_move_key() -> u64 {
    POLYGLOT[780]
}
