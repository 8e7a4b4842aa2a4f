//! What imports and compactions share: the database's lock, the removal of what an interrupted
//! one left, and writing an explorer table.

use crate::DbError;
use crate::lookup::PAGE_ROWS;
use crate::manifest::Manifest;
use crate::session::Session;
use datafusion::dataframe::DataFrameWriteOptions;
use datafusion::prelude::col;
use std::fs::File;
use std::path::Path;

/// Holds the database's lock while alive.
pub(crate) struct Lock(#[allow(dead_code)] File);

pub(crate) fn lock(dir: &Path) -> Result<Lock, DbError> {
    let path = dir.join("tabla-db.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(DbError::io(&path))?;
    match file.try_lock() {
        Ok(()) => Ok(Lock(file)),
        Err(std::fs::TryLockError::WouldBlock) => Err(DbError::Locked(dir.to_owned())),
        Err(std::fs::TryLockError::Error(e)) => Err(DbError::io(&path)(e)),
    }
}

/// The first column of the first row of a query, as a count.
pub(crate) fn first_int(session: &Session, sql: &str) -> Result<u64, DbError> {
    let batches = session.collect(sql)?;
    let batch = batches
        .first()
        .ok_or_else(|| DbError::Query(format!("no result for {sql}")))?;
    let a = crate::values::ints(batch, batch.schema().field(0).name())?;
    Ok(crate::values::int_at(&a, 0).unwrap_or(0).max(0) as u64)
}

/// Runs `sql` (rows of the `explorer` table) and writes its result as the Parquet file `out`,
/// sorted by key and move; returns the rows written.
pub(crate) fn write_explorer(session: &Session, sql: &str, out: &Path) -> Result<u64, DbError> {
    session.block_on(async {
        let df = session.ctx.sql(sql).await?.sort(vec![
            col("key_hi").sort(true, false),
            col("key_lo").sort(true, false),
            col("uci").sort(true, false),
        ])?;
        write_sorted(df, out, 16_384, true).await
    })
}

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

/// Removes what an interrupted import or compaction left: staging directories, batch and
/// compaction directories the manifest does not list (moved into place, but never committed),
/// and the explorer parts (with their totals) a committed compaction replaced.
pub(crate) fn remove_leftovers(dir: &Path, manifest: &Manifest) -> Result<(), DbError> {
    for entry in std::fs::read_dir(dir).map_err(DbError::io(dir))? {
        let entry = entry.map_err(DbError::io(dir))?;
        if entry.file_name().to_string_lossy().starts_with(".staging-") {
            std::fs::remove_dir_all(entry.path()).map_err(DbError::io(entry.path()))?;
        }
    }
    let batches = dir.join("batches");
    if let Ok(entries) = std::fs::read_dir(&batches) {
        for entry in entries {
            let entry = entry.map_err(DbError::io(&batches))?;
            let listed = manifest
                .batches
                .iter()
                .any(|b| dir.join(b.dir()) == entry.path());
            if !listed {
                std::fs::remove_dir_all(entry.path()).map_err(DbError::io(entry.path()))?;
            }
        }
    }
    let compactions = dir.join("explorer");
    if let Ok(entries) = std::fs::read_dir(&compactions) {
        for entry in entries {
            let entry = entry.map_err(DbError::io(&compactions))?;
            let current = manifest
                .compacted
                .as_ref()
                .is_some_and(|c| dir.join(c.dir()) == entry.path());
            if !current {
                std::fs::remove_dir_all(entry.path()).map_err(DbError::io(entry.path()))?;
            }
        }
    }
    if let Some(c) = &manifest.compacted {
        // A compacted import's aggregate, and the totals of it.
        for batch in manifest.batches.iter().filter(|b| b.id <= c.through) {
            for table in ["explorer", "totals"] {
                let folded = dir.join(batch.dir()).join(table);
                if folded.is_dir() {
                    std::fs::remove_dir_all(&folded).map_err(DbError::io(&folded))?;
                }
            }
        }
    }
    Ok(())
}
