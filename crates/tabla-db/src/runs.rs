//! Sorted runs: the rows of Parquet files (or of streams of batches) that are each sorted by a
//! key, read in key order across them (a k-way merge), one key at a time, in the memory of one
//! batch per run.
//!
//! An import's explorer aggregate comes as one part per positions file, and its positions
//! files are each sorted by key: merging them key by key sums the parts into one table and
//! finds each position's games without a hash table over the whole import.

use crate::DbError;
use arrow_array::RecordBatch;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::path::{Path, PathBuf};

/// The columns of a batch that a merge reads, decoded once per batch.
pub(crate) trait Decode: Sized {
    /// The columns to read.
    const COLUMNS: &'static [&'static str];
    /// The batch's columns.
    fn decode(batch: &RecordBatch) -> Result<Self, DbError>;
    /// Row `i`'s key, as a number whose order is the files' order.
    fn key(&self, i: usize) -> u128;
    /// The rows.
    fn rows(&self) -> usize;
}

/// The order key of a file sorted by the signed columns `(key_hi, key_lo)` (as the query
/// engine sorts them).
pub(crate) fn signed_order(hi: i64, lo: i64) -> u128 {
    const SIGN: u64 = 1 << 63;
    (u128::from(hi as u64 ^ SIGN) << 64) | u128::from(lo as u64 ^ SIGN)
}

/// A run's batches in order: a Parquet file's, or a stream's that the query engine produces.
pub(crate) type Batches = Box<dyn Iterator<Item = Result<RecordBatch, DbError>>>;

/// One run's rows.
struct Cursor<T> {
    /// The run's name in errors (a file's path).
    name: String,
    reader: Batches,
    batch: Option<T>,
    row: usize,
}

impl<T: Decode> Cursor<T> {
    fn new(name: String, reader: Batches) -> Result<Cursor<T>, DbError> {
        let mut cursor = Cursor {
            name,
            reader,
            batch: None,
            row: 0,
        };
        cursor.load()?;
        Ok(cursor)
    }

    fn open(path: &Path, batch_rows: usize) -> Result<Cursor<T>, DbError> {
        let error = |e: &dyn std::fmt::Display| DbError::Query(format!("{}: {e}", path.display()));
        let file = File::open(path).map_err(DbError::io(path))?;
        let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| error(&e))?;
        let mask = ProjectionMask::columns(builder.parquet_schema(), T::COLUMNS.iter().copied());
        let reader: ParquetRecordBatchReader = builder
            .with_projection(mask)
            .with_batch_size(batch_rows)
            .build()
            .map_err(|e| error(&e))?;
        let name = path.display().to_string();
        let reader = {
            let name = name.clone();
            reader.map(move |b| b.map_err(|e| DbError::Query(format!("{name}: {e}"))))
        };
        Cursor::new(name, Box::new(reader))
    }

    /// Reads batches until one has a row (or the file ends).
    fn load(&mut self) -> Result<(), DbError> {
        self.batch = None;
        self.row = 0;
        for batch in self.reader.by_ref() {
            let batch = batch?;
            if batch.num_rows() > 0 {
                self.batch = Some(T::decode(&batch)?);
                return Ok(());
            }
        }
        Ok(())
    }

    /// The current row's key; `None` at the end of the file.
    fn key(&self) -> Option<u128> {
        self.batch.as_ref().map(|b| b.key(self.row))
    }

    fn advance(&mut self) -> Result<(), DbError> {
        self.row += 1;
        if self.batch.as_ref().is_some_and(|b| self.row >= b.rows()) {
            self.load()?;
        }
        Ok(())
    }
}

/// Runs each sorted by key, read in key order across them.
pub(crate) struct Runs<T> {
    cursors: Vec<Cursor<T>>,
    heap: BinaryHeap<Reverse<(u128, usize)>>,
}

impl<T: Decode> Runs<T> {
    /// Opens `files`, reading `batch_rows` rows of each at a time.
    pub(crate) fn open(files: &[PathBuf], batch_rows: usize) -> Result<Runs<T>, DbError> {
        let cursors = files
            .iter()
            .map(|path| Cursor::open(path, batch_rows))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Runs::of(cursors))
    }

    /// Runs over streams of batches, each with its name for errors.
    pub(crate) fn from_batches(runs: Vec<(String, Batches)>) -> Result<Runs<T>, DbError> {
        let cursors = runs
            .into_iter()
            .map(|(name, batches)| Cursor::new(name, batches))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Runs::of(cursors))
    }

    fn of(cursors: Vec<Cursor<T>>) -> Runs<T> {
        let mut heap = BinaryHeap::with_capacity(cursors.len());
        for (i, cursor) in cursors.iter().enumerate() {
            if let Some(key) = cursor.key() {
                heap.push(Reverse((key, i)));
            }
        }
        Runs { cursors, heap }
    }

    /// Calls `row` for every row of the least key not yet read, in every file (the rows of
    /// one file in their order), and returns that key; `None` when every file is read. A file
    /// whose keys go down is an error: its rows would be merged out of order.
    pub(crate) fn next_key(
        &mut self,
        mut row: impl FnMut(&T, usize) -> Result<(), DbError>,
    ) -> Result<Option<u128>, DbError> {
        let Some(&Reverse((key, _))) = self.heap.peek() else {
            return Ok(None);
        };
        while let Some(mut top) = self.heap.peek_mut() {
            let Reverse((k, c)) = *top;
            if k != key {
                break;
            }
            let cursor = &mut self.cursors[c];
            let mut next = None;
            while let Some(batch) = &cursor.batch {
                let k = batch.key(cursor.row);
                if k != key {
                    if k < key {
                        return Err(DbError::Query(format!(
                            "{}: not sorted by key",
                            cursor.name
                        )));
                    }
                    next = Some(k);
                    break;
                }
                row(batch, cursor.row)?;
                cursor.advance()?;
            }
            // The cursor's next key replaces its entry in place (one sift, not a pop and a push).
            match next {
                Some(k) => *top = Reverse((k, c)),
                None => {
                    std::collections::binary_heap::PeekMut::pop(top);
                }
            }
        }
        Ok(Some(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{Array, Int64Array};
    use arrow_schema::{DataType, Field, Schema};
    use parquet::arrow::ArrowWriter;
    use std::sync::Arc;

    struct Keys(Int64Array, Int64Array);

    impl Decode for Keys {
        const COLUMNS: &'static [&'static str] = &["k", "v"];
        fn decode(batch: &RecordBatch) -> Result<Self, DbError> {
            let col = |i: usize| {
                batch
                    .column(i)
                    .as_any()
                    .downcast_ref::<Int64Array>()
                    .cloned()
                    .ok_or_else(|| DbError::Query("not Int64".into()))
            };
            Ok(Keys(col(0)?, col(1)?))
        }
        fn key(&self, i: usize) -> u128 {
            signed_order(self.0.value(i), 0)
        }
        fn rows(&self) -> usize {
            self.0.len()
        }
    }

    fn write(path: &Path, rows: &[(i64, i64)]) {
        let schema = Arc::new(Schema::new(vec![
            Field::new("k", DataType::Int64, false),
            Field::new("v", DataType::Int64, false),
        ]));
        let mut w = ArrowWriter::try_new(File::create(path).expect("create"), schema.clone(), None)
            .expect("writer");
        for chunk in rows.chunks(7) {
            let k = Int64Array::from_iter_values(chunk.iter().map(|r| r.0));
            let v = Int64Array::from_iter_values(chunk.iter().map(|r| r.1));
            let batch = RecordBatch::try_new(schema.clone(), vec![Arc::new(k), Arc::new(v)])
                .expect("batch");
            w.write(&batch).expect("write");
        }
        w.close().expect("close");
    }

    /// Every row comes out once, grouped by key in ascending (signed) order, whatever the
    /// batch boundaries; a file out of order is refused.
    #[test]
    fn rows_come_out_by_key_across_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut all = Vec::new();
        let mut files = Vec::new();
        for f in 0..4i64 {
            // Keys from -30 to 30, some repeated within a file, some files without some keys.
            let mut rows: Vec<(i64, i64)> = (0..40)
                .map(|i| (((i * 37 + f * 11) % 61) - 30, f * 100 + i))
                .filter(|(k, _)| k % (f + 2) != 0)
                .collect();
            rows.extend(rows.clone().iter().take(5).map(|&(k, v)| (k, v + 50)));
            rows.sort();
            all.extend(rows.iter().copied());
            let path = dir.path().join(format!("{f}.parquet"));
            write(&path, &rows);
            files.push(path);
        }
        let mut runs: Runs<Keys> = Runs::open(&files, 3).expect("open");
        let mut seen = Vec::new();
        let mut keys = Vec::new();
        while let Some(key) = runs
            .next_key(|b, i| {
                seen.push((b.0.value(i), b.1.value(i)));
                Ok(())
            })
            .expect("merge")
        {
            keys.push(key);
        }
        let mut expected_keys: Vec<u128> = all.iter().map(|r| signed_order(r.0, 0)).collect();
        expected_keys.sort();
        expected_keys.dedup();
        assert_eq!(keys, expected_keys);
        assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0), "grouped by key");
        seen.sort();
        all.sort();
        assert_eq!(seen, all);

        let unsorted = dir.path().join("unsorted.parquet");
        write(&unsorted, &[(1, 0), (5, 0), (3, 0)]);
        let mut runs: Runs<Keys> = Runs::open(&[unsorted], 2).expect("open");
        let mut result = Ok(Some(0));
        while let Ok(Some(_)) = result {
            result = runs.next_key(|_, _| Ok(()));
        }
        assert!(
            matches!(&result, Err(DbError::Query(m)) if m.contains("not sorted")),
            "{result:?}"
        );
    }
}
