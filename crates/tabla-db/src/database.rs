//! An open database: its manifest and a query engine over its tables.

use crate::lookup::Lookups;
use crate::manifest::Manifest;
use crate::session::{QueryOptions, Session};
use crate::{DbError, tables};
use arrow_array::RecordBatch;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// A database opened for queries.
pub struct Database {
    dir: PathBuf,
    manifest: Manifest,
    session: Session,
    threads: usize,
    /// The files point lookups read, opened at the first lookup.
    lookups: std::sync::OnceLock<Lookups>,
    /// Up to this many games, an explorer answer picks its top and recent games from the
    /// position's rows looked up; above, the query engine does ([`LISTS_LOOKED_UP`]).
    pub(crate) lists_looked_up: u64,
    /// Whether the lists of popular positions are read (`crate::lists`); off in the tests
    /// that check them against the positions.
    pub(crate) use_lists: bool,
}

/// [`Database`]'s bound on the games whose lists are picked from looked-up rows: a popular
/// position's rows are many, and the engine's top-k over them, on every core and skipping pages
/// by their bounds of the order, beats reading them all (measured: the start position of 2
/// million games, 200 ms against 290 ms).
pub(crate) const LISTS_LOOKED_UP: u64 = 500_000;

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Database")
            .field("dir", &self.dir)
            .field("manifest", &self.manifest)
            .finish_non_exhaustive()
    }
}

/// What `tabla db info` reports.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Info {
    /// The database directory.
    pub db: String,
    /// The layout version.
    pub schema_version: u32,
    /// The explorer's max-ply.
    pub max_ply: u32,
    /// Imports.
    pub batches: usize,
    /// Games (damaged ones included).
    pub games: u64,
    /// Games with an error.
    pub errors: u64,
    /// Warnings.
    pub warnings: u64,
    /// Rows of the positions table.
    pub positions: u64,
    /// The games the opening explorer counts, and why it leaves the others out.
    pub explorer: crate::Counted,
    /// Bytes of the imported inputs, as given (compressed for `.pgn.zst`).
    pub input_bytes: u64,
    /// Bytes on disk per table.
    pub table_bytes: Vec<TableSize>,
}

/// A table's size on disk.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct TableSize {
    /// `games`, `positions`, `game_refs`, `explorer`, `totals`, `lists`, `lists_all`, `evals`,
    /// `review_moves` or `review_games`.
    pub table: String,
    /// Parquet files.
    pub files: u64,
    /// Their bytes.
    pub bytes: u64,
}

impl Database {
    /// Opens the database in `dir`, with the default engine options.
    pub fn open(dir: &Path) -> Result<Database, DbError> {
        Database::open_with(dir, &QueryOptions::default())
    }

    /// Opens the database in `dir`.
    pub fn open_with(dir: &Path, options: &QueryOptions) -> Result<Database, DbError> {
        let manifest = Manifest::read(dir)?;
        crate::parts::verify(dir, &manifest)?;
        let session = Session::new(options)?;
        tables::register_database(&session, dir, &manifest)?;
        Ok(Database {
            dir: dir.to_owned(),
            manifest,
            session,
            threads: options.threads.max(1),
            lookups: std::sync::OnceLock::new(),
            lists_looked_up: LISTS_LOOKED_UP,
            use_lists: true,
        })
    }

    /// The manifest read when the database was opened.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The tables' files as point lookups read them (their footers read at the first call).
    pub(crate) fn lookups(&self) -> Result<&Lookups, DbError> {
        if let Some(lookups) = self.lookups.get() {
            return Ok(lookups);
        }
        let lookups = Lookups::open(&self.dir, &self.manifest)?;
        Ok(self.lookups.get_or_init(|| lookups))
    }

    /// The database's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where `tabla db review` keeps the engines' evaluations (`DB/evals`): an evaluation cache
    /// of tabla-review's, one folder per engine configuration.
    pub fn evals_dir(&self) -> PathBuf {
        self.dir.join(crate::review_tables::EVALS_DIR)
    }

    pub(crate) fn session(&self) -> &Session {
        &self.session
    }

    /// The threads queries and searches may use.
    pub(crate) fn threads(&self) -> usize {
        self.threads
    }

    /// What the database holds.
    pub fn info(&self) -> Result<Info, DbError> {
        let m = &self.manifest;
        let mut table_bytes = Vec::new();
        for table in [
            "games",
            "positions",
            "game_refs",
            "explorer",
            "totals",
            "lists",
            "lists_all",
            "evals",
            "review_moves",
            "review_games",
        ] {
            let mut size = TableSize {
                table: table.to_owned(),
                files: 0,
                bytes: 0,
            };
            let dirs = match table {
                "explorer" => m.explorer_dirs(),
                "evals" => vec![PathBuf::from(crate::review_tables::EVALS_DIR)],
                "review_moves" | "review_games" => {
                    let sub = table.trim_start_matches("review_");
                    let mut dirs = Vec::new();
                    for config in crate::review_tables::subdirs(
                        &self.dir.join(crate::review_tables::REVIEW_DIR),
                    )? {
                        for rules in crate::review_tables::subdirs(&config)? {
                            // Relative to the database's directory, as the others.
                            let rel = rules.strip_prefix(&self.dir).unwrap_or(&rules);
                            dirs.push(rel.join(sub));
                        }
                    }
                    dirs
                }
                _ => m.batches.iter().map(|b| b.dir().join(table)).collect(),
            };
            for dir in dirs {
                for part in crate::parts::list(&self.dir.join(dir))? {
                    size.files += 1;
                    size.bytes += part.bytes;
                }
            }
            table_bytes.push(size);
        }
        Ok(Info {
            db: self.dir.display().to_string(),
            schema_version: m.schema_version,
            max_ply: m.max_ply,
            batches: m.batches.len(),
            games: m.games(),
            errors: m.batches.iter().map(|b| b.errors).sum(),
            warnings: m.batches.iter().map(|b| b.warnings).sum(),
            positions: m.batches.iter().map(|b| b.positions).sum(),
            explorer: crate::counted::count(&self.session)?,
            input_bytes: m
                .batches
                .iter()
                .flat_map(|b| &b.inputs)
                .map(|i| i.bytes)
                .sum(),
            table_bytes,
        })
    }

    /// Runs one read-only SQL query (`SELECT`, `WITH`, `EXPLAIN`, `SHOW`, `DESCRIBE`) over the
    /// tables `games`, `positions`, `game_refs`, `explorer`, and the reviews' `evals`,
    /// `review_moves` and `review_games` ([`Database::review`]).
    pub fn sql(&self, query: &str) -> Result<Vec<RecordBatch>, DbError> {
        use datafusion::execution::context::SQLOptions;
        let options = SQLOptions::new()
            .with_allow_ddl(false)
            .with_allow_dml(false)
            .with_allow_statements(false);
        self.session.block_on(async {
            let df = self.session.ctx.sql_with_options(query, options).await?;
            Ok(df.collect().await?)
        })
    }
}
