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
//! use tabla_db::{Database, QueryOptions, Filters, ImportOptions, Target, import};
//!
//! let options = ImportOptions {
//!     db: "games.db".into(),
//!     inputs: vec!["lichess_db_standard_rated_2013-01.pgn.zst".into()],
//!     max_ply: None,
//!     query: QueryOptions::default(),
//! };
//! import(&options, &tabla_convert::NoProgress)?;
//! let db = Database::open("games.db".as_ref())?;
//! let answer = db.explore(&Target::Moves("e4 c5".into()), &Filters::default())?;
//! println!("{} games; most played: {}", answer.games, answer.moves[0].san);
//! # Ok::<(), tabla_db::DbError>(())
//! ```
//!
//! ## Inside the crate
//!
//! Where things are, for contributors. The layout on disk is told in docs/db.md.
//!
//! | module | holds |
//! |---|---|
//! | `manifest.rs` | `Manifest`: the database's list of imports (batches), the commit point of each |
//! | `parts.rs` | the Parquet files the manifest lists, checked on opening (missing, resized, no footer, unlisted) |
//! | `import.rs` | `import`: the inputs hashed (BLAKE3), tabla-convert into a staging directory (positions sorted by key, not partitioned), `sql/explorer.sql` over each positions file, the batch moved into place, the manifest rewritten |
//! | `merge.rs` | an import's explorer parts summed into one table as they stream, keeping the popular positions (counted for 32 games or more; the others are counted from the positions when asked) |
//! | `lists.rs`, `totals.rs` | the top and latest games per bucket of the popular positions, and their per-move totals |
//! | `runs.rs` | sorted runs read in key order across them (a k-way merge of files or streams, at most 64 at once, in waves past that) |
//! | `compact.rs` | `compact`: the imports' aggregates summed into one table, committed as an import is |
//! | `store.rs` | what imports and compactions share: the lock, the removal of what an interrupted one left, writing an explorer table |
//! | `lookup.rs`, `lookup_write.rs` | point lookups: the rows of one key (or a few game ids) read straight from the pages of the sorted files that can hold them, each file's footer kept; those sorted files written |
//! | `session.rs` | the DataFusion session: a Tokio runtime of its own, a memory pool that spills |
//! | `tables.rs` | the tables registered from every batch's files: `games`, `positions` (a view adding the month), `game_refs`, `explorer` |
//! | `database.rs`, `error.rs` | `Database`: an open database, its manifest and its query engine; `DbError` |
//! | `explore.rs` | `Database::explore`: the counts (an import's totals without filters, the aggregate on its buckets, else the position's rows in `positions`, else DataFusion) |
//! | `game_refs.rs` | the game lists: the top and recent games of a position from the lists or the positions, then their details by id (`GameRef`; point lookups, DataFusion for a player filter) |
//! | `filters.rs` | `Filters`: each filter as SQL for the games and the positions, and as a test of a position row or an aggregate bucket |
//! | `counted.rs` | which games the explorer counts, and why it leaves the others out (`tabla db info`) |
//! | `search.rs` | position search: every game's mainline replayed on every core |
//! | `games.rs`, `players.rs` | pages of games, one game or many as PGN; players' names containing a text |
//! | `udf.rs`, `output.rs`, `values.rs` | the chess functions of `tabla db sql`; a result as a table, JSON or CSV; reading result columns |
//! | `review.rs`, `review_plan.rs`, `review_cancel.rs` | `tabla db review`: the selected games rebuilt as PGN from their rows, reviewed by tabla-review's `Reviewer` with the evaluation cache in `DB/evals` (or from their `[%eval]`s), written as `review_moves` and `review_games` parts; what a review would take; stopping one from another thread |
//! | `review_tables.rs`, `review_figures.rs`, `game_reviews.rs` | the review tables as SQL sees them (`evals`, `review_moves`, `review_games`); a reviewed game's figures as a game list shows them, read from `review_games` |

mod compact;
mod counted;
mod database;
mod error;
mod explore;
mod filters;
mod game_refs;
mod game_reviews;
mod games;
mod import;
mod lists;
mod lookup;
mod lookup_write;
mod manifest;
mod merge;
mod output;
mod parts;
mod players;
mod review;
mod review_cancel;
mod review_figures;
mod review_plan;
mod review_tables;
mod runs;
mod search;
mod session;
mod store;
mod tables;
mod totals;
mod udf;
mod values;

pub use compact::{COMPACT_AFTER, CompactSummary, compact};
pub use counted::{Counted, LeftOut};
pub use database::{Database, Info, TableSize};
pub use error::DbError;
pub use explore::{Explorer, MoveStats, Target};
pub use filters::{FilterText, Filters, RATING_GROUPS, SPEEDS, Side, YearMonth};
pub use game_refs::GameRef;
pub use games::GamePage;
pub use import::{DEFAULT_MAX_PLY, ImportOptions, ImportSummary, SIDECAR, SkippedInput, import};
pub use lists::GAMES_LISTED;
pub use manifest::{Batch, Compaction, ExplorerUnit, InputRecord, Manifest, Part};
pub use output::{Format, write_rows};
pub use parts::verify_parts;
pub use players::PlayerCount;
pub use review::{ReviewSummary, ReviewWith};
pub use review_cancel::ReviewCancel;
pub use review_figures::{GameReview, SideMarks};
pub use review_plan::ReviewPlan;
pub use search::{
    DEFAULT_LIMIT, Piece2Square, SearchAnswer, SearchQuery, SearchWork, parse_pattern,
};
pub use session::QueryOptions;
pub use tables::{EXPLORER_SQL, counted_sql, explorer_schema, explorer_sql};
