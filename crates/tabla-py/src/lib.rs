//! # tabla-py — tabla for Python
//!
//! The Python extension module `tabla._tabla`, built by maturin into the wheel `tabla-chess`
//! (import name `tabla`): tabla's game model ([`position`]: `Position`, `Move`) and its PGN
//! reader ([`reader`]: `read_games`, [`game`]: `Game`, `GameMove`), `tabla convert`'s tables as
//! Arrow in memory ([`arrow`]: `read_pgn_arrow`), games reviewed as lichess reviews them
//! ([`review`]: `NativeEngine`, behind `tabla.review` and `tabla.Engine`), and `tabla db` (`db`,
//! with the feature of that name, on by default). Errors are Python exceptions, subclasses of
//! `ValueError` ([`errors`]) carrying tabla's messages.
//!
//! The Python side (docstrings, the `.pyi` stubs and the pytest suite against python-chess) is in
//! `python/tabla/` and `tests/`; `pip install ./crates/tabla-py` builds and installs it.
//!
//! ## Inside the crate
//!
//! Where things are, for contributors.
//!
//! A PyO3 extension module (`tabla._tabla`, abi3 for CPython 3.10 and later) that maturin builds
//! into the wheel `tabla-chess` (`pyproject.toml`; `pip install ./crates/tabla-py`). Each module
//! wraps one level of the crates below and holds no rule of its own.
//!
//! | module | holds |
//! |---|---|
//! | `position.rs` | `Position`, `Move`: the core's FEN, legal moves, SAN, UCI, status, Polyglot key, perft, SVG |
//! | `game.rs` | `Game`, `GameMove`, `Eval`: a tabla-pgn game tree whose values become Python objects when read |
//! | `reader.rs` | `read_games`, `GameReader`: games from a path, bytes or a Python file object through tabla-convert's `PgnText` (zstd told from text by its first bytes), a game parsed with the GIL released |
//! | `arrow.rs` | `ArrowStream`, `read_pgn_streams`: the native half of `read_pgn_arrow`, tabla-convert's tables in memory, one `Slice` of the work for Spark's partitions, handed to pyarrow as Arrow C streams |
//! | `review.rs` | `NativeEngine`: the native half of `tabla.review` and `tabla.Engine`, a pool of engines (tabla's own in process or a UCI engine) searching with the GIL released; `from_evals_json`, `annotated_pgn_of`: reviews from a game's `[%eval]` comments and the annotated game; every review answered as tabla-review's JSON, which `python/tabla/_review.py` turns into dataclasses |
//! | `db.rs` | `NativeDatabase`, `db_import`: `tabla.db` (feature `db`), the database's JSON answers, SQL as Arrow; filters read by tabla-db's `Filters::from_text`, as the command line and the web API read them |
//! | `errors.rs` | the exception classes, `ValueError` subclasses: the base `TablaError` and one class per kind of bad input (`FenError`, `IllegalMoveError`, `EngineError`, ...), named as python-chess names its own where it has one |
//!
//! `python/tabla/` is the package (re-exports, `read_pgn_arrow`, `db.py`, `spark.py` (the Spark
//! data source), `.pyi` stubs, `py.typed`); `tests/` the pytest suite against python-chess, run by
//! `scripts/test.sh` on the installed wheel.

use pyo3::prelude::*;

mod arrow;
#[cfg(feature = "db")]
mod db;
mod errors;
mod game;
mod position;
mod reader;
mod review;

/// The module `tabla._tabla`, re-exported by the package `tabla`.
#[pymodule]
fn _tabla(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<position::Position>()?;
    m.add_class::<position::Move>()?;
    m.add_class::<game::Game>()?;
    m.add_class::<game::GameMove>()?;
    m.add_class::<game::Eval>()?;
    m.add_class::<reader::GameReader>()?;
    m.add_function(wrap_pyfunction!(reader::read_games, m)?)?;
    m.add_class::<arrow::ArrowStream>()?;
    m.add_function(wrap_pyfunction!(arrow::read_pgn_streams, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::empty_table_stream, m)?)?;
    m.add_class::<review::NativeEngine>()?;
    m.add_function(wrap_pyfunction!(review::check_review_args, m)?)?;
    m.add_function(wrap_pyfunction!(review::engine_option, m)?)?;
    m.add_function(wrap_pyfunction!(review::from_evals_json, m)?)?;
    m.add_function(wrap_pyfunction!(review::annotated_pgn_of, m)?)?;
    m.add_function(wrap_pyfunction!(review::default_cache_dir, m)?)?;
    m.add("DEFAULT_NODES", tabla_review::DEFAULT_NODES)?;
    #[cfg(feature = "db")]
    {
        m.add_class::<db::NativeDatabase>()?;
        m.add("DEFAULT_LIMIT", tabla_db::DEFAULT_LIMIT)?;
        m.add_function(wrap_pyfunction!(db::db_import, m)?)?;
    }
    errors::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
