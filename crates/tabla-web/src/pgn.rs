//! `POST /api/pgn`: every game of a PGN text as JSON.

use crate::api_error::ApiError;
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{StatusCode, header};
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
    let body = body.map_err(|e| {
        let status = e.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                status,
                format!(
                    "the PGN is larger than the limit of {} bytes",
                    state.body_limit
                ),
            )
        } else {
            ApiError::new(status, e.body_text())
        }
    })?;
    // Reading is CPU work: off the async threads, and only a few at once (memory).
    let _permit =
        state.pgn_permits.acquire().await.map_err(|_| {
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping")
        })?;
    let games = tokio::task::spawn_blocking(move || games_json(&body))
        .await
        .map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("PGN reader failed: {e}"),
            )
        })?
        .map_err(|e| ApiError::bad_request(format!("could not read the PGN: {e}")))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], games).into_response())
}
