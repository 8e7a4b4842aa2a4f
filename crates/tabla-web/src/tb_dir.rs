//! The endgame tables behind `GET /api/tb`: a directory of table files (`tabla serve --tb-dir`),
//! opened at start and opened again when a table the server lacked has been built there since,
//! so that `tabla tb build` while the server runs is enough; and the endings solved in memory at
//! start (KBNvK, KQvK and KRvK), answered without a file.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use tabla_endgame::{Men, Solved, Tablebase, TbFileError, table_file_name};

/// The server's tablebase directory and the tables open from it.
pub struct TbDir {
    /// The directory; `None` for a server without one (every ending is missing but those solved
    /// in memory).
    dir: Option<PathBuf>,
    /// The directory is `tabla tb`'s default, so the build command needs no `--dir`.
    default: bool,
    tables: RwLock<Arc<Tablebase>>,
}

impl TbDir {
    /// No directory: the endings of `solved` only (`tabla serve` solves KBNvK, KQvK and KRvK at
    /// start).
    pub fn none(solved: &Solved) -> TbDir {
        TbDir {
            dir: None,
            default: true,
            tables: RwLock::new(Arc::new(
                Tablebase::empty(Path::new("")).with_solved(solved),
            )),
        }
    }

    /// Opens every table of `dir` (a directory that does not exist holds none), and answers the
    /// endings of `solved` that have no file there from memory; `default` when `dir` is
    /// [`tabla_endgame::default_tablebase_dir`]. A damaged table file is an error.
    pub fn open(dir: &Path, default: bool, solved: &Solved) -> Result<TbDir, TbFileError> {
        Ok(TbDir {
            dir: Some(dir.to_path_buf()),
            default,
            tables: RwLock::new(Arc::new(Tablebase::open(dir)?.with_solved(solved))),
        })
    }

    /// The tables open now.
    pub fn tables(&self) -> Arc<Tablebase> {
        self.tables
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Whether `men`'s ending (either colours) is answered from the endings solved in memory,
    /// with no table file of it open.
    pub fn in_memory(&self, men: Men) -> bool {
        let ending = men.canonical().0;
        let tables = self.tables();
        tables.file(ending).is_none() && tables.endings().contains(&ending)
    }

    /// The directory, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// When `men`'s table file has appeared in the directory since it was opened, opens the
    /// directory again and answers the new tables; `None` when there is nothing new to read.
    pub fn reopen_if_built(&self, men: Men) -> Result<Option<Arc<Tablebase>>, TbFileError> {
        let Some(dir) = &self.dir else {
            return Ok(None);
        };
        if !dir.join(table_file_name(men)).is_file() {
            return Ok(None);
        }
        let mut tables = self.tables.write().unwrap_or_else(|e| e.into_inner());
        // Another request may have opened it meanwhile.
        if tables.file(men.canonical().0).is_none() {
            *tables = Arc::new(tables.reopen()?);
        }
        Ok(Some(tables.clone()))
    }

    /// The command that builds an ending's table (and those its moves lead to) where this
    /// server reads them, as an answer of the API gives it: `tabla tb build KQvKR`, and `--dir
    /// TB_DIR` unless it is the default place. The directory's path stays out of the answer
    /// (the server printed it at start): `TB_DIR` is the `--tb-dir` of `tabla serve`.
    pub fn build_command(&self, men: Men) -> String {
        match &self.dir {
            Some(_) if !self.default => format!("tabla tb build {men} --dir {TB_DIR}"),
            _ => format!("tabla tb build {men}"),
        }
    }

    /// Where the tables are, as an answer of the API says it (no path): "in the server's tables
    /// directory", or "on this server" when it has none.
    pub fn place(&self) -> &'static str {
        match &self.dir {
            Some(_) if !self.default => "in the server's tables directory (its --tb-dir)",
            Some(_) => "in the server's tables directory",
            None => "on this server",
        }
    }

    /// How many endings have their tables open (for the line `tabla serve` prints at start).
    pub fn endings(&self) -> usize {
        self.tables().endings().len()
    }
}

/// What [`TbDir::build_command`] writes for the directory given to `tabla serve --tb-dir`.
pub const TB_DIR: &str = "TB_DIR";

impl std::fmt::Debug for TbDir {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TbDir")
            .field("dir", &self.dir)
            .field("endings", &self.endings())
            .finish()
    }
}
