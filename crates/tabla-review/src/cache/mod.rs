//! The evaluation cache: each position evaluated once per engine configuration, across the
//! games of a run and across runs.
//!
//! On disk a configuration ([`CacheConfig`]) has a folder of its own under the cache's root
//! (`<root>/<CacheConfig::dir_name>/`), holding `_config.json` (the configuration; the leading
//! `_` lets Spark, pyarrow and DataFusion read the folder as a table of its Parquet files) and
//! Parquet files of evaluations (the columns are in [`evals_schema`]). A run adds files and
//! never changes one:
//!
//! - **Crash-safe.** Each file is written under a temporary name, synced and renamed, so an
//!   interrupted run leaves whole files only; what it flushed before stays and the next run
//!   starts from there. [`EvalCache::flush`] writes what was added since the last flush.
//! - **Safe with two runs at once.** Each run writes files of its own (named by its process and
//!   start time); at worst two runs evaluate the same position at the same time.
//! - **Compacted.** When a folder holds more than [`COMPACT_AT`] files, the run that opens it
//!   (holding a lock, so one at a time) merges them into one; and a run merges its own small
//!   files (a review writes one a second at most, [`crate::FLUSH_EVERY`]) every [`COMPACT_AT`]
//!   into one, so that a long run leaves one file per [`COMPACT_AT`] flushes.

mod config;
mod error;
mod store;

pub use config::CacheConfig;
pub use error::CacheError;
pub use store::evals_schema;

use crate::{BestMove, PositionInfo};
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};
use store::Entry;
use tabla::Position;

/// Files in a configuration's folder above which opening it merges them into one.
pub const COMPACT_AT: usize = 64;

/// The evaluation cache's default folder, which `tabla review`, the server and Python share:
/// `evals` in tabla's data directory ([`tabla::data_dir`]: `$XDG_DATA_HOME/tabla`, else
/// `~/.local/share/tabla`); `None` when there is none.
///
/// ```
/// if let Some(dir) = tabla_review::default_cache_dir() {
///     assert!(dir.ends_with("tabla/evals"));
/// }
/// ```
pub fn default_cache_dir() -> Option<PathBuf> {
    tabla::data_dir().map(|dir| dir.join("evals"))
}

/// How old a leftover temporary file (of a run that died while writing) must be to be removed.
const STALE_TMP: Duration = Duration::from_secs(3600);

/// Evaluations by position for one engine configuration: in memory, and on disk unless made with
/// [`EvalCache::in_memory`].
///
/// ```
/// use tabla::Position;
/// use tabla_analysis::Budget;
/// use tabla_review::{BestMove, CacheConfig, Eval, EvalCache, PositionInfo};
/// let root = tempfile::tempdir().unwrap();
/// let config = CacheConfig::new("tabla 0.1.0", Vec::<(String, String)>::new(), Budget::Nodes(1000));
/// let mut cache = EvalCache::open(root.path(), &config).unwrap();
/// let start = Position::startpos();
/// let info = PositionInfo {
///     eval: Some(Eval::Cp(20)),
///     best: Some(BestMove { san: "e4".into(), uci: "e2e4".into() }),
///     pv: vec!["e2e4".into(), "e7e5".into()],
/// };
/// cache.insert(&start, &info);
/// cache.flush().unwrap();
/// // Another run with the same engine, options and budget finds it.
/// let again = EvalCache::open(root.path(), &config).unwrap();
/// assert_eq!(again.get(&start), Some(info));
/// ```
#[derive(Debug)]
pub struct EvalCache {
    dir: Option<PathBuf>,
    entries: HashMap<u128, Entry>,
    /// Keys added since the last flush.
    pending: Vec<u128>,
    /// This run's name in its files: process id and start time.
    writer: String,
    files_written: u64,
    /// The files this run's flushes wrote since it last merged them, with their keys.
    own_files: Vec<(PathBuf, Vec<u128>)>,
    warnings: Vec<String>,
}

impl EvalCache {
    /// A cache that keeps evaluations for the life of the value only (`--no-cache`: positions
    /// repeated within a run are still evaluated once).
    pub fn in_memory() -> EvalCache {
        EvalCache {
            dir: None,
            entries: HashMap::new(),
            pending: Vec::new(),
            writer: String::new(),
            files_written: 0,
            own_files: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Opens (creating it if needed) the folder of `config` under `root` and reads its
    /// evaluations. A file that cannot be read is skipped with a warning ([`EvalCache::warnings`]):
    /// its positions are evaluated again.
    pub fn open(root: &Path, config: &CacheConfig) -> Result<EvalCache, CacheError> {
        let dir = root.join(config.dir_name());
        fs::create_dir_all(&dir).map_err(CacheError::io(&dir))?;
        let started = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap_or_default();
        let mut cache = EvalCache {
            writer: format!("{}-{}", started.as_micros(), std::process::id()),
            ..EvalCache::in_memory()
        };
        let config_path = dir.join("_config.json");
        if !config_path.exists() {
            let text = serde_json::to_string_pretty(config)
                .map_err(|e| CacheError::format(&config_path, e))?;
            let tmp = dir.join(format!(".tmp-{}-_config.json", cache.writer));
            fs::write(&tmp, text + "\n").map_err(CacheError::io(&tmp))?;
            fs::rename(&tmp, &config_path).map_err(CacheError::io(&config_path))?;
        }
        let files = cache.read_folder(&dir)?;
        cache.dir = Some(dir);
        if files.len() > COMPACT_AT {
            cache.compact(&files)?;
        }
        Ok(cache)
    }

    /// Reads every cache file of `dir`; removes stale temporary files. Returns the files read.
    fn read_folder(&mut self, dir: &Path) -> Result<Vec<PathBuf>, CacheError> {
        let mut files = Vec::new();
        for item in fs::read_dir(dir).map_err(CacheError::io(dir))? {
            let item = item.map_err(CacheError::io(dir))?;
            let path = item.path();
            let name = item.file_name().to_string_lossy().into_owned();
            if name.starts_with(".tmp-") {
                let old = item
                    .metadata()
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age > STALE_TMP);
                if old {
                    // Another run's file it could not finish; a failure to remove is harmless.
                    let _ = fs::remove_file(&path);
                }
            } else if name.ends_with(".parquet") {
                files.push(path);
            }
        }
        files.sort();
        let mut read = Vec::new();
        for path in files {
            match store::read(&path, &mut self.entries) {
                Ok(_) => read.push(path),
                // Merged into another file by a run compacting the folder meanwhile.
                Err(CacheError::Io { source, .. })
                    if source.kind() == std::io::ErrorKind::NotFound => {}
                Err(error) => self.warnings.push(format!("{error} (skipped)")),
            }
        }
        Ok(read)
    }

    /// Merges `files` into one, if no other run is doing so.
    fn compact(&mut self, files: &[PathBuf]) -> Result<(), CacheError> {
        let Some(dir) = self.dir.clone() else {
            return Ok(());
        };
        let lock_path = dir.join(".compact.lock");
        let lock = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(CacheError::io(&lock_path))?;
        if lock.try_lock().is_err() {
            return Ok(());
        }
        let rows: Vec<(u128, Entry)> = self.entries.iter().map(|(k, e)| (*k, e.clone())).collect();
        self.write_file(&dir, &rows)?;
        for file in files {
            let _ = fs::remove_file(file);
        }
        Ok(())
    }

    /// Writes `rows` as a new file of this run; returns its path.
    fn write_file(&mut self, dir: &Path, rows: &[(u128, Entry)]) -> Result<PathBuf, CacheError> {
        self.files_written += 1;
        let name = format!("evals-{}-{:05}.parquet", self.writer, self.files_written);
        let tmp = dir.join(format!(".tmp-{name}"));
        let path = dir.join(name);
        store::write(&path, &tmp, rows)?;
        Ok(path)
    }

    /// Merges the files this run's flushes wrote into one once there are [`COMPACT_AT`]: the
    /// merged file is whole before they are removed, so a crash between leaves rows twice, never
    /// none.
    fn merge_own_files(&mut self, dir: &Path) -> Result<(), CacheError> {
        if self.own_files.len() < COMPACT_AT {
            return Ok(());
        }
        let rows: Vec<(u128, Entry)> = self
            .own_files
            .iter()
            .flat_map(|(_, keys)| keys)
            .filter_map(|k| self.entries.get(k).map(|e| (*k, e.clone())))
            .collect();
        self.write_file(dir, &rows)?;
        for (file, _) in std::mem::take(&mut self.own_files) {
            // A run compacting the folder meanwhile may have merged it already.
            let _ = fs::remove_file(file);
        }
        Ok(())
    }

    /// The folder of this configuration's files (`None` in memory).
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// Evaluations held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds no evaluation.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// What opening the cache skipped (files it could not read), taken.
    pub fn take_warnings(&mut self) -> Vec<String> {
        std::mem::take(&mut self.warnings)
    }

    /// The evaluation of `position`, if the cache has one whose moves are legal there (a stored
    /// line that is not is taken as absent: a damaged row or, at 96 bits, a key collision).
    pub fn get(&self, position: &Position) -> Option<PositionInfo> {
        let entry = self.entries.get(&store::stored_key(position.wide_key()))?;
        let best = match &entry.best {
            Some(uci) => {
                let mv = position.parse_uci(uci).ok()?;
                Some(BestMove {
                    san: position.san(mv),
                    uci: position.uci(mv),
                })
            }
            None => None,
        };
        let pv: Vec<String> = entry.pv.split_whitespace().map(str::to_owned).collect();
        let mut walk = position.clone();
        for uci in &pv {
            let mv = walk.parse_uci(uci).ok()?;
            walk.play_unchecked(mv);
        }
        Some(PositionInfo {
            eval: entry.eval,
            best,
            pv,
        })
    }

    /// Adds the evaluation of `position` (written by the next [`EvalCache::flush`]).
    pub fn insert(&mut self, position: &Position, info: &PositionInfo) {
        let key = store::stored_key(position.wide_key());
        let entry = Entry {
            eval: info.eval,
            best: info.best.as_ref().map(|b| b.uci.clone()),
            pv: info.pv.join(" "),
        };
        if self.entries.insert(key, entry).is_none() {
            self.pending.push(key);
        }
    }

    /// Evaluations added and not yet written.
    pub fn unflushed(&self) -> usize {
        self.pending.len()
    }

    /// Writes the evaluations added since the last flush to a new file (nothing in memory).
    pub fn flush(&mut self) -> Result<(), CacheError> {
        let Some(dir) = self.dir.clone() else {
            self.pending.clear();
            return Ok(());
        };
        if self.pending.is_empty() {
            return Ok(());
        }
        let rows: Vec<(u128, Entry)> = self
            .pending
            .iter()
            .filter_map(|k| self.entries.get(k).map(|e| (*k, e.clone())))
            .collect();
        let path = self.write_file(&dir, &rows)?;
        self.own_files
            .push((path, rows.into_iter().map(|(k, _)| k).collect()));
        self.pending.clear();
        self.merge_own_files(&dir)
    }
}
