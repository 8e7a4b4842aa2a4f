//! The game database's routes (`tabla serve --db DIR`): `GET /api/db` (what it holds),
//! `/api/db/explore` (the opening explorer), `/api/db/search` (position, material and pattern
//! search), `/api/db/games` (a page of games, with a text search; the lists of both with each
//! game's review figures) and `/api/db/game/{id}` (one game, as `POST /api/pgn/game` answers
//! it). The answers are tabla-db's own, as JSON. `POST /api/db/review` is [`crate::db_review`].

use crate::api_error::ApiError;
use crate::db_params::{filters, page, search_query, target, text};
use crate::game_db::{GameDb, NO_DB_HINT, db_error};
use crate::pgn_game::{Origin, game_with_pgn};
use crate::query::Params;
use crate::state::AppState;
use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use std::sync::Arc;
use tabla_db::{Explorer, GamePage, SearchAnswer};

/// The rules of the server's reviews, as the database's `rules` column names them
/// (`tabla db review`'s default): the reviews a list shows first.
const RULES: &str = "lichess";

/// The database, or 404 saying how to start the server with one.
pub(crate) fn database(state: &AppState) -> Result<Arc<GameDb>, ApiError> {
    state.db.clone().ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("this server has no game database: start it with {NO_DB_HINT}"),
        )
    })
}

/// `GET /api/db`: what the database holds ([`tabla_db::Info`]), or `{"db": null, "hint"}`
/// when the server has none.
pub async fn info(State(state): State<AppState>) -> Result<Response, ApiError> {
    let Some(db) = state.db.clone() else {
        return Ok(Json(json!({ "db": null, "hint": NO_DB_HINT })).into_response());
    };
    let info = db.query(|db| db.info().map_err(db_error)).await?;
    Ok(Json(info).into_response())
}

/// The configuration whose reviews the game lists show first: the one the server's reviews
/// write (`POST /api/db/review`, and `tabla db review` by default). A game it has not reviewed
/// shows the review of the configuration that reviewed it last ([`tabla_db::Database::add_reviews`]).
fn shown_reviews(state: &AppState) -> String {
    state.reviews.config(&state.live).dir_name()
}

/// `GET /api/db/explore?fen=F|moves=M` and the filters: the explorer's answer.
pub async fn explore(
    State(state): State<AppState>,
    params: Params,
) -> Result<Json<Explorer>, ApiError> {
    let db = database(&state)?;
    let (target, filters) = (target(&params)?, filters(&params)?);
    let answer = db
        .query(move |db| db.explore(&target, &filters).map_err(db_error))
        .await?;
    Ok(Json(answer))
}

/// `GET /api/db/search?fen=F|moves=M|material=KRvK[&either_color=1]|pattern=P`, the filters,
/// `limit` and `offset`: the games that match, most recent first.
pub async fn search(
    State(state): State<AppState>,
    params: Params,
) -> Result<Json<SearchAnswer>, ApiError> {
    let db = database(&state)?;
    let (query, filters, page) = (search_query(&params)?, filters(&params)?, page(&params)?);
    let shown = shown_reviews(&state);
    let answer = db
        .query(move |db| {
            let mut answer = db
                .search(&query, &filters, page.limit, page.offset)
                .map_err(db_error)?;
            db.add_reviews(&mut answer.games, Some((&shown, RULES)))
                .map_err(db_error)?;
            Ok(answer)
        })
        .await?;
    Ok(Json(answer))
}

/// `GET /api/db/games?q=TEXT`, the filters, `limit` and `offset`: a page of the games, most
/// recent first.
pub async fn games(
    State(state): State<AppState>,
    params: Params,
) -> Result<Json<GamePage>, ApiError> {
    let db = database(&state)?;
    let (filters, page, text) = (filters(&params)?, page(&params)?, text(&params)?);
    let shown = shown_reviews(&state);
    let answer = db
        .query(move |db| {
            let mut answer = db
                .games(&filters, text.as_deref(), page.limit, page.offset)
                .map_err(db_error)?;
            db.add_reviews(&mut answer.games, Some((&shown, RULES)))
                .map_err(db_error)?;
            Ok(answer)
        })
        .await?;
    Ok(Json(answer))
}

/// `GET /api/db/players?q=TEXT&limit=N`: the players whose name contains `TEXT` in any case,
/// with their games, most first (`{"players": [{"name", "games"}]}`): the exact names the
/// `player` filter takes.
pub async fn players(
    State(state): State<AppState>,
    params: Params,
) -> Result<Json<serde_json::Value>, ApiError> {
    let db = database(&state)?;
    let (page, text) = (page(&params)?, text(&params)?);
    let players = db
        .query(move |db| {
            db.players(text.as_deref().unwrap_or(""), page.limit)
                .map_err(db_error)
        })
        .await?;
    Ok(Json(json!({ "players": players })))
}

/// `GET /api/db/game/{id}`: the game read from its PGN by the same code as
/// `POST /api/pgn/game` ([`game_with_pgn`]), so the PGN browser shows it as any other; 404
/// when the database has no such game, 400 for an id that is not one.
pub async fn game(
    State(state): State<AppState>,
    id: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let db = database(&state)?;
    let Path(id) = id.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let json = db
        .query(move |db| {
            let pgn = db.game_pgn(&id).map_err(db_error)?.ok_or_else(|| {
                ApiError::new(
                    StatusCode::NOT_FOUND,
                    format!("no game with id {:?} in the database", id.trim()),
                )
            })?;
            game_with_pgn(pgn.as_bytes(), Origin::default())
        })
        .await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}
