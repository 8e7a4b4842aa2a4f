//! A move as the API writes it, in the three notations: the routes that list or play moves
//! (`position.rs`, `suggest.rs`) share it.

use serde::Serialize;
use tabla::{Move, Position};

/// A move in the three notations.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct MoveNotations {
    /// SAN with check suffix: `Nf3`, `exd8=Q+`.
    pub san: String,
    /// The long algebraic form: `Ng1-f3`.
    pub lan: String,
    /// UCI: `g1f3`.
    pub uci: String,
}

impl MoveNotations {
    /// The notations of a legal move of `pos`.
    pub fn of(pos: &Position, mv: Move) -> MoveNotations {
        MoveNotations {
            san: pos.san(mv),
            lan: pos.long(mv),
            uci: pos.uci(mv),
        }
    }
}
