//! The errors of every `tabla db` operation: what went wrong and where.

use std::path::PathBuf;

/// An error of a database operation. Each says what was wrong and where (the database, the
/// input, the argument), so that a command can print it as it is.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DbError {
    /// The directory holds no database (no `tabla-db.json`).
    #[error("{}: not a tabla database (no tabla-db.json); make one with `tabla db import INPUT --db {}`", .0.display(), .0.display())]
    NotADatabase(PathBuf),
    /// The manifest could not be read or is not one this version understands.
    #[error("{path}: {reason}")]
    Manifest {
        /// The manifest file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A file or directory operation failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A Parquet file of the database's tables is missing, of another size than written, cut
    /// short, or not one the manifest lists: no table is read from part of its files.
    #[error("{}: {}: {problem}; the database cannot answer without it whole: {repair}", db.display(), part.display())]
    DamagedPart {
        /// The database's directory.
        db: PathBuf,
        /// The file, relative to the database's directory.
        part: PathBuf,
        /// What is wrong with it.
        problem: String,
        /// How to repair the database.
        repair: String,
    },
    /// Another import holds the database's lock.
    #[error("{}: another import is running on this database (it holds {})", .0.display(), .0.join("tabla-db.lock").display())]
    Locked(PathBuf),
    /// `--max-ply` differs from the one the database was created with.
    #[error(
        "--max-ply {given}: this database was created with --max-ply {fixed}, which cannot change"
    )]
    MaxPly {
        /// The value given.
        given: u32,
        /// The database's value.
        fixed: u32,
    },
    /// `--max-ply` out of range.
    #[error("--max-ply {0}: must be from 1 to 1000")]
    BadMaxPly(u32),
    /// The inputs of an import hold no game (empty files, or no PGN in them): nothing is
    /// imported.
    #[error("{0}: no games (an empty file, or no PGN in it); nothing was imported")]
    NoGames(String),
    /// The inputs' games have no playable position (each one's start is damaged): nothing is
    /// imported, since the explorer and the search would have nothing of them.
    #[error(
        "{0}: no game with a playable start (every game's FEN or variant is damaged; \
         `tabla pgn check` says where); nothing was imported"
    )]
    NoPositions(String),
    /// Converting the inputs failed.
    #[error(transparent)]
    Convert(#[from] tabla_convert::ConvertError),
    /// A query argument is not valid (FEN, moves, filter).
    #[error("{0}")]
    Argument(String),
    /// The SQL text is not valid, or not a read-only query.
    #[error("SQL: {0}")]
    Sql(String),
    /// The query engine failed.
    #[error("query engine: {0}")]
    Query(String),
    /// Another review of the same engine configuration and rules is running on this database.
    #[error("{}: another review with this engine configuration is running on this database (it holds {})", .0.display(), .0.join(".lock").display())]
    ReviewLocked(PathBuf),
    /// The review was cancelled ([`crate::ReviewCancel`]); the games it finished are stored.
    #[error("the review was cancelled")]
    Cancelled,
    /// The evaluation cache (`DB/evals`) could not be read or written.
    #[error(transparent)]
    Cache(#[from] tabla_review::CacheError),
}

impl From<datafusion::error::DataFusionError> for DbError {
    fn from(e: datafusion::error::DataFusionError) -> DbError {
        use datafusion::sql::sqlparser::parser::ParserError;
        match e {
            // The parser's own words: DataFusion's text ("SQL error: ParserError(...)") would
            // say "SQL" after the variant's "SQL: ".
            datafusion::error::DataFusionError::SQL(e, _) => DbError::Sql(match *e {
                ParserError::TokenizerError(text) | ParserError::ParserError(text) => text,
                ParserError::RecursionLimitExceeded => "nested too deeply".to_owned(),
            }),
            datafusion::error::DataFusionError::Plan(..)
            | datafusion::error::DataFusionError::SchemaError(..) => {
                DbError::Sql(e.strip_backtrace().to_string())
            }
            other => DbError::Query(other.strip_backtrace().to_string()),
        }
    }
}

impl DbError {
    /// Whether the error is the caller's (a bad argument, SQL or input choice) rather than the
    /// machine's: commands exit with 2 for these.
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            DbError::NotADatabase(_)
                | DbError::MaxPly { .. }
                | DbError::BadMaxPly(_)
                | DbError::NoGames(_)
                | DbError::NoPositions(_)
                | DbError::Argument(_)
                | DbError::Sql(_)
        )
    }

    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> DbError {
        let path = path.into();
        move |source| DbError::Io { path, source }
    }
}
