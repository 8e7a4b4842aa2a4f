//! The 16 MiB two-byte-slot KBNK format: export and reading, for interoperability.
//!
//! A plain array of White-to-move answers, one two-byte slot for every placement with a
//! light-squared bishop, uncompressed and unchecked: the format of the first KBNK solution base
//! this project was measured against (docs/background.md). It is indexed by the White king's
//! square, the light-squared bishop's square divided by two, the knight's square and the Black
//! king's square, in row-major order (the last index varies fastest):
//!
//! ```text
//! slot = ((king * 32 + bishop / 2) * 64 + knight) * 64 + black_king      (0 .. 8,388,608)
//! byte 2 * slot     = moves to mate, 0 when unknown (draw, illegal, or no White to move)
//! byte 2 * slot + 1 = FFNNNNNN: FF = 1 king, 2 bishop, 3 knight; NNNNNN = target square
//! ```
//!
//! Squares are `x + 8 * y` (`a1 = 0`, `h8 = 63`). `bishop / 2` is one-to-one on light squares:
//! each rank holds its four light squares at indices of one parity, so halving keeps them apart
//! (`b1 = 1 -> 0`, `d1 -> 1`, ..., `a2 = 8 -> 4`). A dark-squared bishop is looked up by mirroring
//! every square `x -> 7 - x` first and the stored target square after.
//! The file is 16 MiB (`2 * 8,388,608` bytes). Its best moves are ours; where several moves mate
//! equally fast another generator's file may hold another of them (the choice depends on the
//! order it works in), so only the first byte of each slot is expected to agree exactly.

use crate::index::locate;
use crate::material::Material;
use crate::symmetry::Symmetry;
use crate::table::Table;
use tabla::attacks::{between, bishop_attacks, king_attacks, knight_attacks};
use tabla::{Bitboard, Role, Square};

/// Slots in a two-byte-slot file.
pub const TWO_BYTE_SLOTS: usize = 64 * 32 * 64 * 64;
/// Bytes in a two-byte-slot file (16 MiB).
pub const TWO_BYTE_LEN: usize = 2 * TWO_BYTE_SLOTS;

/// Why the two-byte-slot format could not be written or read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TwoByteError {
    /// Only KBNK has a two-byte-slot format.
    #[error("the two-byte-slot format holds KBNK only, not {0}")]
    NotKbnk(Material),
    /// A two-byte-slot file has the wrong length.
    #[error("a two-byte-slot file has {TWO_BYTE_LEN} bytes; this one has {0}")]
    Length(usize),
}

/// The slot of a placement with a light-squared bishop (`None` for a dark-squared one).
///
/// ```
/// use tabla::Square;
/// use tabla_endgame::two_byte_slot;
/// assert_eq!(two_byte_slot(Square::A1, Square::B1, Square::A1, Square::A1), Some(0));
/// assert_eq!(two_byte_slot(Square::A1, Square::A1, Square::A1, Square::A1), None);
/// assert_eq!(two_byte_slot(Square::H8, Square::G8, Square::H8, Square::H8), Some(64 * 32 * 64 * 64 - 1));
/// ```
pub fn two_byte_slot(
    king: Square,
    bishop: Square,
    knight: Square,
    black_king: Square,
) -> Option<usize> {
    if !bishop.is_light() {
        return None;
    }
    Some(((king.index() * 32 + bishop.index() / 2) * 64 + knight.index()) * 64 + black_king.index())
}

/// The light square whose half is `half` (`0..32`): the inverse of `bishop / 2`.
pub fn light_square_of_half(half: usize) -> Square {
    let rank = half / 4;
    // Light squares have odd x + y: odd files on even ranks, even files on odd ranks.
    Square::new_masked((2 * half + (1 - rank % 2)) as u8)
}

/// The piece code of a slot's second byte.
fn piece_code(role: Role) -> u8 {
    match role {
        Role::King => 1,
        Role::Bishop => 2,
        _ => 3,
    }
}

impl Table {
    /// The table in the two-byte-slot format (KBNK only): White to move, light-squared bishop,
    /// the best move of every won slot (see `two_byte.rs` for the
    /// layout).
    /// Among equally fast mates the king's moves come first, then the bishop's, then the
    /// knight's, each by ascending target square.
    pub fn export_two_byte(&self) -> Result<Vec<u8>, TwoByteError> {
        if self.material() != Material::KBNK {
            return Err(TwoByteError::NotKbnk(self.material()));
        }
        let black = self.black_slots();
        let mut out = vec![0u8; TWO_BYTE_LEN];
        // (piece code, target, successor's slot base, symmetry, squares the move needs free)
        let mut moves: Vec<(u8, u8, usize, Symmetry, u64)> = Vec::with_capacity(40);
        for king in Square::ALL {
            for half in 0..32 {
                let bishop = light_square_of_half(half);
                for knight in Square::ALL {
                    let occ = Bitboard::from_square(king).with(bishop).with(knight);
                    if occ.count() < 3 {
                        continue;
                    }
                    let attacked = king_attacks(king).0
                        | bishop_attacks(bishop, occ).0
                        | knight_attacks(knight).0;
                    let valid = !occ.0 & !attacked;
                    moves.clear();
                    let mut add =
                        |code, from: Square, to: Square, k: Square, b: Square, n: Square| {
                            let sym = Symmetry::to_triangle(k as u8);
                            let (c, _) = locate(k as u8, &[b as u8, n as u8], 0);
                            let free = !between(from, to).0;
                            moves.push((code, to as u8, c * 64, sym, free));
                        };
                    for to in king_attacks(king) & !occ {
                        add(piece_code(Role::King), king, to, to, bishop, knight);
                    }
                    for to in bishop_attacks(bishop, occ) & !occ {
                        add(piece_code(Role::Bishop), bishop, to, king, to, knight);
                    }
                    for to in knight_attacks(knight) & !occ {
                        add(piece_code(Role::Knight), knight, to, king, bishop, to);
                    }
                    let base = ((king.index() * 32 + half) * 64 + knight.index()) * 64;
                    for bk in Bitboard(valid) {
                        let b = bk as u8;
                        let mut best: Option<(u8, u8, u8)> = None;
                        for &(code, to, slot, sym, free) in &moves {
                            if free >> b & 1 == 0 {
                                continue;
                            }
                            let v = black[slot + sym.apply(b) as usize];
                            if v != 0 && best.is_none_or(|(bv, _, _)| v < bv) {
                                best = Some((v, code, to));
                            }
                        }
                        if let Some((v, code, to)) = best {
                            let slot = base + bk.index();
                            out[2 * slot] = v;
                            out[2 * slot + 1] = code << 6 | to;
                        }
                    }
                }
            }
        }
        Ok(out)
    }
}

/// One slot of a two-byte-slot file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TwoByteEntry {
    /// Moves to mate (0: unknown).
    pub moves: u8,
    /// The piece to move (`None` when `moves` is 0).
    pub role: Option<Role>,
    /// Its target square.
    pub to: Square,
}

/// A file in the two-byte-slot format, read whole.
pub struct TwoByteFile {
    bytes: Vec<u8>,
}

impl TwoByteFile {
    /// Checks the length and keeps the bytes.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<TwoByteFile, TwoByteError> {
        if bytes.len() != TWO_BYTE_LEN {
            return Err(TwoByteError::Length(bytes.len()));
        }
        Ok(TwoByteFile { bytes })
    }

    /// The slot of a White-to-move placement, with either bishop colour (a dark-squared bishop
    /// is mirrored `x -> 7 - x` in and out).
    pub fn entry(
        &self,
        king: Square,
        bishop: Square,
        knight: Square,
        black_king: Square,
    ) -> TwoByteEntry {
        let mirror = if bishop.is_light() {
            Symmetry::IDENTITY
        } else {
            Symmetry::MIRROR_FILES
        };
        let m = |s: Square| Square::new_masked(mirror.apply(s as u8));
        let slot = two_byte_slot(m(king), m(bishop), m(knight), m(black_king))
            .expect("mirroring makes the bishop light-squared");
        let (moves, code) = (self.bytes[2 * slot], self.bytes[2 * slot + 1]);
        let role = match code >> 6 {
            1 => Some(Role::King),
            2 => Some(Role::Bishop),
            3 => Some(Role::Knight),
            _ => None,
        };
        TwoByteEntry {
            moves,
            role,
            to: m(Square::new_masked(code & 63)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_of_light_squares() {
        let light: Vec<Square> = Square::ALL.into_iter().filter(|s| s.is_light()).collect();
        assert_eq!(light.len(), 32);
        for (half, &sq) in light.iter().enumerate() {
            assert_eq!(sq.index() / 2, half);
            assert_eq!(light_square_of_half(half), sq);
        }
    }
}
