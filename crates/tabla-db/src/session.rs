//! The query engine: an Apache DataFusion session over the database's tables, on a Tokio
//! runtime of its own, with a memory limit past which sorts and aggregations spill to disk.

use crate::DbError;
use crate::runs::Batches;
use arrow_array::RecordBatch;
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use datafusion::datasource::file_format::parquet::ParquetFormat;
use datafusion::datasource::listing::{
    ListingOptions, ListingTable, ListingTableConfig, ListingTableUrl,
};
use datafusion::execution::disk_manager::{DiskManagerBuilder, DiskManagerMode};
use datafusion::execution::memory_pool::FairSpillPool;
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion::prelude::col;
use datafusion::prelude::{SessionConfig, SessionContext};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Hive's name for a partition whose value is unknown (tabla convert writes it for games
/// without a known year or month).
const HIVE_DEFAULT: &str = "__HIVE_DEFAULT_PARTITION__";

/// Bytes of decoded Parquet metadata (footers, page indexes) kept between queries.
const METADATA_CACHE_BYTES: usize = 512 << 20;

/// What the engine may use.
#[derive(Clone, Debug)]
pub struct QueryOptions {
    /// Threads for query execution.
    pub threads: usize,
    /// Bytes of memory that sorts, joins and aggregations may hold before spilling.
    pub memory: usize,
    /// Where spill files go (default: the system's temporary directory).
    pub spill_dir: Option<PathBuf>,
}

impl QueryOptions {
    /// The memory of [`QueryOptions::default`]: 1 GiB.
    pub const DEFAULT_MEMORY: usize = 1 << 30;

    /// The least memory given to the engine: asking for less gives this much.
    pub const MIN_MEMORY: usize = 16 << 20;

    /// `threads` threads (at least one; default every core) and `memory` bytes (at least
    /// [`QueryOptions::MIN_MEMORY`]; default [`QueryOptions::DEFAULT_MEMORY`]), as `tabla db
    /// --threads --memory` and Python's `threads=`, `memory=` give them.
    ///
    /// ```
    /// use tabla_db::QueryOptions;
    /// let options = QueryOptions::new(Some(0), Some(1000));
    /// assert_eq!((options.threads, options.memory), (1, QueryOptions::MIN_MEMORY));
    /// assert_eq!(QueryOptions::new(None, None).memory, QueryOptions::DEFAULT_MEMORY);
    /// ```
    pub fn new(threads: Option<usize>, memory: Option<usize>) -> QueryOptions {
        let default = QueryOptions::default();
        QueryOptions {
            threads: threads.map_or(default.threads, |t| t.max(1)),
            memory: memory.map_or(default.memory, |m| m.max(QueryOptions::MIN_MEMORY)),
            spill_dir: None,
        }
    }
}

impl Default for QueryOptions {
    fn default() -> QueryOptions {
        QueryOptions {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            memory: QueryOptions::DEFAULT_MEMORY,
            spill_dir: None,
        }
    }
}

/// A DataFusion session and the runtime it runs on (its own, or shared by several sessions).
pub(crate) struct Session {
    runtime: Arc<tokio::runtime::Runtime>,
    pub ctx: SessionContext,
}

/// A runtime of `threads` worker threads for engines.
pub(crate) fn runtime(threads: usize) -> Result<Arc<tokio::runtime::Runtime>, DbError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads.max(1))
        .thread_name("tabla-db")
        .build()
        .map(Arc::new)
        .map_err(|e| DbError::Query(format!("cannot start the query runtime: {e}")))
}

impl Session {
    pub fn new(options: &QueryOptions) -> Result<Session, DbError> {
        Session::on(runtime(options.threads)?, options)
    }

    /// A session on `runtime`, which it may share with others: `options.threads` is then the
    /// partitions of its plans, not threads of its own.
    pub fn on(
        runtime: Arc<tokio::runtime::Runtime>,
        options: &QueryOptions,
    ) -> Result<Session, DbError> {
        let threads = options.threads.max(1);
        let mut disk = DiskManagerBuilder::default();
        if let Some(dir) = &options.spill_dir {
            disk = disk.with_mode(DiskManagerMode::Directories(vec![dir.clone()]));
        }
        // Every table's Parquet footers and page indexes stay decoded between queries: with
        // DataFusion's default of 50 MiB, a database of millions of games (the positions
        // files' page indexes alone pass it) decoded them again for every query. The file
        // lists stay cached too (thousands of `games` files).
        let env = RuntimeEnvBuilder::new()
            .with_memory_pool(Arc::new(FairSpillPool::new(options.memory.max(16 << 20))))
            .with_disk_manager_builder(disk)
            .with_metadata_cache_limit(METADATA_CACHE_BYTES)
            .with_object_list_cache_limit(16 << 20)
            .build_arc()?;
        let mut config = SessionConfig::new()
            .with_target_partitions(threads)
            .with_information_schema(true);
        let parquet = &mut config.options_mut().execution.parquet;
        // Plain Utf8 strings, as tabla convert writes them (not DataFusion's Utf8View).
        parquet.schema_force_view_types = false;
        parquet.pushdown_filters = true;
        parquet.reorder_filters = true;
        parquet.max_row_group_size = 16_384;
        parquet.compression = Some("zstd(3)".to_owned());
        let ctx = SessionContext::new_with_config_rt(config, env);
        crate::udf::register(&ctx);
        Ok(Session { runtime, ctx })
    }

    /// Runs a future on the engine's runtime.
    pub fn block_on<F: std::future::Future>(&self, f: F) -> F::Output {
        self.runtime.block_on(f)
    }

    /// Runs a query and gathers its rows.
    pub fn collect(&self, sql: &str) -> Result<Vec<RecordBatch>, DbError> {
        self.block_on(async {
            let df = self.ctx.sql(sql).await?;
            Ok(df.collect().await?)
        })
    }

    /// Runs a query and hands its record batches to `each` as they come, so that a scan of
    /// every game holds one batch at a time.
    pub fn for_each_batch(
        &self,
        sql: &str,
        mut each: impl FnMut(&RecordBatch) -> Result<(), DbError>,
    ) -> Result<(), DbError> {
        use futures::StreamExt;
        self.block_on(async {
            let df = self.ctx.sql(sql).await?;
            let mut stream = df.execute_stream().await?;
            while let Some(batch) = stream.next().await {
                each(&batch?)?;
            }
            Ok(())
        })
    }

    /// Runs `sql` sorted by the columns `order` (ascending) on the engine's threads and hands
    /// its batches to the iterator returned, for a thread outside the engine: the query runs
    /// ahead of the reader by at most two batches. The iterator owns the engine.
    pub fn into_batches(self, sql: &str, order: &[&str]) -> Result<Batches, DbError> {
        use futures::StreamExt;
        let mut stream = self.block_on(async {
            let df = self
                .ctx
                .sql(sql)
                .await?
                .sort(order.iter().map(|c| col(*c).sort(true, false)).collect())?;
            Ok::<_, DbError>(df.execute_stream().await?)
        })?;
        let (tx, rx) = tokio::sync::mpsc::channel(2);
        self.runtime.spawn(async move {
            while let Some(batch) = stream.next().await {
                let failed = batch.is_err();
                if tx.send(batch.map_err(DbError::from)).await.is_err() || failed {
                    break;
                }
            }
        });
        Ok(Box::new(SessionBatches { rx, _session: self }))
    }

    /// Registers the Parquet files under `dirs` (each `*.parquet`, recursively; or a file) as `name`,
    /// with `schema`. With `partitioned`, the files sit in `year=Y/month=M/` directories and
    /// the table gets `year` and `month` (Int32, null for Hive's default partition).
    pub fn register(
        &self,
        name: &str,
        dirs: &[PathBuf],
        schema: SchemaRef,
        partitioned: bool,
    ) -> Result<(), DbError> {
        self.register_ordered(name, dirs, schema, partitioned, &[])
    }

    /// [`Session::register`] for files each sorted by the columns `sorted_by` (ascending): the
    /// engine then aggregates and sorts on that order as it streams (an aggregation grouped by
    /// those columns emits each group when the next begins, instead of hashing every group).
    pub fn register_ordered(
        &self,
        name: &str,
        dirs: &[PathBuf],
        schema: SchemaRef,
        partitioned: bool,
        sorted_by: &[&str],
    ) -> Result<(), DbError> {
        let files = if partitioned {
            format!("{name}_files")
        } else {
            name.to_owned()
        };
        let mut options =
            ListingOptions::new(Arc::new(ParquetFormat::default())).with_file_extension(".parquet");
        if partitioned {
            options = options.with_table_partition_cols(vec![
                ("year".to_owned(), DataType::Utf8),
                ("month".to_owned(), DataType::Utf8),
            ]);
        }
        if !sorted_by.is_empty() {
            let order = sorted_by
                .iter()
                .map(|c| datafusion::prelude::col(*c).sort(true, false))
                .collect();
            options = options.with_file_sort_order(vec![order]);
        }
        let table: Arc<dyn datafusion::catalog::TableProvider> = if dirs.is_empty() {
            let mut fields: Vec<Field> = schema.fields().iter().map(|f| (**f).clone()).collect();
            if partitioned {
                fields.push(Field::new("year", DataType::Utf8, true));
                fields.push(Field::new("month", DataType::Utf8, true));
            }
            Arc::new(datafusion::datasource::empty::EmptyTable::new(Arc::new(
                Schema::new(fields),
            )))
        } else {
            let urls = dirs
                .iter()
                .map(|d| table_url(d))
                .collect::<Result<Vec<_>, _>>()?;
            let config = ListingTableConfig::new_with_multi_paths(urls)
                .with_listing_options(options)
                .with_schema(schema.clone());
            Arc::new(ListingTable::try_new(config)?)
        };
        self.ctx.register_table(files.as_str(), table)?;
        if partitioned {
            let columns: Vec<String> = schema
                .fields()
                .iter()
                .map(|f| format!("\"{}\"", f.name()))
                .collect();
            let view = format!(
                "CREATE VIEW {name} AS SELECT {}, \
                 CAST(NULLIF(year, '{HIVE_DEFAULT}') AS INT) AS year, \
                 CAST(NULLIF(month, '{HIVE_DEFAULT}') AS INT) AS month FROM {files}",
                columns.join(", ")
            );
            self.collect(&view)?;
        }
        Ok(())
    }
}

/// The batches of a query running on its engine's threads ([`Session::into_batches`]).
struct SessionBatches {
    rx: tokio::sync::mpsc::Receiver<Result<RecordBatch, DbError>>,
    /// Dropped after `rx` (fields drop in order): the query stops, then its runtime.
    _session: Session,
}

impl Iterator for SessionBatches {
    type Item = Result<RecordBatch, DbError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.rx.blocking_recv()
    }
}

/// A directory (absolute, ending in `/` so that it is listed) or a file as a table URL.
fn table_url(dir: &Path) -> Result<ListingTableUrl, DbError> {
    let abs = std::path::absolute(dir).map_err(DbError::io(dir))?;
    let mut text = abs.to_string_lossy().into_owned();
    if !text.ends_with('/') && !abs.is_file() {
        text.push('/');
    }
    ListingTableUrl::parse(&text).map_err(DbError::from)
}
