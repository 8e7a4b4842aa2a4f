//! `tabla.db`: a `tabla db` database from Python. The answers are the JSON of `tabla db explore
//! --json` and `search --json` (the same serde types), which `python/tabla/db.py` makes dicts;
//! SQL results are Arrow streams. Each query runs with the GIL released.

use crate::arrow::ArrowStream;
use crate::errors::TablaError;
use crate::review::NativeEngine;
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use tabla_db::{
    Database, DbError, FilterText, Filters, ImportOptions, QueryOptions, ReviewWith, SearchQuery,
    Target,
};

/// A database error as its exception: `OSError` for files (a damaged one of the database's
/// too), `TablaError` for bad arguments and everything else.
fn db_error(e: DbError) -> PyErr {
    match e {
        DbError::Io { .. } | DbError::Locked(_) | DbError::DamagedPart { .. } => {
            PyOSError::new_err(e.to_string())
        }
        _ => TablaError::new_err(e.to_string()),
    }
}

fn json_error(e: serde_json::Error) -> PyErr {
    TablaError::new_err(format!("writing the answer as JSON: {e}"))
}

fn query_options(threads: Option<usize>, memory: Option<usize>) -> QueryOptions {
    QueryOptions::new(threads, memory)
}

/// The position asked about: a FEN (`startpos` for the standard start) or moves from the start.
fn target(fen: Option<String>, moves: Option<String>) -> PyResult<Target> {
    let target = Target::from_fen_or_moves(fen, moves).map_err(db_error)?;
    target.position().map_err(db_error)?;
    Ok(target)
}

/// The filters, given as the command line gives them.
fn filters(
    rating: Option<&str>,
    speed: Option<&str>,
    since: Option<&str>,
    until: Option<&str>,
    player: Option<&str>,
    player_match: Option<&str>,
    color: Option<&str>,
) -> PyResult<Filters> {
    Filters::from_text(&FilterText {
        rating,
        speed,
        since,
        until,
        player,
        player_match,
        color,
        ..FilterText::default()
    })
    .map_err(db_error)
}

/// An open database (see `tabla.db.Database`).
#[pyclass(module = "tabla", name = "NativeDatabase", frozen)]
pub struct NativeDatabase {
    db: Database,
}

#[pymethods]
impl NativeDatabase {
    #[new]
    #[pyo3(signature = (path, threads = None, memory = None))]
    fn open(
        py: Python<'_>,
        path: PathBuf,
        threads: Option<usize>,
        memory: Option<usize>,
    ) -> PyResult<NativeDatabase> {
        let options = query_options(threads, memory);
        let db = py
            .detach(|| Database::open_with(&path, &options))
            .map_err(db_error)?;
        Ok(NativeDatabase { db })
    }

    /// `tabla db info --json`.
    fn info_json(&self, py: Python<'_>) -> PyResult<String> {
        let info = py.detach(|| self.db.info()).map_err(db_error)?;
        serde_json::to_string(&info).map_err(json_error)
    }

    /// `tabla db explore --json`.
    #[pyo3(signature = (fen = None, moves = None, rating = None, speed = None, since = None, until = None, player = None, player_match = None, color = None))]
    #[allow(clippy::too_many_arguments)]
    fn explore_json(
        &self,
        py: Python<'_>,
        fen: Option<String>,
        moves: Option<String>,
        rating: Option<&str>,
        speed: Option<&str>,
        since: Option<&str>,
        until: Option<&str>,
        player: Option<&str>,
        player_match: Option<&str>,
        color: Option<&str>,
    ) -> PyResult<String> {
        let target = target(fen, moves)?;
        let filters = filters(rating, speed, since, until, player, player_match, color)?;
        let answer = py
            .detach(|| self.db.explore(&target, &filters))
            .map_err(db_error)?;
        serde_json::to_string(&answer).map_err(json_error)
    }

    /// `tabla db review`: the games the filters select reviewed into the tables `review_moves`
    /// and `review_games` (their evaluations into `evals`) with `engine`'s pool, or from the
    /// games' `[%eval]`s when `engine` is `None`; what the run did, as JSON.
    #[pyo3(signature = (engine = None, nodes = None, depth = None, movetime = None, rules_name = "lichess", rating = None, speed = None, since = None, until = None, player = None, player_match = None, color = None))]
    #[allow(clippy::too_many_arguments)]
    fn review_json(
        &self,
        py: Python<'_>,
        engine: Option<PyRef<'_, NativeEngine>>,
        nodes: Option<i64>,
        depth: Option<i64>,
        movetime: Option<i64>,
        rules_name: &str,
        rating: Option<&str>,
        speed: Option<&str>,
        since: Option<&str>,
        until: Option<&str>,
        player: Option<&str>,
        player_match: Option<&str>,
        color: Option<&str>,
    ) -> PyResult<String> {
        let filters = filters(rating, speed, since, until, player, player_match, color)?;
        let rules = crate::review::rules(rules_name)?;
        let budget = crate::review::budget(nodes, depth, movetime)?;
        let engine = engine.as_deref();
        let summary = py.detach(|| {
            let mut guard = engine.map(NativeEngine::lock);
            let with = match (engine, guard.as_mut()) {
                (Some(engine), Some(guard)) => {
                    let pool = guard.as_mut().ok_or_else(crate::review::closed_error)?;
                    ReviewWith::Engine {
                        pool,
                        spec: &engine.spec,
                        budget,
                        flush_every: tabla_review::FLUSH_EVERY,
                    }
                }
                _ => ReviewWith::FromEvals,
            };
            self.db
                .review(&filters, with, rules, &mut |_, _| {})
                .map_err(db_error)
        })?;
        serde_json::to_string(&summary).map_err(json_error)
    }

    /// `tabla db search --json`: one of `fen`, `moves`, `material` (with `either_color`) or
    /// `pattern`.
    #[pyo3(signature = (fen = None, moves = None, material = None, either_color = false, pattern = None, limit = tabla_db::DEFAULT_LIMIT, offset = 0, rating = None, speed = None, since = None, until = None, player = None, player_match = None, color = None))]
    #[allow(clippy::too_many_arguments)]
    fn search_json(
        &self,
        py: Python<'_>,
        fen: Option<String>,
        moves: Option<String>,
        material: Option<&str>,
        either_color: bool,
        pattern: Option<&str>,
        limit: usize,
        offset: usize,
        rating: Option<&str>,
        speed: Option<&str>,
        since: Option<&str>,
        until: Option<&str>,
        player: Option<&str>,
        player_match: Option<&str>,
        color: Option<&str>,
    ) -> PyResult<String> {
        let query = SearchQuery::one_of(
            fen.as_deref(),
            moves.as_deref(),
            material,
            pattern,
            either_color,
        )
        .map_err(db_error)?;
        let filters = filters(rating, speed, since, until, player, player_match, color)?;
        let answer = py
            .detach(|| self.db.search(&query, &filters, limit, offset))
            .map_err(db_error)?;
        serde_json::to_string(&answer).map_err(json_error)
    }

    /// `tabla db sql`: the result as an Arrow stream.
    fn sql(&self, py: Python<'_>, query: &str) -> PyResult<ArrowStream> {
        let batches = py.detach(|| self.db.sql(query)).map_err(db_error)?;
        let schema = batches
            .first()
            .map(|b| b.schema())
            .unwrap_or_else(|| std::sync::Arc::new(arrow_schema::Schema::empty()));
        Ok(ArrowStream::new(batches, schema))
    }
}

/// `tabla db import`: adds PGN files to a database (created when missing) as one import;
/// returns what it added.
#[pyfunction]
#[pyo3(signature = (db, inputs, max_ply = None, threads = None, memory = None))]
pub fn db_import<'py>(
    py: Python<'py>,
    db: PathBuf,
    inputs: Vec<PathBuf>,
    max_ply: Option<u32>,
    threads: Option<usize>,
    memory: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let options = ImportOptions {
        db,
        inputs,
        max_ply,
        query: query_options(threads, memory),
    };
    let summary = py
        .detach(|| tabla_db::import(&options, &tabla_convert::NoProgress))
        .map_err(db_error)?;
    let out = PyDict::new(py);
    out.set_item("games", summary.games)?;
    out.set_item("errors", summary.errors)?;
    out.set_item("warnings", summary.warnings)?;
    out.set_item("positions", summary.positions)?;
    out.set_item("explorer_rows", summary.explorer_rows)?;
    out.set_item("input_bytes", summary.input_bytes)?;
    out.set_item("batch", summary.batch)?;
    Ok(out)
}
