//! What the server's game reviews share ([`GameReviews`]): where the evaluation cache is, the
//! budget, and the place of the one engine review that may run ([`MAX_REVIEWS`]).

use crate::api_error::ApiError;
use crate::live::LiveEngines;
use axum::http::StatusCode;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tabla_analysis::Budget;
use tabla_review::{CacheConfig, DEFAULT_NODES, EvalCache};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Engine reviews running at once; one more is answered 429. A review keeps every core busy.
pub const MAX_REVIEWS: usize = 1;

/// What the server's reviews share: where the evaluation cache is, and the place of the one
/// review that may run.
pub struct GameReviews {
    cache_root: Option<PathBuf>,
    pub(crate) places: Arc<Semaphore>,
    budget: Budget,
}

impl GameReviews {
    /// Reviews keeping their evaluations under `cache_root` (one folder per engine, options
    /// and budget, as [`EvalCache::open`] makes them), or in memory for one review only.
    pub fn new(cache_root: Option<PathBuf>) -> GameReviews {
        GameReviews {
            cache_root,
            places: Arc::new(Semaphore::new(MAX_REVIEWS)),
            budget: Budget::Nodes(DEFAULT_NODES),
        }
    }

    /// Engine reviews searching each position with `budget` instead of [`DEFAULT_NODES`] (for
    /// tests: the clients of the API never choose the engine or its budget).
    pub fn with_budget(mut self, budget: Budget) -> GameReviews {
        self.budget = budget;
        self
    }

    /// Each position's budget in engine reviews: `tabla review`'s default, [`DEFAULT_NODES`].
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// The engine configuration of the server's reviews (the evaluation cache's, and the
    /// `engine` of the database's reviews): `live`'s engine at [`GameReviews::budget`].
    pub fn config(&self, live: &LiveEngines) -> CacheConfig {
        CacheConfig::of_engine(live.id(), live.spec(), self.budget)
    }

    /// The place of an engine review, if none runs (else the caller answers 429).
    pub(crate) fn try_place(&self) -> Option<OwnedSemaphorePermit> {
        Arc::clone(&self.places).try_acquire_owned().ok()
    }

    /// `tabla review`'s cache: [`tabla_review::default_cache_dir`].
    pub fn in_data_dir() -> GameReviews {
        GameReviews::new(tabla_review::default_cache_dir())
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
