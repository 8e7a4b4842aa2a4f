//! The game database behind the `/api/db` routes (`tabla serve --db DIR`): opened once at start,
//! shared by the handlers, and queried on blocking threads, a few queries at a time. Its query
//! engine runs a Tokio runtime of its own, which may neither run nor be dropped on an async
//! worker thread (Tokio panics in both cases); this module is the one place that knows it.

use crate::api_error::ApiError;
use axum::http::StatusCode;
use std::path::Path;
use std::sync::Arc;
use tabla_db::{Database, DbError, QueryOptions};
use tokio::sync::Semaphore;

/// What the `/api/db` routes say when the server has no database.
pub const NO_DB_HINT: &str =
    "tabla serve --db DIR; make one with tabla db import GAMES.pgn --db DIR";

/// Queries running at once: each uses every core, and a position search replays every game.
const QUERIES_AT_ONCE: usize = 2;

/// The query parameters the API names where tabla-db's messages name the command line's flags.
const PARAMETERS: [&str; 10] = [
    "fen", "moves", "material", "pattern", "rating", "speed", "since", "until", "player", "color",
];

/// An open game database, shared by the request handlers.
pub struct GameDb {
    /// Always `Some` until dropped.
    db: Option<Database>,
    permits: Semaphore,
}

impl std::fmt::Debug for GameDb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameDb").field("db", &self.db).finish()
    }
}

impl GameDb {
    /// Opens the database in `dir` with the default engine options (every core, 1 GiB before
    /// spilling). Blocking, and not on an async worker thread: use `spawn_blocking` there.
    pub fn open(dir: &Path) -> Result<GameDb, DbError> {
        Database::open_with(dir, &QueryOptions::default()).map(GameDb::new)
    }

    /// Shares an open database.
    pub fn new(db: Database) -> GameDb {
        GameDb {
            db: Some(db),
            permits: Semaphore::new(QUERIES_AT_ONCE),
        }
    }

    /// The database.
    pub fn database(&self) -> &Database {
        // `db` is taken only in `drop`.
        self.db
            .as_ref()
            .unwrap_or_else(|| unreachable!("a GameDb holds its database until dropped"))
    }

    /// Runs `work` on the database on a blocking thread, once one of the permits is free.
    pub async fn query<T, F>(self: &Arc<Self>, work: F) -> Result<T, ApiError>
    where
        F: FnOnce(&Database) -> Result<T, ApiError> + Send + 'static,
        T: Send + 'static,
    {
        let _permit = self.permits.acquire().await.map_err(|_| {
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping")
        })?;
        let shared = Arc::clone(self);
        tokio::task::spawn_blocking(move || work(shared.database()))
            .await
            .map_err(|e| {
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("the database query failed: {e}"),
                )
            })?
    }
}

impl Drop for GameDb {
    fn drop(&mut self) {
        // Dropping the engine's runtime on an async worker panics: a plain thread drops it then.
        if let Some(db) = self.db.take()
            && tokio::runtime::Handle::try_current().is_ok()
        {
            let _ = std::thread::Builder::new()
                .name("tabla-db-close".to_owned())
                .spawn(move || drop(db));
        }
    }
}

/// A database error as the API answers it: 400 for the caller's mistake (a bad FEN, move or
/// filter), with the query parameter named as the API names it, 500 otherwise.
pub fn db_error(e: DbError) -> ApiError {
    if !e.is_usage() {
        return ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string());
    }
    let mut text = e.to_string().replace("--player-match", "`player_match`");
    for name in PARAMETERS {
        text = text.replace(&format!("--{name}"), &format!("`{name}`"));
    }
    ApiError::bad_request(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_errors_are_400_and_name_the_query_parameter() {
        let e = db_error(DbError::Argument("--color needs --player".into()));
        assert_eq!(e.status, StatusCode::BAD_REQUEST);
        assert_eq!(e.message, "`color` needs `player`");
        let e = db_error(DbError::Query("disk full".into()));
        assert_eq!(e.status, StatusCode::INTERNAL_SERVER_ERROR);
    }
}
