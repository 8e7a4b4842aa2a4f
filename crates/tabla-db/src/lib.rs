//! # tabla-db — a chess game collection as a database
//!
//! A directory of Parquet tables, queried with [Apache DataFusion](https://datafusion.apache.org):
//!
//! ```text
//! DB/tabla-db.json                          the manifest: max-ply, and every import (batch)
//! DB/batches/000001/games/year=Y/month=M/   the games, as `tabla convert` writes them
//! DB/batches/000001/positions/year=Y/...    positions below max-ply: keys, moves, `first`
//! DB/batches/000001/explorer/               the explorer's aggregate (sql/explorer.sql)
//! DB/explorer/000001/                       the aggregates of batches 1 to N summed (compact)
//! DB/evals/<config>/                         engine evaluations by position (`tabla db review`)
//! DB/review/<config>/<rules>/moves/, games/  the reviews of games, per move and per game
//! ```
//!
//! [`import`] adds PGN files as a batch (content-hashed: the same content is never imported
//! twice; crash-safe: the manifest is the commit point); [`compact`] sums the batches'
//! aggregates into one, as imports do by themselves past [`COMPACT_AFTER`] of them. [`Database::explore`] answers the
//! opening explorer's question for a position; [`Database::sql`] runs any read-only query; [`Database::review`] reviews games with an engine
//! (or from their `[%eval]` comments) into tables that SQL can ask.
//!
//! ```no_run
//! use tabla_db::{Database, EngineOptions, Filters, ImportOptions, Target, import};
//!
//! let options = ImportOptions {
//!     db: "games.db".into(),
//!     inputs: vec!["lichess_db_standard_rated_2013-01.pgn.zst".into()],
//!     max_ply: None,
//!     engine: EngineOptions::default(),
//! };
//! import(&options, &tabla_convert::NoProgress)?;
//! let db = Database::open("games.db".as_ref())?;
//! let answer = db.explore(&Target::Moves("e4 c5".into()), &Filters::default())?;
//! println!("{} games; most played: {}", answer.games, answer.moves[0].san);
//! # Ok::<(), tabla_db::DbError>(())
//! ```

mod compact;
mod database;
mod engine;
mod error;
mod explore;
mod filters;
mod game_reviews;
mod games;
mod import;
mod lists;
mod lookup;
mod manifest;
mod merge;
mod output;
mod review;
mod review_cancel;
mod review_figures;
mod review_tables;
mod runs;
mod search;
mod store;
mod tables;
mod totals;
mod udf;
mod values;

pub use compact::{COMPACT_AFTER, CompactSummary, compact};
pub use database::{Database, Info, TableSize};
pub use engine::EngineOptions;
pub use error::DbError;
pub use explore::{Explorer, GameRef, MoveStats, Target};
pub use filters::{FilterText, Filters, RATING_GROUPS, SPEEDS, Side, YearMonth};
pub use games::GamePage;
pub use import::{DEFAULT_MAX_PLY, ImportOptions, ImportSummary, SIDECAR, import};
pub use lists::GAMES_LISTED;
pub use manifest::{
    Batch, Compaction, ExplorerUnit, InputRecord, MANIFEST, Manifest, SCHEMA_VERSION,
};
pub use output::{Format, write_rows};
pub use review::{ReviewSummary, ReviewWith};
pub use review_cancel::ReviewCancel;
pub use review_figures::{GameReview, SideMarks};
pub use review_tables::{
    EVALS_DIR, FROM_EVALS, REVIEW_DIR, evals_table_schema, review_games_schema,
    review_moves_schema, rules_name,
};
pub use search::{Material, Piece2Square, SearchAnswer, SearchQuery, SearchWork, parse_pattern};
pub use tables::{EXPLORER_SQL, counted_sql, explorer_schema, explorer_sql};
