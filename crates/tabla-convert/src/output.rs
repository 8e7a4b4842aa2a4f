//! Writing the tables: Hive-style partition directories, files written under a hidden temporary
//! name and renamed once complete, and each worker's open files and buffers.
//!
//! A file is written as `.part-<run>-<worker>-<n>.parquet.tmp` beside its final name
//! `part-<run>-<worker>-<n>.parquet`, synced, then renamed. Names starting with `.` are skipped
//! by Spark and Hive, and the temporary name does not match `*.parquet`, so after an
//! interrupted run every `*.parquet` file is complete and leftovers are ignored by readers.

use crate::PositionsTable;
use crate::record::GameRecord;
use crate::tables::{GamesBuilder, Month, PositionsBuffer, TagValues};
use crate::{ConvertError, Limits};
use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::metadata::SortingColumn;
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnPath;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Hive's name for the partition of a null value, read as NULL by DuckDB and Spark.
pub const DEFAULT_PARTITION: &str = "__HIVE_DEFAULT_PARTITION__";

/// Games between two record batches handed to the Parquet writer.
const BATCH_ROWS: usize = 4096;
/// Text bytes that also close a record batch (keeps string offsets and memory small).
const BATCH_BYTES: usize = 8 << 20;

/// The directory of a partition: `year=2024/month=1` (no leading zero: DuckDB reads `01` as
/// text, `1` as a number), with [`DEFAULT_PARTITION`] for what is
/// unknown.
pub(crate) fn partition_dir(month: Month) -> PathBuf {
    let year = month
        .0
        .map_or_else(|| DEFAULT_PARTITION.to_owned(), |y| y.to_string());
    let month = month
        .1
        .map_or_else(|| DEFAULT_PARTITION.to_owned(), |m| m.to_string());
    PathBuf::from(format!("year={year}")).join(format!("month={month}"))
}

/// What every worker shares about the output.
#[derive(Debug)]
pub(crate) struct OutputPlan {
    pub out_dir: PathBuf,
    pub limits: Limits,
    /// Distinguishes this run's files from those of other runs into the same directory.
    pub run: String,
    pub games_schema: SchemaRef,
    /// Which positions table is written (if any).
    pub positions: PositionsTable,
    pub positions_schema: SchemaRef,
    games_props: WriterProperties,
    positions_props: WriterProperties,
    /// Where the tables go when they are kept in memory ([`crate::convert_to_arrow`]) rather
    /// than written under `out_dir`.
    pub memory: Option<Arc<Collected>>,
}

/// The record batches of a conversion kept in memory, gathered from every worker as each of
/// its would-be files is complete.
#[derive(Debug, Default)]
pub(crate) struct Collected {
    pub games: Mutex<Vec<RecordBatch>>,
    pub positions: Mutex<Vec<RecordBatch>>,
}

/// Which table a file holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Table {
    Games,
    Positions,
}

impl OutputPlan {
    pub fn new(
        out_dir: PathBuf,
        limits: Limits,
        run: String,
        positions: PositionsTable,
    ) -> OutputPlan {
        let compression = Compression::ZSTD(ZstdLevel::default());
        let mut games_props = WriterProperties::builder().set_compression(compression);
        // Values that rarely repeat: a dictionary would only cost time before the writer
        // gives up on it.
        for column in ["game_id", "site", "movetext", "final_fen"] {
            games_props =
                games_props.set_column_dictionary_enabled(ColumnPath::from(column), false);
        }
        let games_props = games_props
            .set_max_row_group_row_count(Some(limits.games_per_row_group.max(1)))
            .set_max_row_group_bytes(Some(limits.row_group_bytes.max(1)))
            .build();
        let mut positions_props = WriterProperties::builder().set_compression(compression);
        // Hashes never repeat within a file: a dictionary would only be one more page for a
        // lookup to read. The first key column is sorted: its differences take fewer bits.
        for column in ["zobrist", "key_hi", "key_lo", "game_id"] {
            positions_props =
                positions_props.set_column_dictionary_enabled(ColumnPath::from(column), false);
        }
        if positions == PositionsTable::Keys {
            // Numbered game ids (`GameIds::Numbered`) in key order: their differences take
            // about log2(games) + 1 bits, where zstd over plain values keeps whole bytes.
            for column in ["key_hi", "game_id"] {
                positions_props = positions_props
                    .set_column_encoding(ColumnPath::from(column), Encoding::DELTA_BINARY_PACKED);
            }
        }
        let positions_props = positions_props
            .set_max_row_group_row_count(Some(limits.positions_per_row_group.max(1)))
            .set_data_page_row_count_limit(crate::PAGE_ROWS)
            .set_sorting_columns(Some(
                // (zobrist, game_id, ply), or (key_hi, key_lo, game_id, ply).
                match positions {
                    PositionsTable::Full => vec![0, 4, 5],
                    _ => vec![0, 1, 2, 3],
                }
                .into_iter()
                .map(|column_idx| SortingColumn {
                    column_idx,
                    descending: false,
                    nulls_first: false,
                })
                .collect(),
            ))
            .build();
        OutputPlan {
            out_dir,
            limits,
            run,
            games_schema: crate::tables::games_schema(),
            positions,
            positions_schema: crate::tables::positions_schema(positions),
            games_props,
            positions_props,
            memory: None,
        }
    }
}

/// A file of a table: a Parquet file being written, or its batches kept in memory.
enum PartFile {
    /// Boxed: the writer is large, and a worker holds a few of these at most.
    Parquet(Box<ParquetPart>),
    /// The batches, added to the plan's [`Collected`] when the file is finished.
    Memory {
        batches: Vec<RecordBatch>,
        into: Arc<Collected>,
        table: Table,
    },
}

impl PartFile {
    fn create(
        plan: &OutputPlan,
        table: Table,
        dir: &Path,
        name: &str,
    ) -> Result<PartFile, ConvertError> {
        if let Some(into) = &plan.memory {
            return Ok(PartFile::Memory {
                batches: Vec::new(),
                into: Arc::clone(into),
                table,
            });
        }
        let (schema, props) = match table {
            Table::Games => (&plan.games_schema, &plan.games_props),
            Table::Positions => (&plan.positions_schema, &plan.positions_props),
        };
        ParquetPart::create(dir, name, schema, props).map(|part| PartFile::Parquet(Box::new(part)))
    }

    fn write(&mut self, batch: &RecordBatch) -> Result<(), ConvertError> {
        match self {
            PartFile::Parquet(part) => part.write(batch),
            PartFile::Memory { batches, .. } => {
                batches.push(batch.clone());
                Ok(())
            }
        }
    }

    /// Completes the file: the path of a Parquet file, `None` for batches kept in memory.
    fn finish(self) -> Result<Option<PathBuf>, ConvertError> {
        match self {
            PartFile::Parquet(part) => (*part).finish().map(Some),
            PartFile::Memory {
                batches,
                into,
                table,
            } => {
                let list = match table {
                    Table::Games => &into.games,
                    Table::Positions => &into.positions,
                };
                list.lock()
                    .map_err(|_| ConvertError::Worker("a worker failed".to_owned()))?
                    .extend(batches);
                Ok(None)
            }
        }
    }

    fn abort(self) {
        if let PartFile::Parquet(part) = self {
            (*part).abort();
        }
    }
}

/// A Parquet file being written under its temporary name.
struct ParquetPart {
    temp: PathBuf,
    path: PathBuf,
    writer: ArrowWriter<BufWriter<File>>,
}

impl ParquetPart {
    fn create(
        dir: &Path,
        name: &str,
        schema: &SchemaRef,
        props: &WriterProperties,
    ) -> Result<ParquetPart, ConvertError> {
        std::fs::create_dir_all(dir).map_err(|source| ConvertError::Create {
            path: dir.to_owned(),
            source,
        })?;
        let temp = dir.join(format!(".{name}.tmp"));
        let path = dir.join(name);
        let file = File::create(&temp).map_err(|source| ConvertError::Create {
            path: temp.clone(),
            source,
        })?;
        let writer = ArrowWriter::try_new(
            BufWriter::with_capacity(1 << 20, file),
            schema.clone(),
            Some(props.clone()),
        );
        match writer {
            Ok(writer) => Ok(ParquetPart { temp, path, writer }),
            Err(source) => {
                let _ = std::fs::remove_file(&temp);
                Err(ConvertError::Parquet { path: temp, source })
            }
        }
    }

    fn write(&mut self, batch: &RecordBatch) -> Result<(), ConvertError> {
        self.writer
            .write(batch)
            .map_err(|source| ConvertError::Parquet {
                path: self.temp.clone(),
                source,
            })
    }

    /// Completes the file and gives it its final name.
    fn finish(self) -> Result<PathBuf, ConvertError> {
        let ParquetPart { temp, path, writer } = self;
        let result = (|| {
            let buffered = writer
                .into_inner()
                .map_err(|source| ConvertError::Parquet {
                    path: temp.clone(),
                    source,
                })?;
            let write_error = |source| ConvertError::Write {
                path: temp.clone(),
                source,
            };
            let file = buffered
                .into_inner()
                .map_err(|e| write_error(e.into_error()))?;
            file.sync_all().map_err(write_error)?;
            drop(file);
            std::fs::rename(&temp, &path).map_err(write_error)
        })();
        match result {
            Ok(()) => Ok(path),
            Err(e) => {
                let _ = std::fs::remove_file(&temp);
                Err(e)
            }
        }
    }

    /// Drops the file unfinished.
    fn abort(self) {
        let ParquetPart { temp, writer, .. } = self;
        drop(writer);
        let _ = std::fs::remove_file(temp);
    }
}

/// The `games` rows of one partition: a batch being gathered and the file it goes to (if one
/// is open: at most [`Limits::open_partitions`] are).
struct OpenGames {
    month: Month,
    builder: GamesBuilder,
    file: Option<PartFile>,
    rows_in_file: usize,
    /// When a batch was last written to `file`.
    last_write: u64,
}

/// What a worker wrote.
#[derive(Debug, Default)]
pub(crate) struct Written {
    pub files: Vec<PathBuf>,
    pub games: u64,
    pub games_with_error: u64,
    pub warnings: u64,
    pub positions: u64,
}

/// One worker's output: its open `games` files and its positions buffers.
pub(crate) struct Sink<'a> {
    plan: &'a OutputPlan,
    worker: usize,
    next_file: usize,
    games: Vec<OpenGames>,
    /// Text bytes gathered over every partition's batch, bounded by
    /// [`Limits::games_buffer_bytes`].
    buffered_game_bytes: usize,
    positions: Vec<(Month, PositionsBuffer)>,
    buffered_positions: usize,
    clock: u64,
    written: Written,
}

impl<'a> Sink<'a> {
    pub fn new(plan: &'a OutputPlan, worker: usize) -> Sink<'a> {
        Sink {
            plan,
            worker,
            next_file: 0,
            games: Vec::new(),
            buffered_game_bytes: 0,
            positions: Vec::new(),
            buffered_positions: 0,
            clock: 0,
            written: Written::default(),
        }
    }

    fn file_name(&mut self) -> String {
        self.next_file += 1;
        format!(
            "part-{}-{:03}-{:05}.parquet",
            self.plan.run, self.worker, self.next_file
        )
    }

    /// Adds one game (and its positions, if recorded).
    pub fn add_game(
        &mut self,
        id: u64,
        record: &GameRecord,
        movetext: &str,
        error: Option<&str>,
    ) -> Result<(), ConvertError> {
        let tags = TagValues::of(record);
        let month = tags.month();
        let slot = match self.games.iter().position(|g| g.month == month) {
            Some(i) => i,
            None => {
                self.games.push(OpenGames {
                    month,
                    builder: GamesBuilder::new(self.plan.games_schema.clone()),
                    file: None,
                    rows_in_file: 0,
                    last_write: 0,
                });
                self.games.len() - 1
            }
        };
        let builder = &mut self.games[slot].builder;
        let before = builder.bytes();
        builder.push(id, record, &tags, movetext, error);
        self.buffered_game_bytes += builder.bytes() - before;
        self.written.games += 1;
        self.written.games_with_error += u64::from(error.is_some());
        self.written.warnings += record.warnings.len() as u64;
        if builder.rows() >= BATCH_ROWS || builder.bytes() >= BATCH_BYTES {
            self.flush_games(slot)?;
        } else if self.buffered_game_bytes >= self.plan.limits.games_buffer_bytes.max(1) {
            // Games spread over many months (an archive of years): the fullest partition's
            // batch goes out, so that files stay large however many partitions there are.
            let fullest = (0..self.games.len())
                .max_by_key(|&i| self.games[i].builder.bytes())
                .unwrap_or(slot);
            self.flush_games(fullest)?;
        }
        let n = record.positions.len();
        if n > 0 {
            // The keys-only table is not partitioned: its files are sorted by key over every
            // month, so that a lookup reads few files (each row carries its date).
            let month = if self.plan.positions == PositionsTable::Keys {
                (None, None)
            } else {
                month
            };
            let mut slot = match self.positions.iter().position(|(m, _)| *m == month) {
                Some(i) => i,
                None => {
                    self.positions.push((month, PositionsBuffer::default()));
                    self.positions.len() - 1
                }
            };
            // Arena offsets are `u32`: a buffer about to outgrow them is written first.
            if self.positions[slot].1.text_len() + record.positions.text.text.len()
                > u32::MAX as usize
            {
                self.write_positions(slot)?;
                self.positions.push((month, PositionsBuffer::default()));
                slot = self.positions.len() - 1;
            }
            self.positions[slot].1.push_game(id, record, tags.facts());
            self.buffered_positions += n;
            self.written.positions += n as u64;
            while self.buffered_positions >= self.plan.limits.positions_per_worker.max(1) {
                self.write_largest_positions()?;
            }
        }
        Ok(())
    }

    /// Hands the gathered rows of a partition to its file, opening one if needed (and finishing
    /// the least recently written file if too many are open), and finishes the file once it
    /// holds [`Limits::games_per_file`] games.
    fn flush_games(&mut self, slot: usize) -> Result<(), ConvertError> {
        if self.games[slot].builder.rows() == 0 {
            return Ok(());
        }
        if self.games[slot].file.is_none() {
            let open_files = self.games.iter().filter(|g| g.file.is_some()).count();
            if open_files >= self.plan.limits.open_partitions.max(1) {
                let oldest = (0..self.games.len())
                    .filter(|&i| self.games[i].file.is_some())
                    .min_by_key(|&i| self.games[i].last_write);
                if let Some(oldest) = oldest {
                    self.finish_games_file(oldest)?;
                }
            }
            let dir = self
                .plan
                .out_dir
                .join("games")
                .join(partition_dir(self.games[slot].month));
            let name = self.file_name();
            let file = PartFile::create(self.plan, Table::Games, &dir, &name)?;
            self.games[slot].file = Some(file);
        }
        self.clock += 1;
        let open = &mut self.games[slot];
        open.last_write = self.clock;
        let rows = open.builder.rows();
        self.buffered_game_bytes -= open.builder.bytes().min(self.buffered_game_bytes);
        let batch = open
            .builder
            .finish()
            .map_err(|e| ConvertError::Worker(e.to_string()))?;
        if let Some(file) = &mut open.file {
            file.write(&batch)?;
        }
        open.rows_in_file += rows;
        if open.rows_in_file >= self.plan.limits.games_per_file.max(1) {
            self.finish_games_file(slot)?;
        }
        Ok(())
    }

    /// Finishes the partition's open file (its gathered rows stay gathered).
    fn finish_games_file(&mut self, slot: usize) -> Result<(), ConvertError> {
        let open = &mut self.games[slot];
        open.rows_in_file = 0;
        if let Some(file) = open.file.take() {
            self.written.files.extend(file.finish()?);
        }
        Ok(())
    }

    /// Writes out the partition's gathered rows, finishes its file and forgets it.
    fn close_games(&mut self, slot: usize) -> Result<(), ConvertError> {
        self.flush_games(slot)?;
        self.finish_games_file(slot)?;
        self.games.swap_remove(slot);
        Ok(())
    }

    /// Sorts the largest positions buffer and writes it as one file.
    fn write_largest_positions(&mut self) -> Result<(), ConvertError> {
        let Some(slot) = (0..self.positions.len()).max_by_key(|&i| self.positions[i].1.len())
        else {
            self.buffered_positions = 0;
            return Ok(());
        };
        self.write_positions(slot)
    }

    fn write_positions(&mut self, slot: usize) -> Result<(), ConvertError> {
        let (month, mut buffer) = self.positions.swap_remove(slot);
        let n = buffer.len();
        if n == 0 {
            return Ok(());
        }
        let dir = match self.plan.positions {
            PositionsTable::Keys => self.plan.out_dir.join("positions"),
            _ => self
                .plan
                .out_dir
                .join("positions")
                .join(partition_dir(month)),
        };
        let name = self.file_name();
        let mut file = PartFile::create(self.plan, Table::Positions, &dir, &name)?;
        let rows = self.plan.limits.positions_per_row_group.max(1);
        let result = buffer.drain_sorted(
            self.plan.positions,
            &self.plan.positions_schema,
            rows,
            |batch| file.write(&batch),
        );
        if let Err(e) = result {
            file.abort();
            return Err(e);
        }
        self.written.files.extend(file.finish()?);
        self.buffered_positions -= n;
        Ok(())
    }

    /// Writes out everything buffered and completes every file.
    pub fn finish(mut self) -> Result<Written, ConvertError> {
        let result = (|| {
            while !self.games.is_empty() {
                self.close_games(self.games.len() - 1)?;
            }
            while !self.positions.is_empty() {
                self.write_positions(self.positions.len() - 1)?;
            }
            Ok(())
        })();
        match result {
            Ok(()) => Ok(std::mem::take(&mut self.written)),
            Err(e) => {
                self.abort();
                Err(e)
            }
        }
    }

    /// Removes the files being written; completed files stay.
    pub fn abort(&mut self) {
        for open in self.games.drain(..) {
            if let Some(file) = open.file {
                file.abort();
            }
        }
        self.positions.clear();
    }
}

/// A name for this run's files: the time and the process id, as hex.
pub(crate) fn run_name() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mixed = crate::game_id::name_hash(&format!("{nanos}-{}", std::process::id()));
    format!("{:012x}", mixed >> 16)
}
