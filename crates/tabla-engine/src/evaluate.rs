//! The static evaluation: tapered material and piece-square tables, mobility, pawn structure,
//! passed pawns, threats, king safety and endgame knowledge.

use crate::endgame;
use crate::king_safety::{self, KingAttack, RoleAttacks};
use crate::pawns::{
    PawnInfo, PawnTable, attack_span, evaluate_pawns, file_of, forward, pawn_attack_set,
    relative_rank,
};
use crate::pst;
use crate::score::Value;
use crate::tapered::{PHASE_MAX, S, s};
use crate::weights::*;
use tabla::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use tabla::{Bitboard, Color, Position, Role, Square};

/// Evaluates positions, keeping a cache of pawn structures between calls.
#[derive(Default)]
pub struct Evaluator {
    pawns: PawnTable,
}

impl Evaluator {
    /// A fresh evaluator.
    pub fn new() -> Evaluator {
        Evaluator::default()
    }

    /// The position's value in centipawns for the side to move.
    pub fn evaluate(&mut self, pos: &Position) -> Value {
        let info = self.pawns.get(
            pos.pieces(Color::White, Role::Pawn),
            pos.pieces(Color::Black, Role::Pawn),
        );
        evaluate_with(pos, &info)
    }
}

/// The position's value in centipawns for the side to move, without a pawn cache.
///
/// ```
/// use tabla::Position;
/// use tabla_engine::evaluate::evaluate;
/// // A queen up is a lot, whoever is to move.
/// let white_up = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
/// let black_to_move = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
/// assert!(evaluate(&white_up) > 800);
/// assert!(evaluate(&black_to_move) < -800);
/// ```
pub fn evaluate(pos: &Position) -> Value {
    let info = evaluate_pawns(
        pos.pieces(Color::White, Role::Pawn),
        pos.pieces(Color::Black, Role::Pawn),
    );
    evaluate_with(pos, &info)
}

/// The game phase: [`PHASE_MAX`] with all pieces on, 0 with none.
#[inline]
pub fn phase(pos: &Position) -> i32 {
    let minors = (pos.by_role(Role::Knight) | pos.by_role(Role::Bishop)).count() as i32;
    let rooks = pos.by_role(Role::Rook).count() as i32;
    let queens = pos.by_role(Role::Queen).count() as i32;
    (minors + 2 * rooks + 4 * queens).min(PHASE_MAX)
}

/// What one side's pieces attack, gathered while scoring their mobility.
#[derive(Default)]
struct SideAttacks {
    pawns: Bitboard,
    all: Bitboard,
    roles: RoleAttacks,
    minors: Bitboard,
    king_attack: KingAttack,
}

/// Material, placement, mobility and piece terms of `color`; fills `attacks` and counts the
/// attack on the enemy king.
fn pieces(
    pos: &Position,
    color: Color,
    attacks: &mut SideAttacks,
    their_pawn_attacks: Bitboard,
) -> S {
    let occupied = pos.occupied();
    let ours = pos.by_color(color);
    let own_pawns = pos.pieces(color, Role::Pawn);
    let their_pawns = pos.pieces(!color, Role::Pawn);
    let their_zone = king_safety::zone(pos.king(!color));
    let area = !ours & !their_pawn_attacks;
    let mut score = s(0, 0);

    for sq in own_pawns {
        score += pst::value(color, Role::Pawn, sq);
    }
    score += pst::value(color, Role::King, pos.king(color));

    for (i, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .enumerate()
    {
        let (per_square, typical) = MOBILITY[i];
        for sq in pos.pieces(color, role) {
            score += pst::value(color, role, sq);
            let reach = match role {
                Role::Knight => knight_attacks(sq),
                // Sliders see through their own queen (and rooks through rooks) for mobility.
                Role::Bishop => bishop_attacks(sq, occupied ^ pos.pieces(color, Role::Queen)),
                Role::Rook => rook_attacks(
                    sq,
                    occupied ^ pos.pieces(color, Role::Queen) ^ pos.pieces(color, Role::Rook),
                ),
                _ => bishop_attacks(sq, occupied) | rook_attacks(sq, occupied),
            };
            attacks.roles[i] |= reach;
            attacks.all |= reach;
            let moves = (reach & area).count() as i32;
            score += per_square * (moves - typical);
            if (reach & their_zone).any() {
                attacks.king_attack.attackers += 1;
                attacks.king_attack.weight += KING_ATTACKER_WEIGHT[i];
            }
            match role {
                Role::Knight | Role::Bishop => {
                    attacks.minors |= reach;
                    if moves == 0 {
                        score += TRAPPED_MINOR;
                    }
                    let rank = relative_rank(color, sq);
                    if role == Role::Knight
                        && (4..=6).contains(&rank)
                        && (pawn_attacks(!color, sq) & own_pawns).any()
                        && (attack_span(color, sq) & their_pawns).is_empty()
                    {
                        score += KNIGHT_OUTPOST;
                    }
                }
                Role::Rook => {
                    let file = file_of(sq);
                    if (file & own_pawns).is_empty() {
                        score += if (file & their_pawns).is_empty() {
                            ROOK_OPEN_FILE
                        } else {
                            ROOK_SEMI_OPEN_FILE
                        };
                    }
                }
                _ => {}
            }
        }
    }
    if pos.pieces(color, Role::Bishop).more_than_one() {
        score += BISHOP_PAIR;
    }
    score
}

/// Passed pawns beyond their static value: king distances, a blocked path, an unstoppable run.
fn passed_pawns(pos: &Position, color: Color, passed: Bitboard) -> S {
    let mut score = s(0, 0);
    let our_king = pos.king(color);
    let their_king = pos.king(!color);
    let occupied = pos.occupied();
    let them_pieceless =
        (pos.by_color(!color) & !pos.by_role(Role::Pawn) & !pos.by_role(Role::King)).is_empty();
    for sq in passed {
        let rank = relative_rank(color, sq);
        let dir = if color == Color::White { 1 } else { -1 };
        let Some(stop) = sq.offset(0, dir) else {
            continue;
        };
        let weight = rank as i32 - 2;
        if weight > 0 {
            let (theirs, ours) = PASSED_KING_DISTANCE;
            let d_them = their_king.distance(stop).min(5) as i32;
            let d_us = our_king.distance(stop).min(5) as i32;
            score += s(0, weight * (theirs * d_them - ours * d_us));
        }
        if occupied.contains(stop) {
            let lost = PASSED_BLOCKED_PERCENT;
            score -= s(PASSED[rank].mg * lost / 100, PASSED[rank].eg * lost / 100);
        }
        if them_pieceless && (forward(color, sq) & occupied).is_empty() {
            let promotion = Square::from_coords(
                sq.file(),
                if color == Color::White {
                    tabla::Rank::Eighth
                } else {
                    tabla::Rank::First
                },
            );
            let pawn_moves = (7 - rank as i32).min(5);
            let tempo = i32::from(pos.turn() != color);
            if their_king.distance(promotion) as i32 - tempo > pawn_moves {
                score += s(0, UNSTOPPABLE);
            }
        }
    }
    score
}

/// Threats: pawns and minor pieces attacking bigger pieces, and enemy pieces left undefended.
fn threats(pos: &Position, color: Color, ours: &SideAttacks, theirs: &SideAttacks) -> S {
    let enemy = pos.by_color(!color);
    let enemy_pieces = enemy & !pos.by_role(Role::Pawn) & !pos.by_role(Role::King);
    let majors = enemy & (pos.by_role(Role::Rook) | pos.by_role(Role::Queen));
    let mut score = PAWN_THREAT * (ours.pawns & enemy_pieces).count() as i32;
    score += MINOR_THREAT_ON_MAJOR * (ours.minors & majors).count() as i32;
    let their_defence = theirs.all | theirs.pawns | king_attacks(pos.king(!color));
    let hanging = enemy & !pos.by_role(Role::King) & ours.all & !their_defence;
    score += HANGING * hanging.count() as i32;
    score
}

fn evaluate_with(pos: &Position, info: &PawnInfo) -> Value {
    if pos.is_insufficient_material() {
        return 0;
    }
    let white_pawns = pos.pieces(Color::White, Role::Pawn);
    let black_pawns = pos.pieces(Color::Black, Role::Pawn);
    let mut white = SideAttacks {
        pawns: pawn_attack_set(Color::White, white_pawns),
        ..SideAttacks::default()
    };
    let mut black = SideAttacks {
        pawns: pawn_attack_set(Color::Black, black_pawns),
        ..SideAttacks::default()
    };
    let mut score = info.score;
    score += pieces(pos, Color::White, &mut white, black.pawns);
    score -= pieces(pos, Color::Black, &mut black, white.pawns);
    score += passed_pawns(pos, Color::White, info.passed[0]);
    score -= passed_pawns(pos, Color::Black, info.passed[1]);
    score += threats(pos, Color::White, &white, &black);
    score -= threats(pos, Color::Black, &black, &white);

    let white_defends = white.all | white.pawns;
    let black_defends = black.all | black.pawns;
    score += king_safety::shield(pos, Color::White);
    score -= king_safety::shield(pos, Color::Black);
    score += king_safety::danger(
        pos,
        Color::White,
        black.king_attack,
        white_defends,
        black.all | black.pawns,
        &black.roles,
    );
    score -= king_safety::danger(
        pos,
        Color::Black,
        white.king_attack,
        black_defends,
        white.all | white.pawns,
        &white.roles,
    );

    for color in Color::ALL {
        let lone = (pos.by_color(!color) & !pos.by_role(Role::King)).is_empty();
        if lone && (pos.by_color(color) & !pos.by_role(Role::King) & !pos.by_role(Role::Pawn)).any()
        {
            let bonus = endgame::bare_king_bonus(pos, color);
            score += if color == Color::White { bonus } else { -bonus };
        }
    }

    let strong = if score.eg >= 0 {
        Color::White
    } else {
        Color::Black
    };
    let scale = endgame::scale(pos, strong);
    let tempo = if pos.turn() == Color::White {
        TEMPO
    } else {
        -TEMPO
    };
    let v = (score + tempo).blend(phase(pos), scale);
    if pos.turn() == Color::White { v } else { -v }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> Value {
        evaluate(&Position::from_fen(fen).expect("test data"))
    }

    #[test]
    fn mirrored_positions_evaluate_alike() {
        // Each position and its colour mirror (ranks flipped, colours swapped, other side to
        // move) must get the same value for the side to move.
        let pairs = [
            (
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3",
            ),
            (
                "6k1/p2q1b2/2n2Qp1/1p2p3/4P3/2P1B3/5R1K/8 w - - 1 40",
                "8/5r1k/2p1b3/4p3/1P2P3/2N2qP1/P2Q1B2/6K1 b - - 1 40",
            ),
        ];
        for (a, b) in pairs {
            assert_eq!(eval(a), eval(b), "{a} vs {b}");
        }
    }

    #[test]
    fn start_position_is_about_level() {
        let v = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!((0..40).contains(&v), "{v}");
    }

    #[test]
    fn insufficient_material_is_a_draw() {
        assert_eq!(eval("8/8/4k3/8/8/2N5/8/4K3 w - - 0 1"), 0);
        assert_eq!(eval("8/8/4k3/8/8/8/8/4K3 b - - 0 1"), 0);
    }

    #[test]
    fn cached_and_uncached_evaluations_agree() {
        let mut e = Evaluator::new();
        for fen in [
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
            "8/5pk1/6p1/3P4/8/6P1/5PK1/8 b - - 0 40",
        ] {
            let pos = Position::from_fen(fen).expect("test data");
            assert_eq!(e.evaluate(&pos), evaluate(&pos));
            assert_eq!(e.evaluate(&pos), evaluate(&pos));
        }
    }
}
