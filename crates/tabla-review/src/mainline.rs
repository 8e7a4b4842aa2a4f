//! What a review judges: a game's mainline, each position with what is known of it (an
//! evaluation, the engine's choice and line), however those were found.

use crate::{Eval, ReviewError};
use serde::{Deserialize, Serialize};
use tabla::Color;
use tabla_pgn::Game;

/// A game's mainline with an optional evaluation of every position: the input of
/// [`crate::judge`].
///
/// ```
/// use tabla_pgn::Reader;
/// use tabla_review::{Ending, Mainline};
///
/// let pgn = "[White \"A\"]\n\n1. f3 e5 2. g4 Qh4# 0-1";
/// let game = Reader::new(pgn.as_bytes()).games().next().unwrap().unwrap();
/// let line = Mainline::from_game(&game).unwrap();
/// assert_eq!(line.white.as_deref(), Some("A"));
/// assert_eq!(line.moves[3].uci, "d8h4");
/// assert_eq!(line.positions.len(), 5);
/// assert_eq!(line.end, Some(Ending::Checkmate));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mainline {
    /// White's name (the `White` tag).
    pub white: Option<String>,
    /// Black's name.
    pub black: Option<String>,
    /// Plies played before the first move: 0 from the usual start, `2 (n - 1)` (plus 1 with
    /// Black to move) from a set-up position at move `n`. Move `i` (from 0) is ply
    /// `start_ply + i + 1`, White's when that is odd.
    pub start_ply: u32,
    /// The moves played.
    pub moves: Vec<PlayedMove>,
    /// One more than the moves: the position before each move, then the final one.
    pub positions: Vec<PositionInfo>,
    /// How the game ended on the board, when its final position is a mate or a stalemate.
    pub end: Option<Ending>,
}

/// A move of the mainline.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PlayedMove {
    /// The move in SAN, with `+` or `#`.
    pub san: String,
    /// The move in UCI (`e1g1` for castling).
    pub uci: String,
}

/// What is known of a position of the mainline.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PositionInfo {
    /// Its evaluation, White's point of view.
    pub eval: Option<Eval>,
    /// The engine's choice of move here.
    pub best: Option<BestMove>,
    /// The engine's line from here in UCI, starting with `best`.
    pub pv: Vec<String>,
}

/// The engine's choice of move in a position.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BestMove {
    /// In SAN.
    pub san: String,
    /// In UCI.
    pub uci: String,
}

/// How a game ended on the board: no evaluation is needed after the last move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The side to move in the final position is mated.
    Checkmate,
    /// The side to move in the final position has no move and is not in check.
    Stalemate,
}

impl Mainline {
    /// The mainline of a game read from PGN, with nothing known of its positions yet.
    ///
    /// A game whose moves could not all be read (a PGN error stopped its mainline) or that has
    /// no start position is refused: a review of part of a game would mislead.
    pub fn from_game(game: &Game) -> Result<Mainline, ReviewError> {
        if let Some(error) = game.error() {
            return Err(ReviewError::Unreadable(error.report()));
        }
        let start = game.start.as_ref().ok_or(ReviewError::NoStartPosition)?;
        let start_ply = start.ply();
        let moves: Vec<PlayedMove> = game
            .mainline()
            .map(|node| PlayedMove {
                san: node.san.clone(),
                uci: node.uci(),
            })
            .collect();
        let final_position = game.final_position().unwrap_or(start);
        let end = if final_position.is_checkmate() {
            Some(Ending::Checkmate)
        } else if final_position.is_stalemate() {
            Some(Ending::Stalemate)
        } else {
            None
        };
        Ok(Mainline {
            white: game.tag("White").map(str::to_owned),
            black: game.tag("Black").map(str::to_owned),
            start_ply,
            positions: vec![PositionInfo::default(); moves.len() + 1],
            moves,
            end,
        })
    }

    /// The side that plays move `index` (from 0).
    pub fn mover(&self, index: usize) -> Color {
        if self.ply(index) % 2 == 1 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The ply of move `index` (from 0): `start_ply + index + 1`.
    pub fn ply(&self, index: usize) -> u32 {
        let index = u32::try_from(index).unwrap_or(u32::MAX);
        self.start_ply.saturating_add(index).saturating_add(1)
    }

    /// Move `index` (from 0) as people name it: `12. Nf3`, `12... Nf6`.
    pub fn label(&self, index: usize) -> String {
        let ply = self.ply(index);
        let number = ply.div_ceil(2);
        let san = self.moves.get(index).map_or("", |m| m.san.as_str());
        match self.mover(index) {
            Color::White => format!("{number}. {san}"),
            Color::Black => format!("{number}... {san}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabla_pgn::Reader;

    fn game(pgn: &str) -> Game {
        Reader::new(pgn.as_bytes())
            .games()
            .next()
            .expect("a game")
            .expect("read")
    }

    #[test]
    fn plies_from_a_set_up_position() {
        let g = game("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n\n40... Kd7 41. e4 *");
        let line = Mainline::from_game(&g).expect("mainline");
        assert_eq!(line.start_ply, 79);
        assert_eq!((line.ply(0), line.mover(0)), (80, Color::Black));
        assert_eq!(line.label(0), "40... Kd7");
        assert_eq!(line.label(1), "41. e4");
        assert_eq!(line.end, None);
    }

    #[test]
    fn stalemate_and_refusals() {
        let g = game("[FEN \"7k/8/6K1/8/8/8/8/5Q2 w - - 0 1\"]\n\n1. Qf7 1/2-1/2");
        assert_eq!(
            Mainline::from_game(&g).expect("line").end,
            Some(Ending::Stalemate)
        );
        let g = game("1. e4 e5 2. Ke3 Nc6 *");
        assert!(matches!(
            Mainline::from_game(&g),
            Err(ReviewError::Unreadable(text)) if text.contains("Ke3")
        ));
    }
}
