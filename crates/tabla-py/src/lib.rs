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
    m.add_function(wrap_pyfunction!(review::from_evals_json, m)?)?;
    m.add_function(wrap_pyfunction!(review::annotated_pgn_of, m)?)?;
    m.add_function(wrap_pyfunction!(review::default_cache_dir, m)?)?;
    m.add("DEFAULT_NODES", tabla_review::DEFAULT_NODES)?;
    #[cfg(feature = "db")]
    {
        m.add_class::<db::NativeDatabase>()?;
        m.add_function(wrap_pyfunction!(db::db_import, m)?)?;
    }
    errors::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
