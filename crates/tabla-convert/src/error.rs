//! What can stop a conversion. Bad games never do: they are kept with their `error` column set.

use crate::Input;
use std::io;
use std::path::PathBuf;

/// Why [`crate::convert`] stopped. Files completed before the error stay complete; the file
/// being written is removed.
#[derive(Debug, thiserror::Error)]
pub enum ConvertError {
    /// Nothing to convert.
    #[error("no input given")]
    NoInput,
    /// A slice of a conversion that does not exist (see [`crate::Slice`]).
    #[error("no part {part} of {parts} (parts are numbered from 0, and there is at least one)")]
    BadSlice {
        /// The part asked for.
        part: usize,
        /// Into how many parts.
        parts: usize,
    },
    /// The standard input was given more than once.
    #[error("the standard input can be read only once")]
    StdinTwice,
    /// Two inputs have the same file name, which would give their games the same ids.
    #[error(
        "{first} and {second} have the same file name {name:?}, so their games would get the same ids; convert them separately or rename one"
    )]
    SameName {
        /// The first input.
        first: Input,
        /// The second input.
        second: Input,
        /// The name ids derive from.
        name: String,
    },
    /// An input could not be opened.
    #[error("cannot open {input}: {source}")]
    Open {
        /// The input.
        input: Input,
        /// Why.
        source: io::Error,
    },
    /// Reading (or decompressing) an input failed.
    #[error("cannot read {input}: {source}")]
    Read {
        /// The input.
        input: Input,
        /// Why.
        source: io::Error,
    },
    /// The input starts like zstd but is not a valid zstd stream.
    #[error("{input} is not a valid zstd file: {reason}")]
    Zstd {
        /// The input.
        input: Input,
        /// What is wrong, and where.
        reason: String,
    },
    /// A zstd frame decompresses to more than the converter holds in memory at once.
    #[error(
        "{input}: the zstd frame at byte {offset} decompresses to more than {limit} bytes; recompress with pzstd at a lower level, or decompress and convert the .pgn"
    )]
    FrameTooLarge {
        /// The input.
        input: Input,
        /// The frame's offset in the file.
        offset: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// More text than game ids can address (see [`crate::game_id`]).
    #[error(
        "{input}: a game starts beyond the first TiB of one zstd frame or file; split the input"
    )]
    TooLarge {
        /// The input.
        input: Input,
    },
    /// A directory or file of the output could not be created.
    #[error("cannot create {path}: {source}")]
    Create {
        /// The path.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// Writing an output file failed.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file (its temporary name while it is written).
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The Parquet writer failed.
    #[error("cannot write Parquet file {path}: {source}")]
    Parquet {
        /// The file (its temporary name while it is written).
        path: PathBuf,
        /// Why.
        source: parquet::errors::ParquetError,
    },
    /// The output directory's record of converted inputs ([`crate::INPUTS_RECORD`]) could not
    /// be read or is damaged.
    #[error("{}: {reason}", path.display())]
    Record {
        /// The record's file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A worker thread panicked (a bug: please report it with the input).
    #[error("a worker thread failed unexpectedly: {0}")]
    Worker(String),
}
