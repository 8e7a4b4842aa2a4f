//! Endgame knowledge the evaluation needs where search alone is slow: driving a bare king to the
//! edge (to the right corner in KBNK), and recognising material that cannot win.

use crate::tapered::{S, s};
use tabla::{Bitboard, Color, Position, Role, Square};

/// Distance of `sq` from the board's centre, 0 (d4, e4, d5, e5) to 6 (a corner).
#[inline]
fn centre_distance(sq: Square) -> i32 {
    let f = sq.file().index() as i32;
    let r = sq.rank().index() as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df + dr
}

/// Steps from `sq` to the nearer corner a king can be mated in by bishop and knight: the corners
/// of the bishop's square colour.
#[inline]
fn mating_corner_distance(sq: Square, light_bishop: bool) -> i32 {
    let corners = if light_bishop {
        [Square::H1, Square::A8]
    } else {
        [Square::A1, Square::H8]
    };
    corners
        .iter()
        .map(|&c| sq.distance(c) as i32)
        .min()
        .unwrap_or(0)
}

/// The extra endgame value for `strong` when the other side has a bare king: push that king to
/// the edge (a mating corner with bishop and knight) and bring the own king close.
pub fn bare_king_bonus(pos: &Position, strong: Color) -> S {
    let weak = !strong;
    let weak_king = pos.king(weak);
    let kings = pos.king(strong).distance(weak_king) as i32;
    let ours = pos.by_color(strong);
    let bishops = pos.pieces(strong, Role::Bishop);
    let only_bn = (ours & !pos.by_role(Role::King)).count() == 2
        && bishops.count() == 1
        && pos.pieces(strong, Role::Knight).count() == 1;
    let mut bonus = 14 * centre_distance(weak_king) + 12 * (7 - kings);
    if only_bn {
        let light = (bishops & Bitboard::LIGHT).any();
        bonus += 40 * (7 - mating_corner_distance(weak_king, light));
        // The knight is of use only near the action.
        if let Some(n) = pos.pieces(strong, Role::Knight).first() {
            bonus -= 3 * n.distance(weak_king) as i32;
        }
    }
    s(0, bonus + 300)
}

/// Sum of the conventional values of `color`'s knights, bishops, rooks and queens.
#[inline]
fn piece_material(pos: &Position, color: Color) -> u32 {
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .iter()
        .map(|&r| pos.pieces(color, r).count() * r.value())
        .sum()
}

/// How much of the endgame score `strong` keeps, out of 64, when its material can hardly win.
pub fn scale(pos: &Position, strong: Color) -> i32 {
    let weak = !strong;
    let strong_pawns = pos.pieces(strong, Role::Pawn).count();
    let strong_pieces = piece_material(pos, strong);
    let weak_pieces = piece_material(pos, weak);
    if strong_pawns == 0 {
        // A lone minor piece never mates; two knights only with help.
        if strong_pieces <= 3 {
            return 0;
        }
        let knights_only = pos.pieces(strong, Role::Knight).count() == 2
            && strong_pieces == 6
            && pos.pieces(weak, Role::Pawn).is_empty();
        if knights_only {
            return 2;
        }
        // Rook against a minor, rook and minor against rook, and the like.
        if strong_pieces <= weak_pieces + 3 {
            return 10;
        }
    }
    // Bishops on squares of opposite colours, nothing else but pawns: often a draw.
    let bishops = pos.by_role(Role::Bishop);
    let others = pos.by_role(Role::Knight) | pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    if others.is_empty()
        && pos.pieces(strong, Role::Bishop).count() == 1
        && pos.pieces(weak, Role::Bishop).count() == 1
        && (bishops & Bitboard::LIGHT).count() == 1
    {
        let diff = strong_pawns.abs_diff(pos.pieces(weak, Role::Pawn).count());
        return if diff <= 1 { 22 } else { 40 };
    }
    64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_of_the_bishop_colour() {
        // h1 is light: a light bishop mates on h1 or a8.
        assert_eq!(mating_corner_distance(Square::H1, true), 0);
        assert_eq!(mating_corner_distance(Square::A1, true), 7);
        assert_eq!(mating_corner_distance(Square::A1, false), 0);
        assert_eq!(centre_distance(Square::E4), 0);
        assert_eq!(centre_distance(Square::A8), 6);
    }

    #[test]
    fn bare_king_bonus_prefers_the_right_corner() {
        // A light-squared bishop on f1: the Black king belongs in a8 (light), not a1 (dark).
        let wrong = Position::from_fen("8/8/8/8/8/3NK3/8/k4B2 w - - 0 1").expect("test data");
        let right = Position::from_fen("k7/8/8/8/8/3NK3/8/5B2 w - - 0 1").expect("test data");
        assert!(Square::F1.is_light());
        assert!(
            bare_king_bonus(&right, Color::White).eg > bare_king_bonus(&wrong, Color::White).eg
        );
    }

    #[test]
    fn drawish_material_is_scaled_down() {
        let kbk = Position::from_fen("8/8/8/4k3/8/8/8/2B1K3 w - - 0 1").expect("test data");
        assert_eq!(scale(&kbk, Color::White), 0);
        let krkb = Position::from_fen("8/8/4b3/4k3/8/8/8/R3K3 w - - 0 1").expect("test data");
        assert!(scale(&krkb, Color::White) < 16);
        let krk = Position::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1").expect("test data");
        assert_eq!(scale(&krk, Color::White), 64);
        let kqkr = Position::from_fen("8/8/4r3/4k3/8/8/8/1Q2K3 w - - 0 1").expect("test data");
        assert_eq!(scale(&kqkr, Color::White), 64);
    }
}
