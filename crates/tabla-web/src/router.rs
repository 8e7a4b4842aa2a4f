//! The routes.

use crate::state::AppState;
use crate::{assets, kbnk, pgn, pgn_game, pgn_index, position, suggest};
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};

/// The whole application: the API routes and the embedded front end.
pub fn router(state: AppState) -> Router {
    let limit = state.body_limit;
    Router::new()
        .route("/api/position", get(position::position))
        .route("/api/play", get(position::play))
        .route("/api/kbnk", get(kbnk::kbnk))
        .route("/api/suggest", get(suggest::suggest))
        .route(
            "/api/pgn",
            post(pgn::pgn).layer(DefaultBodyLimit::max(limit)),
        )
        .route(
            "/api/pgn/index",
            post(pgn_index::pgn_index).layer(DefaultBodyLimit::max(limit)),
        )
        .route(
            "/api/pgn/game",
            post(pgn_game::pgn_game).layer(DefaultBodyLimit::max(limit)),
        )
        .route("/api/sample", get(sample))
        .fallback(assets::asset)
        .with_state(state)
}

async fn sample(
    axum::extract::State(state): axum::extract::State<AppState>,
) -> impl axum::response::IntoResponse {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "application/x-chess-pgn; charset=utf-8",
        )],
        state.sample_pgn.to_string(),
    )
}
