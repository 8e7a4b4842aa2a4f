#![doc = include_str!("../README.md")]
//! ## Inside the crate
//!
//! Where things are, for contributors.
//!
//! `README.md` describes the API once (it is the crate's doc, doctested). Module imports form a
//! DAG: routes use `state`, which uses `live`, `game_db`, `config` and `sample`, never a route.
//!
//! | module | holds |
//! |---|---|
//! | `server.rs`, `router.rs` | start-up (game database, the small endings solved in memory, endgame tables, listener); the routes |
//! | `connections.rs`, `parse_errors.rs`, `site_guard.rs`, `config.rs` | hyper's connections with their timers, and its own answers (a request it cannot read) as JSON; the guard that refuses other sites; what `tabla serve` can be told |
//! | `position.rs`, `notation.rs` | `/api/position`; a move in SAN, long form and UCI |
//! | `pgn.rs`, `pgn_index.rs`, `pgn_game.rs`, `pgn_body.rs` | the PGN routes: a file's game list (read on all cores), one game with its text from the Rust writer, the body limit and reading off the async threads |
//! | `tb.rs`, `tb_dir.rs` | `/api/tb` and its alias `/api/kbnk`; the directory of `--tb-dir`, opened again when a missing table appears (the probe's JSON is tabla-endgame's `TbJson`) |
//! | `live.rs`, `suggest.rs`, `analyse.rs` | the engines of `--engine` through tabla-analysis (two for live analyses, one for suggestions); the engine's move, one search at a time; live analysis as Server-Sent Events |
//! | `review.rs`, `review_places.rs`, `ndjson.rs` | a game's review from its `[%eval]`s, tabla-review's cache or the engine; the cache's place and the one review at a time; answers streamed as NDJSON, cancelled when the client goes |
//! | `db.rs`, `db_params.rs`, `db_review.rs`, `game_db.rs`, `db_absent.rs` | the `/api/db` routes over tabla-db (explorer, search, games, one game), their query parameters, the database's review; the database of `--db`, queried on blocking threads; the answers of a build without it |
//! | `state.rs` | what the handlers share: data only |
//! | `query.rs`, `known_params.rs`, `api_error.rs` | query parameters (the `fen` one included) for every route, and the table of those each route takes (others refused); JSON errors, never a 5xx for bad input |
//! | `assets.rs`, `sample.rs` | the front end embedded at build time (`build.rs` runs `npm ci` and esbuild in `web/`); the sample game |
//!
//! `web/src/` holds the pages (PGN browser, endgame explorer with its pure logic in `endgame.ts`,
//! analysis, games) on chessground: the PGN browser's state and its pure transitions apart from
//! its rendering (`pgn-state.ts`, `pgn-page.ts`), the opening explorer panel (`explorer.ts`) and
//! the games page (`games-page.ts`) with their shared widgets (`db-view.ts`) and pure logic
//! (`db-query.ts`), a FEN's fields (`fen.ts`), `types.ts` (the API's JSON, checked against the
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
mod ndjson;
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
pub use config::{DEFAULT_BODY_LIMIT, DEFAULT_HOST, DEFAULT_PORT, ServeConfig};
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
