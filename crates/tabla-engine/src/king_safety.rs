//! King safety: the pawn shield in front of the king and the weight of the enemy attack on it.

use crate::params::{KING_DANGER_COUNT, KING_HALF_OPEN_FILE, KING_OPEN_FILE, SHIELD, Trace};
use crate::pawns::{file_of, forward};
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
    let ours = pos.pieces(color, Role::Pawn);
    let all_pawns = pos.by_role(Role::Pawn);
    let mut score = s(0, 0);
    for df in -1..=1 {
        let Some(sq) = king.offset(df, 0) else {
            continue;
        };
        let ahead = forward(color, sq);
        let dir: i8 = if color == Color::White { 1 } else { -1 };
        let one = sq
            .offset(0, dir)
            .map(Bitboard::from_square)
            .unwrap_or_default();
        let two = sq
            .offset(0, 2 * dir)
            .map(Bitboard::from_square)
            .unwrap_or_default();
        let kind = if (ours & one).any() {
            0
        } else if (ours & two).any() {
            1
        } else {
            2
        };
        score += term(t, color, SHIELD + kind, 1);
        if (file_of(sq) & all_pawns).is_empty() {
            score += term(t, color, KING_OPEN_FILE, 1);
        } else if (ahead & ours).is_empty() {
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
