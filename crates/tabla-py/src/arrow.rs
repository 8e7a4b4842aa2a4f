//! `read_pgn_arrow`: the `games` (and `positions`) tables of `tabla convert` built in memory on
//! every core, handed to pyarrow through the Arrow PyCapsule interface (an
//! `ArrowArrayStream`, no copy).

use crate::errors::TablaError;
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchIterator};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::Mutex;
use tabla_convert::{
    ConvertError, GameIds, Input, NoProgress, Options, PositionsTable, Slice,
    convert_slice_to_arrow, games_schema, positions_schema,
};

/// One table's record batches as an Arrow C stream, readable once by any consumer of the
/// PyCapsule interface (`pyarrow.RecordBatchReader.from_stream`, polars, DuckDB).
#[pyclass(module = "tabla")]
pub struct ArrowStream {
    stream: Mutex<Option<FFI_ArrowArrayStream>>,
}

impl ArrowStream {
    pub(crate) fn new(batches: Vec<RecordBatch>, schema: arrow_schema::SchemaRef) -> ArrowStream {
        let reader = RecordBatchIterator::new(batches.into_iter().map(Ok), schema);
        ArrowStream {
            stream: Mutex::new(Some(FFI_ArrowArrayStream::new(Box::new(reader)))),
        }
    }
}

#[pymethods]
impl ArrowStream {
    /// The stream as a PyCapsule named `arrow_array_stream`; the schema asked for is not
    /// applied (the tables' schemas are fixed: see `tabla convert`'s documentation).
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let stream = self
            .stream
            .lock()
            .map_err(|_| PyRuntimeError::new_err("the stream failed in another thread"))?
            .take()
            .ok_or_else(|| PyRuntimeError::new_err("this Arrow stream was already read"))?;
        // The capsule owns the stream: a consumer moves it out (its release callback then
        // null), else dropping the capsule releases it.
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }
}

/// A conversion's error as its exception: `OSError` for files, `TablaError` for the rest.
fn convert_error(e: ConvertError) -> PyErr {
    let text = e.to_string();
    match e {
        ConvertError::Open { source, .. }
        | ConvertError::Read { source, .. }
        | ConvertError::Create { source, .. }
        | ConvertError::Write { source, .. } => std::io::Error::new(source.kind(), text).into(),
        _ => TablaError::new_err(text),
    }
}

/// The `games` table of the PGN files (and their `positions` table when asked), as Arrow
/// streams; the Python `read_pgn_arrow` makes them `pyarrow.Table`s. `slice` (part, parts)
/// converts one part of the work, as a distributed reader's partition does (tabla-convert's
/// `Slice`).
#[pyfunction]
#[pyo3(signature = (paths, positions = false, threads = None, slice = None))]
pub fn read_pgn_streams(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    positions: bool,
    threads: Option<usize>,
    slice: Option<(usize, usize)>,
) -> PyResult<(ArrowStream, Option<ArrowStream>)> {
    let threads = match threads {
        Some(n) => {
            NonZeroUsize::new(n).ok_or_else(|| TablaError::new_err("threads must be at least 1"))?
        }
        None => std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN),
    };
    let table = if positions {
        PositionsTable::Full
    } else {
        PositionsTable::None
    };
    let options = Options {
        inputs: paths.into_iter().map(Input::Path).collect(),
        out_dir: PathBuf::new(),
        positions: table,
        max_ply: None,
        threads,
        game_ids: GameIds::FromPlace,
    };
    let slice = slice.map(|(part, parts)| Slice { part, parts });
    let (_, tables) = py
        .detach(|| convert_slice_to_arrow(&options, slice, &NoProgress))
        .map_err(convert_error)?;
    let games = ArrowStream::new(tables.games, games_schema());
    let positions = positions.then(|| ArrowStream::new(tables.positions, positions_schema(table)));
    Ok((games, positions))
}

/// An empty stream with the schema of the `games` or the `positions` table (for readers that
/// declare a schema before reading, as Spark's data sources do).
#[pyfunction]
pub fn empty_table_stream(table: &str) -> PyResult<ArrowStream> {
    let schema = match table {
        "games" => games_schema(),
        "positions" => positions_schema(PositionsTable::Full),
        other => {
            return Err(TablaError::new_err(format!(
                "no table {other:?}: \"games\" or \"positions\""
            )));
        }
    };
    Ok(ArrowStream::new(Vec::new(), schema))
}
