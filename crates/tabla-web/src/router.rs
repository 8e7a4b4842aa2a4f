//! The routes.

use crate::api_error::ApiError;
#[cfg(feature = "db")]
use crate::db_review;
use crate::state::AppState;
use crate::{analyse, assets, db, pgn, pgn_game, pgn_index, position, review, suggest, tb};
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};

/// The whole application: the API routes and the embedded front end.
pub fn router(state: AppState) -> Router {
    let limit = state.body_limit;
    Router::new()
        .route("/api/position", get(position::position))
        .route("/api/play", get(position::play))
        .route("/api/kbnk", get(tb::kbnk))
        .route("/api/tb", get(tb::tb))
        .route("/api/suggest", get(suggest::suggest))
        .route("/api/engine", get(analyse::engine))
        .route("/api/analyse", get(analyse::analyse))
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
        .route(
            "/api/review",
            post(review::review).layer(DefaultBodyLimit::max(limit)),
        )
        .route("/api/sample", get(sample))
        .merge(db_routes())
        .method_not_allowed_fallback(method_not_allowed)
        .fallback(assets::asset)
        .layer(axum::middleware::from_fn(crate::known_params::check))
        .layer(axum::middleware::from_fn_with_state(
            state.hosts.clone(),
            crate::site_guard::guard,
        ))
        .with_state(state)
}

/// The game database's routes.
#[cfg(feature = "db")]
fn db_routes() -> Router<AppState> {
    Router::new()
        .route("/api/db", get(db::info))
        .route("/api/db/explore", get(db::explore))
        .route("/api/db/search", get(db::search))
        .route("/api/db/games", get(db::games))
        .route("/api/db/players", get(db::players))
        .route("/api/db/game/{id}", get(db::game))
        .route("/api/db/review", post(db_review::review))
        .route("/api/db/review/plan", get(db_review::plan))
}

/// The game database's routes in a build without it: what a server without `--db` answers.
#[cfg(not(feature = "db"))]
fn db_routes() -> Router<AppState> {
    Router::new()
        .route("/api/db", get(db::info))
        .route("/api/db/explore", get(db::absent))
        .route("/api/db/search", get(db::absent))
        .route("/api/db/games", get(db::absent))
        .route("/api/db/players", get(db::absent))
        .route("/api/db/game/{id}", get(db::absent))
        .route("/api/db/review", post(db::absent))
        .route("/api/db/review/plan", get(db::absent))
}

/// A route called with a method it does not take: 405 with a JSON error (axum adds the `Allow`
/// header naming the methods it does take).
async fn method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        axum::http::StatusCode::METHOD_NOT_ALLOWED,
        format!("{} does not take {method}", uri.path()),
    )
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
