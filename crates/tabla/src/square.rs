//! Files, ranks and squares, with conversions to and from the 0x88 index.

use std::fmt;
use std::str::FromStr;

/// A file, `a` to `h`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum File {
    A = 0,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

/// A rank, `1` to `8`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Rank {
    First = 0,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl File {
    /// All files, `a` first.
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file with index 0 (`a`) to 7 (`h`).
    #[inline]
    pub const fn new(index: u8) -> Option<File> {
        if index < 8 {
            Some(File::ALL[index as usize])
        } else {
            None
        }
    }

    /// 0 for `a` to 7 for `h`.
    #[inline]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// `'a'` to `'h'`.
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// Parses `'a'` to `'h'`.
    pub const fn from_char(c: char) -> Option<File> {
        if c >= 'a' && c <= 'h' {
            File::new(c as u8 - b'a')
        } else {
            None
        }
    }

    /// The file mirrored left to right (`a` <-> `h`).
    pub const fn flip(self) -> File {
        File::ALL[7 - self as usize]
    }
}

impl Rank {
    /// All ranks, the first first.
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    /// The rank with index 0 (rank 1) to 7 (rank 8).
    #[inline]
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 8 {
            Some(Rank::ALL[index as usize])
        } else {
            None
        }
    }

    /// 0 for rank 1 to 7 for rank 8.
    #[inline]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// `'1'` to `'8'`.
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// Parses `'1'` to `'8'`.
    pub const fn from_char(c: char) -> Option<Rank> {
        if c >= '1' && c <= '8' {
            Rank::new(c as u8 - b'1')
        } else {
            None
        }
    }

    /// The rank seen from the other side (1 <-> 8).
    pub const fn flip(self) -> Rank {
        Rank::ALL[7 - self as usize]
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A square of the board, `a1` = 0 to `h8` = 63.
///
/// The position's board itself is a 0x88 array (index = rank * 16 + file); squares convert to and
/// from that index with [`Square::to_0x88`] and [`Square::from_0x88`].
///
/// ```
/// use tabla::{File, Rank, Square};
/// let e4: Square = "e4".parse().unwrap();
/// assert_eq!(e4, Square::E4);
/// assert_eq!(e4.to_0x88(), 0x34);
/// assert_eq!(Square::from_0x88(0x34), Some(Square::E4));
/// assert_eq!(Square::from_0x88(0x38), None); // off the board
/// assert_eq!(Square::from_coords(File::E, Rank::Fourth), e4);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
#[rustfmt::skip]
pub enum Square {
    A1 = 0, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
}

#[rustfmt::skip]
const ALL_SQUARES: [Square; 64] = {
    use Square::*;
    [
        A1, B1, C1, D1, E1, F1, G1, H1, A2, B2, C2, D2, E2, F2, G2, H2,
        A3, B3, C3, D3, E3, F3, G3, H3, A4, B4, C4, D4, E4, F4, G4, H4,
        A5, B5, C5, D5, E5, F5, G5, H5, A6, B6, C6, D6, E6, F6, G6, H6,
        A7, B7, C7, D7, E7, F7, G7, H7, A8, B8, C8, D8, E8, F8, G8, H8,
    ]
};

impl Square {
    /// All 64 squares, `a1`, `b1`, ... `h8`.
    pub const ALL: [Square; 64] = ALL_SQUARES;

    /// The square with index 0 (`a1`) to 63 (`h8`).
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(ALL_SQUARES[index as usize])
        } else {
            None
        }
    }

    /// The square with index `index & 63`.
    #[inline]
    pub const fn new_masked(index: u8) -> Square {
        // SAFETY: `Square` is `repr(u8)` with the 64 discriminants 0..=63, and `index & 63` is
        // one of them. (A table lookup here costs a memory load on the hottest paths.)
        unsafe { std::mem::transmute::<u8, Square>(index & 63) }
    }

    /// The square on the given file and rank.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square::new_masked((rank as u8) << 3 | file as u8)
    }

    /// 0 (`a1`) to 63 (`h8`).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The square's file.
    #[inline]
    pub const fn file(self) -> File {
        // SAFETY: `File` is `repr(u8)` with the discriminants 0..=7; `x & 7` is one of them.
        unsafe { std::mem::transmute::<u8, File>(self as u8 & 7) }
    }

    /// The square's rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        // SAFETY: `Rank` is `repr(u8)` with the discriminants 0..=7; `x >> 3` is one of them
        // for a square index below 64.
        unsafe { std::mem::transmute::<u8, Rank>(self as u8 >> 3) }
    }

    /// The 0x88 index: `rank * 16 + file`.
    #[inline]
    pub const fn to_0x88(self) -> u8 {
        let s = self as u8;
        s + (s & !7)
    }

    /// The square at a 0x88 index, or `None` when `index & 0x88 != 0` (off the board).
    #[inline]
    pub const fn from_0x88(index: u8) -> Option<Square> {
        if index & 0x88 != 0 {
            None
        } else {
            Some(ALL_SQUARES[((index >> 4) * 8 + (index & 7)) as usize])
        }
    }

    /// The square mirrored top to bottom (`a1` <-> `a8`).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        ALL_SQUARES[(self as usize) ^ 56]
    }

    /// The square mirrored left to right (`a1` <-> `h1`).
    #[inline]
    pub const fn flip_horizontal(self) -> Square {
        ALL_SQUARES[(self as usize) ^ 7]
    }

    /// `true` for light squares (`h1`, `a8`, ...).
    #[inline]
    pub const fn is_light(self) -> bool {
        (self.file() as u8 + self.rank() as u8) % 2 == 1
    }

    /// The square seen from `color`'s side: itself for White, flipped vertically for Black.
    #[inline]
    pub const fn relative(self, color: crate::Color) -> Square {
        match color {
            crate::Color::White => self,
            crate::Color::Black => self.flip_vertical(),
        }
    }

    /// The larger of the file and rank distances between two squares (king steps).
    pub const fn distance(self, other: Square) -> u8 {
        let df = (self.file() as i8 - other.file() as i8).unsigned_abs();
        let dr = (self.rank() as i8 - other.rank() as i8).unsigned_abs();
        if df > dr { df } else { dr }
    }

    /// The square offset by `df` files and `dr` ranks, if on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || f > 7 || r < 0 || r > 7 {
            None
        } else {
            Some(ALL_SQUARES[(r * 8 + f) as usize])
        }
    }

    /// Parses a square name such as `e4` from bytes.
    pub fn from_ascii(s: &[u8]) -> Option<Square> {
        match s {
            [f, r] => Some(Square::from_coords(
                File::from_char(*f as char)?,
                Rank::from_char(*r as char)?,
            )),
            _ => None,
        }
    }
}

/// A string that names no square.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a square: {0:?} (expected a file a-h and a rank 1-8, such as e4)")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes()).ok_or_else(|| ParseSquareError(s.to_owned()))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ox88_round_trip_covers_exactly_the_board() {
        let mut on_board = 0;
        for i in 0u8..128 {
            if let Some(sq) = Square::from_0x88(i) {
                on_board += 1;
                assert_eq!(sq.to_0x88(), i);
            }
        }
        assert_eq!(on_board, 64);
        assert_eq!(Square::H8.to_0x88(), 0x77);
    }

    #[test]
    fn names() {
        for sq in Square::ALL {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!(Square::H1.is_light() && !Square::A1.is_light());
    }
}
