//! Correction history: how far the static evaluation missed the search's result in earlier
//! positions with the same pawns and side to move, added to later evaluations.
//!
//! The evaluation has blind spots that depend on the pawn structure (a blocked centre, a weak
//! colour complex). Where a search ends far from the static evaluation, the difference is
//! remembered under a hash of the pawns, as a running average weighted by the search's depth, and
//! the next static evaluation of a position with those pawns is corrected by it. The pruning
//! decisions that compare the static evaluation with the window then err less.

use tabla::{Color, Position, Role};

use crate::pawns::pawn_hash;
use crate::score::Value;

/// Entries per side to move.
const SIZE: usize = 1 << 14;
/// Entries hold centipawns times this, so that small updates are not lost to rounding.
const GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const LIMIT: i32 = 64;

/// The table of corrections, by side to move and pawn structure.
pub(crate) struct Correction {
    table: Vec<i32>,
}

impl Default for Correction {
    fn default() -> Correction {
        Correction {
            table: vec![0; 2 * SIZE],
        }
    }
}

/// The entry of `pos`: its side to move and a hash of its pawns.
#[inline]
fn index(pos: &Position) -> usize {
    let h = pawn_hash(
        pos.pieces(Color::White, Role::Pawn),
        pos.pieces(Color::Black, Role::Pawn),
    ) >> (64 - SIZE.trailing_zeros());
    pos.turn().index() * SIZE + h as usize
}

impl Correction {
    /// The correction for `pos`'s static evaluation, in centipawns.
    #[inline]
    pub(crate) fn get(&self, pos: &Position) -> Value {
        self.table[index(pos)] / GRAIN
    }

    /// Learns that a search of `depth` plies found `pos` worth `diff` centipawns more than its
    /// corrected static evaluation.
    pub(crate) fn update(&mut self, pos: &Position, depth: i32, diff: Value) {
        let weight = (depth + 1).clamp(1, 16);
        let entry = &mut self.table[index(pos)];
        let target = diff.clamp(-LIMIT, LIMIT) * GRAIN;
        // A running average: the entry moves weight/256 of the way towards entry + target.
        *entry = ((*entry * 256 + target * weight) / 256).clamp(-LIMIT * GRAIN, LIMIT * GRAIN);
    }

    /// Forgets everything learnt.
    pub(crate) fn clear(&mut self) {
        self.table.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_the_pawns_and_the_side_to_move() {
        let mut c = Correction::default();
        let start = Position::default();
        // Same pawns, other pieces moved: same entry. Black to move: another entry.
        let knights =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1")
                .expect("test data");
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
        assert_eq!(c.get(&knights), learnt);
        assert_eq!(c.get(&black), 0);
        // A huge miss is learnt only up to the limit.
        for _ in 0..1000 {
            c.update(&start, 20, 5000);
        }
        assert!(c.get(&start) <= LIMIT);
        c.clear();
        assert_eq!(c.get(&start), 0);
    }
}
