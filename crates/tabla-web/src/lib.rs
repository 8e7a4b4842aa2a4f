#![doc = include_str!("../README.md")]
//! ## Inside the crate
//!
//! Where things are, for contributors.
//!
//! `README.md` describes the API once (it is the crate's doc, doctested). `server.rs` (start-up:
//! game database, the small endings solved in memory, endgame tables, listener), `router.rs` and one module
//! per route (`position.rs`, `pgn.rs`, `pgn_index.rs` (the game list of a large file, read on all
//! cores), `pgn_game.rs` (one game of it, with its text from the Rust writer), `tb.rs` (`/api/tb`
//! and its alias `/api/kbnk`, over `tb_dir.rs`: the directory of `tabla serve --tb-dir`, opened
//! again when a missing table appears; the probe's JSON is tabla-endgame's `TbJson`),
//! `suggest.rs` (the engine's move, one search at a time), `analyse.rs` (live analysis as
//! Server-Sent Events), both over `live.rs` (the engines of `tabla serve --engine`, through
//! tabla-analysis: two for live analyses, one for suggestions),
//! `review.rs` (a game's review from its `[%eval]`s, tabla-review's cache or the engine, streamed
//! as NDJSON; `review_places.rs`: the cache's place and the one review at a time), `db.rs` (the
//! `/api/db` routes over tabla-db: explorer, search, games, one game through `pgn_game`'s reader),
//! with `db_params.rs` (their query parameters)), `game_db.rs` (the database of `tabla serve --db`,
//! queried on blocking threads: its engine runs a Tokio runtime of its own), `state.rs` (what the
//! handlers share: data only), `notation.rs` (a move in SAN, long form and UCI), `pgn_body.rs` (what the PGN routes
//! share: body limit, reading off the async threads), `query.rs` (query parameters, the `fen` one
//! included, for every route), `api_error.rs` (JSON errors, never a 5xx for bad input), `assets.rs`
//! (the front end embedded at build time; `build.rs` runs `npm ci` and esbuild in `web/`),
//! `sample.rs`. Module imports form a DAG: routes use `state`, which uses `live`, `game_db`,
//! `config` and `sample`, never a route. `web/src/` holds the pages (PGN browser, endgame explorer
//! with its pure logic in `endgame.ts`, analysis, games) on chessground, the PGN browser's state
//! and its pure transitions apart from its rendering (`pgn-state.ts`, `pgn-page.ts`), the opening
//! explorer panel (`explorer.ts`) and the games page (`games-page.ts`) with their shared widgets
//! (`db-view.ts`) and pure logic (`db-query.ts`), `types.ts` (the API's JSON, checked against the
//! real answers by `tests/types_ts.rs`) and `store.ts` (the last PGN, kept in IndexedDB);
//! `web/tests/unit/` the unit tests of the pure modules (`npm run unit`: esbuild, then `node
//! --test`), `web/tests/` the Playwright browser tests.

pub mod analyse;
mod api_error;
mod assets;
mod config;
mod connections;
#[cfg(feature = "db")]
mod db;
#[cfg(not(feature = "db"))]
#[path = "db_absent.rs"]
mod db;
#[cfg(feature = "db")]
mod db_params;
#[cfg(feature = "db")]
mod db_review;
#[cfg(feature = "db")]
mod game_db;
mod known_params;
mod live;
mod notation;
mod parse_errors;
mod pgn;
mod pgn_body;
mod pgn_game;
mod pgn_index;
mod position;
mod query;
mod review;
mod review_places;
mod router;
mod sample;
mod server;
mod site_guard;
mod state;
pub mod suggest;
mod tb;
mod tb_dir;

pub use api_error::{engine_text, failure_answer};
pub use config::{DEFAULT_BODY_LIMIT, ServeConfig};
pub use connections::{
    BODY_TIMEOUT, ConnectionTimeouts, HEADER_TIMEOUT, SHUTDOWN_GRACE, serve_connections,
};
#[cfg(not(feature = "db"))]
pub use db::WITHOUT_DB;
#[cfg(feature = "db")]
pub use game_db::{GameDb, NO_DB_HINT, Opened, RECHECK_EVERY};
pub use live::{Busy, LiveEngines, MAX_ANALYSES, Reservation};
pub use parse_errors::{MAX_HEAD, MAX_HEADERS, MAX_URI};
pub use pgn_index::{MAX_INDEX_GAMES, MAX_INDEX_WARNINGS, MAX_LISTED_WARNINGS};
pub use review::ReviewAnswer;
pub use review_places::{GameReviews, MAX_REVIEWS};
pub use router::router;
pub use sample::SAMPLE_PGN;
pub use server::{serve, serve_blocking};
pub use site_guard::HostRule;
pub use state::AppState;
pub use tb_dir::TbDir;
