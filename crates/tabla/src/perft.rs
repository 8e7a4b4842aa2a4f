//! perft: counting the leaves of the legal move tree, the standard test of a move generator.

use crate::{Bitboard, Move, MoveList, Position};

/// The deepest perft that callers taking a depth from outside (a command line, a suite file)
/// accept. [`Position::perft`] recurses once per ply, so a depth in the thousands overflows the
/// stack (an abort, not an error); a count this deep could not finish anyway.
pub const MAX_PERFT_DEPTH: u32 = 64;

impl Position {
    /// The number of leaf positions `depth` plies deep. Every leaf is reached by playing its move
    /// (on a copy of its parent: copying the position is cheaper than taking the move back).
    ///
    /// ```
    /// use tabla::Position;
    /// assert_eq!(Position::startpos().perft(3), 8_902);
    /// ```
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            1
        } else {
            self.perft_children(depth)
        }
    }

    /// perft below this node (`depth >= 1`): each child is a copy of this position with its move
    /// played; children at depth 0 are counted right here rather than by a call that would return 1.
    fn perft_children(&self, depth: u32) -> u64 {
        let mut moves = MoveList::new();
        self.legal_moves_to(&mut moves, Bitboard::FULL);
        let mut nodes = 0;
        for &mv in &moves {
            let mut child = self.clone_without_history();
            child.apply(mv);
            nodes += if depth == 1 {
                // The leaf is made like any other node; `black_box` keeps the optimiser from
                // dropping the unused copy and the move played on it.
                std::hint::black_box(&child);
                1
            } else {
                child.perft_children(depth - 1)
            };
        }
        nodes
    }

    /// The same count with bulk counting: at depth 1 the legal moves are counted, not played.
    ///
    /// ```
    /// use tabla::Position;
    /// assert_eq!(Position::startpos().perft_bulk(4), 197_281);
    /// ```
    pub fn perft_bulk(&mut self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal_moves() as u64,
            _ => {
                let mut moves = MoveList::new();
                self.legal_moves_to(&mut moves, Bitboard::FULL);
                let mut nodes = 0;
                for &mv in &moves {
                    let undo = self.make(mv);
                    nodes += self.perft_bulk(depth - 1);
                    self.unmake(undo);
                }
                nodes
            }
        }
    }

    /// perft split by the first move: each legal move with its subtree's count.
    pub fn divide(&mut self, depth: u32, bulk: bool) -> Vec<(Move, u64)> {
        let moves = self.legal_moves();
        moves
            .iter()
            .map(|&mv| {
                self.play_unchecked(mv);
                let n = match (depth, bulk) {
                    (0, _) => 1,
                    (d, true) => self.perft_bulk(d - 1),
                    (d, false) => self.perft(d - 1),
                };
                self.undo();
                (mv, n)
            })
            .collect()
    }
}
