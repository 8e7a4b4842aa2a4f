//! The tables of the reviews (`tabla db review`, [`crate::review`]) as SQL sees them: their
//! schemas, their files, and their registration in a database's query engine.

use crate::DbError;
use crate::filters::quote;
use crate::session::Session;
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The evaluation cache's folder in a database: the `evals` table.
pub(crate) const EVALS_DIR: &str = "evals";
/// The reviews' folder in a database: the `review_moves` and `review_games` tables.
pub(crate) const REVIEW_DIR: &str = "review";
/// The configuration name of reviews made from the games' own `[%eval]` comments.
pub(crate) const FROM_EVALS: &str = "from-evals";

/// The `review_moves` table's schema: one row per move of each game reviewed.
///
/// | column | type | holds |
/// |---|---|---|
/// | `game_id` | Int64 | the game's id in `games` |
/// | `engine` | Utf8 | the configuration: [`FROM_EVALS`] or the `evals` folder name |
/// | `rules` | Utf8 | `lichess` or `lichess-database` |
/// | `ply` | UInt32 | the move's ply (1 for White's first move from the standard start) |
/// | `color` | Utf8 | who moved: `white` or `black` |
/// | `san`, `uci` | Utf8 | the move |
/// | `key_hi`, `key_lo` | Int64 | the key of the position the move was played in (as `positions`) |
/// | `cp`, `mate` | Int32 | the evaluation after the move, White's point of view (both null after a mating move) |
/// | `win` | Float64 | White's win percentage after the move |
/// | `judgement` | Utf8 | `Inaccuracy`, `Mistake`, `Blunder` or null |
/// | `accuracy` | Float64 | the move's accuracy, 0 to 100 |
/// | `best` | Utf8 | the engine's choice in the position (UCI); null from `[%eval]`s |
pub(crate) fn review_moves_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("game_id", DataType::Int64, false),
        Field::new("engine", DataType::Utf8, false),
        Field::new("rules", DataType::Utf8, false),
        Field::new("ply", DataType::UInt32, false),
        Field::new("color", DataType::Utf8, false),
        Field::new("san", DataType::Utf8, false),
        Field::new("uci", DataType::Utf8, false),
        Field::new("key_hi", DataType::Int64, false),
        Field::new("key_lo", DataType::Int64, false),
        Field::new("cp", DataType::Int32, true),
        Field::new("mate", DataType::Int32, true),
        Field::new("win", DataType::Float64, true),
        Field::new("judgement", DataType::Utf8, true),
        Field::new("accuracy", DataType::Float64, true),
        Field::new("best", DataType::Utf8, true),
    ]))
}

/// The `review_games` table's schema: one row per game reviewed.
///
/// | column | type | holds |
/// |---|---|---|
/// | `game_id`, `engine`, `rules` | | as in [`review_moves_schema`] |
/// | `white_accuracy`, `black_accuracy` | Float64 | each side's game accuracy, 0 to 100 (null without a judged move) |
/// | `white_acpl`, `black_acpl` | Int32 | each side's average centipawn loss |
/// | `white_inaccuracies`, `white_mistakes`, `white_blunders`, and `black_`... | Int32 | each side's marks |
/// | `moves` | UInt32 | moves reviewed (0 when the game could not be) |
/// | `error` | Utf8 | why the game could not be reviewed; null when it was |
pub(crate) fn review_games_schema() -> SchemaRef {
    let float = |name: &str| Field::new(name, DataType::Float64, true);
    let int = |name: &str, null| Field::new(name, DataType::Int32, null);
    Arc::new(Schema::new(vec![
        Field::new("game_id", DataType::Int64, false),
        Field::new("engine", DataType::Utf8, false),
        Field::new("rules", DataType::Utf8, false),
        float("white_accuracy"),
        float("black_accuracy"),
        int("white_acpl", true),
        int("black_acpl", true),
        int("white_inaccuracies", false),
        int("white_mistakes", false),
        int("white_blunders", false),
        int("black_inaccuracies", false),
        int("black_mistakes", false),
        int("black_blunders", false),
        Field::new("moves", DataType::UInt32, false),
        Field::new("error", DataType::Utf8, true),
    ]))
}

/// The `evals` table's schema: the evaluation cache's columns
/// ([`tabla_review::evals_schema`]) after `engine`, the configuration's folder name.
pub(crate) fn evals_table_schema() -> SchemaRef {
    let mut fields = vec![Field::new("engine", DataType::Utf8, false)];
    fields.extend(
        tabla_review::evals_schema()
            .fields()
            .iter()
            .map(|f| (**f).clone()),
    );
    Arc::new(Schema::new(fields))
}

/// The Parquet files of `dir` (not the temporary ones), sorted.
pub(crate) fn parts(dir: &Path) -> Result<Vec<PathBuf>, DbError> {
    let mut files = Vec::new();
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(files),
        Err(e) => return Err(DbError::io(dir)(e)),
    };
    for entry in entries {
        let entry = entry.map_err(DbError::io(dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') && name.ends_with(".parquet") {
            files.push(entry.path());
        }
    }
    files.sort();
    Ok(files)
}

/// The subfolders of `dir`, sorted by name (none when it does not exist).
pub(crate) fn subdirs(dir: &Path) -> Result<Vec<PathBuf>, DbError> {
    let mut dirs = Vec::new();
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(dirs),
        Err(e) => return Err(DbError::io(dir)(e)),
    };
    for entry in entries {
        let entry = entry.map_err(DbError::io(dir))?;
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        if !hidden && entry.path().is_dir() {
            dirs.push(entry.path());
        }
    }
    dirs.sort();
    Ok(dirs)
}

/// The files of the review tables: each `games` part of every configuration, and the `moves`
/// parts that have theirs.
pub(crate) fn review_files(db: &Path) -> Result<(Vec<PathBuf>, Vec<PathBuf>), DbError> {
    let (mut moves, mut games) = (Vec::new(), Vec::new());
    for config in subdirs(&db.join(REVIEW_DIR))? {
        for rules in subdirs(&config)? {
            for part in parts(&rules.join("games"))? {
                if let Some(name) = part.file_name() {
                    let partner = rules.join("moves").join(name);
                    if partner.is_file() {
                        moves.push(partner);
                    }
                }
                games.push(part);
            }
        }
    }
    Ok((moves, games))
}

/// Registers `evals`, `review_moves` and `review_games` over what the database `db` holds (again
/// after a review: the tables they replace are dropped first).
pub(crate) fn register(session: &Session, db: &Path) -> Result<(), DbError> {
    for name in ["evals", "review_moves", "review_games"] {
        session.ctx.deregister_table(name)?;
    }
    let mut i = 0;
    while session
        .ctx
        .deregister_table(format!("evals_part_{i}").as_str())?
        .is_some()
    {
        i += 1;
    }
    let (moves, games) = review_files(db)?;
    session.register("review_moves", &moves, review_moves_schema(), false)?;
    session.register("review_games", &games, review_games_schema(), false)?;
    // `evals`: each configuration's files with its name.
    let mut selects = Vec::new();
    for config in subdirs(&db.join(EVALS_DIR))? {
        let files = parts(&config)?;
        let name = config.file_name().map(|n| n.to_string_lossy().into_owned());
        let Some(name) = name.filter(|_| !files.is_empty()) else {
            continue;
        };
        let part = format!("evals_part_{}", selects.len());
        session.register(&part, &files, tabla_review::evals_schema(), false)?;
        selects.push(format!(
            "SELECT {} AS engine, key_hi, key_lo, cp, mate, best, pv FROM {part}",
            quote(&name)
        ));
    }
    if selects.is_empty() {
        session.register("evals", &[], evals_table_schema(), false)
    } else {
        session.collect(&format!(
            "CREATE VIEW evals AS {}",
            selects.join(" UNION ALL ")
        ))?;
        Ok(())
    }
}
