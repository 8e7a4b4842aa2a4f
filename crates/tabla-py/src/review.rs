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
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use tabla_analysis::{Budget, EngineChoice, EngineSpec, Pool, Request, UciSpec};
use tabla_review::{
    CacheConfig, DEFAULT_NODES, EvalCache, PositionInfo, Review, Reviewer, Rules,
    annotated_pgn_or_game, from_evals,
};

/// `rules` by name: `"lichess"` (the site's marks) or `"lichess-database"` (the marks of
/// lichess's open-database files; `"lichess_database"` too).
pub(crate) fn rules(name: &str) -> PyResult<Rules> {
    name.parse()
        .map_err(|e| TablaError::new_err(format!("rules={e}")))
}

/// The budget of each position: at most one of `nodes`, `depth` and `movetime` (milliseconds),
/// else [`DEFAULT_NODES`] nodes, by the rule `tabla review` follows ([`Budget::one_of`]).
pub(crate) fn budget(
    nodes: Option<i64>,
    depth: Option<i64>,
    movetime: Option<i64>,
) -> PyResult<Budget> {
    Budget::one_of(nodes, depth, movetime, Budget::Nodes(DEFAULT_NODES))
        .map_err(|e| TablaError::new_err(e.to_string()))
}

/// An engine option written `Name=Value`, as its name and value (`tabla.Engine(options=
/// ["Hash=64"])`), by the rule of `--engine-option` ([`UciSpec::option_pair`]).
#[pyfunction]
pub fn engine_option(text: &str) -> PyResult<(String, String)> {
    UciSpec::option_pair(text).map_err(|e| EngineError::new_err(e.to_string()))
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

/// A pool of engines for reviews (see `tabla.Engine`): the UCI program at `path` (or tabla's
/// engine in process for `tabla`) with `options` (`(name, value)` pairs) set on each; without a
/// path, the user's default engine (as every command: `$TABLA_ENGINE`, else `tabla engine set`'s
/// file, else tabla's own).
/// Every engine is started, and has answered its handshake, when this returns.
#[pyclass(module = "tabla", name = "NativeEngine", frozen)]
pub struct NativeEngine {
    /// `None` once closed.
    pool: Mutex<Option<Pool>>,
    /// What the engines were started from (the evaluation cache's configuration).
    pub(crate) spec: EngineSpec,
    /// Evaluations kept in memory across reviews, one cache per budget (by the cache folder's
    /// name), when no cache folder is given.
    memory: Mutex<HashMap<String, EvalCache>>,
    /// The engine as it named itself, with its path (`Stockfish 16 (/usr/games/stockfish)`).
    name: String,
    /// How many engines search at once.
    size: usize,
}

impl NativeEngine {
    pub(crate) fn lock(&self) -> MutexGuard<'_, Option<Pool>> {
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
            Some((_, Ok(n))) if (1..=Pool::MAX_SIZE).contains(&n) => n,
            Some((n, _)) => {
                return Err(TablaError::new_err(format!(
                    "engines={n}: give from 1 to {} engines",
                    Pool::MAX_SIZE
                )));
            }
        };
        let options = options
            .iter()
            .map(|(name, value)| UciSpec::option_parts(name, value))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| {
                EngineError::new_err(format!(
                    "{e} (give options as {{\"Hash\": 64}} or [\"Hash=64\"])"
                ))
            })?;
        // No path: the user's default engine (`$TABLA_ENGINE`, else `tabla engine set`'s file),
        // else tabla's own, by the one rule every command follows.
        let spec = EngineChoice::resolve(path.as_deref(), &options)
            .map_err(|e| TablaError::new_err(e.to_string()))?
            .spec;
        let pool = py
            .detach(|| Pool::start(&spec, size).map_err(|e| e.to_string()))
            .map_err(EngineError::new_err)?;
        Ok(NativeEngine {
            name: pool.engine().to_string(),
            size: pool.size(),
            pool: Mutex::new(Some(pool)),
            spec,
            memory: Mutex::new(HashMap::new()),
        })
    }

    /// The engine as it named itself, with its path (`in process` for tabla's own).
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The UCI engine's path, or `None` for tabla's own engine.
    #[getter]
    fn path(&self) -> Option<String> {
        match &self.spec {
            EngineSpec::Tabla => None,
            EngineSpec::Uci(spec) => Some(spec.path.to_string_lossy().into_owned()),
        }
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

    /// Reviews `games`, each distinct position once; one JSON text per game, in order. A game
    /// that cannot be reviewed has its `error`; the others are reviewed. Evaluations are kept in
    /// memory for the engine's later reviews at the same budget, or, with `cache`, in that
    /// evaluation-cache folder (as `tabla review --cache`), across runs.
    #[pyo3(signature = (games, nodes = None, depth = None, movetime = None, rules_name = "lichess", cache = None))]
    #[allow(clippy::too_many_arguments)]
    fn review_json(
        &self,
        py: Python<'_>,
        games: Vec<PyRef<'_, Game>>,
        nodes: Option<i64>,
        depth: Option<i64>,
        movetime: Option<i64>,
        rules_name: &str,
        cache: Option<PathBuf>,
    ) -> PyResult<Vec<String>> {
        let budget = budget(nodes, depth, movetime)?;
        let rules = rules(rules_name)?;
        let games = shared_games(&games);
        py.detach(|| {
            let mut guard = self.lock();
            let Some(pool) = guard.as_mut() else {
                return Err(closed_error());
            };
            let config = CacheConfig::of_pool(pool, &self.spec, budget);
            let mut memory = self.memory.lock().unwrap_or_else(|e| e.into_inner());
            let mut on_disk = match &cache {
                Some(root) => Some(
                    EvalCache::open(root, &config)
                        .map_err(|e| TablaError::new_err(e.to_string()))?,
                ),
                None => None,
            };
            let cache = match on_disk.as_mut() {
                Some(cache) => cache,
                None => memory
                    .entry(config.dir_name())
                    .or_insert_with(EvalCache::in_memory),
            };
            let mut reviewer = Reviewer::new(pool, budget, rules, cache);
            let mut out = Vec::with_capacity(games.len());
            for batch in games.chunks(tabla_review::BATCH_GAMES) {
                let batch: Vec<tabla_pgn::Game> = batch.iter().map(|g| (**g).clone()).collect();
                let reviews = reviewer
                    .review(&batch, &mut |_| {})
                    .map_err(|e| TablaError::new_err(e.to_string()))?;
                for review in reviews {
                    out.push(to_json(&review)?);
                }
                // Ctrl-C (KeyboardInterrupt) between batches; the pool stays usable.
                Python::attach(|py| py.check_signals())?;
            }
            Ok(out)
        })
    }

    /// Analyses each position (FEN) by a fresh search at the budget: one JSON text each,
    /// `{"cp"|"mate", "best", "pv"}` (White's point of view, UCI; without moves, `mate` 0 when
    /// checkmated, `cp` 0 in stalemate) or `{"error"}` for a FEN that cannot be read or an engine that
    /// failed on it twice.
    #[pyo3(signature = (fens, nodes = None, depth = None, movetime = None))]
    fn analyse_json(
        &self,
        py: Python<'_>,
        fens: Vec<String>,
        nodes: Option<i64>,
        depth: Option<i64>,
        movetime: Option<i64>,
    ) -> PyResult<Vec<String>> {
        let budget = budget(nodes, depth, movetime)?;
        py.detach(|| {
            let mut guard = self.lock();
            let Some(pool) = guard.as_mut() else {
                return Err(closed_error());
            };
            let positions: Vec<Result<tabla::Position, String>> = fens
                .iter()
                .map(|fen| tabla::Position::from_fen(fen).map_err(|e| format!("FEN {fen:?}: {e}")))
                .collect();
            let requests = positions
                .iter()
                .flatten()
                .map(|p| Request::new(p.clone(), budget).with_new_game());
            let mut analyses = pool.analyse_all(requests).into_iter();
            let mut out = Vec::with_capacity(fens.len());
            for position in &positions {
                let value = match position {
                    Err(error) => serde_json::json!({ "error": error }),
                    Ok(position) => match analyses.next() {
                        Some(Ok(analysis)) => {
                            let info = PositionInfo::from_analysis(position, &analysis);
                            analysis_json(&info)
                        }
                        Some(Err(error)) => serde_json::json!({ "error": error.to_string() }),
                        None => serde_json::json!({ "error": "no answer" }),
                    },
                };
                out.push(value.to_string());
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

/// The evaluation cache's default folder, as `tabla review` uses it: `evals` in tabla's data
/// directory (`$XDG_DATA_HOME/tabla` or `~/.local/share/tabla`); `None` without one.
#[pyfunction]
pub fn default_cache_dir() -> Option<PathBuf> {
    tabla_review::default_cache_dir()
}

/// An analysis as `analyse_json` gives it.
fn analysis_json(info: &PositionInfo) -> serde_json::Value {
    let (cp, mate) = match info.eval {
        Some(tabla_pgn::Eval::Cp(cp)) => (Some(cp), None),
        Some(tabla_pgn::Eval::Mate(m)) => (None, Some(m)),
        None => (None, None),
    };
    serde_json::json!({
        "cp": cp,
        "mate": mate,
        "best": info.best.as_ref().map(|b| b.uci.clone()),
        "pv": info.pv,
    })
}

pub(crate) fn closed_error() -> PyErr {
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
    annotated_pgn_or_game(game, &review).map_err(|e| TablaError::new_err(e.to_string()))
}
