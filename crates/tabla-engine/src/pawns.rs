//! Pawn structure: material and placement of the pawns, doubled, isolated, backward, connected
//! and passed pawns, cached by the pawn placement (it changes far less often than the rest of
//! the position).

use crate::params::{BACKWARD, CONNECTED, DOUBLED, ISOLATED, PASSED, Trace};
use crate::pst;
use crate::tapered::{S, s};
use crate::weights::term;
use tabla::attacks::pawn_attacks;
use tabla::{Bitboard, Color, Role, Square};

/// The a-file's squares.
pub(crate) const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Squares strictly ahead of `sq` (for `color`) on the files given by `file_mask(file)`.
const fn ahead(color: usize, sq: usize, files: u64) -> u64 {
    let rank = sq / 8;
    let rows = if color == 0 {
        if rank == 7 {
            0
        } else {
            !0u64 << (8 * (rank + 1))
        }
    } else if rank == 0 {
        0
    } else {
        !0u64 >> (8 * (8 - rank))
    };
    rows & files
}

const fn adjacent_files(file: usize) -> u64 {
    let mut m = 0;
    if file > 0 {
        m |= FILE_A << (file - 1);
    }
    if file < 7 {
        m |= FILE_A << (file + 1);
    }
    m
}

const fn build_masks() -> Masks {
    let mut m = Masks {
        forward: [[0; 64]; 2],
        passed_span: [[0; 64]; 2],
        attack_span: [[0; 64]; 2],
    };
    let mut color = 0;
    while color < 2 {
        let mut sq = 0;
        while sq < 64 {
            let file = sq % 8;
            let own = FILE_A << file;
            let adj = adjacent_files(file);
            m.forward[color][sq] = ahead(color, sq, own);
            m.attack_span[color][sq] = ahead(color, sq, adj);
            m.passed_span[color][sq] = ahead(color, sq, own | adj);
            sq += 1;
        }
        color += 1;
    }
    m
}

struct Masks {
    forward: [[u64; 64]; 2],
    passed_span: [[u64; 64]; 2],
    attack_span: [[u64; 64]; 2],
}

static MASKS: Masks = build_masks();

/// The files either side of `sq`'s file.
#[inline]
pub fn adjacent(sq: Square) -> Bitboard {
    Bitboard(adjacent_files(sq.file().index() as usize))
}

/// `sq`'s file.
#[inline]
pub fn file_of(sq: Square) -> Bitboard {
    Bitboard(FILE_A << sq.file().index())
}

/// Squares ahead of `sq` on its file, for `color`.
#[inline]
pub fn forward(color: Color, sq: Square) -> Bitboard {
    Bitboard(MASKS.forward[color.index()][sq.index()])
}

/// Squares ahead of `sq` on the neighbouring files: where enemy pawns could one day attack it.
#[inline]
pub fn attack_span(color: Color, sq: Square) -> Bitboard {
    Bitboard(MASKS.attack_span[color.index()][sq.index()])
}

/// Squares ahead of `sq` on its own and the neighbouring files: a pawn is passed when no enemy
/// pawn stands there.
#[inline]
pub fn passed_span(color: Color, sq: Square) -> Bitboard {
    Bitboard(MASKS.passed_span[color.index()][sq.index()])
}

/// The rank of `sq` counted from `color`'s side (0 = own back rank).
#[inline]
pub fn relative_rank(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.rank().index() as usize,
        Color::Black => 7 - sq.rank().index() as usize,
    }
}

/// All squares attacked by `color`'s pawns.
#[inline]
pub fn pawn_attack_set(color: Color, pawns: Bitboard) -> Bitboard {
    let p = pawns.0;
    let not_a = !FILE_A;
    let not_h = !(FILE_A << 7);
    Bitboard(match color {
        Color::White => ((p & not_a) << 7) | ((p & not_h) << 9),
        Color::Black => ((p & not_a) >> 9) | ((p & not_h) >> 7),
    })
}

/// The structure's value for White (minus Black's) and each side's passed pawns.
#[derive(Copy, Clone, Debug, Default)]
pub struct PawnInfo {
    /// White's structure score minus Black's (pawn material and placement included).
    pub score: S,
    /// Passed pawns, by colour index.
    pub passed: [Bitboard; 2],
}

fn side<T: Trace>(
    color: Color,
    ours: Bitboard,
    theirs: Bitboard,
    passed: &mut Bitboard,
    t: &mut T,
) -> S {
    let mut score = s(0, 0);
    let their_attacks = pawn_attack_set(!color, theirs);
    for sq in ours {
        score += pst::term(t, color, Role::Pawn, sq);
        let rank = relative_rank(color, sq);
        let adjacent_own = adjacent(sq) & ours;
        if (forward(color, sq) & ours).any() {
            score += term(t, color, DOUBLED, 1);
        }
        if adjacent_own.is_empty() {
            score += term(t, color, ISOLATED, 1);
        } else {
            let supported = (pawn_attacks(!color, sq) & ours).any();
            let beside = (adjacent_own & Bitboard::rank(sq.rank())).any();
            if supported || beside {
                score += term(t, color, CONNECTED + rank, 1);
            } else if (adjacent_own & !attack_span(color, sq)).is_empty() {
                // Every neighbour is ahead: none can come to its side. Backward if it cannot
                // step forward safely either.
                let stop = match color {
                    Color::White => sq.offset(0, 1),
                    Color::Black => sq.offset(0, -1),
                };
                if let Some(stop) = stop
                    && their_attacks.contains(stop)
                {
                    score += term(t, color, BACKWARD, 1);
                }
            }
        }
        let front_own = (forward(color, sq) & ours).any();
        if !front_own && (passed_span(color, sq) & theirs).is_empty() {
            *passed |= Bitboard::from_square(sq);
            score += term(t, color, PASSED + rank, 1);
        }
    }
    score
}

/// Evaluates the pawn structure from scratch.
pub fn evaluate_pawns(white: Bitboard, black: Bitboard) -> PawnInfo {
    trace_pawns(white, black, &mut ())
}

/// [`evaluate_pawns`], with the weights used told to `t`.
pub fn trace_pawns<T: Trace>(white: Bitboard, black: Bitboard, t: &mut T) -> PawnInfo {
    let mut passed = [Bitboard::EMPTY; 2];
    let w = side(Color::White, white, black, &mut passed[0], t);
    let b = side(Color::Black, black, white, &mut passed[1], t);
    PawnInfo {
        score: w - b,
        passed,
    }
}

#[derive(Copy, Clone, Default)]
struct Slot {
    white: u64,
    black: u64,
    info: PawnInfo,
    used: bool,
}

/// A hash of a pawn placement; its top bits index the tables kept by pawn structure.
#[inline]
pub(crate) fn pawn_hash(white: Bitboard, black: Bitboard) -> u64 {
    white.0.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ black.0.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
}

/// A cache of [`PawnInfo`] by pawn placement.
pub struct PawnTable {
    slots: Vec<Slot>,
}

const PAWN_SLOTS: usize = 1 << 14;

impl Default for PawnTable {
    fn default() -> PawnTable {
        PawnTable {
            slots: vec![Slot::default(); PAWN_SLOTS],
        }
    }
}

impl PawnTable {
    /// The structure of these pawns, from the cache or computed and cached.
    #[inline]
    pub fn get(&mut self, white: Bitboard, black: Bitboard) -> PawnInfo {
        let h = pawn_hash(white, black) >> (64 - PAWN_SLOTS.trailing_zeros());
        let slot = &mut self.slots[h as usize];
        if slot.used && slot.white == white.0 && slot.black == black.0 {
            return slot.info;
        }
        let info = evaluate_pawns(white, black);
        *slot = Slot {
            white: white.0,
            black: black.0,
            info,
            used: true,
        };
        info
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabla::Position;

    fn info(fen: &str) -> PawnInfo {
        let pos = Position::from_fen(fen).expect("test data");
        evaluate_pawns(
            pos.pieces(Color::White, tabla::Role::Pawn),
            pos.pieces(Color::Black, tabla::Role::Pawn),
        )
    }

    #[test]
    fn passed_pawns_found_by_hand_checked_positions() {
        // White: a5 passed (no black pawn on a/b files ahead); e4 blocked by e5 is not.
        let i = info("4k3/8/8/P3p3/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(i.passed[0], Bitboard::from_square(Square::A5));
        assert!(i.passed[1].is_empty());
        // Black's d3 pawn is passed and so is White's a2; a c2 pawn would stop d3 being one.
        let i = info("4k3/8/8/8/8/3p4/P7/4K3 w - - 0 1");
        assert_eq!(i.passed[1], Bitboard::from_square(Square::D3));
        assert_eq!(i.passed[0], Bitboard::from_square(Square::A2));
        let i = info("4k3/8/8/8/8/3p4/2P5/4K3 w - - 0 1");
        assert!(i.passed[0].is_empty() && i.passed[1].is_empty());
    }

    #[test]
    fn doubled_and_isolated_pawns_cost() {
        let healthy = info("4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1").score;
        let broken = info("4k3/8/8/8/8/P7/P1P5/4K3 w - - 0 1").score;
        assert!(healthy.mg > broken.mg && healthy.eg > broken.eg);
    }

    #[test]
    fn masks() {
        assert_eq!(
            forward(Color::White, Square::E7),
            Bitboard::from_square(Square::E8)
        );
        assert_eq!(
            forward(Color::Black, Square::E2),
            Bitboard::from_square(Square::E1)
        );
        assert!(forward(Color::White, Square::E8).is_empty());
        assert_eq!(passed_span(Color::White, Square::A6).count(), 4);
        assert_eq!(
            pawn_attack_set(Color::White, Bitboard::from_square(Square::A2)),
            Bitboard::from_square(Square::B3)
        );
        assert_eq!(
            pawn_attack_set(Color::Black, Bitboard::from_square(Square::H7)),
            Bitboard::from_square(Square::G6)
        );
    }
}
