//! Reading values out of query results, whatever integer or string type the engine chose.

use crate::DbError;
use arrow_array::{Array, ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::DataType;
use datafusion::arrow::compute::cast;

/// A result column as `Int64`.
pub(crate) fn ints(batch: &RecordBatch, name: &str) -> Result<Int64Array, DbError> {
    let array = column(batch, name, &DataType::Int64)?;
    array
        .as_any()
        .downcast_ref::<Int64Array>()
        .cloned()
        .ok_or_else(|| DbError::Query(format!("column {name}: not integers")))
}

/// A result column as `Utf8`.
pub(crate) fn strings(batch: &RecordBatch, name: &str) -> Result<StringArray, DbError> {
    let array = column(batch, name, &DataType::Utf8)?;
    array
        .as_any()
        .downcast_ref::<StringArray>()
        .cloned()
        .ok_or_else(|| DbError::Query(format!("column {name}: not text")))
}

fn column(batch: &RecordBatch, name: &str, to: &DataType) -> Result<ArrayRef, DbError> {
    let array = batch
        .column_by_name(name)
        .ok_or_else(|| DbError::Query(format!("no column {name} in the result")))?;
    cast(array, to).map_err(|e| DbError::Query(format!("column {name}: {e}")))
}

/// The value at `i`, or `None` when null.
pub(crate) fn int_at(a: &Int64Array, i: usize) -> Option<i64> {
    a.is_valid(i).then(|| a.value(i))
}

/// The text at `i`, or `None` when null.
pub(crate) fn str_at(a: &StringArray, i: usize) -> Option<String> {
    a.is_valid(i).then(|| a.value(i).to_owned())
}

/// A result column as `Float64`.
pub(crate) fn floats(batch: &RecordBatch, name: &str) -> Result<Float64Array, DbError> {
    let array = column(batch, name, &DataType::Float64)?;
    array
        .as_any()
        .downcast_ref::<Float64Array>()
        .cloned()
        .ok_or_else(|| DbError::Query(format!("column {name}: not numbers")))
}

/// The number at `i`, or `None` when null.
pub(crate) fn float_at(a: &Float64Array, i: usize) -> Option<f64> {
    a.is_valid(i).then(|| a.value(i))
}

/// The first column of the first row of a query, as a count.
pub(crate) fn first_int(session: &crate::session::Session, sql: &str) -> Result<u64, DbError> {
    let batches = session.collect(sql)?;
    let batch = batches
        .first()
        .ok_or_else(|| DbError::Query(format!("no result for {sql}")))?;
    let a = ints(batch, batch.schema().field(0).name())?;
    Ok(int_at(&a, 0).unwrap_or(0).max(0) as u64)
}
