//! King safety: the pawn shield in front of the king and the weight of the enemy attack on it.

use crate::params::{KING_DANGER_COUNT, KING_HALF_OPEN_FILE, KING_OPEN_FILE, SHIELD, Trace};
use crate::pawns::FILE_A;
use crate::tapered::{S, s};
use crate::tuned::KING_DANGER;
use crate::weights::{KING_ATTACK_SCALE, term};
use tabla::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use tabla::{Bitboard, Color, Position, Role, Square};

/// What the evaluation gathered about one side's attack on the other side's king.
#[derive(Copy, Clone, Debug, Default)]
pub struct KingAttack {
    /// Pieces attacking the king zone.
    pub attackers: usize,
    /// Sum of their weights.
    pub weight: i32,
    /// Their number by role (knight, bishop, rook, queen).
    pub by_role: [i32; 4],
}

/// Squares by role (knight, bishop, rook, queen) that a side's pieces attack.
pub type RoleAttacks = [Bitboard; 4];

/// The zone whose attack counts against the king on `sq`: the king's square and its neighbours.
#[inline]
pub fn zone(sq: Square) -> Bitboard {
    king_attacks(sq) | Bitboard::from_square(sq)
}

/// The pawn shield of `color`'s king: own pawns one or two ranks ahead on the king's file and its
/// neighbours, and files around the king with no pawns at all.
pub fn shield<T: Trace>(pos: &Position, color: Color, t: &mut T) -> S {
    let king = pos.king(color);
    let ours = pos.pieces(color, Role::Pawn).0;
    let all_pawns = pos.by_role(Role::Pawn).0;
    let file = king.file().index() as i32;
    let rank = king.rank().index() as i32;
    let dir = if color == Color::White { 1 } else { -1 };
    // Masks of the ranks one and two ahead of the king (empty off the board) and of all ranks
    // ahead of it.
    let rank_mask = |r: i32| {
        if (0..8).contains(&r) {
            0xffu64 << (8 * r)
        } else {
            0
        }
    };
    let one = rank_mask(rank + dir);
    let two = rank_mask(rank + 2 * dir);
    let ahead = if color == Color::White {
        (!0u64).checked_shl(8 * (rank as u32 + 1)).unwrap_or(0)
    } else {
        (1u64 << (8 * rank)) - 1
    };
    let mut score = s(0, 0);
    for f in (file - 1).max(0)..=(file + 1).min(7) {
        let on_file = FILE_A << f;
        let kind = if ours & one & on_file != 0 {
            0
        } else if ours & two & on_file != 0 {
            1
        } else {
            2
        };
        score += term(t, color, SHIELD + kind, 1);
        if on_file & all_pawns == 0 {
            score += term(t, color, KING_OPEN_FILE, 1);
        } else if on_file & ahead & ours == 0 {
            score += term(t, color, KING_HALF_OPEN_FILE, 1);
        }
    }
    score
}

/// The penalty for `color`'s king under `attack`, given what `color` defends (`defended`, the
/// king's own squares excluded) and what the enemy's pieces attack (`enemy_all`, and `enemy_roles`
/// by role).
pub fn danger<T: Trace>(
    pos: &Position,
    color: Color,
    attack: KingAttack,
    defended: Bitboard,
    enemy_all: Bitboard,
    enemy_roles: &RoleAttacks,
    t: &mut T,
) -> S {
    if attack.attackers == 0 {
        return s(0, 0);
    }
    let king = pos.king(color);
    let occupied = pos.occupied();
    let enemy = pos.by_color(!color);
    let weak_zone = king_attacks(king) & enemy_all & !defended;
    let safe = !defended & !enemy;
    let knight_checks = knight_attacks(king) & enemy_roles[0] & safe;
    let diagonal = bishop_attacks(king, occupied);
    let straight = rook_attacks(king, occupied);
    let bishop_checks = diagonal & enemy_roles[1] & safe;
    let rook_checks = straight & enemy_roles[2] & safe;
    let queen_checks = (diagonal | straight) & enemy_roles[3] & safe;
    let checks = (knight_checks | bishop_checks | rook_checks | queen_checks).count() as i32;
    let scale = KING_ATTACK_SCALE[attack.attackers.min(7)];
    let weak = weak_zone.count() as i32;
    let mut units = attack.weight * scale / 100 + KING_DANGER[4] * weak + KING_DANGER[5] * checks;
    let queenless = pos.pieces(!color, Role::Queen).is_empty();
    if queenless {
        units /= 2;
    }
    let q = if queenless { 0.5 } else { 1.0 };
    let mut uses = [0.0; KING_DANGER_COUNT];
    for (u, &n) in uses.iter_mut().zip(&attack.by_role) {
        *u = f64::from(n) * f64::from(scale) / 100.0 * q;
    }
    uses[4] = f64::from(weak) * q;
    uses[5] = f64::from(checks) * q;
    t.king_danger(color, uses);
    // Grows faster than linearly: several attackers together are worse than their sum.
    let mg = units + units * units / 400;
    s(-mg, -units / 6)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shield counted square by square, as its documentation says.
    fn shield_by_squares(pos: &Position, color: Color) -> S {
        let king = pos.king(color);
        let ours = pos.pieces(color, Role::Pawn);
        let dir: i8 = if color == Color::White { 1 } else { -1 };
        let mut score = s(0, 0);
        for df in -1..=1 {
            let Some(sq) = king.offset(df, 0) else {
                continue;
            };
            let at = |dr: i8| sq.offset(0, dr).is_some_and(|a| ours.contains(a));
            let kind = if at(dir) {
                0
            } else if at(2 * dir) {
                1
            } else {
                2
            };
            score += term(&mut (), color, SHIELD + kind, 1);
            let file = Square::ALL.into_iter().filter(|a| a.file() == sq.file());
            let pawns_on_file: Vec<Square> = file
                .filter(|&a| pos.piece_at(a).is_some_and(|p| p.role == Role::Pawn))
                .collect();
            let ours_ahead = pawns_on_file.iter().any(|&a| {
                ours.contains(a) && (a.rank().index() as i8 - sq.rank().index() as i8) * dir > 0
            });
            if pawns_on_file.is_empty() {
                score += term(&mut (), color, KING_OPEN_FILE, 1);
            } else if !ours_ahead {
                score += term(&mut (), color, KING_HALF_OPEN_FILE, 1);
            }
        }
        score
    }

    #[test]
    fn the_shield_counts_what_its_squares_hold() {
        let fens = [
            "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1",
            "k7/p1p5/1p6/8/8/6P1/5P1P/7K b - - 0 1",
            "8/8/3k4/2p1p3/8/1P6/P1K5/8 w - - 0 1",
            "7k/8/8/8/8/8/8/K7 w - - 0 1",
            "K7/PP6/8/8/8/8/6pp/7k w - - 0 1",
            "4k3/4p3/8/3P4/8/8/4P3/4K3 b - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).expect("test data");
            for color in Color::ALL {
                assert_eq!(
                    shield(&pos, color, &mut ()),
                    shield_by_squares(&pos, color),
                    "{fen} {color:?}"
                );
            }
        }
    }

    #[test]
    fn a_pawn_shield_is_better_than_none() {
        let shielded =
            Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1").expect("test data");
        let bare = Position::from_fen("6k1/5ppp/8/8/8/8/8/6K1 w - - 0 1").expect("test data");
        assert!(
            shield(&shielded, Color::White, &mut ()).mg > shield(&bare, Color::White, &mut ()).mg
        );
        assert_eq!(
            shield(&shielded, Color::Black, &mut ()),
            shield(&shielded, Color::White, &mut ())
        );
    }
}
