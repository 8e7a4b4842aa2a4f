//! The plug for exact endgame knowledge: a table that knows the distance to mate of some positions
//! (KBNvK from `tabla-endgame`, or any other) lets the search play them perfectly.

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

    /// This result as a game would have it with the halfmove clock at `halfmoves`: a mate the
    /// fifty-move rule stops first (the clock passing 100 half-moves before the mating move,
    /// were no capture or pawn move on the way) is no sure win, so `None` (not known); draws
    /// and mates in time stand.
    ///
    /// ```
    /// use tabla_engine::OracleValue;
    /// // Mate in 5 moves is 9 half-moves away: in time with the clock at 91, not at 92.
    /// assert_eq!(OracleValue::WinIn(5).in_time(91), Some(OracleValue::WinIn(5)));
    /// assert_eq!(OracleValue::WinIn(5).in_time(92), None);
    /// assert_eq!(OracleValue::LossIn(5).in_time(91), None);
    /// assert_eq!(OracleValue::Draw.in_time(99), Some(OracleValue::Draw));
    /// ```
    pub fn in_time(self, halfmoves: u32) -> Option<OracleValue> {
        let plies = match self {
            OracleValue::Draw => return Some(self),
            OracleValue::WinIn(n) => (2 * n).saturating_sub(1),
            OracleValue::LossIn(n) => 2 * n,
        };
        (halfmoves + plies <= 100).then_some(self)
    }
}

/// Exact knowledge of some endgames.
pub trait EndgameOracle: Send + Sync {
    /// The most men (kings included) in a position the oracle can know; the search asks only
    /// about positions with at most this many.
    fn max_men(&self) -> u32;

    /// The exact value of `pos` for the side to move, or `None` when the oracle does not know it
    /// (or finds it too costly to ask here). `ply`: plies from the search's root (0 at the
    /// root), so that an oracle whose probes cost may keep them to the root's moves and to
    /// positions just after a capture or a pawn move.
    fn probe(&self, pos: &Position, ply: usize) -> Option<OracleValue>;
}
