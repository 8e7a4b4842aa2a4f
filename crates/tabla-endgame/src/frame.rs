//! The index the generator works in: every placement of an ending's men, Black's king last.
//!
//! A position is `config * 64 + lane`: the *lane* is Black's king's square, so the 64 positions
//! that differ only in where Black's king stands are one 64-bit word (one bit each) or 64
//! consecutive bytes, and the generator decides them together. The *config* is White's king and
//! the other men in [`Frame::order`], six bits a square:
//!
//! ```text
//! config = king << 6k | square(man 1) << 6(k-1) | ... | square(man k)
//! ```
//!
//! White's king is brought by a symmetry of the board into the triangle a1–d1–d4 (10 squares)
//! without pawns, or onto files a–d (32 squares) with pawns; nothing else is reduced, so identical
//! men in either order and the two transposed images of a placement whose White king is on the
//! a1–d4 diagonal are separate positions holding the same value. That keeps every move a change of
//! a few bits, and the table files ([`crate::Layout`]) drop the repeats.

use crate::men::{MAX_MEN, Men};
use crate::symmetry::Symmetry;
use tabla::{Color, Role};

/// The generation index of one ending.
#[derive(Clone, Debug)]
pub(crate) struct Frame {
    men: Men,
    pawns: bool,
    /// The men besides the kings: colour and role, in index order.
    order: Vec<(Color, Role)>,
    /// The squares White's king may stand on, by number.
    king_squares: Vec<u8>,
    /// The number of each square White's king may stand on (`u8::MAX`: none).
    king_number: [u8; 64],
}

/// A config decoded: White's king and the other men's squares in [`Frame::order`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Config {
    pub white_king: u8,
    pub squares: [u8; MAX_MEN - 2],
}

impl Frame {
    pub(crate) fn new(men: Men) -> Frame {
        let pawns = men.has_pawns();
        let mut order = Vec::new();
        for color in [Color::White, Color::Black] {
            for &role in crate::men::ROLES {
                for _ in 0..men.count(color, role) {
                    order.push((color, role));
                }
            }
        }
        let mut king_squares = Vec::new();
        let mut king_number = [u8::MAX; 64];
        for sq in 0..64u8 {
            let (x, y) = (sq & 7, sq >> 3);
            let allowed = if pawns { x < 4 } else { x < 4 && y <= x };
            if allowed {
                king_number[sq as usize] = king_squares.len() as u8;
                king_squares.push(sq);
            }
        }
        Frame {
            men,
            pawns,
            order,
            king_squares,
            king_number,
        }
    }

    pub(crate) fn men(&self) -> Men {
        self.men
    }

    /// The men besides the kings, in index order.
    pub(crate) fn order(&self) -> &[(Color, Role)] {
        &self.order
    }

    /// How many configs (64 positions each).
    pub(crate) fn configs(&self) -> usize {
        self.king_squares.len() << (6 * self.order.len())
    }

    /// The symmetry that brings White's king on `sq` to a square the frame allows.
    #[inline]
    pub(crate) fn normalize(&self, sq: u8) -> Symmetry {
        if self.pawns {
            if sq & 7 > 3 {
                Symmetry::MIRROR_FILES
            } else {
                Symmetry::IDENTITY
            }
        } else {
            Symmetry::to_triangle(sq)
        }
    }

    /// The config of White's king on an allowed square and the men's squares.
    #[inline]
    pub(crate) fn config(&self, white_king: u8, squares: &[u8]) -> usize {
        let number = self.king_number[white_king as usize];
        debug_assert!(number != u8::MAX);
        squares
            .iter()
            .fold(number as usize, |c, &sq| (c << 6) | sq as usize)
    }

    /// The config of any placement (`white_king` anywhere) and the symmetry applied to reach it.
    #[inline]
    pub(crate) fn locate(&self, white_king: u8, squares: &[u8]) -> (usize, Symmetry) {
        let sym = self.normalize(white_king);
        let mut mapped = [0u8; MAX_MEN - 2];
        for (m, &sq) in mapped.iter_mut().zip(squares) {
            *m = sym.apply(sq);
        }
        (
            self.config(sym.apply(white_king), &mapped[..squares.len()]),
            sym,
        )
    }

    /// The transposed twin of a config whose White king is on the a1–d4 diagonal (no pawns), if
    /// it is one: the same positions mirrored in that diagonal, a separate config of the frame.
    #[inline]
    pub(crate) fn twin(&self, config: usize) -> Option<usize> {
        let cfg = self.decode(config);
        let wk = cfg.white_king;
        if self.pawns || wk & 7 != wk >> 3 {
            return None;
        }
        let mut squares = cfg.squares;
        for sq in &mut squares[..self.order.len()] {
            *sq = Symmetry::TRANSPOSE.apply(*sq);
        }
        Some(self.config(wk, &squares[..self.order.len()]))
    }

    /// The placement a config stands for.
    #[inline]
    pub(crate) fn decode(&self, config: usize) -> Config {
        let k = self.order.len();
        let mut squares = [0u8; MAX_MEN - 2];
        let mut rest = config;
        for i in (0..k).rev() {
            squares[i] = (rest & 63) as u8;
            rest >>= 6;
        }
        Config {
            white_king: self.king_squares[rest],
            squares,
        }
    }

    /// The number of men besides the kings.
    pub(crate) fn others(&self) -> usize {
        self.order.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configs_decode_to_what_they_encode() {
        for name in ["KQvK", "KRvKB", "KPvKP", "KQRvKN"] {
            let frame = Frame::new(name.parse().expect("men"));
            for c in (0..frame.configs()).step_by(97) {
                let cfg = frame.decode(c);
                assert_eq!(
                    frame.config(cfg.white_king, &cfg.squares[..frame.others()]),
                    c
                );
            }
        }
        let kqk = Frame::new("KQvK".parse().expect("men"));
        assert_eq!(kqk.configs(), 10 * 64);
        let kpk = Frame::new("KPvK".parse().expect("men"));
        assert_eq!(kpk.configs(), 32 * 64);
    }

    #[test]
    fn located_placements_have_white_king_on_an_allowed_square() {
        let frame = Frame::new("KRvK".parse().expect("men"));
        for wk in 0..64u8 {
            let (c, sym) = frame.locate(wk, &[17]);
            let cfg = frame.decode(c);
            assert_eq!(cfg.white_king, sym.apply(wk));
            assert_eq!(cfg.squares[0], sym.apply(17));
        }
    }
}
