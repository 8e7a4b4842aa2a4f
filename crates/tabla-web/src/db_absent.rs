//! The `/api/db` routes of a server built without the game database (the cargo feature `db` of
//! tabla-web and tabla-cli, off in the quick build: DataFusion is most of a cold build). They
//! answer as a server started without `--db` does, with a hint that says how to build one with it.

use crate::api_error::ApiError;
use axum::Json;
use axum::http::StatusCode;
use serde_json::{Value, json};

/// Why there is no database, and what to do.
pub const WITHOUT_DB: &str = "this tabla was built without the game database: build it with \
     `cargo build --release -p tabla-cli --features db` (DataFusion: about 20 minutes more on 2 cores)";

/// `GET /api/db`: `{"db": null, "hint"}`, as a server without `--db` answers.
pub async fn info() -> Json<Value> {
    Json(json!({ "db": null, "hint": WITHOUT_DB }))
}

/// Every other `/api/db` route: 404 with the hint.
pub async fn absent() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, WITHOUT_DB)
}
