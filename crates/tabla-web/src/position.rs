//! `GET /api/position` and `GET /api/play`: a position's status and legal moves (after a line of
//! moves, with their numbered SAN), and the position after a move.

use crate::api_error::ApiError;
use crate::notation::MoveNotations;
use crate::query::{Params, PlayedLine, fen_param, line_param, optional, required};
use axum::Json;
use serde::Serialize;
use tabla::Position;

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

/// The answer of `GET /api/position`: the position, and with `moves` the line that reached it.
#[derive(Serialize, Debug)]
pub struct PositionLineJson {
    /// The position (after `moves`).
    #[serde(flatten)]
    pub position: PositionJson,
    /// With `moves`: the moves played from the `fen` asked for, as numbered SAN
    /// (`1. e4 e5 2. Nf3`), written by the core's [`Position::variation_san`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
}

impl PositionJson {
    /// Describes a position.
    pub fn of(pos: &Position) -> PositionJson {
        let status = pos.status();
        PositionJson {
            fen: pos.to_fen(),
            turn: pos.turn().name(),
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

/// `GET /api/position?fen=F[&moves=M1 M2 ...]`: the position `F`, or the one reached by playing
/// the UCI moves `M1 M2 ...` (separated by spaces or commas) from it, with their numbered SAN.
pub async fn position(params: Params) -> Result<Json<PositionLineJson>, ApiError> {
    if optional(&params, "moves").is_none() {
        let start = fen_param(&params)?;
        return Ok(Json(PositionLineJson {
            position: PositionJson::of(&start),
            line: None,
        }));
    }
    let PlayedLine {
        start,
        moves,
        reached: pos,
    } = line_param(&params)?;
    let line = start
        .variation_san(&moves)
        .map_err(|e| ApiError::bad_request(format!("moves: {e}")))?;
    Ok(Json(PositionLineJson {
        position: PositionJson::of(&pos),
        line: Some(line),
    }))
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
