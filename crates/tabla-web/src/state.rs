//! What every request handler shares.

use crate::config::DEFAULT_BODY_LIMIT;
#[cfg(feature = "db")]
use crate::game_db::GameDb;
use crate::live::{LiveEngines, MAX_ANALYSES};
use crate::review_places::GameReviews;
use crate::sample::SAMPLE_PGN;
use crate::site_guard::HostRule;
use crate::tb_dir::TbDir;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// The application's shared state: the endgame tables, the sample game, the limits, the engines
/// and the game database.
#[derive(Clone)]
pub struct AppState {
    /// The endgame tables of up to five men behind `GET /api/tb` and `GET /api/kbnk` (`tabla
    /// serve --tb-dir`, and KBNvK, KQvK and KRvK solved in memory).
    pub tb: Arc<TbDir>,
    /// The PGN served by `GET /api/sample`.
    pub sample_pgn: Arc<str>,
    /// The largest body of the PGN routes in bytes.
    pub body_limit: usize,
    /// PGN reads running at once: each can take a few hundred megabytes for a 16 MiB input.
    pub pgn_permits: Arc<Semaphore>,
    /// The engine behind `GET /api/suggest`: one search at a time, of the server's engine.
    pub suggest: Arc<LiveEngines>,
    /// The engines of live analysis (`GET /api/analyse`) and what game reviews start.
    pub live: Arc<LiveEngines>,
    /// Game reviews (`POST /api/review`): the evaluation cache's place, one review at a time.
    pub reviews: Arc<GameReviews>,
    /// The game database behind the `/api/db` routes (`tabla serve --db DIR`), if any.
    #[cfg(feature = "db")]
    pub db: Option<Arc<GameDb>>,
    /// The names and port a request's `Host` may give (see [`HostRule`]); [`serve`](crate::serve)
    /// sets the port it listens on.
    pub hosts: Arc<HostRule>,
}

impl AppState {
    /// A state over endgame tables `tb`, with the built-in sample, the default body limit and
    /// the engine (without endgame tables; [`serve`](crate::serve) gives it KBNvK, KQvK and
    /// KRvK), reviews with `tabla review`'s evaluation cache ([`GameReviews::in_data_dir`]), and
    /// no game database.
    pub fn new(tb: TbDir) -> AppState {
        AppState {
            tb: Arc::new(tb),
            sample_pgn: Arc::from(SAMPLE_PGN),
            body_limit: DEFAULT_BODY_LIMIT,
            pgn_permits: Arc::new(Semaphore::new(2)),
            suggest: Arc::new(LiveEngines::tabla(1)),
            live: Arc::new(LiveEngines::tabla(MAX_ANALYSES)),
            reviews: Arc::new(GameReviews::in_data_dir()),
            #[cfg(feature = "db")]
            db: None,
            hosts: Arc::new(HostRule::default()),
        }
    }
}
