//! What the generator asks of the endings a capture or a promotion leads to.

use crate::men::{MAX_MEN, Men};
use tabla::{Color, Role};

/// White's king and up to three other men (Black's king apart): a placement as the generator
/// asks the smaller tables about it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Men3 {
    pub white_king: u8,
    pub men: [(Color, Role, u8); MAX_MEN - 2],
    pub n: usize,
}

impl Men3 {
    /// The placement without the man on `sq`.
    pub(crate) fn without(mut self, sq: u8) -> Men3 {
        if let Some(i) = self.men[..self.n].iter().position(|m| m.2 == sq) {
            self.men.copy_within(i + 1..self.n, i);
            self.n -= 1;
        }
        self
    }

    /// Where the man of `color` and `role` on `sq` is listed.
    pub(crate) fn find(&self, color: Color, role: Role, sq: u8) -> usize {
        self.men[..self.n]
            .iter()
            .position(|&m| m == (color, role, sq))
            .unwrap_or(0)
    }

    pub(crate) fn ending(&self) -> Option<Men> {
        let mut white = [Role::Pawn; MAX_MEN];
        let mut black = [Role::Pawn; MAX_MEN];
        let (mut w, mut b) = (0, 0);
        for &(c, r, _) in &self.men[..self.n] {
            if c == Color::White {
                white[w] = r;
                w += 1;
            } else {
                black[b] = r;
                b += 1;
            }
        }
        Men::new(&white[..w], &black[..b]).ok()
    }
}

/// The values of the endings a table's exits lead to.
pub(crate) trait Lookup {
    /// The code of a placement with Black's king on `black_king` and `turn` to move; `None`
    /// when the position is illegal or its ending not solved.
    fn one(&self, p: &Men3, black_king: u8, turn: Color) -> Option<u8>;

    /// The codes of a placement for every square of Black's king (`codes[lane]`), `turn` to
    /// move; returns the lanes where the position is legal (none if its ending is not solved).
    fn row(&self, p: &Men3, turn: Color, codes: &mut [u8; 64]) -> u64;
}
