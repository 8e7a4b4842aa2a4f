//! What every request handler shares.

use crate::config::DEFAULT_BODY_LIMIT;
use crate::engine::{EngineSlot, EngineSuggester};
#[cfg(feature = "db")]
use crate::game_db::GameDb;
use crate::live::LiveEngines;
use crate::review_places::GameReviews;
use crate::sample::SAMPLE_PGN;
use crate::tb_dir::TbDir;
use std::sync::Arc;
use tabla_endgame::Table;
use tokio::sync::Semaphore;

/// The application's shared state: the KBNK table, the endgame tables, the sample game, the limits, the engines and
/// the game database.
#[derive(Clone)]
pub struct AppState {
    /// The KBNK solution base.
    pub kbnk: Arc<Table>,
    /// The endgame tables of up to five men behind `GET /api/tb` (`tabla serve --tb-dir`).
    pub tb: Arc<TbDir>,
    /// The PGN served by `GET /api/sample`.
    pub sample_pgn: Arc<str>,
    /// The largest body of the PGN routes in bytes.
    pub body_limit: usize,
    /// PGN reads running at once: each can take a few hundred megabytes for a 16 MiB input.
    pub pgn_permits: Arc<Semaphore>,
    /// The engine behind `GET /api/suggest`.
    pub engine: EngineSlot,
    /// The engines of live analysis (`GET /api/analyse`) and what game reviews start.
    pub live: Arc<LiveEngines>,
    /// Game reviews (`POST /api/review`): the evaluation cache's place, one review at a time.
    pub reviews: Arc<GameReviews>,
    /// The game database behind the `/api/db` routes (`tabla serve --db DIR`), if any.
    #[cfg(feature = "db")]
    pub db: Option<Arc<GameDb>>,
}

impl AppState {
    /// A state over a KBNK table, without other endgame tables ([`TbDir::none`]), with the
    /// built-in sample, the default body limit and the engine
    /// (without endgame tables; [`serve`](crate::serve) gives it KBNK, KQK and KRK), reviews
    /// with `tabla review`'s evaluation cache ([`GameReviews::in_data_dir`]), and no game
    /// database.
    pub fn new(kbnk: Arc<Table>) -> AppState {
        AppState {
            kbnk,
            tb: Arc::new(TbDir::none()),
            sample_pgn: Arc::from(SAMPLE_PGN),
            body_limit: DEFAULT_BODY_LIMIT,
            pgn_permits: Arc::new(Semaphore::new(2)),
            engine: EngineSlot::new(Arc::new(EngineSuggester::new(None))),
            live: Arc::new(LiveEngines::tabla()),
            reviews: Arc::new(GameReviews::in_data_dir()),
            #[cfg(feature = "db")]
            db: None,
        }
    }
}
