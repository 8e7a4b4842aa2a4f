//! The 16 MiB two-byte-slot KBNK format: written from the KBNvK table and read back, for
//! interoperability.
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
//!
//! ```
//! use tabla::Square;
//! use tabla_endgame::{Men, Solved, two_byte};
//!
//! let kbnvk: Men = "KBNvK".parse().unwrap();
//! let mut solved = Solved::new();
//! solved.solve(kbnvk).unwrap();
//! let bytes = two_byte::export(solved.get(kbnvk).unwrap()).unwrap();
//! let table = two_byte::Table::from_bytes(bytes).unwrap();
//! // Ka8 against Kb6, Na6, Be6: Bd5 mates.
//! let entry = table.entry(Square::B6, Square::E6, Square::A6, Square::A8);
//! assert_eq!((entry.moves, entry.to), (1, Square::D5));
//! ```

use crate::men::Men;
use crate::solve::Solution;
use crate::symmetry::Symmetry;
use tabla::attacks::{between, bishop_attacks, king_attacks, knight_attacks};
use tabla::{Bitboard, Color, Role, Square};

/// Slots in a two-byte-slot file.
pub const SLOTS: usize = 64 * 32 * 64 * 64;
/// Bytes in a two-byte-slot file (16 MiB).
pub const LEN: usize = 2 * SLOTS;

/// Why the two-byte-slot format could not be written or read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Only KBNvK has a two-byte-slot format.
    #[error("the two-byte-slot format holds KBNvK only, not {0}")]
    NotKbnvk(Men),
    /// A two-byte-slot file has the wrong length.
    #[error("a two-byte-slot file has {LEN} bytes; this one has {0}")]
    Length(usize),
}

/// The slot of a placement with a light-squared bishop (`None` for a dark-squared one).
///
/// ```
/// use tabla::Square;
/// use tabla_endgame::two_byte;
/// assert_eq!(two_byte::slot(Square::A1, Square::B1, Square::A1, Square::A1), Some(0));
/// assert_eq!(two_byte::slot(Square::A1, Square::A1, Square::A1, Square::A1), None);
/// assert_eq!(two_byte::slot(Square::H8, Square::G8, Square::H8, Square::H8), Some(two_byte::SLOTS - 1));
/// ```
pub fn slot(king: Square, bishop: Square, knight: Square, black_king: Square) -> Option<usize> {
    if !bishop.is_light() {
        return None;
    }
    Some(((king.index() * 32 + bishop.index() / 2) * 64 + knight.index()) * 64 + black_king.index())
}

/// The light square whose half is `half` (`0..32`): the inverse of `bishop / 2`.
fn light_square_of_half(half: usize) -> Square {
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

/// The moves to mate of a Black-to-move code with Black lost (`2N + 1`: mated after `N` White
/// moves, so White mates in `N + 1` from the position before), `None` otherwise.
fn white_moves_after(code: u8) -> Option<u8> {
    (code % 2 == 1).then_some(code / 2 + 1)
}

/// KBNvK's table in the two-byte-slot format: White to move, light-squared bishop, the best
/// move of every won slot (see the module's documentation for the layout). Among equally fast
/// mates the king's moves come first, then the bishop's, then the knight's, each by ascending
/// target square.
pub fn export(kbnvk: &Solution) -> Result<Vec<u8>, Error> {
    let men = kbnvk.men();
    if men.to_string() != "KBNvK" {
        return Err(Error::NotKbnvk(men));
    }
    let mut out = vec![0u8; LEN];
    // (piece code, target, successor's config, symmetry, squares the move needs free)
    let mut moves: Vec<(u8, u8, usize, Symmetry, u64)> = Vec::with_capacity(40);
    for king in Square::ALL {
        for half in 0..32 {
            let bishop = light_square_of_half(half);
            for knight in Square::ALL {
                let occ = Bitboard::from_square(king).with(bishop).with(knight);
                if occ.count() < 3 {
                    continue;
                }
                let attacked =
                    king_attacks(king).0 | bishop_attacks(bishop, occ).0 | knight_attacks(knight).0;
                let valid = !occ.0 & !attacked;
                moves.clear();
                // The frame's order of men: the bishop, then the knight.
                let mut add = |code, from: Square, to: Square, k: Square, b: Square, n: Square| {
                    let (config, sym) = kbnvk.locate(k as u8, &[b as u8, n as u8]);
                    let free = !between(from, to).0 & !(1u64 << to as u8);
                    moves.push((code, to as u8, config, sym, free));
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
                    for &(code, to, config, sym, free) in &moves {
                        if free >> b & 1 == 0 {
                            continue;
                        }
                        let after = kbnvk.value(Color::Black, config, sym.apply(b));
                        let Some(v) = after.and_then(white_moves_after) else {
                            continue;
                        };
                        if best.is_none_or(|(bv, _, _)| v < bv) {
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

/// One slot of a two-byte-slot file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Moves to mate (0: unknown).
    pub moves: u8,
    /// The piece to move (`None` when `moves` is 0).
    pub role: Option<Role>,
    /// Its target square.
    pub to: Square,
}

/// A file in the two-byte-slot format, read whole.
pub struct Table {
    bytes: Vec<u8>,
}

impl Table {
    /// Checks the length and keeps the bytes.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Table, Error> {
        if bytes.len() != LEN {
            return Err(Error::Length(bytes.len()));
        }
        Ok(Table { bytes })
    }

    /// The slot of a White-to-move placement, with either bishop colour (a dark-squared bishop
    /// is mirrored `x -> 7 - x` in and out).
    pub fn entry(&self, king: Square, bishop: Square, knight: Square, black_king: Square) -> Entry {
        let mirror = if bishop.is_light() {
            Symmetry::IDENTITY
        } else {
            Symmetry::MIRROR_FILES
        };
        let m = |s: Square| Square::new_masked(mirror.apply(s as u8));
        let slot = slot(m(king), m(bishop), m(knight), m(black_king))
            .expect("mirroring makes the bishop light-squared");
        let (moves, code) = (self.bytes[2 * slot], self.bytes[2 * slot + 1]);
        let role = match code >> 6 {
            1 => Some(Role::King),
            2 => Some(Role::Bishop),
            3 => Some(Role::Knight),
            _ => None,
        };
        Entry {
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
