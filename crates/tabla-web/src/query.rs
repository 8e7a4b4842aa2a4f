//! The query string of a request: its parameters, read with errors that say which one is
//! missing or malformed (400), for every route that takes them.

use crate::api_error::ApiError;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use std::collections::HashMap;
use tabla::{Move, Position, Validation};

/// The query string as name → value; a malformed one is refused with 400.
pub type Params = Result<Query<HashMap<String, String>>, QueryRejection>;

/// The parameters, or 400 when the query string is malformed.
pub fn parameters(params: &Params) -> Result<&HashMap<String, String>, ApiError> {
    params
        .as_ref()
        .map(|Query(map)| map)
        .map_err(|e| ApiError::bad_request(format!("malformed query string: {}", e.body_text())))
}

/// The value of a required query parameter.
pub fn required<'a>(params: &'a Params, name: &str) -> Result<&'a str, ApiError> {
    parameters(params)?
        .get(name)
        .map(String::as_str)
        .ok_or_else(|| ApiError::bad_request(format!("missing query parameter `{name}`")))
}

/// The value of an optional query parameter (`None` when absent; a malformed query string is
/// refused by [`required`] or [`parameters`] first).
pub fn optional<'a>(params: &'a Params, name: &str) -> Option<&'a str> {
    params.as_ref().ok()?.0.get(name).map(String::as_str)
}

/// Reads the `fen` parameter as a strictly validated position (or `startpos`).
pub fn fen_param(params: &Params) -> Result<Position, ApiError> {
    let fen = required(params, "fen")?;
    Position::from_text(fen, Validation::Strict)
        .map_err(|e| ApiError::bad_request(format!("invalid FEN {fen:?}: {e}")))
}

/// A position given as `fen` and the UCI moves of `moves` played from it.
pub struct PlayedLine {
    /// The position of `fen`.
    pub start: Position,
    /// The moves of `moves`, each legal where it is played.
    pub moves: Vec<Move>,
    /// The position they reach, with its history (for repetitions).
    pub reached: Position,
}

/// Reads `fen` and, when given, `moves`: UCI moves separated by spaces or commas, played from
/// it; the first illegal one is refused with 400, naming it and its number.
pub fn line_param(params: &Params) -> Result<PlayedLine, ApiError> {
    let start = fen_param(params)?;
    let mut reached = start.clone_without_history();
    let mut moves = Vec::new();
    let text = optional(params, "moves").unwrap_or("");
    for (i, uci) in text
        .split([' ', ','])
        .filter(|word| !word.is_empty())
        .enumerate()
    {
        let mv = reached
            .parse_uci(uci)
            .map_err(|e| ApiError::bad_request(format!("moves: move {} ({uci:?}): {e}", i + 1)))?;
        reached.play_unchecked(mv);
        moves.push(mv);
    }
    Ok(PlayedLine {
        start,
        moves,
        reached,
    })
}
