//! Query results as text: an aligned table, JSON (an array of row objects) or CSV.

use crate::DbError;
use arrow_array::RecordBatch;

/// How `tabla db sql` prints its rows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// An aligned table.
    Table,
    /// A JSON array of row objects.
    Json,
    /// CSV with a header line.
    Csv,
}

/// Writes `batches` to `out` in `format`.
pub fn write_rows(
    batches: &[RecordBatch],
    format: Format,
    out: &mut dyn std::io::Write,
) -> Result<(), DbError> {
    let fail = |e: &dyn std::fmt::Display| DbError::Query(format!("cannot print the rows: {e}"));
    match format {
        Format::Table => {
            let table = datafusion::arrow::util::pretty::pretty_format_batches(batches)
                .map_err(|e| fail(&e))?;
            writeln!(out, "{table}").map_err(|e| fail(&e))
        }
        Format::Json => {
            let mut text = Vec::new();
            let mut writer = arrow_json::ArrayWriter::new(&mut text);
            let refs: Vec<&RecordBatch> = batches.iter().collect();
            writer.write_batches(&refs).map_err(|e| fail(&e))?;
            writer.finish().map_err(|e| fail(&e))?;
            // An empty result is `[]`, not nothing (whether or not the writer saw a batch).
            if text.is_empty() {
                text.extend_from_slice(b"[]");
            }
            out.write_all(&text).map_err(|e| fail(&e))?;
            writeln!(out).map_err(|e| fail(&e))
        }
        Format::Csv => {
            let mut writer = arrow_csv::WriterBuilder::new()
                .with_header(true)
                .build(&mut *out);
            for batch in batches {
                writer.write(batch).map_err(|e| fail(&e))?;
            }
            Ok(())
        }
    }
}
