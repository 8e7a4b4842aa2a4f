//! `tabla.review` and `tabla.Engine`: games reviewed as lichess reviews them (tabla-review), by
//! tabla's engine in process or a UCI engine, or from their own `[%eval]` comments.
//!
//! The native half: a pool of engines (`NativeEngine`, kept for as long as the Python `Engine`
//! holds it; dropping it ends the engines' processes), and functions that answer with each
//! review's JSON (tabla-review's serde form, the lines of `tabla review --json`), which
//! `python/tabla/_review.py` turns into frozen dataclasses. Searches run with the GIL released.

use crate::errors::{EngineError, TablaError};
use crate::game::Game;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tabla_review::{
    Budget, DEFAULT_NODES, EngineSpec, Pool, Review, ReviewCounts, Rules, UciSpec, annotated_pgn,
    from_evals, review_games,
};

/// Games reviewed together, as `tabla review` batches them: their distinct positions are
/// searched once, and Ctrl-C is noticed between batches.
const BATCH_GAMES: usize = 64;

/// The most engines a pool runs (as `tabla review --engines`).
const MAX_ENGINES: usize = 256;

/// The deepest search asked for (as `tabla review --depth`).
const MAX_DEPTH: u32 = 100;

/// `rules` by name: `"lichess"` (the site's marks) or `"lichess-database"` (the marks of
/// lichess's open-database files; `"lichess_database"` too).
fn rules(name: &str) -> PyResult<Rules> {
    match name {
        "lichess" => Ok(Rules::Lichess),
        "lichess-database" | "lichess_database" => Ok(Rules::LichessDatabase),
        _ => Err(TablaError::new_err(format!(
            "rules={name:?}: expected \"lichess\" (the site's marks) or \"lichess-database\" \
             (the marks of lichess's open-database files)"
        ))),
    }
}

/// The budget of each position: at most one of `nodes`, `depth` and `movetime` (milliseconds),
/// else [`DEFAULT_NODES`] nodes. Signed, so that a negative number is named rather than refused
/// by the conversion.
fn budget(nodes: Option<i64>, depth: Option<i64>, movetime: Option<i64>) -> PyResult<Budget> {
    let out_of_range =
        |what: &str, n: i64, range: &str| TablaError::new_err(format!("{what}={n}: give {range}"));
    match (nodes, depth, movetime) {
        (None, None, None) => Ok(Budget::Nodes(DEFAULT_NODES)),
        (Some(n), None, None) => u64::try_from(n)
            .ok()
            .filter(|&n| n > 0)
            .map(Budget::Nodes)
            .ok_or_else(|| out_of_range("nodes", n, "1 or more nodes")),
        (None, Some(d), None) => u32::try_from(d)
            .ok()
            .filter(|d| (1..=MAX_DEPTH).contains(d))
            .map(Budget::Depth)
            .ok_or_else(|| out_of_range("depth", d, &format!("a depth from 1 to {MAX_DEPTH}"))),
        (None, None, Some(ms)) => u64::try_from(ms)
            .ok()
            .filter(|&ms| ms > 0)
            .map(|ms| Budget::MoveTime(Duration::from_millis(ms)))
            .ok_or_else(|| out_of_range("movetime", ms, "1 or more milliseconds")),
        _ => Err(TablaError::new_err(
            "give one of nodes, depth and movetime, not several",
        )),
    }
}

/// Checks the arguments of a review before an engine is started for it: the budget and the
/// rules, as `NativeEngine.review_json` reads them.
#[pyfunction]
#[pyo3(signature = (nodes = None, depth = None, movetime = None, rules_name = "lichess"))]
pub fn check_review_args(
    nodes: Option<i64>,
    depth: Option<i64>,
    movetime: Option<i64>,
    rules_name: &str,
) -> PyResult<()> {
    budget(nodes, depth, movetime)?;
    rules(rules_name)?;
    Ok(())
}

/// The games' values, shared with their Python objects.
fn shared_games(games: &[PyRef<'_, Game>]) -> Vec<Arc<tabla_pgn::Game>> {
    games.iter().map(|g| Arc::clone(g.inner())).collect()
}

fn to_json(review: &Review) -> PyResult<String> {
    serde_json::to_string(review)
        .map_err(|e| TablaError::new_err(format!("writing the review as JSON: {e}")))
}

/// A pool of engines for reviews (see `tabla.Engine`): tabla's engine in process when `path` is
/// `None`, else the UCI program at `path` with `options` (`(name, value)` pairs) set on each.
/// Every engine is started, and has answered its handshake, when this returns.
#[pyclass(module = "tabla", name = "NativeEngine", frozen)]
pub struct NativeEngine {
    /// `None` once closed.
    pool: Mutex<Option<Pool>>,
    /// The engine as it named itself, with its path (`Stockfish 16 (/usr/games/stockfish)`).
    name: String,
    /// How many engines search at once.
    size: usize,
}

impl NativeEngine {
    fn lock(&self) -> MutexGuard<'_, Option<Pool>> {
        // A panic while reviewing leaves the pool usable: each of its calls is complete.
        self.pool.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl NativeEngine {
    #[new]
    #[pyo3(signature = (path = None, options = Vec::new(), engines = None))]
    fn start(
        py: Python<'_>,
        path: Option<PathBuf>,
        options: Vec<(String, String)>,
        engines: Option<i64>,
    ) -> PyResult<NativeEngine> {
        let size = match engines.map(|n| (n, usize::try_from(n))) {
            None => Pool::default_size(),
            Some((_, Ok(n))) if (1..=MAX_ENGINES).contains(&n) => n,
            Some((n, _)) => {
                return Err(TablaError::new_err(format!(
                    "engines={n}: give from 1 to {MAX_ENGINES} engines"
                )));
            }
        };
        let spec = match path {
            None if !options.is_empty() => {
                return Err(TablaError::new_err(
                    "engine options go to a UCI engine: give its path too (tabla's own engine \
                     takes none)",
                ));
            }
            None => EngineSpec::Tabla,
            Some(path) => {
                let mut spec = UciSpec::new(path);
                for (name, value) in options {
                    if name.trim().is_empty() || name.contains('=') {
                        return Err(EngineError::new_err(format!(
                            "engine option {name:?}: an option's name is not empty and has no \
                             '=' (give options as {{\"Hash\": 64}} or [\"Hash=64\"])"
                        )));
                    }
                    spec = spec.option(name.trim(), value.trim());
                }
                EngineSpec::Uci(spec)
            }
        };
        let pool = py
            .detach(|| Pool::start(&spec, size).map_err(|e| e.to_string()))
            .map_err(EngineError::new_err)?;
        Ok(NativeEngine {
            name: pool.engine().to_string(),
            size: pool.size(),
            pool: Mutex::new(Some(pool)),
        })
    }

    /// The engine as it named itself, with its path (`in process` for tabla's own).
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// How many engines search at once.
    #[getter]
    fn size(&self) -> usize {
        self.size
    }

    /// `True` once closed.
    #[getter]
    fn closed(&self) -> bool {
        self.lock().is_none()
    }

    /// Reviews `games`, each distinct position of a batch once; one JSON text per game, in
    /// order. A game that cannot be reviewed has its `error`; the others are reviewed.
    #[pyo3(signature = (games, nodes = None, depth = None, movetime = None, rules_name = "lichess"))]
    fn review_json(
        &self,
        py: Python<'_>,
        games: Vec<PyRef<'_, Game>>,
        nodes: Option<i64>,
        depth: Option<i64>,
        movetime: Option<i64>,
        rules_name: &str,
    ) -> PyResult<Vec<String>> {
        let budget = budget(nodes, depth, movetime)?;
        let rules = rules(rules_name)?;
        let games = shared_games(&games);
        py.detach(|| {
            let mut guard = self.lock();
            let Some(pool) = guard.as_mut() else {
                return Err(closed_error());
            };
            let mut counts = ReviewCounts::default();
            let mut out = Vec::with_capacity(games.len());
            for batch in games.chunks(BATCH_GAMES) {
                let batch: Vec<tabla_pgn::Game> = batch.iter().map(|g| (**g).clone()).collect();
                for review in review_games(&batch, pool, &budget, rules, &mut counts) {
                    out.push(to_json(&review)?);
                }
                // Ctrl-C (KeyboardInterrupt) between batches; the pool stays usable.
                Python::attach(|py| py.check_signals())?;
            }
            Ok(out)
        })
    }

    /// Ends the engines (their processes are killed if they do not quit); waits for a running
    /// review in another thread to finish first. Closing twice does nothing.
    fn close(&self, py: Python<'_>) {
        py.detach(|| {
            let pool = self.lock().take();
            drop(pool);
        });
    }
}

fn closed_error() -> PyErr {
    EngineError::new_err("the engine is closed: start another tabla.Engine")
}

/// Reviews `games` from their `[%eval]` comments (no engine): one JSON text per game.
#[pyfunction]
#[pyo3(signature = (games, rules_name = "lichess"))]
pub fn from_evals_json(
    py: Python<'_>,
    games: Vec<PyRef<'_, Game>>,
    rules_name: &str,
) -> PyResult<Vec<String>> {
    let rules = rules(rules_name)?;
    let games = shared_games(&games);
    py.detach(|| {
        games
            .iter()
            .map(|game| to_json(&from_evals(game, rules)))
            .collect()
    })
}

/// The game annotated with its review (the review's JSON), as `tabla review` writes it: the
/// marks, evaluations and the engine's lines as lichess annotates, the accuracies in tags. A
/// review with an `error` gives the game as read, unannotated.
#[pyfunction]
pub fn annotated_pgn_of(game: PyRef<'_, Game>, review_json: &str) -> PyResult<String> {
    let review: Review = serde_json::from_str(review_json)
        .map_err(|e| TablaError::new_err(format!("reading the review: {e}")))?;
    let game = game.inner();
    if review.error.is_some() {
        return Ok(tabla_pgn::write_game(game));
    }
    annotated_pgn(game, &review).map_err(|e| TablaError::new_err(e.to_string()))
}
