//! Zobrist keys, with the Polyglot book format's numbers so that keys equal other tools'.

mod polyglot_keys;

use crate::{Color, Piece, Square};
use polyglot_keys::POLYGLOT;

/// The key of `piece` standing on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    let kind = 2 * piece.role.index() + (piece.color == Color::White) as usize;
    POLYGLOT[64 * kind + sq.index()]
}

/// The key of one castling flag: `flag` is the seed's bit index (0 K, 1 Q, 2 k, 3 q).
#[inline]
pub fn castling_key(flag: usize) -> u64 {
    POLYGLOT[768 + flag]
}

/// The keys of all set flags in the seed's castling bits (K=1, Q=2, k=4, q=8).
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
