//! Errors of the API as `{"error": "..."}` with a status code (and, when an endgame table is not
//! built, `"missing"` and `"command"`).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use std::sync::atomic::{AtomicU64, Ordering};

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

    /// A 502: the engine failed (a UCI program that crashed, hung or broke the protocol). Unlike
    /// the server's own failures, the answer says why, in the engine's words: `text` should come
    /// from [`engine_text`], which leaves the server's paths out.
    pub fn engine_failed(text: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_GATEWAY, text)
    }

    /// A 422: the position's ending has no table on this server.
    pub fn missing_table(message: impl Into<String>, missing: MissingTable) -> ApiError {
        ApiError {
            missing: Some(missing),
            ..ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
        }
    }
}

/// The server's failures so far: each is numbered in the server's log and in its answer.
static FAILURES: AtomicU64 = AtomicU64::new(0);

/// What a client is told of a failure of the server (`message`: `what failed: why`): `what
/// failed`, and the number under which the whole message is written to the server's log
/// (standard error). The `why` may name local paths and library internals, which stay on the
/// machine.
///
/// ```
/// let told = tabla_web::failure_answer("the database query failed: /home/me/db/games/x.parquet: EOF");
/// assert!(told.starts_with("the database query failed (error "), "{told}");
/// assert!(!told.contains("/home"), "{told}");
/// ```
pub fn failure_answer(message: &str) -> String {
    let n = FAILURES.fetch_add(1, Ordering::Relaxed) + 1;
    eprintln!("tabla serve: error {n}: {message}");
    let what = match message.split_once(": ") {
        Some((what, _)) if !what.contains(['/', '\\']) => what,
        Some(_) => "the server failed to answer",
        None if message.contains(['/', '\\']) => "the server failed to answer",
        None => message,
    };
    format!("{what} (error {n}; the log of `tabla serve`, its standard error, says why)")
}

/// `text`, an engine's error or note, as the API says it: the engine named by its program's
/// file name, not by the path the server was given (`tabla serve --engine PATH`).
///
/// ```
/// let said = tabla_web::engine_text(
///     "/home/me/engines/sf15",
///     "engine sf15 (/home/me/engines/sf15): no answer in 2 s",
/// );
/// assert_eq!(said, "engine sf15 (sf15): no answer in 2 s");
/// ```
pub fn engine_text(program: &str, text: &str) -> String {
    let name = std::path::Path::new(program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    match name {
        Some(name) if !program.is_empty() && name != program => text.replace(program, &name),
        _ => text.to_owned(),
    }
}

impl IntoResponse for ApiError {
    /// `{"error"}` (with `missing` and `command` for an endgame table not built). A server error
    /// (5xx) says what failed and no more ([`failure_answer`]): the whole message is in the
    /// server's log; but a failed engine (502, [`ApiError::engine_failed`]) is described.
    fn into_response(self) -> Response {
        if self.status.is_server_error() && self.status != StatusCode::BAD_GATEWAY {
            let body = json!({ "error": failure_answer(&self.message) });
            return (self.status, axum::Json(body)).into_response();
        }
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
