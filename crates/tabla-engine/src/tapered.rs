//! A pair of values, one for the middlegame and one for the endgame, blended by the game phase.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A middlegame and an endgame value, in centipawns.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct S {
    /// The value with all pieces on the board.
    pub mg: i32,
    /// The value with only kings and pawns left.
    pub eg: i32,
}

/// Shorthand constructor for [`S`].
#[inline]
pub const fn s(mg: i32, eg: i32) -> S {
    S { mg, eg }
}

/// The phase with all pieces on the board (knight and bishop 1, rook 2, queen 4).
pub const PHASE_MAX: i32 = 24;

impl S {
    /// The blend for `phase` (0 = bare endgame, [`PHASE_MAX`] = opening), with the endgame part
    /// scaled by `eg_scale / 64`.
    #[inline]
    pub const fn blend(self, phase: i32, eg_scale: i32) -> i32 {
        let eg = self.eg * eg_scale / 64;
        (self.mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
    }
}

impl Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        s(self.mg + o.mg, self.eg + o.eg)
    }
}

impl Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        s(self.mg - o.mg, self.eg - o.eg)
    }
}

impl Neg for S {
    type Output = S;
    #[inline]
    fn neg(self) -> S {
        s(-self.mg, -self.eg)
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, k: i32) -> S {
        s(self.mg * k, self.eg * k)
    }
}

impl AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}

impl SubAssign for S {
    #[inline]
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blend_moves_from_middlegame_to_endgame() {
        let v = s(100, 300);
        assert_eq!(v.blend(PHASE_MAX, 64), 100);
        assert_eq!(v.blend(0, 64), 300);
        assert_eq!(v.blend(12, 64), 200);
        assert_eq!(v.blend(0, 32), 150);
        assert_eq!(v * 2 - s(50, 50) + -s(1, 1), s(149, 549));
    }
}
