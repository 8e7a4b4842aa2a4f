//! Errors of the API as `{"error": "..."}` with a status code (and, when an endgame table is not
//! built, `"missing"` and `"command"`).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// A request the API refuses: the status (always 4xx for something the client sent) and a
/// message saying what was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What went wrong, for a person.
    pub message: String,
    /// The endgame table whose absence stopped the answer (`GET /api/tb`), if that is the cause.
    pub missing: Option<MissingTable>,
}

/// An endgame table the server does not have, and how to build it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingTable {
    /// The ending as built (the stronger side White): `KQvKR`.
    pub material: String,
    /// The command that builds it (and the tables it leads to): `tabla tb build KQvKR`.
    pub command: String,
}

impl ApiError {
    /// A 400 Bad Request.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// An error with any status.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            missing: None,
        }
    }

    /// A 422: the position's ending has no table on this server.
    pub fn missing_table(message: impl Into<String>, missing: MissingTable) -> ApiError {
        ApiError {
            missing: Some(missing),
            ..ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = match self.missing {
            None => json!({ "error": self.message }),
            Some(m) => json!({
                "error": self.message,
                "missing": m.material,
                "command": m.command,
            }),
        };
        (self.status, axum::Json(body)).into_response()
    }
}
