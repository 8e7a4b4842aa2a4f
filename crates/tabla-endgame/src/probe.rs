//! What a probe answers about a position: its value, the best move and every move's value.

use crate::dtm::Dtm;
use tabla::Move;

/// A legal move and the value of the position it leads to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// The value after the move, from the point of view of the side then to move (the
    /// opponent): `-3` means the opponent is mated in 3.
    pub after: Dtm,
}

impl MoveValue {
    /// The value for the side making the move: the mover's DTM if it plays this move.
    pub fn for_mover(&self) -> Dtm {
        self.after.after_move()
    }
}

/// Everything a probe tells about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The position's value for the side to move.
    pub dtm: Dtm,
    /// `true` when the side to move is stalemated (then `dtm` is [`Dtm::Draw`]); a checkmate is
    /// [`Dtm::Loss`]`(0)`.
    pub stalemate: bool,
    /// The best move: the fastest mate for the winner, the longest resistance (or a draw) for the
    /// loser; the first in `tabla`'s move order among equals. `None` when there is no legal move.
    pub best: Option<Move>,
    /// Every legal move, in `tabla`'s order, with the value after it.
    pub moves: Vec<MoveValue>,
}

impl Probe {
    /// The moves best first for the side to move (a faster win first, then slower wins, draws,
    /// slower losses and faster losses last; equals in `tabla`'s order), as `tabla tb probe`
    /// and the endgame explorer list them.
    pub fn moves_best_first(&self) -> Vec<MoveValue> {
        let mut moves = self.moves.clone();
        moves.sort_by_key(|m| m.for_mover().badness());
        moves
    }
}
