//! What can go wrong with the evaluation cache's files.

use std::path::PathBuf;

/// An error of the evaluation cache: the file or folder and what happened.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// A file or folder could not be created, read, written or renamed.
    #[error("evaluation cache {}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A file is not a cache file tabla can read (damaged, or another kind of Parquet).
    #[error("evaluation cache {}: {message}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
}

impl CacheError {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> CacheError {
        let path = path.into();
        move |source| CacheError::Io { path, source }
    }

    pub(crate) fn format(path: impl Into<PathBuf>, message: impl ToString) -> CacheError {
        CacheError::Format {
            path: path.into(),
            message: message.to_string(),
        }
    }
}
