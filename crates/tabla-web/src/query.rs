//! The query string of a request: its parameters, read with errors that say which one is
//! missing or malformed (400), for every route that takes them.

use crate::api_error::ApiError;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use std::collections::HashMap;
use tabla::Position;

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

/// Reads the `fen` parameter as a strictly validated position.
pub fn fen_param(params: &Params) -> Result<Position, ApiError> {
    let fen = required(params, "fen")?;
    Position::from_fen(fen.trim())
        .map_err(|e| ApiError::bad_request(format!("invalid FEN {fen:?}: {e}")))
}
