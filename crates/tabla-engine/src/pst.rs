//! Piece-square tables, material included, built at compile time from a few rules of thumb
//! (knights and queens like the centre, pawns like to advance, the king hides in the middlegame
//! and walks to the centre in the endgame) rather than typed in square by square.

use crate::tapered::{S, s};
use crate::weights::MATERIAL;
use tabla::{Color, Role, Square};

/// How central a file or rank is: 0 on the edge, 3 in the middle.
const fn centrality(i: i32) -> i32 {
    if i < 4 { i } else { 7 - i }
}

/// The positional part for a White piece of `role` (by index) on file `f`, rank `r`.
const fn placement(role: usize, f: i32, r: i32) -> S {
    let fc = centrality(f);
    let rc = centrality(r);
    let centre = fc + rc;
    match role {
        // Pawn: advance, centre pawns more so; a centre pawn left at home blocks the bishops.
        0 => {
            let mut mg = (r - 1) * 4;
            if fc == 3 && (r == 3 || r == 4) {
                mg += 16;
            } else if fc == 2 && (r == 3 || r == 4) {
                mg += 6;
            }
            if fc == 3 && r == 1 {
                mg -= 8;
            }
            s(mg, (r - 1) * 7)
        }
        // Knight: the centre above all; the far edge and the home rank are poor.
        1 => {
            let mut mg = centre * 8 - 22;
            if r >= 4 && r <= 5 && fc >= 2 {
                mg += 6;
            }
            s(mg, centre * 6 - 18)
        }
        // Bishop: mild centre, the long diagonals, and out of the home rank.
        2 => {
            let mut mg = centre * 3 - 6;
            if f == r || f == 7 - r {
                mg += 8;
            }
            if r == 0 {
                mg -= 10;
            }
            s(mg, centre * 3 - 9)
        }
        // Rook: the seventh rank and the centre files.
        3 => {
            let mut mg = if fc == 3 {
                6
            } else if fc == 2 {
                3
            } else {
                0
            };
            let mut eg = 0;
            if r == 6 {
                mg += 16;
                eg += 10;
            }
            s(mg, eg)
        }
        // Queen: mild centre, stronger in the endgame.
        4 => s(centre * 2 - 6, centre * 5 - 15),
        // King: corners behind the pawns in the middlegame, the centre in the endgame.
        _ => {
            let home = match f {
                0 | 7 => 14,
                1 | 6 => 26,
                2 => 10,
                3 | 5 => -6,
                _ => 0,
            };
            let mg = match r {
                0 => home,
                1 => home / 2 - 12,
                _ => -34 - 12 * (r - 2),
            };
            s(mg, centre * 9 - 27)
        }
    }
}

const fn build() -> [[S; 64]; 6] {
    let mut table = [[s(0, 0); 64]; 6];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            let p = placement(role, (sq % 8) as i32, (sq / 8) as i32);
            let m = MATERIAL[role];
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
