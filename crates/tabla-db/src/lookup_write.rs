//! The sorted Parquet files that point lookups read ([`crate::lookup`]), written: by the query
//! engine ([`write_sorted`]: the explorer's aggregate, `game_refs`) or row by row with the
//! `parquet` crate ([`LookupWriter`]: merged aggregates, lists, totals), both in pages of
//! [`PAGE_ROWS`] rows with their bounds in the page index.

use crate::DbError;
use crate::lookup::PAGE_ROWS;
use datafusion::dataframe::DataFrameWriteOptions;
use std::fs::File;
use std::path::Path;

/// Writes a sorted result as the Parquet file `out` (its directory created), in row groups of
/// `group_rows` rows and pages of [`PAGE_ROWS`] rows (each page's bounds in the page index):
/// a point lookup decodes one page per column. With `dictionaries` false no column has a
/// dictionary page (a table whose lookups each land in another row group, like `game_refs`,
/// would read and decode one per column and row). Returns the rows written.
pub(crate) async fn write_sorted(
    df: datafusion::dataframe::DataFrame,
    out: &Path,
    group_rows: usize,
    dictionaries: bool,
) -> Result<u64, DbError> {
    let mut parquet = datafusion::config::TableParquetOptions::default();
    parquet.global.max_row_group_size = group_rows;
    parquet.global.data_page_row_count_limit = PAGE_ROWS;
    parquet.global.compression = Some("zstd(3)".to_owned());
    parquet.global.dictionary_enabled = Some(dictionaries);
    // The columns looked up by are sorted: their differences take fewer bits than the values;
    // so do the numbers of a database's games (ids) in any order. Keys and game ids rarely
    // repeat within a file: a dictionary would only be one more page for every lookup to read
    // and decode.
    for (column, encoding) in [
        ("key_hi", Some("delta_binary_packed")),
        ("key_lo", None),
        ("game_id", Some("delta_binary_packed")),
    ] {
        let options = parquet
            .column_specific_options
            .entry(column.to_owned())
            .or_default();
        options.dictionary_enabled = Some(false);
        options.encoding = encoding.map(str::to_owned);
    }
    let written = df
        .write_parquet(
            &out.display().to_string(),
            DataFrameWriteOptions::new().with_single_file_output(true),
            Some(parquet),
        )
        .await?;
    Ok(count_written(&written))
}

/// The row count DataFusion reports for a write.
fn count_written(batches: &[arrow_array::RecordBatch]) -> u64 {
    use arrow_array::Array;
    batches
        .iter()
        .filter_map(|b| {
            b.column(0)
                .as_any()
                .downcast_ref::<arrow_array::UInt64Array>()
        })
        .flat_map(|a| (0..a.len()).map(move |i| a.value(i)))
        .sum()
}

/// How a table that is looked up by key is laid out in Parquet (the same as [`write_sorted`]
/// lays out what the engine writes).
pub(crate) struct SortedLayout {
    group_rows: usize,
    /// Columns without a dictionary page (values that never repeat within a file).
    plain: &'static [&'static str],
    /// Sorted columns, stored as their differences.
    delta: &'static [&'static str],
}

impl SortedLayout {
    /// A table sorted by `key_hi`, `key_lo`, in row groups of `group_rows` rows (its game
    /// ids, numbers that do not repeat, also as differences: fewer bits than zstd over whole
    /// values).
    pub(crate) fn by_key(group_rows: usize) -> SortedLayout {
        SortedLayout {
            group_rows,
            plain: &["key_hi", "key_lo", "game_id"],
            delta: &["key_hi", "game_id"],
        }
    }
}

/// A Parquet file written with the `parquet` crate for point lookups: pages of [`PAGE_ROWS`]
/// rows with their bounds in the page index, zstd, the layout's encodings.
pub(crate) struct LookupWriter {
    path: std::path::PathBuf,
    writer: parquet::arrow::ArrowWriter<File>,
}

impl LookupWriter {
    /// Creates `path` (and its directory).
    pub(crate) fn create(
        path: &Path,
        schema: arrow_schema::SchemaRef,
        layout: &SortedLayout,
    ) -> Result<LookupWriter, DbError> {
        use parquet::basic::{Compression, Encoding, ZstdLevel};
        use parquet::file::properties::WriterProperties;
        use parquet::schema::types::ColumnPath;
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(DbError::io(parent))?;
        }
        let zstd = ZstdLevel::try_new(3).map_err(|e| DbError::Query(e.to_string()))?;
        let mut props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(zstd))
            .set_max_row_group_row_count(Some(layout.group_rows))
            .set_data_page_row_count_limit(PAGE_ROWS);
        for &column in layout.plain {
            props = props.set_column_dictionary_enabled(ColumnPath::from(column), false);
        }
        for &column in layout.delta {
            props =
                props.set_column_encoding(ColumnPath::from(column), Encoding::DELTA_BINARY_PACKED);
        }
        let file = File::create(path).map_err(DbError::io(path))?;
        let writer = parquet::arrow::ArrowWriter::try_new(file, schema, Some(props.build()))
            .map_err(|e| DbError::Query(format!("{}: {e}", path.display())))?;
        Ok(LookupWriter {
            path: path.to_owned(),
            writer,
        })
    }

    /// Appends rows.
    pub(crate) fn write(&mut self, batch: &arrow_array::RecordBatch) -> Result<(), DbError> {
        self.writer
            .write(batch)
            .map_err(|e| DbError::Query(format!("{}: {e}", self.path.display())))
    }

    /// Writes the footer.
    pub(crate) fn close(self) -> Result<(), DbError> {
        self.writer
            .close()
            .map(drop)
            .map_err(|e| DbError::Query(format!("{}: {e}", self.path.display())))
    }
}
