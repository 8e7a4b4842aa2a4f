//! `POST /api/pgn`: every game of a PGN text as JSON.

use crate::api_error::ApiError;
use crate::pgn_body::{pgn_body, read_blocking};
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use tabla_pgn::{Reader, game_json};

/// `{"games": [...]}` for every game of `pgn` (UTF-8 or Latin-1 bytes), each as [`game_json`]
/// writes it: a damaged game carries its `error` and the games after it are read as usual.
pub fn games_json(pgn: &[u8]) -> Result<String, std::io::Error> {
    let mut out = String::from(r#"{"games":["#);
    let mut reader = Reader::new(pgn);
    for (i, game) in reader.games().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&game_json(&game?));
    }
    out.push_str("]}");
    Ok(out)
}

/// `POST /api/pgn` with the PGN text as the body: `{"games": [...]}`; 413 when the body is over
/// the limit.
pub async fn pgn(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = pgn_body(&state, body)?;
    let games = read_blocking(&state, move || {
        games_json(&body).map_err(|e| ApiError::bad_request(format!("could not read the PGN: {e}")))
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], games).into_response())
}
