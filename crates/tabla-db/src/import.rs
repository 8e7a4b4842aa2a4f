//! `tabla db import`: PGN files into the database, as one batch.
//!
//! The steps: take the database's lock; hash every input (BLAKE3) and skip content already
//! imported (or given twice); convert the inputs with `tabla convert` (games, and the key-only positions table
//! up to max-ply) into a hidden staging directory; run `sql/explorer.sql` on DataFusion over
//! each positions file (each sorted by key: the engine groups as rows stream, its results come
//! sorted) and merge the results into the batch's explorer aggregate ([`crate::merge`]); at
//! the same time, write the lists of games and the totals of the popular positions
//! ([`crate::lists`], [`crate::totals`]); move the staging directory into `batches/`; replace
//! the manifest, which is the commit; and compact the explorer's parts when there are many
//! ([`crate::compact`]). An import interrupted anywhere leaves the manifest as it was, so the
//! database is unchanged; the next import removes what the interrupted one left.

use crate::lists::LISTED_FROM;
use crate::lookup_write::write_sorted;
use crate::manifest::{Batch, InputRecord, Manifest, batch_dir, sync_dir};
use crate::merge::merge_parts;
use crate::runs::Runs;
use crate::session::{QueryOptions, Session};
use crate::store::{lock, remove_leftovers, write_explorer};
use crate::values::first_int;
use crate::{DbError, tables};
use std::fs::File;
use std::io::Read;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use tabla_convert::{Input, Options, PositionsTable, ProgressSink};

/// Positions each conversion thread holds before it writes them, sorted, as one file: the
/// import's memory bound for them.
const POSITIONS_PER_THREAD: usize = 4 << 20;

/// The default max-ply of a new database.
pub const DEFAULT_MAX_PLY: u32 = 50;

/// What [`import`] does.
#[derive(Clone, Debug)]
pub struct ImportOptions {
    /// The database directory (created when missing).
    pub db: PathBuf,
    /// PGN or `.pgn.zst` files.
    pub inputs: Vec<PathBuf>,
    /// The explorer's max-ply: required to equal the database's when it exists; a new database
    /// takes it (default [`DEFAULT_MAX_PLY`]).
    pub max_ply: Option<u32>,
    /// Threads and memory for conversion and aggregation.
    pub query: QueryOptions,
}

/// What an import added.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportSummary {
    /// Games read, damaged ones included.
    pub games: u64,
    /// Games kept with an error.
    pub errors: u64,
    /// Warnings.
    pub warnings: u64,
    /// Positions (rows of the positions table: plies below max-ply).
    pub positions: u64,
    /// Rows of the explorer aggregate written.
    pub explorer_rows: u64,
    /// The fewest games a position needs in the import to be in its aggregate
    /// ([`crate::Batch::explorer_from`]).
    pub explorer_from: u64,
    /// Input bytes read, as stored (compressed bytes for `.pgn.zst` input).
    pub input_bytes: u64,
    /// The batch's number; 0 when nothing was imported (every input was skipped).
    pub batch: u32,
    /// The inputs left out because their content is in the database already (or was given
    /// earlier in the same import), in the order given.
    pub skipped: Vec<SkippedInput>,
    /// The compaction that followed the import, when the database had more than
    /// [`crate::COMPACT_AFTER`] explorer parts.
    pub compacted: Option<crate::CompactSummary>,
    /// The import's phases in order with their wall times (`converting`, `aggregating`, ...),
    /// for a person asking where the time went.
    pub phases: Vec<(&'static str, std::time::Duration)>,
}

/// An input an import left out: its content is in the database already, or was given before
/// it in the same import.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedInput {
    /// The input given.
    pub input: String,
    /// The name of the input with the same content.
    pub earlier: String,
    /// When that input was imported, in seconds since 1970; `None` when it was given before
    /// this one in the same import.
    pub imported: Option<u64>,
}

impl std::fmt::Display for SkippedInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.imported {
            Some(when) => write!(
                f,
                "{}: skipped, already imported (the same content as {}, imported {})",
                self.input,
                self.earlier,
                tabla_convert::utc_minute(when)
            ),
            None => write!(
                f,
                "{}: skipped, the same content as {} given before it",
                self.input, self.earlier
            ),
        }
    }
}

/// Times the phases of an import and tells the progress sink when one begins.
struct Phases<'a> {
    progress: &'a dyn ProgressSink,
    done: Vec<(&'static str, std::time::Duration)>,
    current: Option<(&'static str, std::time::Instant)>,
}

impl<'a> Phases<'a> {
    fn new(progress: &'a dyn ProgressSink) -> Self {
        Phases {
            progress,
            done: Vec::new(),
            current: None,
        }
    }

    /// Ends the current phase and begins `name`; its message is shown only from the second
    /// phase on (the first is the conversion, shown by its own bar).
    fn begin(&mut self, name: &'static str) {
        self.end();
        if !self.done.is_empty() {
            self.progress.phase(name);
        }
        self.current = Some((name, std::time::Instant::now()));
    }

    fn end(&mut self) {
        if let Some((name, start)) = self.current.take() {
            self.done.push((name, start.elapsed()));
        }
    }

    fn finish(mut self) -> Vec<(&'static str, std::time::Duration)> {
        self.end();
        self.done
    }
}

/// Imports `options.inputs` as one batch; see the module's documentation.
pub fn import(
    options: &ImportOptions,
    progress: &dyn ProgressSink,
) -> Result<ImportSummary, DbError> {
    if options.inputs.is_empty() {
        return Err(DbError::Argument("no input given".to_owned()));
    }
    if let Some(m) = options.max_ply
        && !(1..=1000).contains(&m)
    {
        return Err(DbError::BadMaxPly(m));
    }
    let dir = &options.db;
    let existed = dir.exists();
    let was_database = dir.join(crate::manifest::MANIFEST).exists();
    std::fs::create_dir_all(dir).map_err(DbError::io(dir))?;
    // A first import that fails leaves the directory as it found it: absent, or without the
    // lock file and the empty `batches/` it made.
    let undo_first = |locked_by_us: bool| {
        if was_database {
            return;
        }
        if locked_by_us {
            let _ = std::fs::remove_file(dir.join("tabla-db.lock"));
        }
        let _ = std::fs::remove_dir(dir.join("batches"));
        if !existed {
            let _ = std::fs::remove_dir(dir);
        }
    };
    let held = match lock(dir) {
        Ok(held) => held,
        Err(e) => {
            if !matches!(e, DbError::Locked(_)) {
                undo_first(true);
            }
            return Err(e);
        }
    };
    let result = import_locked(options, progress);
    if result.is_err() {
        undo_first(true);
    }
    drop(held);
    result
}

/// [`import`] once the database's lock is held.
fn import_locked(
    options: &ImportOptions,
    progress: &dyn ProgressSink,
) -> Result<ImportSummary, DbError> {
    let dir = &options.db;
    let mut manifest = match Manifest::read(dir) {
        Ok(m) => m,
        Err(DbError::NotADatabase(_)) => {
            // What a first import leaves when it is killed before it commits (the lock, its
            // staging directory, a batch moved into place) counts as empty: the import removes
            // it (`remove_leftovers`) and starts afresh.
            let leftover = |name: &std::ffi::OsStr| {
                name == "tabla-db.lock"
                    || name == "batches"
                    || name.to_string_lossy().starts_with(".staging-")
            };
            if std::fs::read_dir(dir)
                .map_err(DbError::io(dir))?
                .any(|e| e.is_ok_and(|e| !leftover(&e.file_name())))
            {
                return Err(DbError::Argument(format!(
                    "{}: not empty and not a tabla database; give a new or empty directory",
                    dir.display()
                )));
            }
            Manifest::new(options.max_ply.unwrap_or(DEFAULT_MAX_PLY))
        }
        Err(e) => return Err(e),
    };
    if let Some(given) = options.max_ply
        && given != manifest.max_ply
    {
        return Err(DbError::MaxPly {
            given,
            fixed: manifest.max_ply,
        });
    }
    let Hashed {
        paths,
        records,
        skipped,
    } = hash_inputs(&options.inputs, &manifest)?;
    if records.is_empty() {
        return Ok(ImportSummary {
            skipped,
            ..ImportSummary::default()
        });
    }
    remove_leftovers(dir, &manifest)?;
    // No import adds to a database that cannot answer whole.
    crate::parts::verify(dir, &manifest)?;

    let id = manifest.next_batch_id();
    let first_game_id = manifest.next_game_id();
    let staging = dir.join(format!(".staging-{id:06}"));
    let result = build_batch(options, &manifest, &paths, &records, &staging, progress);
    let summary = match result {
        Ok(summary) => summary,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(e);
        }
    };
    let target = dir.join(batch_dir(id));
    let batches = dir.join("batches");
    std::fs::create_dir_all(&batches).map_err(DbError::io(&batches))?;
    std::fs::rename(&staging, &target).map_err(DbError::io(&target))?;
    sync_dir(&batches)?;
    manifest.batches.push(Batch {
        id,
        imported: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
        inputs: records,
        games: summary.games,
        errors: summary.errors,
        warnings: summary.warnings,
        positions: summary.positions,
        explorer_from: summary.explorer_from,
        first_game_id: (!is_attach(options)).then_some(first_game_id),
        parts: Vec::new(),
    });
    crate::parts::record_unlisted(dir, &mut manifest)?;
    manifest.write(dir)?;
    // The import is committed; a compaction that fails now leaves it in place.
    let parts = manifest.explorer_parts(dir).len();
    let compacted = if parts > crate::compact::COMPACT_AFTER {
        Some(crate::compact::compact_locked(
            dir,
            &mut manifest,
            &options.query,
        )?)
    } else {
        None
    };
    Ok(ImportSummary {
        batch: id,
        compacted,
        skipped,
        ..summary
    })
}

/// Whether the import is of a `tabla convert` directory (its tables taken as they are).
fn is_attach(options: &ImportOptions) -> bool {
    options.inputs.len() == 1 && options.inputs[0].is_dir()
}

/// Converts and aggregates into `staging`.
fn build_batch(
    options: &ImportOptions,
    manifest: &Manifest,
    paths: &[PathBuf],
    records: &[InputRecord],
    staging: &Path,
    progress: &dyn ProgressSink,
) -> Result<ImportSummary, DbError> {
    if is_attach(options) {
        return attach(options, manifest, staging);
    }
    let threads = NonZeroUsize::new(options.query.threads.max(1)).unwrap_or(NonZeroUsize::MIN);
    let inputs = paths
        .iter()
        .zip(records)
        .map(|(path, record)| Input::Named {
            path: path.clone(),
            // Game ids derive from the content, so two files of one name get distinct ids.
            name: record.blake3.clone(),
        })
        .collect();
    let convert = Options {
        inputs,
        out_dir: staging.to_owned(),
        positions: PositionsTable::Keys,
        // Positions at plies 0 to max-ply - 1: those the explorer counts.
        max_ply: Some(manifest.max_ply - 1),
        threads,
        // 1, 2, 3... over the database: in key order, `positions.game_id` then takes about
        // 22 bits a row for 2 million games rather than 64 (docs/performance.md).
        game_ids: tabla_convert::GameIds::Numbered {
            first: manifest.next_game_id(),
        },
    };
    // Larger position buffers than `tabla convert`'s: fewer, longer sorted runs, so that a
    // lookup of one key reads fewer files (4 Mi rows of about 60 bytes: 256 MiB per thread).
    // And a larger budget for games gathered over many months: fewer, larger `games` files.
    let limits = tabla_convert::Limits {
        positions_per_worker: POSITIONS_PER_THREAD,
        games_buffer_bytes: 64 << 20,
        ..tabla_convert::Limits::default()
    };
    let mut phases = Phases::new(progress);
    phases.begin("converting");
    let converted = tabla_convert::convert_with(&convert, &limits, progress)?;
    if converted.games == 0 {
        let names: Vec<&str> = records.iter().map(|r| r.name.as_str()).collect();
        return Err(DbError::NoGames(names.join(", ")));
    }
    if !staging.join("positions").is_dir() {
        let names: Vec<&str> = records.iter().map(|r| r.name.as_str()).collect();
        return Err(DbError::NoPositions(names.join(", ")));
    }
    phases.begin("aggregating and listing");
    let mut query_options = options.query.clone();
    if query_options.spill_dir.is_none() {
        query_options.spill_dir = Some(staging.join("spill"));
        std::fs::create_dir_all(staging.join("spill")).map_err(DbError::io(staging))?;
    }
    // Two passes over the positions at once: the aggregate (on the engine's threads, merged
    // on this one), and the lists and totals on another.
    let positions = parquet_files(&staging.join("positions"))?;
    let (explorer_rows, lists) = std::thread::scope(|s| {
        let lists = s.spawn(|| {
            let out = |table: &str| staging.join(table).join("part-00000.parquet");
            crate::lists::write_lists_in_waves(
                &positions,
                manifest.max_ply,
                &crate::lists::ListsOut {
                    lists: &out("lists"),
                    overall: &out("lists_all"),
                    totals: &out("totals"),
                },
                crate::lists::LISTS_FAN_IN,
                &staging.join("lists-waves"),
            )
        });
        let merged = aggregate(&query_options, manifest, staging, FAN_IN);
        let lists = lists
            .join()
            .unwrap_or_else(|_| Err(DbError::Query("the lists' writer panicked".into())));
        (merged, lists)
    });
    let explorer_rows = explorer_rows?;
    lists?;
    phases.begin("writing game_refs");
    write_game_refs(&query_options, staging)?;
    let _ = std::fs::remove_dir_all(staging.join("spill"));
    Ok(ImportSummary {
        games: converted.games,
        errors: converted.games_with_error,
        warnings: converted.warnings,
        positions: converted.positions,
        explorer_rows,
        explorer_from: LISTED_FROM,
        input_bytes: converted.input_bytes,
        batch: 0,
        skipped: Vec::new(),
        compacted: None,
        phases: phases.finish(),
    })
}

/// Imports a directory of Parquet tables: `games/` and `positions/` as `tabla convert` writes
/// them (Hive-partitioned, the positions with their key columns), and `explorer/` when the
/// aggregate was computed elsewhere (Spark, with sql/explorer.sql); without it, it is computed
/// here.
fn attach(
    options: &ImportOptions,
    manifest: &Manifest,
    staging: &Path,
) -> Result<ImportSummary, DbError> {
    let from = &options.inputs[0];
    for table in ["games", "positions"] {
        if !from.join(table).is_dir() {
            return Err(DbError::Argument(format!(
                "{}: no {table}/ directory; a Parquet input is what `tabla convert --positions` \
                 writes (games/ and positions/), with explorer/ when the aggregate was made \
                 elsewhere",
                from.display()
            )));
        }
    }
    if from.join("explorer").is_dir() {
        check_sidecar(&from.join("explorer"), manifest.max_ply)?;
    }
    for table in ["games", "positions", "explorer"] {
        if from.join(table).is_dir() {
            link_tree(&from.join(table), &staging.join(table))?;
        }
    }
    let mut query_options = options.query.clone();
    if query_options.spill_dir.is_none() {
        query_options.spill_dir = Some(staging.join("spill"));
        std::fs::create_dir_all(staging.join("spill")).map_err(DbError::io(staging))?;
    }
    let session = Session::new(&query_options)?;
    tables::register_batch_sources(&session, staging)?;
    let explorer_rows = if staging.join("explorer").is_dir() {
        session.register(
            "explorer",
            &[staging.join("explorer")],
            tables::explorer_schema(),
            false,
        )?;
        first_int(&session, "SELECT COUNT(*) FROM explorer")?
    } else {
        // Positions as `tabla convert --positions` writes them, by month and not
        // necessarily sorted by key: the engine's hash aggregation, spilling past its memory.
        let sql = tables::explorer_sql(manifest.max_ply);
        let out = staging.join("explorer").join("part-00000.parquet");
        write_explorer(&session, &sql, &out)?
    };
    write_game_refs(&query_options, staging)?;
    let _ = std::fs::remove_dir_all(staging.join("spill"));
    let counts = session.collect(
        "SELECT COUNT(*) AS games, \
         SUM(CASE WHEN error IS NULL THEN 0 ELSE 1 END) AS errors, \
         SUM(CAST(cardinality(warnings) AS BIGINT)) AS warnings FROM games",
    )?;
    let get = |name: &str| -> Result<u64, DbError> {
        let batch = counts
            .first()
            .ok_or_else(|| DbError::Query("no count".to_owned()))?;
        let a = crate::values::ints(batch, name)?;
        Ok(crate::values::int_at(&a, 0).unwrap_or(0).max(0) as u64)
    };
    Ok(ImportSummary {
        games: get("games")?,
        errors: get("errors")?,
        warnings: get("warnings")?,
        positions: first_int(&session, "SELECT COUNT(*) FROM positions")?,
        explorer_rows,
        explorer_from: 1,
        input_bytes: 0,
        batch: 0,
        skipped: Vec::new(),
        compacted: None,
        phases: Vec::new(),
    })
}

/// The file beside an aggregate made elsewhere that says how it was made:
/// `{"max_ply": N}` (crates/tabla-db/spark/spark_explorer.py writes it).
pub const SIDECAR: &str = "_tabla.json";

/// Refuses an aggregate made elsewhere unless its [`SIDECAR`] gives the database's max-ply:
/// counts made over other plies would be silently wrong.
fn check_sidecar(explorer: &Path, max_ply: u32) -> Result<(), DbError> {
    let path = explorer.join(SIDECAR);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(DbError::Argument(format!(
                "{}: missing, so the aggregate's max-ply is unknown; \
                 crates/tabla-db/spark/spark_explorer.py writes it ({{\"max_ply\": N}}), or remove \
                 explorer/ to have it computed here",
                path.display()
            )));
        }
        Err(e) => return Err(DbError::io(&path)(e)),
    };
    let made_with = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("max_ply").and_then(serde_json::Value::as_u64))
        .ok_or_else(|| {
            DbError::Argument(format!(
                "{}: not {{\"max_ply\": N}}: {:?}",
                path.display(),
                text.trim()
            ))
        })?;
    if made_with != u64::from(max_ply) {
        return Err(DbError::Argument(format!(
            "{}: the aggregate was made with max-ply {made_with}, the database has {max_ply}; \
             run crates/tabla-db/spark/spark_explorer.py with --max-ply {max_ply}",
            explorer.display()
        )));
    }
    Ok(())
}

/// Positions files whose queries run and merge at once: past it, they go in waves, each merged
/// into a file of its own, then those files merged (so the memory of an import of any size is
/// that of this many streams, a batch or two each).
const FAN_IN: usize = 64;

/// Runs sql/explorer.sql over the positions under `staging/positions/` and writes the aggregate
/// to `staging/explorer/` as one file; returns its rows.
///
/// The query runs once per positions file (at most [`POSITIONS_PER_THREAD`] rows), up to
/// `fan_in` files at once on `options.threads` threads. Each file is sorted by key, and the
/// engine is told so: it groups rows as they stream (a key's groups are complete when the next
/// key begins), without a hash table over the file, and its results come sorted by key. The
/// aggregate is a sum, so the results together are the aggregate of the whole (a key in several
/// files has a row in several results): [`merge_parts`] adds them up key by key as they come.
fn aggregate(
    options: &QueryOptions,
    manifest: &Manifest,
    staging: &Path,
    fan_in: usize,
) -> Result<u64, DbError> {
    let files = parquet_files(&staging.join("positions"))?;
    if files.is_empty() {
        return Ok(0);
    }
    let out = staging.join("explorer").join("part-00000.parquet");
    let fan_in = fan_in.max(2);
    if files.len() <= fan_in {
        let runs = aggregate_files(options, manifest, &files)?;
        return Ok(merge_parts(runs, &out, LISTED_FROM)?.rows);
    }
    let waves = staging.join("explorer-waves");
    let mut parts = Vec::new();
    for (i, wave) in files.chunks(fan_in).enumerate() {
        let part = waves.join(format!("wave-{i:05}.parquet"));
        // Every key of a wave: whether a key is popular depends on the whole import.
        merge_parts(aggregate_files(options, manifest, wave)?, &part, 1)?;
        parts.push(part);
    }
    let rows = merge_parts(Runs::open(&parts, 8192)?, &out, LISTED_FROM)?.rows;
    std::fs::remove_dir_all(&waves).map_err(DbError::io(&waves))?;
    Ok(rows)
}

/// The streams of sql/explorer.sql over each of `files` (each sorted by key), running on
/// `options.threads` threads.
fn aggregate_files(
    options: &QueryOptions,
    manifest: &Manifest,
    files: &[PathBuf],
) -> Result<Runs<crate::merge::Part>, DbError> {
    let sql = tables::explorer_sql(manifest.max_ply);
    let runtime = crate::session::runtime(options.threads)?;
    let one_file = QueryOptions {
        threads: 1,
        memory: options.memory / files.len().max(1),
        spill_dir: options.spill_dir.clone(),
    };
    let results = files
        .iter()
        .map(|file| {
            let session = Session::on(runtime.clone(), &one_file)?;
            // One file, one stream: split into byte ranges, it would lose its order.
            session.collect("SET datafusion.optimizer.repartition_file_scans = false")?;
            tables::register_positions(&session, std::slice::from_ref(file), true)?;
            let batches = session.into_batches(&sql, &["key_hi", "key_lo"])?;
            Ok((file.display().to_string(), batches))
        })
        .collect::<Result<Vec<_>, DbError>>()?;
    Runs::from_batches(results)
}

/// Writes `staging/game_refs/`: the columns of a list of games ([`tables::GAME_REFS_COLUMNS`])
/// sorted by id in row groups of 4,096 games, so that the explorer's and the search's lists
/// find their games by id in a few row groups (ids are hashes: in `games` a lookup would read
/// every file).
fn write_game_refs(options: &QueryOptions, staging: &Path) -> Result<(), DbError> {
    let games = staging.join("games");
    if !games.is_dir() {
        return Ok(());
    }
    let session = Session::new(options)?;
    session.register("games", &[games], tabla_convert::games_schema(), true)?;
    let sql = format!(
        "SELECT {} FROM games ORDER BY game_id",
        tables::GAME_REFS_COLUMNS.join(", ")
    );
    let out = staging.join("game_refs");
    session.block_on(async {
        let df = session.ctx.sql(&sql).await?;
        write_sorted(df, &out.join("part-00000.parquet"), 4096, false).await?;
        Ok::<(), DbError>(())
    })
}

/// The inputs an import converts (each with its content hash), and those it skips.
struct Hashed {
    paths: Vec<PathBuf>,
    records: Vec<InputRecord>,
    skipped: Vec<SkippedInput>,
}

/// The inputs' content hashes; content imported before or given twice is skipped.
fn hash_inputs(inputs: &[PathBuf], manifest: &Manifest) -> Result<Hashed, DbError> {
    let mut paths = Vec::new();
    let mut records: Vec<InputRecord> = Vec::new();
    let mut skipped = Vec::new();
    for path in inputs {
        if path.as_os_str() == "-" {
            return Err(DbError::Argument(
                "-: the standard input cannot be imported (an input is identified by its \
                 content hash before it is read); save it to a file"
                    .to_owned(),
            ));
        }
        let mut hasher = blake3::Hasher::new();
        let bytes = if path.is_dir() {
            if inputs.len() > 1 {
                return Err(DbError::Argument(format!(
                    "{}: a Parquet directory is imported alone, not with other inputs",
                    path.display()
                )));
            }
            // Every Parquet file's path (relative) and content, in a fixed order.
            let mut bytes = 0;
            for file in parquet_files(path)? {
                let relative = file.strip_prefix(path).unwrap_or(&file);
                hasher.update(relative.to_string_lossy().as_bytes());
                hasher.update(&[0]);
                bytes += hash_file(&file, &mut hasher)?;
            }
            bytes
        } else {
            hash_file(path, &mut hasher)?
        };
        let record = InputRecord {
            name: path.display().to_string(),
            blake3: hasher.finalize().to_hex().to_string(),
            bytes,
        };
        if let Some((batch, earlier)) = manifest.find_hash(&record.blake3) {
            skipped.push(SkippedInput {
                input: record.name,
                earlier: earlier.name.clone(),
                imported: Some(batch.imported),
            });
        } else if let Some(other) = records.iter().find(|r| r.blake3 == record.blake3) {
            skipped.push(SkippedInput {
                input: record.name,
                earlier: other.name.clone(),
                imported: None,
            });
        } else {
            paths.push(path.clone());
            records.push(record);
        }
    }
    Ok(Hashed {
        paths,
        records,
        skipped,
    })
}

/// Feeds a file's bytes to `hasher`; returns how many.
fn hash_file(path: &Path, hasher: &mut blake3::Hasher) -> Result<u64, DbError> {
    let mut file = File::open(path).map_err(DbError::io(path))?;
    let mut buf = vec![0u8; 1 << 20];
    let mut bytes = 0u64;
    loop {
        let n = file.read(&mut buf).map_err(DbError::io(path))?;
        if n == 0 {
            return Ok(bytes);
        }
        bytes += n as u64;
        hasher.update(&buf[..n]);
    }
}

/// The `*.parquet` files under `dir`, sorted.
fn parquet_files(dir: &Path) -> Result<Vec<PathBuf>, DbError> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).map_err(DbError::io(&d))? {
            let entry = entry.map_err(DbError::io(&d))?;
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "parquet") {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Copies (hard-links when it can) the Parquet files of `from` into `to`, keeping their paths.
fn link_tree(from: &Path, to: &Path) -> Result<u64, DbError> {
    let files = parquet_files(from)?;
    for file in &files {
        let relative = file.strip_prefix(from).unwrap_or(file);
        let target = to.join(relative);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(DbError::io(parent))?;
        }
        if std::fs::hard_link(file, &target).is_err() {
            std::fs::copy(file, &target).map_err(DbError::io(&target))?;
        }
    }
    Ok(files.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::RecordBatch;

    /// Converts the corpus's lichess games into `staging` with small position buffers, so
    /// that the positions are in many sorted files; returns them.
    fn many_positions_files(staging: &Path) -> Vec<PathBuf> {
        let convert = Options {
            inputs: vec![Input::Named {
                path: tabla_testdata::testdata_dir().join("pgn/lichess_db_1000k.pgn"),
                name: "lichess".into(),
            }],
            out_dir: staging.to_owned(),
            positions: PositionsTable::Keys,
            max_ply: Some(DEFAULT_MAX_PLY - 1),
            threads: NonZeroUsize::new(2).expect("2"),
            game_ids: tabla_convert::GameIds::Numbered { first: 1 },
        };
        let limits = tabla_convert::Limits {
            positions_per_worker: 300,
            ..tabla_convert::Limits::default()
        };
        tabla_convert::convert_with(&convert, &limits, &tabla_convert::NoProgress)
            .expect("convert");
        let files = parquet_files(&staging.join("positions")).expect("files");
        assert!(files.len() >= 5, "{} positions files", files.len());
        files
    }

    /// A Parquet file's rows as one batch.
    fn read(path: &Path) -> RecordBatch {
        let file = std::fs::File::open(path).expect("open");
        let builder = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
            .expect("reader");
        let schema = builder.schema().clone();
        let batches: Vec<RecordBatch> = builder
            .build()
            .expect("reader")
            .map(|b| b.expect("batch"))
            .collect();
        datafusion::arrow::compute::concat_batches(&schema, &batches).expect("concat")
    }

    /// Positions in many files give the same aggregate merged in waves of two files (then the
    /// waves' files merged) as merged all at once; the waves' files are removed.
    #[test]
    fn waves_give_the_aggregate_of_one_merge() {
        let dir = tempfile::tempdir().expect("tempdir");
        let staging = dir.path();
        let files = many_positions_files(staging);
        let manifest = Manifest::new(DEFAULT_MAX_PLY);
        let options = QueryOptions {
            threads: 2,
            ..QueryOptions::default()
        };
        let explorer = staging.join("explorer").join("part-00000.parquet");
        let at_once = aggregate(&options, &manifest, staging, files.len()).expect("at once");
        let once = read(&explorer);
        std::fs::remove_dir_all(staging.join("explorer")).expect("remove");
        let in_waves = aggregate(&options, &manifest, staging, 2).expect("in waves");
        assert_eq!(at_once, in_waves);
        assert_eq!(once.num_rows() as u64, at_once);
        // The popular positions' rows only (32 games or more over all files: more than a wave
        // of two small files holds, so the waves must keep every position).
        assert!(at_once > 20, "{at_once} rows");
        assert_eq!(read(&explorer), once);
        assert!(!staging.join("explorer-waves").exists());
    }

    /// The lists and totals of many positions files are the same when the files are first
    /// merged in waves of two (three levels of waves here) as when read all at once; the
    /// waves' files are removed.
    #[test]
    fn lists_in_waves_are_the_lists_of_one_pass() {
        let dir = tempfile::tempdir().expect("tempdir");
        let staging = dir.path();
        let files = many_positions_files(staging);
        assert!(
            files.len() > 8,
            "{} files: fewer than three levels",
            files.len()
        );
        let write = |name: &str, fan_in: usize| {
            let out = staging.join(name);
            std::fs::create_dir_all(&out).expect("mkdir");
            let paths = ["lists", "lists_all", "totals"].map(|t| out.join(format!("{t}.parquet")));
            let rows = crate::lists::write_lists_in_waves(
                &files,
                DEFAULT_MAX_PLY,
                &crate::lists::ListsOut {
                    lists: &paths[0],
                    overall: &paths[1],
                    totals: &paths[2],
                },
                fan_in,
                &staging.join("lists-waves"),
            )
            .expect("lists");
            (rows, paths.map(|p| read(&p)))
        };
        let (rows, at_once) = write("once", files.len());
        let (rows_in_waves, in_waves) = write("waves", 2);
        assert!(rows > 100, "{rows} list rows");
        assert!(
            at_once[2].num_rows() > 10,
            "{} totals",
            at_once[2].num_rows()
        );
        assert_eq!(rows, rows_in_waves);
        assert_eq!(at_once, in_waves);
        assert!(!staging.join("lists-waves").exists());
    }
}
