//! What to convert and where: the inputs, the output directory, the tables, the threads, and
//! the sizes that bound memory and files.

use std::num::NonZeroUsize;
use std::path::PathBuf;

/// One input: a `.pgn` or zstd-compressed (`.pgn.zst`) file, or the standard input. Compression
/// is recognised by the zstd magic bytes, whatever the name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A file.
    Path(PathBuf),
    /// The standard input (`-` on a command line).
    Stdin,
    /// A file whose game ids derive from `name` rather than from its file name (`tabla db`
    /// names an input by its content hash, so that two files of one name get distinct ids).
    Named {
        /// The file.
        path: PathBuf,
        /// The name game ids derive from.
        name: String,
    },
}

impl Input {
    /// The name game ids are derived from: the file name without its directory and without a
    /// trailing `.zst`, or `-` for the standard input (see [`crate::game_id`]).
    pub fn id_name(&self) -> String {
        match self {
            Input::Stdin => "-".to_owned(),
            Input::Named { name, .. } => name.clone(),
            Input::Path(path) => {
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| path.to_string_lossy().into_owned());
                match name.strip_suffix(".zst") {
                    Some(stem) => stem.to_owned(),
                    None => name,
                }
            }
        }
    }
}

impl Input {
    /// The file read, if the input is one.
    pub fn path(&self) -> Option<&std::path::Path> {
        match self {
            Input::Path(path) | Input::Named { path, .. } => Some(path),
            Input::Stdin => None,
        }
    }
}

impl std::fmt::Display for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Input::Path(path) | Input::Named { path, .. } => write!(f, "{}", path.display()),
            Input::Stdin => f.write_str("standard input"),
        }
    }
}

/// What [`crate::convert`] does.
#[derive(Clone, Debug)]
pub struct Options {
    /// The inputs, converted into one set of tables.
    pub inputs: Vec<Input>,
    /// The directory that receives `games/` (and `positions/`); created if missing.
    pub out_dir: PathBuf,
    /// Which positions table to write, if any.
    pub positions: PositionsTable,
    /// Positions only up to this ply (ply 0 is the start position); `None` for all.
    pub max_ply: Option<u32>,
    /// Worker threads.
    pub threads: NonZeroUsize,
    /// How games get their `game_id`.
    pub game_ids: GameIds,
}

/// How a conversion gives its games their `game_id`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum GameIds {
    /// From the input's name and where the game starts in it ([`crate::game_id`]): the same id
    /// whatever the threads or the machine, 64 bits that look random.
    #[default]
    FromPlace,
    /// `first`, `first + 1`, ... in the order the threads reach the games: unique within the
    /// conversion and dense, so that a column of them in key order takes about log2(games) bits
    /// a row rather than 64 (`tabla db import` numbers a database's games so), but not the same
    /// from one run to the next when more than one thread reads.
    Numbered {
        /// The first game's id.
        first: u64,
    },
}

/// The positions table a conversion writes.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum PositionsTable {
    /// None: the games table only.
    #[default]
    None,
    /// Every column, FEN and SAN included; files sorted by `zobrist`.
    Full,
    /// The key columns only (no `zobrist`, `fen` or `san`), files sorted by (`key_hi`,
    /// `key_lo`): what the opening explorer needs (`tabla db import`), written faster.
    Keys,
}

/// Rows per data page of the `positions` table (each page's key bounds in the page index): a
/// lookup of one position (`tabla db explore`) decodes one page per column and file rather
/// than a row group. `tabla db` writes its sorted tables with pages of the same size.
pub const PAGE_ROWS: usize = 1024;

/// Sizes that bound memory and shape the files; [`Limits::default`] suits large inputs, tests
/// use small ones to get many files from small inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Games per `games` file before a worker starts the next file.
    pub games_per_file: usize,
    /// Games per row group of a `games` file (a row group is also closed at
    /// [`Limits::row_group_bytes`]).
    pub games_per_row_group: usize,
    /// Encoded bytes a row group may hold in memory before it is written out.
    pub row_group_bytes: usize,
    /// Positions a worker buffers (over all partitions) before it sorts the largest partition's
    /// buffer by zobrist and writes it as one file: the memory bound of the positions table.
    pub positions_per_worker: usize,
    /// Rows per row group of a `positions` file: small, so that a lookup of one zobrist key reads
    /// few rows.
    pub positions_per_row_group: usize,
    /// `games` files a worker keeps open at once (one per partition); the least recently written
    /// is finished when another partition needs one.
    pub open_partitions: usize,
    /// Text bytes of games a worker gathers over every partition before it writes the fullest
    /// partition's rows out: the memory bound of games spread over many months, and what keeps
    /// their files large (a partition's rows are written when it holds 4,096 games or 8 MiB).
    pub games_buffer_bytes: usize,
    /// Decompressed bytes per chunk handed from the thread that decodes to the others: the
    /// chunks of a stream decoded by one thread (at least 64 KiB; when 16 chunks' worth of text
    /// holds no place to cut, as games without tags give none, the decoding thread reads the
    /// rest of that input itself), and the most a pzstd frame's chunk holds (each frame is cut
    /// into about four times as many chunks as there are threads, of at least 4 KiB).
    pub chunk_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            games_per_file: 1_000_000,
            games_per_row_group: 65_536,
            row_group_bytes: 16 << 20,
            positions_per_worker: 1 << 20,
            positions_per_row_group: 16_384,
            open_partitions: 4,
            games_buffer_bytes: 32 << 20,
            chunk_bytes: 4 << 20,
        }
    }
}
