//! Piece-square tables, material included, built at compile time from the tuned weights (half a
//! board per role, mirrored onto the other half).

use crate::params::{MATERIAL, Trace, psqt_index};
use crate::tapered::{S, s};
use crate::tuned::WEIGHTS;
use tabla::{Color, Role, Square};

const fn build() -> [[S; 64]; 6] {
    let mut table = [[s(0, 0); 64]; 6];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            let p = WEIGHTS[psqt_index(role, sq)];
            let m = if role < 5 {
                WEIGHTS[MATERIAL + role]
            } else {
                s(0, 0)
            };
            table[role][sq] = s(m.mg + p.mg, m.eg + p.eg);
            sq += 1;
        }
        role += 1;
    }
    table
}

/// Material plus placement for White pieces, by `Role::index()` and square.
static WHITE: [[S; 64]; 6] = build();

/// Material plus placement of a piece of `color` and `role` on `sq`, from its owner's view.
#[inline]
pub fn value(color: Color, role: Role, sq: Square) -> S {
    let sq = match color {
        Color::White => sq,
        Color::Black => sq.flip_vertical(),
    };
    WHITE[role.index()][sq.index()]
}

/// [`value`], with its weights told to `trace`.
#[inline(always)]
pub fn term<T: Trace>(trace: &mut T, color: Color, role: Role, sq: Square) -> S {
    let relative = match color {
        Color::White => sq,
        Color::Black => sq.flip_vertical(),
    };
    if role != Role::King {
        trace.add(color, MATERIAL + role.index(), 1);
    }
    trace.add(color, psqt_index(role.index(), relative.index()), 1);
    value(color, role, sq)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_colour_symmetric_and_prefer_the_centre() {
        for sq in Square::ALL {
            for role in Role::ALL {
                assert_eq!(
                    value(Color::White, role, sq),
                    value(Color::Black, role, sq.flip_vertical())
                );
            }
        }
        let n = |sq| value(Color::White, Role::Knight, sq);
        assert!(n(Square::E4).mg > n(Square::A1).mg);
        let k = |sq| value(Color::White, Role::King, sq);
        assert!(k(Square::G1).mg > k(Square::E4).mg);
        assert!(k(Square::E4).eg > k(Square::G1).eg);
    }
}
