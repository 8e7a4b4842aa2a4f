//! The eight symmetries of the board (pawnless endgames keep their values under all of them).
//!
//! A [`Symmetry`] is three flags applied in a fixed order: mirror the files (`x -> 7 - x`), then
//! flip the ranks (`y -> 7 - y`), then transpose (swap `x` and `y`, the a1–h8 diagonal). Squares are
//! numbered `x + 8 * y`, `a1 = 0`, `h8 = 63`, as in `tabla`.

/// One of the eight symmetries of the square board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Symmetry(u8);

const MIRROR_FILES: u8 = 1;
const FLIP_RANKS: u8 = 2;
const TRANSPOSE: u8 = 4;

impl Symmetry {
    /// The identity.
    pub const IDENTITY: Symmetry = Symmetry(0);
    /// `x -> 7 - x` only: how the two-byte-slot format turns a dark-squared bishop into a
    /// light-squared one.
    pub const MIRROR_FILES: Symmetry = Symmetry(MIRROR_FILES);
    /// All eight symmetries.
    #[cfg(test)]
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// The symmetry that brings a square into the triangle a1–d1–d4 (files a–d, rank at most
    /// the file). Squares on the a1–d4 diagonal are left untransposed.
    #[inline]
    pub const fn to_triangle(sq: u8) -> Symmetry {
        let (mut x, mut y) = (sq & 7, sq >> 3);
        let mut bits = 0;
        if x > 3 {
            bits |= MIRROR_FILES;
            x = 7 - x;
        }
        if y > 3 {
            bits |= FLIP_RANKS;
            y = 7 - y;
        }
        if y > x {
            bits |= TRANSPOSE;
        }
        Symmetry(bits)
    }

    /// The transposition about the a1–h8 diagonal.
    pub const TRANSPOSE: Symmetry = Symmetry(TRANSPOSE);

    /// This symmetry followed by the transposition, for a symmetry that does not transpose
    /// (the transposition is applied last).
    #[inline]
    pub(crate) const fn then_transpose(self) -> Symmetry {
        debug_assert!(self.0 & TRANSPOSE == 0);
        Symmetry(self.0 | TRANSPOSE)
    }

    /// The image of a square (0..64).
    #[inline]
    pub const fn apply(self, sq: u8) -> u8 {
        let (mut x, mut y) = (sq & 7, sq >> 3);
        if self.0 & MIRROR_FILES != 0 {
            x = 7 - x;
        }
        if self.0 & FLIP_RANKS != 0 {
            y = 7 - y;
        }
        if self.0 & TRANSPOSE != 0 {
            (x, y) = (y, x);
        }
        x + 8 * y
    }

    /// The square whose image is `sq`.
    #[inline]
    #[cfg(test)]
    pub const fn invert(self, sq: u8) -> u8 {
        let (mut x, mut y) = (sq & 7, sq >> 3);
        if self.0 & TRANSPOSE != 0 {
            (x, y) = (y, x);
        }
        if self.0 & FLIP_RANKS != 0 {
            y = 7 - y;
        }
        if self.0 & MIRROR_FILES != 0 {
            x = 7 - x;
        }
        x + 8 * y
    }

    /// The set of images of the squares of `bb` (bit `i` = square `i`).
    #[inline]
    pub const fn apply_bb(self, mut bb: u64) -> u64 {
        if self.0 & MIRROR_FILES != 0 {
            bb = mirror_files(bb);
        }
        if self.0 & FLIP_RANKS != 0 {
            bb = bb.swap_bytes();
        }
        if self.0 & TRANSPOSE != 0 {
            bb = transpose(bb);
        }
        bb
    }

    /// The set of squares whose images lie in `bb`.
    #[inline]
    pub const fn invert_bb(self, mut bb: u64) -> u64 {
        if self.0 & TRANSPOSE != 0 {
            bb = transpose(bb);
        }
        if self.0 & FLIP_RANKS != 0 {
            bb = bb.swap_bytes();
        }
        if self.0 & MIRROR_FILES != 0 {
            bb = mirror_files(bb);
        }
        bb
    }
}

/// Mirrors each rank (byte) of a bitboard: a-file <-> h-file.
#[inline]
const fn mirror_files(mut bb: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    bb = ((bb >> 1) & K1) | ((bb & K1) << 1);
    bb = ((bb >> 2) & K2) | ((bb & K2) << 2);
    ((bb >> 4) & K4) | ((bb & K4) << 4)
}

/// Flips a bitboard about the a1–h8 diagonal (three delta swaps).
#[inline]
const fn transpose(mut bb: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut t = K4 & (bb ^ (bb << 28));
    bb ^= t ^ (t >> 28);
    t = K2 & (bb ^ (bb << 14));
    bb ^= t ^ (t >> 14);
    t = K1 & (bb ^ (bb << 7));
    bb ^= t ^ (t >> 7);
    bb
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitboard_forms_agree_with_square_forms() {
        for s in Symmetry::ALL {
            for sq in 0..64u8 {
                assert_eq!(s.invert(s.apply(sq)), sq);
                assert_eq!(s.apply_bb(1 << sq), 1 << s.apply(sq), "{s:?} {sq}");
                assert_eq!(s.invert_bb(1 << sq), 1 << s.invert(sq), "{s:?} {sq}");
            }
        }
    }

    #[test]
    fn every_square_reaches_the_triangle() {
        let mut seen = std::collections::BTreeSet::new();
        for sq in 0..64u8 {
            let t = Symmetry::to_triangle(sq).apply(sq);
            let (x, y) = (t & 7, t >> 3);
            assert!(x <= 3 && y <= x, "{sq} -> {t}");
            seen.insert(t);
        }
        assert_eq!(seen.len(), 10);
    }

    #[test]
    fn symmetries_keep_distances() {
        // A symmetry of the board keeps king distance, so it maps king moves to king moves.
        let dist = |a: u8, b: u8| {
            ((a & 7) as i8 - (b & 7) as i8)
                .abs()
                .max(((a >> 3) as i8 - (b >> 3) as i8).abs())
        };
        for s in Symmetry::ALL {
            for a in 0..64u8 {
                for b in 0..64u8 {
                    assert_eq!(dist(a, b), dist(s.apply(a), s.apply(b)));
                }
            }
        }
    }
}
