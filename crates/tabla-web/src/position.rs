//! `GET /api/position` and `GET /api/play`: a position's status and legal moves, and the
//! position after a move.

use crate::api_error::ApiError;
use crate::query::{Params, fen_param, required};
use axum::Json;
use serde::Serialize;
use tabla::{Color, Move, Position};

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

/// The answer of `GET /api/position`.
#[derive(Serialize, Debug)]
pub struct PositionJson {
    /// The canonical FEN.
    pub fen: String,
    /// `white` or `black`.
    pub turn: &'static str,
    /// `checkmate`, `stalemate`, `insufficient material`, `75-move rule`, `fivefold repetition`
    /// or `in play`.
    pub status: &'static str,
    /// The side to move is in check.
    pub check: bool,
    /// Every legal move, in tabla's order.
    pub legal_moves: Vec<MoveNotations>,
}

impl PositionJson {
    /// Describes a position.
    pub fn of(pos: &Position) -> PositionJson {
        let status = pos.status();
        PositionJson {
            fen: pos.to_fen(),
            turn: match pos.turn() {
                Color::White => "white",
                Color::Black => "black",
            },
            status: status.end.map_or("in play", |end| end.description()),
            check: status.check,
            legal_moves: pos
                .legal_moves()
                .iter()
                .map(|&mv| MoveNotations::of(pos, mv))
                .collect(),
        }
    }
}

/// `GET /api/position?fen=F`.
pub async fn position(params: Params) -> Result<Json<PositionJson>, ApiError> {
    let pos = fen_param(&params)?;
    Ok(Json(PositionJson::of(&pos)))
}

/// The answer of `GET /api/play`: the move played and the position after it.
#[derive(Serialize, Debug)]
pub struct PlayedJson {
    /// The move, in the position before it.
    pub played: MoveNotations,
    /// The position after it.
    #[serde(flatten)]
    pub position: PositionJson,
}

/// `GET /api/play?fen=F&uci=M`: `M` in UCI (castling as `e1g1` or king takes rook).
pub async fn play(params: Params) -> Result<Json<PlayedJson>, ApiError> {
    let mut pos = fen_param(&params)?;
    let text = required(&params, "uci")?;
    let mv = pos
        .parse_uci(text.trim())
        .map_err(|e| ApiError::bad_request(format!("move {text:?}: {e}")))?;
    let played = MoveNotations::of(&pos, mv);
    pos.play_unchecked(mv);
    Ok(Json(PlayedJson {
        played,
        position: PositionJson::of(&pos),
    }))
}
