//! `GET /api/position` and `GET /api/play`: a position's status and legal moves, and the
//! position after a move.

use crate::api_error::ApiError;
use crate::notation::MoveNotations;
use crate::query::{Params, fen_param, required};
use axum::Json;
use serde::Serialize;
use tabla::{Color, Position};

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
