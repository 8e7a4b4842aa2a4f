//! Correction history: how far the static evaluation missed the search's result in earlier
//! positions with the same pawns, or the same pieces of one side, and the same side to move,
//! added to later evaluations.
//!
//! The evaluation has blind spots that depend on the pawn structure (a blocked centre, a weak
//! colour complex). Where a search ends far from the static evaluation, the difference is
//! remembered under a hash of the pawns, as a running average weighted by the search's depth, and
//! the next static evaluation of a position with those pawns is corrected by it. Two more tables
//! do the same under a hash of each side's knights, bishops, rooks, queens and king, for the
//! blind spots of piece placement (a misjudged attack, a trapped piece); they count half each. The
//! pruning decisions that compare the static evaluation with the window then err less.

use tabla::{Color, Position, Role};

use crate::pawns::pawn_hash;
use crate::score::Value;

/// Entries per side to move.
const SIZE: usize = 1 << 14;
/// Entries hold centipawns times this, so that small updates are not lost to rounding.
const GRAIN: i32 = 256;
/// The largest correction one table holds, in centipawns.
const LIMIT: i32 = 64;

/// The tables of corrections: one by pawn structure, one by each side's pieces (knights,
/// bishops, rooks, queens and king), all by side to move.
pub(crate) struct Correction {
    pawns: Vec<i32>,
    pieces: [Vec<i32>; 2],
}

impl Default for Correction {
    fn default() -> Correction {
        Correction {
            pawns: vec![0; 2 * SIZE],
            pieces: [vec![0; 2 * SIZE], vec![0; 2 * SIZE]],
        }
    }
}

/// The entry of `pos` in the pawn table: its side to move and a hash of its pawns.
#[inline]
fn pawn_index(pos: &Position) -> usize {
    let h = pawn_hash(
        pos.pieces(Color::White, Role::Pawn),
        pos.pieces(Color::Black, Role::Pawn),
    ) >> (64 - SIZE.trailing_zeros());
    pos.turn().index() * SIZE + h as usize
}

/// The entry of `pos` in `color`'s piece table: the side to move and a hash of where `color`'s
/// pieces other than pawns stand.
#[inline]
fn piece_index(pos: &Position, color: Color) -> usize {
    const MIX: [u64; 5] = [
        0x9e37_79b9_7f4a_7c15,
        0xc2b2_ae3d_27d4_eb4f,
        0x1656_67b1_9e37_79f9,
        0xd6e8_feb8_6659_fd93,
        0xff51_afd7_ed55_8ccd,
    ];
    let ours = pos.by_color(color);
    let mut h = 0u64;
    for (role, mix) in [
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ]
    .into_iter()
    .zip(MIX)
    {
        h = (h ^ (ours & pos.by_role(role)).0.wrapping_mul(mix)).rotate_left(23);
    }
    let h = h.wrapping_mul(MIX[0]) >> (64 - SIZE.trailing_zeros());
    pos.turn().index() * SIZE + h as usize
}

/// Moves `entry` weight/256 of the way towards `entry + diff` (a running average).
#[inline]
fn learn(entry: &mut i32, weight: i32, diff: Value) {
    let target = diff.clamp(-LIMIT, LIMIT) * GRAIN;
    *entry = ((*entry * 256 + target * weight) / 256).clamp(-LIMIT * GRAIN, LIMIT * GRAIN);
}

impl Correction {
    /// The correction for `pos`'s static evaluation, in centipawns: the pawn table's, plus half
    /// of each side's piece table's.
    #[inline]
    pub(crate) fn get(&self, pos: &Position) -> Value {
        let pieces = self.pieces[0][piece_index(pos, Color::White)]
            + self.pieces[1][piece_index(pos, Color::Black)];
        (self.pawns[pawn_index(pos)] + pieces / 2) / GRAIN
    }

    /// Learns that a search of `depth` plies found `pos` worth `diff` centipawns more than its
    /// corrected static evaluation.
    pub(crate) fn update(&mut self, pos: &Position, depth: i32, diff: Value) {
        let weight = (depth + 1).clamp(1, 16);
        learn(&mut self.pawns[pawn_index(pos)], weight, diff);
        for color in [Color::White, Color::Black] {
            let i = piece_index(pos, color);
            learn(&mut self.pieces[color.index()][i], weight, diff);
        }
    }

    /// Forgets everything learnt.
    pub(crate) fn clear(&mut self) {
        self.pawns.fill(0);
        for table in &mut self.pieces {
            table.fill(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_the_pawns_the_pieces_and_the_side_to_move() {
        let mut c = Correction::default();
        let start = Position::default();
        // Same pawns, a white knight moved: the pawn and black piece entries are shared.
        let knight =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1")
                .expect("test data");
        // Same pieces, a pawn moved: both piece entries are shared.
        let pawn = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1")
            .expect("test data");
        // Black to move: other entries everywhere.
        let black = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")
            .expect("test data");
        // The search keeps finding the position 40 cp better than the raw evaluation: the
        // correction converges there.
        for _ in 0..200 {
            let miss = 40 - c.get(&start);
            c.update(&start, 10, miss);
        }
        let learnt = c.get(&start);
        assert!((30..=40).contains(&learnt), "{learnt}");
        for (name, pos) in [("knight", &knight), ("pawn", &pawn)] {
            let partial = c.get(pos);
            assert!(0 < partial && partial < learnt, "{name}: {partial}");
        }
        assert_eq!(c.get(&black), 0);
        // A huge miss is learnt only up to the limits.
        for _ in 0..1000 {
            c.update(&start, 20, 5000);
        }
        assert!(c.get(&start) <= 2 * LIMIT);
        c.clear();
        assert_eq!(c.get(&start), 0);
    }
}
