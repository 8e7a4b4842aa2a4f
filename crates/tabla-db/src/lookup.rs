//! Point lookups: the rows holding given values of a column in Parquet files sorted by it (the
//! `explorer` and `positions` by `key_hi`, `game_refs` by `game_id`), read with the `parquet`
//! crate from the pages that can hold them and nothing else.
//!
//! A query through the engine plans, lists and opens every file, and decodes whole row groups
//! of every file whose bounds hold the key: about 100 ms per explorer question on 2 million games.
//! Here each file's footer and page index are decoded once and kept; a lookup keeps the row
//! groups whose statistics hold a value, the pages whose column index holds it (the tables
//! are written in pages of [`PAGE_ROWS`] rows), decodes those pages of the columns asked for,
//! and keeps the rows that match. Files that are not sorted (an aggregate written by Spark) are
//! answered as exactly, from more pages.

use crate::DbError;
use arrow_array::{Array, Int64Array, RecordBatch};
use datafusion::arrow::compute::cast;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder, RowSelection,
};
use parquet::file::metadata::PageIndexPolicy;
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::statistics::Statistics;
use std::fs::File;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Rows per data page in the tables that are looked up (written so by `tabla db import` and
/// `tabla convert`): a lookup decodes one such page per column and file.
pub(crate) use tabla_convert::PAGE_ROWS;

/// The Parquet files of one table, with what a lookup needs of each.
pub(crate) struct SortedFiles {
    column: String,
    files: Vec<SortedFile>,
    /// From this many matching rows on, a lookup reads its files on every core.
    parallel_from: usize,
    /// The cores (asked once: on Linux the answer reads the cgroup's files).
    threads: usize,
}

struct SortedFile {
    path: PathBuf,
    meta: ArrowReaderMetadata,
    /// The lookup column's leaf index, if the file has it.
    leaf: Option<usize>,
    /// Each row group's bounds of the lookup column (`None` without statistics: read it).
    bounds: Vec<Option<(i64, i64)>>,
}

impl SortedFiles {
    /// The `.parquet` files under `dirs` (searched recursively; a path may be a file), looked
    /// up by the 64-bit integer column `column`.
    pub(crate) fn open(dirs: &[PathBuf], column: &str) -> Result<SortedFiles, DbError> {
        let mut paths = Vec::new();
        for dir in dirs {
            parquet_files(dir, &mut paths)?;
        }
        paths.sort();
        let mut files = Vec::with_capacity(paths.len());
        for path in paths {
            let file = File::open(&path).map_err(DbError::io(&path))?;
            let options =
                ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Optional);
            let meta = ArrowReaderMetadata::load(&file, options)
                .map_err(|e| DbError::Query(format!("{}: {e}", path.display())))?;
            let schema = meta.metadata().file_metadata().schema_descr();
            let leaf = (0..schema.num_columns()).find(|&i| schema.column(i).name() == column);
            let bounds = meta
                .metadata()
                .row_groups()
                .iter()
                .map(|rg| {
                    let stats = rg.column(leaf?).statistics()?;
                    match stats {
                        Statistics::Int64(s) => Some((*s.min_opt()?, *s.max_opt()?)),
                        Statistics::Int32(s) => {
                            Some((i64::from(*s.min_opt()?), i64::from(*s.max_opt()?)))
                        }
                        _ => None,
                    }
                })
                .collect();
            files.push(SortedFile {
                path,
                meta,
                leaf,
                bounds,
            });
        }
        Ok(SortedFiles {
            column: column.to_owned(),
            files,
            parallel_from: PARALLEL_ROWS,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        })
    }

    /// The rows whose lookup column holds one of `values` (sorted or not), with the columns
    /// `columns` (the lookup column always included); a file lacking one of them is an error.
    pub(crate) fn rows(
        &self,
        values: &[i64],
        columns: &[&str],
    ) -> Result<Vec<RecordBatch>, DbError> {
        let mut out = Vec::new();
        if values.is_empty() {
            return Ok(out);
        }
        let mut found = Vec::new();
        for file in &self.files {
            if let Some(matched) = file.matches(&self.column, values)? {
                found.push((file, matched));
            }
        }
        let rows: usize = found.iter().map(|(_, m)| m.rows).sum();
        let threads = self.threads;
        if rows < self.parallel_from || found.len() < 2 || threads < 2 {
            for (file, matched) in found {
                out.extend(file.read(&self.column, matched, columns)?);
            }
            return Ok(out);
        }
        // A popular position: its files read on every core.
        let per_thread = found.len().div_ceil(threads);
        let column = self.column.as_str();
        std::thread::scope(|scope| {
            let mut work = Vec::new();
            let mut found = found.into_iter().peekable();
            while found.peek().is_some() {
                let part: Vec<_> = found.by_ref().take(per_thread).collect();
                work.push(scope.spawn(move || {
                    let mut out = Vec::new();
                    for (file, matched) in part {
                        out.extend(file.read(column, matched, columns)?);
                    }
                    Ok::<_, DbError>(out)
                }));
            }
            for handle in work {
                let batches = handle
                    .join()
                    .map_err(|_| DbError::Query("a lookup thread panicked".to_owned()))??;
                out.extend(batches);
            }
            Ok(out)
        })
    }
}

/// [`SortedFiles::parallel_from`] by default.
const PARALLEL_ROWS: usize = 50_000;

/// The rows of one file that hold a looked-up value.
struct Matched {
    groups: Vec<usize>,
    selection: RowSelection,
    rows: usize,
}

impl SortedFile {
    fn error(&self, e: &dyn std::fmt::Display) -> DbError {
        DbError::Query(format!("{}: {e}", self.path.display()))
    }

    fn reader(
        &self,
        groups: Vec<usize>,
        mask: ProjectionMask,
        selection: RowSelection,
    ) -> Result<parquet::arrow::arrow_reader::ParquetRecordBatchReader, DbError> {
        let file = File::open(&self.path).map_err(DbError::io(&self.path))?;
        ParquetRecordBatchReaderBuilder::new_with_metadata(file, self.meta.clone())
            .with_projection(mask)
            .with_row_groups(groups)
            .with_row_selection(selection)
            .with_batch_size(8192)
            .build()
            .map_err(|e| self.error(&e))
    }

    /// The rows whose `column` holds one of `values`, found by reading that column alone in
    /// the pages that may hold them (most files hold no row of a rare position, and each
    /// column read costs a decompressor); `None` when there are none.
    fn matches(&self, column: &str, values: &[i64]) -> Result<Option<Matched>, DbError> {
        let Some(leaf) = self.leaf else {
            return Err(self.error(&format!("no column {column}")));
        };
        let metadata = self.meta.metadata();
        let holds = |lo: i64, hi: i64| values.iter().any(|v| (lo..=hi).contains(v));
        let mut groups = Vec::new();
        let mut ranges: Vec<Range<usize>> = Vec::new();
        let mut offset = 0usize;
        for (g, rg) in metadata.row_groups().iter().enumerate() {
            if self.bounds[g].is_some_and(|(lo, hi)| !holds(lo, hi)) {
                continue;
            }
            let rows = usize::try_from(rg.num_rows()).unwrap_or(0);
            let pages = page_ranges(metadata, g, leaf, rows, &holds);
            if pages.is_empty() {
                continue;
            }
            groups.push(g);
            ranges.extend(pages.into_iter().map(|r| r.start + offset..r.end + offset));
            offset += rows;
        }
        if groups.is_empty() {
            return Ok(None);
        }
        let schema = metadata.file_metadata().schema_descr();
        let mut candidates = ranges.iter().flat_map(|r| r.clone());
        let mut matched: Vec<Range<usize>> = Vec::new();
        let keys_only = ProjectionMask::columns(schema, [column]);
        let selection = RowSelection::from_consecutive_ranges(ranges.iter().cloned(), offset);
        for batch in self.reader(groups.clone(), keys_only, selection)? {
            let batch = batch.map_err(|e| self.error(&e))?;
            let keys = batch
                .column_by_name(column)
                .ok_or_else(|| self.error(&format!("no column {column}")))?;
            let keys = cast(keys, &arrow_schema::DataType::Int64).map_err(|e| self.error(&e))?;
            let keys = keys
                .as_any()
                .downcast_ref::<Int64Array>()
                .ok_or_else(|| self.error(&format!("column {column}: not integers")))?;
            for i in 0..keys.len() {
                let row = candidates
                    .next()
                    .ok_or_else(|| self.error(&"more rows than the pages selected"))?;
                if keys.is_valid(i) && values.contains(&keys.value(i)) {
                    match matched.last_mut() {
                        Some(last) if last.end == row => last.end = row + 1,
                        _ => matched.push(row..row + 1),
                    }
                }
            }
        }
        if matched.is_empty() {
            return Ok(None);
        }
        let rows = matched.iter().map(|r| r.len()).sum();
        Ok(Some(Matched {
            groups,
            selection: RowSelection::from_consecutive_ranges(matched.into_iter(), offset),
            rows,
        }))
    }

    /// The columns `columns` (and `column`) of the rows `matched`.
    fn read(
        &self,
        column: &str,
        matched: Matched,
        columns: &[&str],
    ) -> Result<Vec<RecordBatch>, DbError> {
        let schema = self.meta.metadata().file_metadata().schema_descr();
        let mut names: Vec<&str> = columns.to_vec();
        names.push(column);
        for name in &names {
            if !(0..schema.num_columns()).any(|i| schema.column(i).name() == *name) {
                return Err(self.error(&format!("no column {name}")));
            }
        }
        let mask = ProjectionMask::columns(schema, names.iter().copied());
        self.reader(matched.groups, mask, matched.selection)?
            .map(|batch| batch.map_err(|e| self.error(&e)))
            .collect()
    }
}

/// The row ranges (within row group `g`) of the pages whose bounds of leaf column `leaf` pass
/// `holds`; the whole group when it has no column index for that column.
fn page_ranges(
    metadata: &parquet::file::metadata::ParquetMetaData,
    g: usize,
    leaf: usize,
    rows: usize,
    holds: &dyn Fn(i64, i64) -> bool,
) -> Vec<Range<usize>> {
    let (Some(index), Some(offsets)) = (metadata.column_index(), metadata.offset_index()) else {
        return std::iter::once(0..rows).collect();
    };
    let (Some(index), Some(offsets)) = (
        index.get(g).and_then(|c| c.get(leaf)),
        offsets.get(g).and_then(|c| c.get(leaf)),
    ) else {
        return std::iter::once(0..rows).collect();
    };
    let locations = offsets.page_locations();
    let bound = |i: usize| -> Option<(i64, i64)> {
        match index {
            ColumnIndexMetaData::INT64(ix) => Some((*ix.min_value(i)?, *ix.max_value(i)?)),
            ColumnIndexMetaData::INT32(ix) => {
                Some((i64::from(*ix.min_value(i)?), i64::from(*ix.max_value(i)?)))
            }
            _ => None,
        }
    };
    if !matches!(
        index,
        ColumnIndexMetaData::INT64(_) | ColumnIndexMetaData::INT32(_)
    ) {
        return std::iter::once(0..rows).collect();
    }
    let mut out: Vec<Range<usize>> = Vec::new();
    for (i, page) in locations.iter().enumerate() {
        // A page without bounds (all nulls) holds no value.
        if !bound(i).is_some_and(|(lo, hi)| holds(lo, hi)) {
            continue;
        }
        let start = usize::try_from(page.first_row_index).unwrap_or(0);
        let end = locations.get(i + 1).map_or(rows, |next| {
            usize::try_from(next.first_row_index).unwrap_or(rows)
        });
        match out.last_mut() {
            Some(last) if last.end == start => last.end = end,
            _ => out.push(start..end),
        }
    }
    out
}

/// Appends the `.parquet` files under `path` (or `path` itself).
fn parquet_files(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), DbError> {
    if path.is_file() {
        out.push(path.to_owned());
        return Ok(());
    }
    if !path.is_dir() {
        return Ok(());
    }
    for entry in std::fs::read_dir(path).map_err(DbError::io(path))? {
        let entry = entry.map_err(DbError::io(path))?;
        let p = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || name.starts_with('_') {
            continue;
        }
        if p.is_dir() {
            parquet_files(&p, out)?;
        } else if name.ends_with(".parquet") {
            out.push(p);
        }
    }
    Ok(())
}

/// The tables a question about one position looks up, opened once per [`crate::Database`].
pub(crate) struct Lookups {
    /// The explorer's aggregate, by `key_hi`: each import's (or compaction's) apart.
    pub explorer: Vec<ExplorerLookups>,
    /// Each batch's positions and lists, by `key_hi`.
    pub batches: Vec<BatchLookups>,
    /// `game_refs` by `game_id`; `None` when a batch has none (imported before it existed).
    pub game_refs: Option<SortedFiles>,
}

/// One batch's tables that list a position's games.
pub(crate) struct BatchLookups {
    /// Its positions.
    pub positions: SortedFiles,
    /// The lists of its popular positions per bucket (`crate::lists`); `None` in a batch
    /// imported before they existed.
    pub lists: Option<SortedFiles>,
    /// The same over all buckets.
    pub lists_all: Option<SortedFiles>,
}

/// One import's explorer aggregate (or a compaction's).
pub(crate) struct ExplorerLookups {
    /// Its rows.
    pub rows: SortedFiles,
    /// The per-move totals of its popular positions (`crate::totals`); `None` for a compaction,
    /// an aggregate made elsewhere, or one imported before they existed.
    pub totals: Option<SortedFiles>,
    /// The batches (indices in [`Lookups::batches`]) whose counted rows in `positions` answer
    /// a position that has no rows in this aggregate: those whose aggregates hold only the
    /// positions they count for [`crate::lists::LISTED_FROM`] games or more
    /// ([`crate::Batch::explorer_from`]).
    pub fallback: Vec<usize>,
}

/// The files under `dir` when it is a directory.
fn open_if_dir(dir: PathBuf) -> Result<Option<SortedFiles>, DbError> {
    if dir.is_dir() {
        Ok(Some(SortedFiles::open(&[dir], "key_hi")?))
    } else {
        Ok(None)
    }
}

impl Lookups {
    /// Reads the footers of the database's explorer, positions and game_refs files.
    pub(crate) fn open(
        dir: &Path,
        manifest: &crate::manifest::Manifest,
    ) -> Result<Lookups, DbError> {
        let under = |table: &str| -> Vec<PathBuf> {
            manifest
                .batches
                .iter()
                .map(|b| dir.join(b.dir()).join(table))
                .collect()
        };
        let refs = under("game_refs");
        let game_refs = if refs.iter().all(|d| d.is_dir()) {
            Some(SortedFiles::open(&refs, "game_id")?)
        } else {
            None
        };
        let mut batches = Vec::with_capacity(manifest.batches.len());
        for b in &manifest.batches {
            let batch = dir.join(b.dir());
            batches.push(BatchLookups {
                positions: SortedFiles::open(&[batch.join("positions")], "key_hi")?,
                lists: open_if_dir(batch.join("lists"))?,
                lists_all: open_if_dir(batch.join("lists_all"))?,
            });
        }
        let mut explorer = Vec::new();
        for unit in manifest.explorer_units() {
            let totals = match &unit.totals {
                Some(totals) => open_if_dir(dir.join(totals))?,
                None => None,
            };
            let fallback = (manifest.batches.iter().enumerate())
                .filter(|(_, b)| unit.fallback.contains(&b.id))
                .map(|(i, _)| i)
                .collect();
            explorer.push(ExplorerLookups {
                rows: SortedFiles::open(&[dir.join(&unit.dir)], "key_hi")?,
                totals,
                fallback,
            });
        }
        Ok(Lookups {
            explorer,
            batches,
            game_refs,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{Int64Array, StringArray};
    use arrow_schema::{DataType, Field, Schema};
    use parquet::arrow::ArrowWriter;
    use parquet::file::properties::WriterProperties;
    use std::sync::Arc;

    /// Rows `(key, value)`, keys drawn from a small range so that they repeat across pages
    /// and row groups.
    fn rows(n: usize, seed: u64) -> Vec<(i64, String)> {
        let mut x = seed;
        (0..n)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                ((x % 700) as i64 - 350, format!("v{i}"))
            })
            .collect()
    }

    fn write(path: &Path, rows: &[(i64, String)], pages: bool) {
        let schema = Arc::new(Schema::new(vec![
            Field::new("key_hi", DataType::Int64, false),
            Field::new("value", DataType::Utf8, false),
        ]));
        let mut props = WriterProperties::builder()
            .set_max_row_group_row_count(Some(2000))
            .set_write_batch_size(64);
        if pages {
            props = props.set_data_page_row_count_limit(64);
        }
        let file = File::create(path).expect("create");
        let mut writer =
            ArrowWriter::try_new(file, schema.clone(), Some(props.build())).expect("writer");
        for chunk in rows.chunks(500) {
            let batch = RecordBatch::try_new(
                schema.clone(),
                vec![
                    Arc::new(Int64Array::from_iter_values(chunk.iter().map(|r| r.0))),
                    Arc::new(StringArray::from_iter_values(chunk.iter().map(|r| &r.1))),
                ],
            )
            .expect("batch");
            writer.write(&batch).expect("write");
        }
        writer.close().expect("close");
    }

    fn found(files: &SortedFiles, keys: &[i64]) -> Vec<(i64, String)> {
        let mut out = Vec::new();
        for batch in files.rows(keys, &["value"]).expect("lookup") {
            let k = batch.column_by_name("key_hi").expect("key");
            let k = k.as_any().downcast_ref::<Int64Array>().expect("ints");
            let v = batch.column_by_name("value").expect("value");
            let v = v.as_any().downcast_ref::<StringArray>().expect("text");
            out.extend((0..batch.num_rows()).map(|i| (k.value(i), v.value(i).to_owned())));
        }
        out.sort();
        out
    }

    /// Every lookup gives exactly the rows a scan of every row finds: in sorted files with
    /// small pages (where most pages are skipped), in sorted files with one page per row group,
    /// and in unsorted files (no bounds exclude anything).
    #[test]
    fn lookups_find_exactly_the_rows_a_scan_finds() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut sorted = rows(9000, 7);
        sorted.sort();
        let unsorted = rows(5000, 11);
        write(&dir.path().join("a.parquet"), &sorted, true);
        write(&dir.path().join("b.parquet"), &sorted[..3000], false);
        std::fs::create_dir(dir.path().join("sub")).expect("mkdir");
        write(&dir.path().join("sub/c.parquet"), &unsorted, true);
        let mut files = SortedFiles::open(&[dir.path().to_owned()], "key_hi").expect("open");
        assert_eq!(files.files.len(), 3);
        // Read on every core (a popular position's way), then on one thread.
        for (parallel_from, keys) in [0, usize::MAX].into_iter().flat_map(|p| {
            [
                vec![-350],
                vec![0],
                vec![349],
                vec![5, -200, 17],
                vec![1000],
                vec![-351, 350],
            ]
            .into_iter()
            .map(move |k| (p, k))
        }) {
            files.parallel_from = parallel_from;
            let mut expected: Vec<(i64, String)> = sorted
                .iter()
                .chain(&sorted[..3000])
                .chain(&unsorted)
                .filter(|r| keys.contains(&r.0))
                .cloned()
                .collect();
            expected.sort();
            assert_eq!(
                found(&files, &keys),
                expected,
                "keys {keys:?}, parallel from {parallel_from}"
            );
        }
        let missing = files.rows(&[3], &["no_such_column"]);
        assert!(missing.is_err());
    }
}
