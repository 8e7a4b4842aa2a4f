//! The cache's files: Parquet, one row per position, written whole under a temporary name and
//! then renamed, so that a file either has all its rows or does not exist.
//!
//! | column | type | holds |
//! |---|---|---|
//! | `key_hi`, `key_lo` | Int64 | the position's wide key as `tabla db` and `tabla convert` store it ([`tabla::zobrist::key_columns`]) |
//! | `cp` | Int32, null | the evaluation in centipawns, White's point of view |
//! | `mate` | Int32, null | or moves to mate, positive when White mates |
//! | `best` | Utf8, null | the engine's choice (UCI) |
//! | `pv` | Utf8 | its line (UCI moves separated by spaces, starting with `best`) |

use super::CacheError;
use crate::Eval;
use arrow_array::{Array, Int32Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;
use std::collections::HashMap;
use std::fs::File;
use std::path::Path;
use std::sync::Arc;

/// One position's cached evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub eval: Option<Eval>,
    pub best: Option<String>,
    pub pv: String,
}

/// The schema of a cache file (and of `tabla db`'s `evals` table).
pub fn evals_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("key_hi", DataType::Int64, false),
        Field::new("key_lo", DataType::Int64, false),
        Field::new("cp", DataType::Int32, true),
        Field::new("mate", DataType::Int32, true),
        Field::new("best", DataType::Utf8, true),
        Field::new("pv", DataType::Utf8, false),
    ]))
}

/// The cache's key of a wide key: the 96 bits `key_hi` and `key_lo` hold.
pub(crate) fn stored_key(wide: u128) -> u128 {
    let (hi, lo) = tabla::zobrist::key_columns(wide);
    tabla::zobrist::key_from_columns(hi, lo)
}

/// Writes `rows` to `path` (through a temporary file beside it, synced, then renamed).
pub(crate) fn write(path: &Path, tmp: &Path, rows: &[(u128, Entry)]) -> Result<(), CacheError> {
    let (mut hi, mut lo) = (
        Vec::with_capacity(rows.len()),
        Vec::with_capacity(rows.len()),
    );
    let (mut cp, mut mate) = (
        Vec::with_capacity(rows.len()),
        Vec::with_capacity(rows.len()),
    );
    let (mut best, mut pv) = (
        Vec::with_capacity(rows.len()),
        Vec::with_capacity(rows.len()),
    );
    for (key, entry) in rows {
        let (h, l) = tabla::zobrist::key_columns(*key);
        hi.push(h);
        lo.push(l);
        cp.push(match entry.eval {
            Some(Eval::Cp(c)) => Some(c),
            _ => None,
        });
        mate.push(match entry.eval {
            Some(Eval::Mate(m)) => Some(m),
            _ => None,
        });
        best.push(entry.best.as_deref());
        pv.push(entry.pv.as_str());
    }
    let batch = RecordBatch::try_new(
        evals_schema(),
        vec![
            Arc::new(Int64Array::from(hi)),
            Arc::new(Int64Array::from(lo)),
            Arc::new(Int32Array::from(cp)),
            Arc::new(Int32Array::from(mate)),
            Arc::new(StringArray::from(best)),
            Arc::new(StringArray::from(pv)),
        ],
    )
    .map_err(|e| CacheError::format(path, e))?;
    let file = File::create(tmp).map_err(CacheError::io(tmp))?;
    let props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .build();
    let mut writer = ArrowWriter::try_new(file, evals_schema(), Some(props))
        .map_err(|e| CacheError::format(tmp, e))?;
    writer
        .write(&batch)
        .map_err(|e| CacheError::format(tmp, e))?;
    let file = writer
        .into_inner()
        .map_err(|e| CacheError::format(tmp, e))?;
    file.sync_all().map_err(CacheError::io(tmp))?;
    std::fs::rename(tmp, path).map_err(CacheError::io(path))
}

/// Reads the rows of the file at `path` into `entries`; returns how many it read.
pub(crate) fn read(path: &Path, entries: &mut HashMap<u128, Entry>) -> Result<usize, CacheError> {
    let file = File::open(path).map_err(CacheError::io(path))?;
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .and_then(|b| b.build())
        .map_err(|e| CacheError::format(path, e))?;
    let mut count = 0;
    for batch in reader {
        let batch = batch.map_err(|e| CacheError::format(path, e))?;
        let column = |name: &str| {
            batch
                .column_by_name(name)
                .ok_or_else(|| CacheError::format(path, format!("no column {name}")))
        };
        let wrong = |name: &str| CacheError::format(path, format!("column {name}: wrong type"));
        let hi = column("key_hi")?;
        let hi = hi
            .as_any()
            .downcast_ref::<Int64Array>()
            .ok_or_else(|| wrong("key_hi"))?;
        let lo = column("key_lo")?;
        let lo = lo
            .as_any()
            .downcast_ref::<Int64Array>()
            .ok_or_else(|| wrong("key_lo"))?;
        let cp = column("cp")?;
        let cp = cp
            .as_any()
            .downcast_ref::<Int32Array>()
            .ok_or_else(|| wrong("cp"))?;
        let mate = column("mate")?;
        let mate = mate
            .as_any()
            .downcast_ref::<Int32Array>()
            .ok_or_else(|| wrong("mate"))?;
        let best = column("best")?;
        let best = best
            .as_any()
            .downcast_ref::<StringArray>()
            .ok_or_else(|| wrong("best"))?;
        let pv = column("pv")?;
        let pv = pv
            .as_any()
            .downcast_ref::<StringArray>()
            .ok_or_else(|| wrong("pv"))?;
        for i in 0..batch.num_rows() {
            if hi.is_null(i) || lo.is_null(i) {
                return Err(CacheError::format(path, format!("row {i}: no key")));
            }
            let eval = if cp.is_valid(i) {
                Some(Eval::Cp(cp.value(i)))
            } else if mate.is_valid(i) {
                Some(Eval::Mate(mate.value(i)))
            } else {
                None
            };
            let entry = Entry {
                eval,
                best: best.is_valid(i).then(|| best.value(i).to_owned()),
                pv: if pv.is_valid(i) {
                    pv.value(i).to_owned()
                } else {
                    String::new()
                },
            };
            entries.insert(
                tabla::zobrist::key_from_columns(hi.value(i), lo.value(i)),
                entry,
            );
            count += 1;
        }
    }
    Ok(count)
}
