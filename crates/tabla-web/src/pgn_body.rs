//! What the PGN routes share: the request body with its size limit, and running the reader off
//! the async threads, a few at a time.

use crate::api_error::ApiError;
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;

/// The PGN body of a request; 413 with `{"error"}` when it is over the limit, the rejection's
/// own status (4xx) otherwise.
pub fn pgn_body(state: &AppState, body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(|e| {
        let status = e.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                status,
                format!(
                    "the PGN is larger than the limit of {} bytes",
                    state.body_limit
                ),
            )
        } else if e.body_text().contains("timeout") {
            // The body stopped arriving (crate::connections::BODY_TIMEOUT).
            ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "the request's body stopped arriving before its end (see the server's time limits)",
            )
        } else {
            ApiError::new(status, e.body_text())
        }
    })
}

/// Runs `work` (reading PGN: CPU work) on tokio's blocking threads, at most
/// [`AppState::pgn_permits`] at once, since each can take much memory.
pub async fn read_blocking<T, F>(state: &AppState, work: F) -> Result<T, ApiError>
where
    F: FnOnce() -> Result<T, ApiError> + Send + 'static,
    T: Send + 'static,
{
    let _permit =
        state.pgn_permits.acquire().await.map_err(|_| {
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping")
        })?;
    tokio::task::spawn_blocking(work).await.map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("PGN reader failed: {e}"),
        )
    })?
}
