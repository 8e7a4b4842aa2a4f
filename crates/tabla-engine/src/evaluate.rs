//! The static evaluation: the hand-written one (tapered material and piece-square tables,
//! mobility, pawn structure, passed pawns, threats, king safety and endgame knowledge) with the
//! evaluation network's correction ([`crate::nnue`]), put together by [`Evaluator::evaluate`], the
//! one call the search makes for a position's static value.

use crate::endgame;
use crate::king_safety::{self, KingAttack, RoleAttacks};
use crate::nnue::{Accumulator, Network, Pieces};
use crate::params::{self, Coefficients, Trace};
use crate::pawns::{
    PawnInfo, PawnTable, attack_span, evaluate_pawns, file_of, forward, pawn_attack_set,
    relative_rank, trace_pawns,
};
use crate::pst;
use crate::score::{MATE_BOUND, MAX_PLY, Value};
use crate::tapered::{PHASE_MAX, S, s};
use crate::tuned::KING_DANGER;
use crate::weights::{UNSTOPPABLE, term};
use tabla::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use tabla::{Bitboard, Color, Position, Role, Square};

/// Evaluates the positions of one search thread. Keeps a cache of pawn structures from one call
/// (and one search) to the next, and the evaluation network's first layer for each position on
/// the search path, the current position's last: the search tells it of every move made
/// ([`Evaluator::push_move`], [`Evaluator::push_null`]) and taken back ([`Evaluator::pop`]).
pub struct Evaluator {
    pawns: PawnTable,
    net: &'static Network,
    accumulators: Vec<Accumulator>,
}

impl Default for Evaluator {
    fn default() -> Evaluator {
        Evaluator::new()
    }
}

impl Evaluator {
    /// A fresh evaluator with the network built into the engine.
    pub fn new() -> Evaluator {
        Evaluator {
            pawns: PawnTable::default(),
            net: Network::embedded(),
            accumulators: Vec::with_capacity(MAX_PLY + 2),
        }
    }

    /// Starts a search path at `root`.
    pub fn start(&mut self, root: &Position) {
        self.accumulators.clear();
        self.accumulators.push(self.net.refresh(root));
    }

    /// Follows a move to `pos` from the current position, whose pieces were `before`.
    #[inline]
    pub fn push_move(&mut self, before: &Pieces, pos: &Position) {
        let acc = match self.accumulators.last() {
            Some(&acc) => {
                let mut acc = acc;
                acc.update(self.net, before, pos);
                acc
            }
            None => self.net.refresh(pos),
        };
        self.accumulators.push(acc);
    }

    /// Follows a null move to `pos` (the same pieces, the other side to move).
    #[inline]
    pub fn push_null(&mut self, pos: &Position) {
        let acc = match self.accumulators.last() {
            Some(&acc) => acc,
            None => self.net.refresh(pos),
        };
        self.accumulators.push(acc);
    }

    /// Takes back the last move followed.
    #[inline]
    pub fn pop(&mut self) {
        self.accumulators.pop();
    }

    /// The static evaluation of `pos`, the current position of the search path, in centipawns for
    /// the side to move: the hand-written evaluation with the network's correction, except where
    /// the hand-written one alone knows better (a draw by insufficient material, a bare king to
    /// be mated).
    pub fn evaluate(&mut self, pos: &Position) -> Value {
        let kings = pos.by_role(Role::King);
        let bare = (pos.by_color(Color::White) & !kings).is_empty()
            || (pos.by_color(Color::Black) & !kings).is_empty();
        if bare || pos.is_insufficient_material() {
            return self.hand_written(pos);
        }
        let classical = self.hand_written(pos);
        let v = match self.accumulators.last() {
            Some(acc) => self.net.output(acc, pos.turn(), classical),
            None => self
                .net
                .output(&self.net.refresh(pos), pos.turn(), classical),
        };
        v.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The hand-written evaluation of `pos` in centipawns for the side to move, as
    /// [`hand_written`] gives it, with the pawn cache.
    pub fn hand_written(&mut self, pos: &Position) -> Value {
        let info = self.pawns.get(
            pos.pieces(Color::White, Role::Pawn),
            pos.pieces(Color::Black, Role::Pawn),
        );
        evaluate_with(pos, &info, &mut ())
    }
}

/// The hand-written evaluation of `pos` in centipawns for the side to move (without the network's
/// correction or a pawn cache).
///
/// ```
/// use tabla::Position;
/// use tabla_engine::tuning::hand_written;
/// // A queen up is a lot, whoever is to move.
/// let white_up = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
/// let black_to_move = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
/// assert!(hand_written(&white_up) > 800);
/// assert!(hand_written(&black_to_move) < -800);
/// ```
pub fn hand_written(pos: &Position) -> Value {
    let info = evaluate_pawns(
        pos.pieces(Color::White, Role::Pawn),
        pos.pieces(Color::Black, Role::Pawn),
    );
    evaluate_with(pos, &info, &mut ())
}

/// One evaluation taken apart for tuning: the game phase and endgame scale it blended with, its
/// unblended total, and how often each tuned weight counted in it.
#[derive(Clone, Debug)]
pub struct EvalTrace {
    /// The game phase, 0 ..= [`PHASE_MAX`].
    pub phase: i32,
    /// The endgame part's scale, in 64ths.
    pub scale: i32,
    /// The (middlegame, endgame) total for White before blending, tempo included.
    pub total: S,
    /// The uses of each weight, White's minus Black's.
    pub coefficients: Coefficients,
    /// The evaluation for the side to move, as [`hand_written`] gives it.
    pub value: Value,
}

/// [`hand_written`] taken apart, or `None` where the evaluation does not blend its terms (a draw by
/// insufficient material, a bare king).
pub fn trace(pos: &Position) -> Option<EvalTrace> {
    if pos.is_insufficient_material()
        || Color::ALL
            .into_iter()
            .any(|c| (pos.by_color(c) & !pos.by_role(Role::King)).is_empty())
    {
        return None;
    }
    let mut coefficients = Coefficients::default();
    let info = trace_pawns(
        pos.pieces(Color::White, Role::Pawn),
        pos.pieces(Color::Black, Role::Pawn),
        &mut coefficients,
    );
    let (total, phase, scale) = unblended(pos, &info, &mut coefficients);
    let value = evaluate_with(pos, &info, &mut ());
    Some(EvalTrace {
        phase,
        scale,
        total,
        coefficients,
        value,
    })
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

/// Material and placement of the king and pieces (the pawns' are in [`PawnInfo`]), mobility and
/// piece terms of `color`; fills `attacks` and counts the attack on the enemy king.
fn pieces<T: Trace>(
    pos: &Position,
    color: Color,
    attacks: &mut SideAttacks,
    their_pawn_attacks: Bitboard,
    t: &mut T,
) -> S {
    let occupied = pos.occupied();
    let ours = pos.by_color(color);
    let own_pawns = pos.pieces(color, Role::Pawn);
    let their_pawns = pos.pieces(!color, Role::Pawn);
    let their_zone = king_safety::zone(pos.king(!color));
    let area = !ours & !their_pawn_attacks;
    let mut score = s(0, 0);

    score += pst::term(t, color, Role::King, pos.king(color));

    for (i, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .enumerate()
    {
        for sq in pos.pieces(color, role) {
            score += pst::term(t, color, role, sq);
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
            score += term(t, color, params::MOBILITY_START[i] + moves as usize, 1);
            if (reach & their_zone).any() {
                attacks.king_attack.attackers += 1;
                attacks.king_attack.weight += KING_DANGER[i];
                attacks.king_attack.by_role[i] += 1;
            }
            match role {
                Role::Knight | Role::Bishop => {
                    attacks.minors |= reach;
                    if moves == 0 {
                        score += term(t, color, params::TRAPPED_MINOR, 1);
                    }
                    let rank = relative_rank(color, sq);
                    if role == Role::Knight
                        && (4..=6).contains(&rank)
                        && (pawn_attacks(!color, sq) & own_pawns).any()
                        && (attack_span(color, sq) & their_pawns).is_empty()
                    {
                        score += term(t, color, params::KNIGHT_OUTPOST, 1);
                    }
                }
                Role::Rook => {
                    let file = file_of(sq);
                    if (file & own_pawns).is_empty() {
                        let open = if (file & their_pawns).is_empty() {
                            params::ROOK_OPEN_FILE
                        } else {
                            params::ROOK_SEMI_OPEN_FILE
                        };
                        score += term(t, color, open, 1);
                    }
                }
                _ => {}
            }
        }
    }
    if pos.pieces(color, Role::Bishop).more_than_one() {
        score += term(t, color, params::BISHOP_PAIR, 1);
    }
    score
}

/// Passed pawns beyond their static value: king distances, a blocked path, an unstoppable run.
fn passed_pawns<T: Trace>(
    pos: &Position,
    color: Color,
    passed: Bitboard,
    their_attacks: Bitboard,
    t: &mut T,
) -> S {
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
            let d_them = their_king.distance(stop).min(5) as i32;
            let d_us = our_king.distance(stop).min(5) as i32;
            score += term(t, color, params::PASSED_THEIR_KING, weight * d_them);
            score += term(t, color, params::PASSED_OUR_KING, weight * d_us);
        }
        if occupied.contains(stop) {
            score += term(t, color, params::PASSED_BLOCKED + rank, 1);
        } else if !their_attacks.contains(stop) {
            score += term(t, color, params::PASSED_FREE + rank, 1);
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
fn threats<T: Trace>(
    pos: &Position,
    color: Color,
    ours: &SideAttacks,
    theirs: &SideAttacks,
    t: &mut T,
) -> S {
    let enemy = pos.by_color(!color);
    let enemy_pieces = enemy & !pos.by_role(Role::Pawn) & !pos.by_role(Role::King);
    let majors = enemy & (pos.by_role(Role::Rook) | pos.by_role(Role::Queen));
    let mut score = term(
        t,
        color,
        params::PAWN_THREAT,
        (ours.pawns & enemy_pieces).count() as i32,
    );
    score += term(
        t,
        color,
        params::MINOR_THREAT_ON_MAJOR,
        (ours.minors & majors).count() as i32,
    );
    let their_defence = theirs.all | theirs.pawns | king_attacks(pos.king(!color));
    let hanging = enemy & !pos.by_role(Role::King) & ours.all & !their_defence;
    score += term(t, color, params::HANGING, hanging.count() as i32);
    let weak_pawns = enemy & pos.by_role(Role::Pawn) & !theirs.pawns;
    let victims = [
        weak_pawns,
        enemy & pos.by_role(Role::Knight),
        enemy & pos.by_role(Role::Bishop),
        enemy & pos.by_role(Role::Queen),
    ];
    for (i, &v) in victims.iter().enumerate() {
        if i < 3 {
            let n = (ours.minors & v).count() as i32;
            score += term(t, color, params::THREAT_BY_MINOR + i, n);
        }
        let n = (ours.roles[2] & v).count() as i32;
        score += term(t, color, params::THREAT_BY_ROOK + i, n);
    }
    score
}

fn evaluate_with<T: Trace>(pos: &Position, info: &PawnInfo, t: &mut T) -> Value {
    if pos.is_insufficient_material() {
        return 0;
    }
    let (score, phase, scale) = unblended(pos, info, t);
    let v = score.blend(phase, scale);
    if pos.turn() == Color::White { v } else { -v }
}

/// The evaluation for White before blending, with the phase and endgame scale to blend it by.
#[inline(always)]
fn unblended<T: Trace>(pos: &Position, info: &PawnInfo, t: &mut T) -> (S, i32, i32) {
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
    score += pieces(pos, Color::White, &mut white, black.pawns, t);
    score -= pieces(pos, Color::Black, &mut black, white.pawns, t);
    let white_attacks = white.all | white.pawns | king_attacks(pos.king(Color::White));
    let black_attacks = black.all | black.pawns | king_attacks(pos.king(Color::Black));
    score += passed_pawns(pos, Color::White, info.passed[0], black_attacks, t);
    score -= passed_pawns(pos, Color::Black, info.passed[1], white_attacks, t);
    score += threats(pos, Color::White, &white, &black, t);
    score -= threats(pos, Color::Black, &black, &white, t);

    let white_defends = white.all | white.pawns;
    let black_defends = black.all | black.pawns;
    score += king_safety::shield(pos, Color::White, t);
    score -= king_safety::shield(pos, Color::Black, t);
    score += king_safety::danger(
        pos,
        Color::White,
        black.king_attack,
        white_defends,
        black.all | black.pawns,
        &black.roles,
        t,
    );
    score -= king_safety::danger(
        pos,
        Color::Black,
        white.king_attack,
        black_defends,
        white.all | white.pawns,
        &white.roles,
        t,
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
    let tempo = term(t, pos.turn(), params::TEMPO, 1);
    if pos.turn() == Color::White {
        score += tempo;
    } else {
        score -= tempo;
    }
    (score, phase(pos), scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> Value {
        hand_written(&Position::from_fen(fen).expect("test data"))
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
        assert!((0..60).contains(&v), "{v}");
    }

    #[test]
    fn insufficient_material_is_a_draw() {
        assert_eq!(eval("8/8/4k3/8/8/2N5/8/4K3 w - - 0 1"), 0);
        assert_eq!(eval("8/8/4k3/8/8/8/8/4K3 b - - 0 1"), 0);
    }

    #[test]
    fn traces_count_the_weights_the_evaluation_uses() {
        // The start position is symmetric: every weight White uses, Black uses as often, except
        // the side to move's tempo.
        let start = Position::startpos();
        let t = trace(&start).expect("pieces on both sides");
        for (i, &c) in t.coefficients.counts.iter().enumerate() {
            let expected = i32::from(i == params::TEMPO);
            assert_eq!(c, expected, "{}", params::name(i));
        }
        // Black's g8 knight gone and White's g1 knight on f3: a knight more, on its square.
        let pos = Position::from_fen("rnbqkb1r/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1")
            .expect("test data");
        let t = trace(&pos).expect("pieces on both sides");
        assert_eq!(t.coefficients.counts[params::MATERIAL + 1], 1);
        // f3 shares c3's entry; the b1 and b8 knights cancel; the tempo is Black's.
        assert_eq!(
            t.coefficients.counts[params::psqt_index(1, Square::C3.index())],
            1
        );
        assert_eq!(
            t.coefficients.counts[params::psqt_index(1, Square::B1.index())],
            0
        );
        assert_eq!(t.coefficients.counts[params::TEMPO], -1);
        // The blend of the traced total is the evaluation.
        for fen in [
            "6k1/p2q1b2/2n2Qp1/1p2p3/4P3/2P1B3/5R1K/8 w - - 1 40",
            "8/5pk1/6p1/3P4/8/6P1/5PK1/8 b - - 0 40",
        ] {
            let pos = Position::from_fen(fen).expect("test data");
            let t = trace(&pos).expect("pieces on both sides");
            let v = t.total.blend(t.phase, t.scale);
            let v = if pos.turn() == Color::White { v } else { -v };
            assert_eq!(v, t.value);
            assert_eq!(t.value, hand_written(&pos));
        }
        assert!(
            trace(&Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").expect("test data"))
                .is_none()
        );
    }

    #[test]
    fn cached_and_uncached_evaluations_agree() {
        let mut e = Evaluator::new();
        for fen in [
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
            "8/5pk1/6p1/3P4/8/6P1/5PK1/8 b - - 0 40",
        ] {
            let pos = Position::from_fen(fen).expect("test data");
            assert_eq!(e.hand_written(&pos), hand_written(&pos));
            assert_eq!(e.hand_written(&pos), hand_written(&pos));
        }
    }
}
