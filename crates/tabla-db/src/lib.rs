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
//! Where things are, for contributors.
//!
//! A directory of Parquet tables (docs/db.md) queried with Apache DataFusion. `manifest.rs` is the
//! database's list of imports (batches) and the commit point of each; `import.rs` hashes the inputs
//! (BLAKE3), runs tabla-convert into a staging directory (the keys-only positions table, sorted by
//! key and not partitioned), `sql/explorer.sql` over each positions file (declared sorted: the
//! engine groups as the rows stream), its results summed into one table by `merge.rs` as they come
//! (keeping the popular positions, those counted for 32 games or more; the others are counted from
//! the positions when asked), beside `lists.rs` (the top and latest games per bucket of popular
//! positions, and their per-move `totals.rs`), both on `runs.rs` (sorted runs read in key order
//! across them, a k-way merge; a run is a file or a query's stream; both merge at most 64 runs at
//! once, in waves past that), and the `game_refs` table (a game list's columns sorted by id), then
//! moves the batch into place and rewrites the manifest; `compact.rs` sums the imports' aggregates
//! into one table (completing a position a part lacks from that import's positions), committed the
//! same way; `session.rs` is the DataFusion session (its own Tokio runtime, a memory pool that
//! spills) and `tables.rs` registers every batch's files as `games`, `positions` (a view adding the
//! month from `played_on`), `game_refs` and `explorer` (the compaction's and the later imports');
//! `lookup.rs` reads the rows of one key (or a few game ids) straight from the pages of the sorted
//! files that can hold them, with the `parquet` crate, each file's footer kept; `store.rs` writes
//! those sorted files. The questions: `explore.rs` (an import's totals without filters, the
//! aggregate when the filters fall on its buckets, the position's rows in `positions` when it is
//! not one of the import's popular ones, else the positions alone through DataFusion; top and
//! recent games from the lists or the positions, then their details by id: point lookups, and
//! DataFusion for a player filter), `search.rs` (every game's mainline replayed on every core),
//! `games.rs` (pages of games, one game or many as PGN), `filters.rs` (each filter as SQL for the
//! games and the positions, and as a test of a position row or an aggregate bucket for the
//! lookups), `udf.rs` (the chess functions of `tabla db sql`), `output.rs` (a result as a table,
//! JSON or CSV), `values.rs` (reading result columns), `review.rs` (`tabla db review`: the selected
//! games rebuilt as PGN from their rows, reviewed by tabla-review's `Reviewer` with the evaluation
//! cache in `DB/evals`, or from their `[%eval]`s, and written as `review_moves` and `review_games`
//! parts; the tables `evals`, `review_moves` and `review_games` registered from the files).

mod compact;
mod counted;
mod database;
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
pub use explore::{Explorer, GameRef, MoveStats, Target};
pub use filters::{FilterText, Filters, RATING_GROUPS, SPEEDS, Side, YearMonth};
pub use games::GamePage;
pub use import::{DEFAULT_MAX_PLY, ImportOptions, ImportSummary, SIDECAR, SkippedInput, import};
pub use lists::GAMES_LISTED;
pub use manifest::{
    Batch, Compaction, ExplorerUnit, InputRecord, MANIFEST, Manifest, Part, SCHEMA_VERSION,
};
pub use output::{Format, write_rows};
pub use parts::verify_parts;
pub use players::PlayerCount;
pub use review::{ReviewSummary, ReviewWith};
pub use review_cancel::ReviewCancel;
pub use review_figures::{GameReview, SideMarks};
pub use review_plan::ReviewPlan;
pub use review_tables::{
    EVALS_DIR, FROM_EVALS, REVIEW_DIR, evals_table_schema, review_games_schema,
    review_moves_schema, rules_name,
};
pub use search::{Piece2Square, SearchAnswer, SearchQuery, SearchWork, parse_pattern};
pub use session::QueryOptions;
pub use tables::{EXPLORER_SQL, counted_sql, explorer_schema, explorer_sql};
