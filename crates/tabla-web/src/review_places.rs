//! What the server's game reviews share ([`GameReviews`]): where the evaluation cache is, and
//! the place of the one engine review that may run ([`MAX_REVIEWS`]).

use crate::api_error::ApiError;
use axum::http::StatusCode;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tabla_review::{CacheConfig, EvalCache};
use tokio::sync::Semaphore;

/// Engine reviews running at once; one more is answered 429. A review keeps every core busy.
pub const MAX_REVIEWS: usize = 1;

/// What the server's reviews share: where the evaluation cache is, and the place of the one
/// review that may run.
pub struct GameReviews {
    cache_root: Option<PathBuf>,
    pub(crate) places: Arc<Semaphore>,
}

impl GameReviews {
    /// Reviews keeping their evaluations under `cache_root` (one folder per engine, options
    /// and budget, as [`EvalCache::open`] makes them), or in memory for one review only.
    pub fn new(cache_root: Option<PathBuf>) -> GameReviews {
        GameReviews {
            cache_root,
            places: Arc::new(Semaphore::new(MAX_REVIEWS)),
        }
    }

    /// `tabla review`'s cache: `evals` in tabla's data directory ([`tabla::data_dir`]).
    pub fn in_data_dir() -> GameReviews {
        GameReviews::new(tabla::data_dir().map(|dir| dir.join("evals")))
    }

    /// The evaluation cache's root, if evaluations are kept.
    pub fn cache_root(&self) -> Option<&Path> {
        self.cache_root.as_deref()
    }

    /// Engine reviews running now, counted until their engines have stopped.
    pub fn running(&self) -> usize {
        MAX_REVIEWS - self.places.available_permits()
    }

    /// The cache of `config`: on disk under the root, else in memory.
    pub(crate) fn open_cache(&self, config: &CacheConfig) -> Result<EvalCache, ApiError> {
        match &self.cache_root {
            Some(root) => EvalCache::open(root, config).map_err(|e| {
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("the evaluation cache cannot be opened: {e}"),
                )
            }),
            None => Ok(EvalCache::in_memory()),
        }
    }
}
