//! The database's tables as the engine sees them: `games` and `positions` (as `tabla convert`
//! writes them, the positions with their keys only), `game_refs` (the columns of a list of
//! games, sorted by id: a game found by id reads one small row group) and `explorer` (the
//! aggregate of
//! `sql/explorer.sql`), each the union of its files in every batch the manifest lists (the
//! explorer's: in the compaction and the batches after it).

use crate::DbError;
use crate::manifest::Manifest;
use crate::session::Session;
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use std::path::Path;
use std::sync::Arc;
use tabla_convert::{PositionsTable, games_schema, positions_schema};

/// The explorer's aggregate, as one SQL query over `positions` (`${max_ply}` standing for the
/// database's max-ply: [`explorer_sql`]).
pub const EXPLORER_SQL: &str = include_str!("../sql/explorer.sql");

/// [`EXPLORER_SQL`] for a database of max-ply `max_ply`.
///
/// ```
/// assert!(tabla_db::explorer_sql(50).contains("p.ply < 50"));
/// ```
pub fn explorer_sql(max_ply: u32) -> String {
    EXPLORER_SQL.replace("${max_ply}", &max_ply.to_string())
}

/// The explorer's counting rule (the condition of [`EXPLORER_SQL`] between its `counted: from`
/// and `counted: to` lines) on the `positions` table under the alias `p`, for a database of
/// max-ply `max_ply`: the games counted for their positions.
///
/// ```
/// let rule = tabla_db::counted_sql(50);
/// assert!(rule.starts_with("p.first AND p.ply < 50 AND"), "{rule}");
/// ```
pub fn counted_sql(max_ply: u32) -> String {
    let rule = EXPLORER_SQL
        .split_once("-- counted: from")
        .and_then(|(_, rest)| rest.split_once('\n'))
        .and_then(|(_, rest)| rest.split_once("-- counted: to"))
        .map(|(rule, _)| rule)
        .expect("sql/explorer.sql marks its counting rule (tested)");
    rule.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("${max_ply}", &max_ply.to_string())
}

/// The `explorer` table's schema: the columns of `sql/explorer.sql`.
pub fn explorer_schema() -> SchemaRef {
    let int = |name: &str| Field::new(name, DataType::Int64, true);
    Arc::new(Schema::new(vec![
        int("key_hi"),
        int("key_lo"),
        Field::new("uci", DataType::Utf8, true),
        int("rating_group"),
        Field::new("speed", DataType::Utf8, true),
        Field::new("year", DataType::Int32, true),
        Field::new("month", DataType::Int32, true),
        int("games"),
        int("white"),
        int("draws"),
        int("black"),
        int("rating_sum"),
        int("rated"),
    ]))
}

/// The `game_refs` table's columns: what a list of games shows and filters on, from `games`:
/// `game_id`, the seven a list shows (`crate::game_refs::GAME_REF_COLUMNS`), then the four
/// the filters read.
pub(crate) const GAME_REFS_COLUMNS: [&str; 12] = [
    "game_id",
    "white",
    "black",
    "result",
    "white_elo",
    "black_elo",
    "played",
    "event",
    "site",
    "speed",
    "year",
    "month",
];

/// The `game_refs` table's schema: [`GAME_REFS_COLUMNS`], typed as in `games` (`year` and
/// `month` as the `games` view gives them).
pub fn game_refs_schema() -> SchemaRef {
    let games = games_schema();
    let fields = GAME_REFS_COLUMNS.map(|name| match games.field_with_name(name) {
        Ok(field) => field.clone().with_nullable(true),
        Err(_) => Field::new(name, DataType::Int32, true),
    });
    Arc::new(Schema::new(fields.to_vec()))
}

/// Registers `games` and `positions` of one batch directory (an import being built).
pub(crate) fn register_batch_sources(session: &Session, dir: &Path) -> Result<(), DbError> {
    session.register("games", &[dir.join("games")], games_schema(), true)?;
    register_positions(session, &[dir.join("positions")], false)
}

/// Registers `positions` over `dirs` (directories or files): the files as `positions_files`
/// (whatever their directory layout: `tabla db import` writes them unpartitioned, `tabla
/// convert --positions` by month), and a view that adds the game's `year` and `month` from
/// `played_on`. With `sorted`, each file is declared sorted by key (`key_hi`, `key_lo`), as
/// `tabla db import` writes them (not `tabla convert --positions`, whose files are by month).
pub(crate) fn register_positions(
    session: &Session,
    dirs: &[std::path::PathBuf],
    sorted: bool,
) -> Result<(), DbError> {
    let schema = positions_schema(PositionsTable::Keys);
    let order: &[&str] = if sorted { &["key_hi", "key_lo"] } else { &[] };
    session.register_ordered("positions_files", dirs, schema.clone(), false, order)?;
    let columns: Vec<String> = schema
        .fields()
        .iter()
        .map(|f| format!("\"{}\"", f.name()))
        .collect();
    session.collect(&format!(
        "CREATE VIEW positions AS SELECT {}, \
         CAST(played_on / 10000 AS INT) AS year, \
         CAST(NULLIF((played_on / 100) % 100, 0) AS INT) AS month FROM positions_files",
        columns.join(", ")
    ))?;
    Ok(())
}

/// Registers `games`, `positions` and `explorer` over every batch of the database in `dir`.
pub(crate) fn register_database(
    session: &Session,
    dir: &Path,
    manifest: &Manifest,
) -> Result<(), DbError> {
    let under = |table: &str| -> Vec<_> {
        manifest
            .batches
            .iter()
            .map(|b| dir.join(b.dir()).join(table))
            .filter(|d| d.is_dir())
            .collect()
    };
    session.register("games", &under("games"), games_schema(), true)?;
    register_positions(session, &under("positions"), false)?;
    let refs = under("game_refs");
    if refs.len() == under("games").len() {
        session.register("game_refs", &refs, game_refs_schema(), false)?;
    } else {
        // A batch imported before `game_refs` existed: the same rows, from `games` (slower).
        session.collect(&format!(
            "CREATE VIEW game_refs AS SELECT {} FROM games",
            GAME_REFS_COLUMNS.join(", ")
        ))?;
    }
    let explorer = manifest.explorer_parts(dir);
    session.register("explorer", &explorer, explorer_schema(), false)?;
    crate::review_tables::register(session, dir)
}
