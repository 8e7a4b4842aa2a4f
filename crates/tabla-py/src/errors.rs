//! The exceptions: one base, `TablaError` (a `ValueError`), and one class per kind of bad input,
//! named as python-chess names its own where it has one.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use tabla::{FenError as CoreFenError, SanError, UciMoveError};

create_exception!(
    tabla,
    TablaError,
    PyValueError,
    "Bad input to tabla: the base of its exceptions (a ValueError)."
);
create_exception!(
    tabla,
    FenError,
    TablaError,
    "A FEN that cannot be read, or that is not a legal position."
);
create_exception!(
    tabla,
    InvalidPositionError,
    FenError,
    "Well-formed FEN of a position that cannot arise (kings missing, pawns on the back rank...)."
);
create_exception!(
    tabla,
    InvalidMoveError,
    TablaError,
    "Text that is not a move in the notation asked for."
);
create_exception!(
    tabla,
    IllegalMoveError,
    TablaError,
    "A move that is not legal in the position."
);
create_exception!(
    tabla,
    AmbiguousMoveError,
    TablaError,
    "SAN that more than one legal move matches."
);
create_exception!(
    tabla,
    EngineError,
    TablaError,
    "An engine that cannot be started (no program at the path, an option it does not list, no \
     handshake), a badly written engine option, or an engine used after it was closed."
);

/// Adds the exception classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("TablaError", py.get_type::<TablaError>())?;
    m.add("FenError", py.get_type::<FenError>())?;
    m.add(
        "InvalidPositionError",
        py.get_type::<InvalidPositionError>(),
    )?;
    m.add("InvalidMoveError", py.get_type::<InvalidMoveError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("AmbiguousMoveError", py.get_type::<AmbiguousMoveError>())?;
    m.add("EngineError", py.get_type::<EngineError>())?;
    Ok(())
}

/// A FEN error as its exception.
pub(crate) fn fen_error(e: CoreFenError) -> PyErr {
    match e {
        CoreFenError::Syntax(e) => FenError::new_err(e.to_string()),
        CoreFenError::Invalid(e) => InvalidPositionError::new_err(e.to_string()),
    }
}

/// A SAN error as its exception.
pub(crate) fn san_error(e: SanError) -> PyErr {
    let text = e.to_string();
    match e {
        SanError::Syntax { .. } | SanError::NotCanonical { .. } => InvalidMoveError::new_err(text),
        SanError::Illegal { .. } => IllegalMoveError::new_err(text),
        SanError::Ambiguous { .. } => AmbiguousMoveError::new_err(text),
    }
}

/// A UCI move error as its exception.
pub(crate) fn uci_error(e: UciMoveError) -> PyErr {
    let text = e.to_string();
    match e {
        UciMoveError::Syntax { .. } => InvalidMoveError::new_err(text),
        UciMoveError::Illegal { .. } => IllegalMoveError::new_err(text),
    }
}
