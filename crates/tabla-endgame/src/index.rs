//! The index scheme: where a placement's value lives in a table.
//!
//! A table is a list of *configurations* of the stronger side's men, each holding 64 values, one
//! per square of the bare king. A configuration is the stronger king in the triangle a1–d1–d4 (10
//! squares; any placement is brought there by one of the board's eight symmetries) and the square
//! of each piece, in the material's order:
//!
//! ```text
//! config = triangle(king) * 64^n + piece[0] * 64^(n-1) + ... + piece[n-1]
//! slot   = config * 64 + bare_king
//! ```
//!
//! for `n` pieces (KBNK: `10 * 64 * 64 = 40,960` configurations, `2,621,440` slots a side to move).
//! Both bishop colours are in the table: a symmetry maps a placement with a dark-squared bishop to
//! one of its light-squared twins or keeps it dark, and both kinds are stored. Slots whose men share
//! a square, and placements that cannot occur with that side to move, hold no value. When the king
//! is on the a1–d4 diagonal a placement and its transpose are both stored (they hold equal values);
//! this keeps every move of a piece other than the king inside the same frame, which the generator
//! relies on for speed.

use crate::symmetry::Symmetry;

/// The ten squares of the triangle a1–d1–d4, in index order.
pub const TRIANGLE: [u8; 10] = [0, 1, 2, 3, 9, 10, 11, 18, 19, 27];

/// The triangle index of each square (`u8::MAX` outside).
const TRIANGLE_INDEX: [u8; 64] = {
    let mut out = [u8::MAX; 64];
    let mut i = 0;
    while i < TRIANGLE.len() {
        out[TRIANGLE[i] as usize] = i as u8;
        i += 1;
    }
    out
};

/// Configurations of a table whose stronger side has `pieces` pieces besides its king.
#[inline]
pub const fn config_count(pieces: usize) -> usize {
    TRIANGLE.len() << (6 * pieces)
}

/// The configuration of a king already in the triangle and its pieces' squares.
#[inline]
pub fn config_of(king: u8, pieces: &[u8]) -> usize {
    let mut c = TRIANGLE_INDEX[king as usize] as usize;
    debug_assert!(c < TRIANGLE.len(), "king {king} outside the triangle");
    for &p in pieces {
        c = c << 6 | p as usize;
    }
    c
}

/// The king's square and the pieces' squares of configuration `c` (pieces in `out[..n]`).
#[inline]
pub fn squares_of(c: usize, n: usize, out: &mut [u8]) -> u8 {
    let mut rest = c;
    for i in (0..n).rev() {
        out[i] = (rest & 63) as u8;
        rest >>= 6;
    }
    TRIANGLE[rest]
}

/// Where a placement lives: the configuration and the bare king's square in its frame.
#[inline]
pub fn locate(king: u8, pieces: &[u8], bare_king: u8) -> (usize, u8) {
    let sym = Symmetry::to_triangle(king);
    let mut c = TRIANGLE_INDEX[sym.apply(king) as usize] as usize;
    for &p in pieces {
        c = c << 6 | sym.apply(p) as usize;
    }
    (c, sym.apply(bare_king))
}

/// The slot of a placement: its configuration and the bare king's square in its frame.
#[inline]
pub(crate) fn slot(king: u8, pieces: &[u8], bare_king: u8) -> usize {
    let (c, b) = locate(king, pieces, bare_king);
    c * 64 + b as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configurations_round_trip() {
        let mut out = [0u8; 2];
        for c in 0..config_count(2) {
            let k = squares_of(c, 2, &mut out);
            assert_eq!(config_of(k, &out), c);
        }
        assert_eq!(config_count(2), 40_960);
    }

    #[test]
    fn symmetric_placements_share_a_slot() {
        // Every image of a placement under the eight symmetries is found in one slot, except
        // that a king on the diagonal allows the transposed twin.
        let (k, p, b) = (12u8, [33u8, 50u8], 7u8);
        let slots: std::collections::BTreeSet<_> = Symmetry::ALL
            .iter()
            .map(|s| locate(s.apply(k), &[s.apply(p[0]), s.apply(p[1])], s.apply(b)))
            .collect();
        assert_eq!(slots.len(), 1);
    }
}
