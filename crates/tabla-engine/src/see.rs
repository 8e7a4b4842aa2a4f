//! Static exchange evaluation: the material outcome of the captures on one square, each side
//! taking with its least valuable piece and free to stop when going on would lose.

use tabla::attacks::{bishop_attacks, rook_attacks};
use tabla::{Bitboard, Move, Position, Role};

/// Exchange values by `Role::index()`; the king's is high so that it never "wins" a guarded piece.
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

#[inline]
fn value(role: Role) -> i32 {
    SEE_VALUE[role.index()]
}

/// The material balance, for the side making `mv`, of the best sequence of captures on its target
/// square (pins are ignored). `mv` must be legal.
///
/// ```
/// use tabla::Position;
/// use tabla_engine::tuning::see;
/// // Rxe5 wins a pawn: nothing takes back.
/// let pos = Position::from_fen("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1").unwrap();
/// assert_eq!(see(&pos, pos.parse_san("Rxe5").unwrap()), 100);
/// ```
pub fn see(pos: &Position, mv: Move) -> i32 {
    if mv.castling_side().is_some() {
        return 0;
    }
    let from = mv.from();
    let to = mv.to();
    let us = pos.turn();
    let mut occupied = pos.occupied() ^ Bitboard::from_square(from);
    let mut gains = [0i32; 40];
    gains[0] = mv.capture().map_or(0, value);
    let mut on_square = value(mv.role());
    if let Some(promotion) = mv.promotion() {
        gains[0] += value(promotion) - value(Role::Pawn);
        on_square = value(promotion);
    }
    if mv.is_en_passant() {
        let captured = tabla::Square::from_coords(to.file(), from.rank());
        occupied ^= Bitboard::from_square(captured);
    }
    let diagonal = pos.by_role(Role::Bishop) | pos.by_role(Role::Queen);
    let straight = pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    let mut attackers = pos.attackers_with(to, occupied) & occupied;
    let mut side = !us;
    let mut depth = 0;
    loop {
        let mine = attackers & pos.by_color(side);
        if mine.is_empty() {
            break;
        }
        let Some((role, sq)) = Role::ALL
            .into_iter()
            .find_map(|r| (mine & pos.by_role(r)).first().map(|sq| (r, sq)))
        else {
            break;
        };
        // The king may take only when nothing would take it back.
        if role == Role::King && (attackers & pos.by_color(!side)).any() {
            break;
        }
        depth += 1;
        gains[depth] = on_square - gains[depth - 1];
        // Whether or not this capture is made, the side before is already decided: leave the
        // speculative entry out of the back-up.
        if (-gains[depth - 1]).max(gains[depth]) < 0 {
            depth -= 1;
            break;
        }
        if depth + 1 >= gains.len() {
            break;
        }
        occupied ^= Bitboard::from_square(sq);
        on_square = value(role);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= rook_attacks(to, occupied) & straight;
        }
        attackers &= occupied;
        side = !side;
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_san(fen: &str, san: &str) -> i32 {
        let pos = Position::from_fen(fen).expect("test data");
        see(&pos, pos.parse_san(san).expect("test data"))
    }

    #[test]
    fn exchanges_by_hand() {
        // The chessprogramming wiki's two examples: Rxe5 wins a pawn; Nxe5 starts a long
        // exchange on e5 that costs White 220 with these values (worked out by hand).
        assert_eq!(
            see_san("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "Rxe5"),
            100
        );
        let fen = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
        assert_eq!(see_san(fen, "Nxe5"), -220);
        // Equal trade.
        assert_eq!(see_san("4k3/8/8/3n4/8/4N3/8/4K3 w - - 0 1", "Nxd5"), 320);
        assert_eq!(see_san("4k3/4p3/3n4/8/4N3/8/8/4K3 w - - 0 1", "Nxd6"), 0);
        // Queen takes a pawn guarded by a pawn.
        assert_eq!(
            see_san("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "Qxd5"),
            100 - 950
        );
        // A quiet move to an attacked square loses the piece.
        assert_eq!(see_san("4k3/8/8/3p4/8/8/8/2B1K3 w - - 0 1", "Be3"), 0);
        assert_eq!(see_san("4k3/8/2p5/8/8/8/8/4KB2 w - - 0 1", "Bb5"), -330);
        // X-ray: the d1 rook backs up the d2 rook, so Rxd5 wins a pawn; with one black rook
        // more on d7, it loses the exchange for a pawn.
        assert_eq!(see_san("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "Rxd5"), 100);
        assert_eq!(
            see_san("3rk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "Rxd5"),
            100 - 500
        );
    }

    #[test]
    fn the_king_never_takes_a_guarded_piece() {
        // Rxd2 Rxd2 and the king takes back only when the g5 bishop does not guard d2.
        assert_eq!(see_san("3rk3/8/8/8/8/8/R2n4/4K3 w - - 0 1", "Rxd2"), 320);
        assert_eq!(
            see_san("3rk3/8/8/6b1/8/8/R2n4/4K3 w - - 0 1", "Rxd2"),
            320 - 500
        );
    }
}
