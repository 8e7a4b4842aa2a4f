//! The game database behind the `/api/db` routes (`tabla serve --db DIR`): opened at start,
//! shared by the handlers, queried on blocking threads, a few queries at a time, and opened
//! again when its manifest changes (an import or a compaction by another process), so the server
//! answers from what is committed now. Its query engine runs a Tokio runtime of its own, which may
//! neither run nor be dropped on an async worker thread (Tokio panics in both cases); this module
//! is the one place that knows it.

use crate::api_error::ApiError;
use axum::http::StatusCode;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tabla_db::{Database, DbError, Manifest, QueryOptions};
use tokio::sync::Semaphore;

/// What the `/api/db` routes say when the server has no database.
pub const NO_DB_HINT: &str =
    "tabla serve --db DIR; make one with tabla db import GAMES.pgn --db DIR";

/// Queries running at once: each uses every core, and a position search replays every game.
const QUERIES_AT_ONCE: usize = 2;

/// How often a query checks the database's files again (`tabla_db::verify_parts`) while its
/// manifest stays the same: a file deleted or cut under the running server stops its answers
/// within this time instead of making them smaller.
pub const RECHECK_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// The query parameters the API names where tabla-db's messages name the command line's flags.
const PARAMETERS: [&str; 10] = [
    "fen", "moves", "material", "pattern", "rating", "speed", "since", "until", "player", "color",
];

/// The game database, shared by the request handlers: the database as last opened, and what it
/// takes to open it again.
pub struct GameDb {
    dir: PathBuf,
    options: QueryOptions,
    /// The database as last opened; replaced when the manifest on disk is another.
    current: Mutex<Arc<Opened>>,
    /// When the files were last found whole.
    checked: Mutex<std::time::Instant>,
    permits: Semaphore,
}

/// A database as opened once, shared by the queries running on it: a query that started before
/// a reopening finishes on the database it started on.
pub struct Opened {
    /// Always `Some` until dropped.
    db: Option<Database>,
}

impl std::ops::Deref for Opened {
    type Target = Database;

    fn deref(&self) -> &Database {
        // `db` is taken only in `drop`.
        self.db
            .as_ref()
            .unwrap_or_else(|| unreachable!("an opened database holds it until dropped"))
    }
}

impl Drop for Opened {
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

impl std::fmt::Debug for GameDb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameDb").field("dir", &self.dir).finish()
    }
}

impl GameDb {
    /// Opens the database in `dir` with the default engine options (every core, 1 GiB before
    /// spilling). Blocking, and not on an async worker thread: use `spawn_blocking` there.
    pub fn open(dir: &Path) -> Result<GameDb, DbError> {
        GameDb::open_with(dir, QueryOptions::default())
    }

    /// Opens the database in `dir` with these engine options (also when it is opened again).
    pub fn open_with(dir: &Path, options: QueryOptions) -> Result<GameDb, DbError> {
        Database::open_with(dir, &options).map(|db| GameDb::new(db, options))
    }

    /// Shares an open database, opened with `options` (which reopening uses).
    pub fn new(db: Database, options: QueryOptions) -> GameDb {
        GameDb {
            dir: db.dir().to_owned(),
            options,
            current: Mutex::new(Arc::new(Opened { db: Some(db) })),
            checked: Mutex::new(std::time::Instant::now()),
            permits: Semaphore::new(QUERIES_AT_ONCE),
        }
    }

    /// The database as last opened (without looking at the disk).
    pub fn database(&self) -> Arc<Opened> {
        Arc::clone(&self.current.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// The database as committed now: the one last opened if its manifest is still the one on
    /// disk, else opened again. Blocking (it reads the manifest), not on an async worker thread.
    /// A database that cannot be opened again (a damaged part in the new import) is the error,
    /// and so is one whose files are no longer whole (checked every [`RECHECK_EVERY`]).
    pub fn fresh(&self) -> Result<Arc<Opened>, DbError> {
        let mut current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        if Manifest::read(&self.dir)? == *current.manifest() {
            let mut checked = self.checked.lock().unwrap_or_else(|e| e.into_inner());
            if checked.elapsed() >= RECHECK_EVERY {
                tabla_db::verify_parts(&self.dir)?;
                *checked = std::time::Instant::now();
            }
            return Ok(Arc::clone(&current));
        }
        let db = Database::open_with(&self.dir, &self.options)?;
        *current = Arc::new(Opened { db: Some(db) });
        *self.checked.lock().unwrap_or_else(|e| e.into_inner()) = std::time::Instant::now();
        Ok(Arc::clone(&current))
    }

    /// Runs `work` on the database as committed now ([`GameDb::fresh`]) on a blocking thread,
    /// once one of the permits is free.
    pub async fn query<T, F>(self: &Arc<Self>, work: F) -> Result<T, ApiError>
    where
        F: FnOnce(&Database) -> Result<T, ApiError> + Send + 'static,
        T: Send + 'static,
    {
        let _permit = self.permits.acquire().await.map_err(|_| {
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping")
        })?;
        let shared = Arc::clone(self);
        tokio::task::spawn_blocking(move || work(&*shared.fresh().map_err(db_error)?))
            .await
            .map_err(|e| {
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("the database query failed: {e}"),
                )
            })?
    }
}

/// A database error as the API answers it: 400 for the caller's mistake (a bad FEN, move or
/// filter), with the query parameter named as the API names it, 500 otherwise.
pub fn db_error(e: DbError) -> ApiError {
    if let DbError::DamagedPart { .. } = e {
        // The answer says no more than what failed (`failure_answer`), so it says where to look.
        return ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!(
                "a file of the database is damaged and it cannot answer until it is repaired \
                 (`tabla db info` says which file and how to repair it): {e}"
            ),
        );
    }
    if !e.is_usage() {
        return ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the database failed: {e}"),
        );
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
