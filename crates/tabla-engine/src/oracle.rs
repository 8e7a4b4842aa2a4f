//! The plug for exact endgame knowledge: a table that knows the distance to mate of some positions
//! (KBNK from `tabla-endgame`, or any other) lets the search play them perfectly.

use crate::score::{DRAW, Value, mate_in, mated_in};
use tabla::Position;

/// The exact value of a position for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OracleValue {
    /// A draw with best play.
    Draw,
    /// The side to move mates in this many moves (at least 1).
    WinIn(u32),
    /// The side to move is mated in this many moves (0: it is mated now).
    LossIn(u32),
}

impl OracleValue {
    /// The search value of this result at `ply` plies from the root.
    ///
    /// ```
    /// use tabla_engine::{OracleValue, Score, Value};
    /// // Mate in 3 moves seen one ply below the root is mate in 3 moves for the root's opponent.
    /// let v: Value = OracleValue::WinIn(3).value(1);
    /// assert_eq!(Score::from_value(-v), Score::Mate(-3));
    /// ```
    pub fn value(self, ply: usize) -> Value {
        match self {
            OracleValue::Draw => DRAW,
            OracleValue::WinIn(n) => mate_in(ply + 2 * n as usize - 1),
            OracleValue::LossIn(n) => mated_in(ply + 2 * n as usize),
        }
    }
}

/// Exact knowledge of some endgames.
pub trait EndgameOracle: Send + Sync {
    /// The most men (kings included) in a position the oracle can know; the search asks only
    /// about positions with at most this many.
    fn max_men(&self) -> u32;

    /// The exact value of `pos` for the side to move, or `None` when the oracle does not know it.
    fn probe(&self, pos: &Position) -> Option<OracleValue>;
}
