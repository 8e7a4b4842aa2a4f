//! `GET /api/position` and `GET /api/play`: a position's status and legal moves, and the
//! position after a move.

use crate::api_error::ApiError;
use axum::Json;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use serde::Serialize;
use std::collections::HashMap;
use tabla::{Color, Move, Position};

/// The query string as name → value; a malformed one is refused with 400.
pub type Params = Result<Query<HashMap<String, String>>, QueryRejection>;

/// The value of a required query parameter.
pub fn required<'a>(params: &'a Params, name: &str) -> Result<&'a str, ApiError> {
    let Query(map) = params
        .as_ref()
        .map_err(|e| ApiError::bad_request(format!("malformed query string: {}", e.body_text())))?;
    map.get(name)
        .map(String::as_str)
        .ok_or_else(|| ApiError::bad_request(format!("missing query parameter `{name}`")))
}

/// The value of an optional query parameter (`None` when absent; a malformed query string is
/// refused by [`required`] first).
pub fn optional<'a>(params: &'a Params, name: &str) -> Option<&'a str> {
    params.as_ref().ok()?.0.get(name).map(String::as_str)
}

/// Reads the `fen` parameter as a strictly validated position.
pub fn fen_param(params: &Params) -> Result<Position, ApiError> {
    let fen = required(params, "fen")?;
    Position::from_fen(fen.trim())
        .map_err(|e| ApiError::bad_request(format!("invalid FEN {fen:?}: {e}")))
}

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
    pos.play(mv);
    Ok(Json(PlayedJson {
        played,
        position: PositionJson::of(&pos),
    }))
}
