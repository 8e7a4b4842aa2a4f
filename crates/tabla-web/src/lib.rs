#![doc = include_str!("../README.md")]

pub mod analyse;
mod api_error;
mod assets;
mod config;
#[cfg(feature = "db")]
mod db;
#[cfg(not(feature = "db"))]
#[path = "db_absent.rs"]
mod db;
#[cfg(feature = "db")]
mod db_params;
#[cfg(feature = "db")]
mod db_review;
mod engine;
#[cfg(feature = "db")]
mod game_db;
mod live;
mod notation;
mod pgn;
mod pgn_body;
mod pgn_game;
mod pgn_index;
mod position;
mod probe_json;
mod query;
mod review;
mod review_places;
mod router;
mod sample;
mod server;
mod state;
pub mod suggest;
mod tb;
mod tb_dir;

pub use config::{DEFAULT_BODY_LIMIT, ServeConfig};
#[cfg(not(feature = "db"))]
pub use db::WITHOUT_DB;
pub use engine::{EngineSlot, EngineSuggester, Suggester, Suggestion};
#[cfg(feature = "db")]
pub use game_db::{GameDb, NO_DB_HINT};
pub use live::{LiveEngines, MAX_ANALYSES, Reservation};
pub use probe_json::{ProbeJson, describe_probe};
pub use review::ReviewAnswer;
pub use review_places::{GameReviews, MAX_REVIEWS};
pub use router::router;
pub use sample::SAMPLE_PGN;
pub use server::{serve, serve_blocking};
pub use state::AppState;
pub use tb::{TbJson, describe_tb};
pub use tb_dir::TbDir;
