//! # tabla-convert — PGN and `.pgn.zst` files to Parquet, on every core
//!
//! Reads PGN (plain, zstd-compressed, or from the standard input), replays every game's
//! mainline with legality ([`tabla_pgn::Replayer`]) and writes two tables as Parquet files,
//! Hive-partitioned by the month of the game:
//!
//! ```text
//! OUT/games/year=2024/month=1/part-<run>-<worker>-<n>.parquet
//! OUT/positions/year=2024/month=1/part-<run>-<worker>-<n>.parquet   (with `positions`)
//! ```
//!
//! ```no_run
//! use std::num::NonZeroUsize;
//! use tabla_convert::{GameIds, Input, NoProgress, Options, PositionsTable, convert};
//!
//! let options = Options {
//!     inputs: vec![Input::Path("lichess_db_standard_rated_2013-01.pgn.zst".into())],
//!     out_dir: "out".into(),
//!     positions: PositionsTable::Full,
//!     max_ply: Some(20),
//!     threads: NonZeroUsize::new(8).unwrap(),
//!     game_ids: GameIds::FromPlace,
//! };
//! let summary = convert(&options, &NoProgress)?;
//! println!("{} games, {} positions", summary.games, summary.positions);
//! # Ok::<(), tabla_convert::ConvertError>(())
//! ```
//!
//! ## The `games` table
//! One row per game, bad games included:
//!
//! | column | type | from |
//! |---|---|---|
//! | `game_id` | Int64 | [`game_id`]: the input's name and where the game starts in it (its 64 bits read as a signed number, since Spark has no unsigned integers); or a number, with [`GameIds::Numbered`] |
//! | `event`, `site`, `round`, `white`, `black`, `result`, `utc_time`, `white_title`, `black_title`, `eco`, `opening`, `time_control`, `termination` | Utf8 | the tags `Event`, `Site`, `Round`, `White`, `Black`, `Result`, `UTCTime`, `WhiteTitle`, `BlackTitle`, `ECO`, `Opening`, `TimeControl`, `Termination`; null when absent |
//! | `date`, `utc_date` | Date32 | the tags `Date`, `UTCDate`; null when absent, partial (`2024.??.??`) or not a date |
//! | `white_elo`, `black_elo`, `white_rating_diff`, `black_rating_diff` | Int32 | `WhiteElo`, `BlackElo`, `WhiteRatingDiff`, `BlackRatingDiff`; null when absent or not an integer |
//! | `speed` | Utf8 | `bullet`, `blitz`, `rapid`, `classical` or `correspondence`, from `TimeControl` by lichess's thresholds ([`speed()`]); null when unknown |
//! | `played` | Utf8 | `YYYY-MM-DD` from `UTCDate`, else `Date`, with `??` for an unknown month or day; null without a known year |
//! | `movetext` | Utf8 | the game's text after its tags, as written (UTF-8, or Latin-1 when not UTF-8) |
//! | `uci` | List\<Utf8\> | the mainline's moves in UCI (`e1g1` for castling, `0000` for a null move), up to the first move that cannot be played |
//! | `plies` | UInt32 | how many moves `uci` holds |
//! | `final_fen` | Utf8 | the position after them; null when the tags give no playable start |
//! | `error` | Utf8 | null unless the game stopped early: why (an illegal, ambiguous or unreadable mainline move, an unplayable start, or a game too large to keep whole), as `line:column, move N: "token": reason` with the line counted from the game's first line |
//! | `warnings` | List\<Utf8\> | what was repaired or skipped while reading (a stray character, `1/2` read as a draw, unescaped quotes in a tag...), in the same form; empty for a clean game |
//! | `tags` | List\<Struct\<name, value\>\> | every other tag, in file order, and tags whose value did not fit their column's type or repeat one already stored, so no tag is lost |
//!
//! The tables hold the mainline; comments, NAGs and variations stay in `movetext`. Variations are
//! replayed only for their warnings (a move that cannot be played there cuts the side line), so
//! `error` and `warnings` say what `tabla pgn check` and `tabla pgn json` say of the same game.
//!
//! ## The `positions` table
//! One row per position of each mainline, up to [`Options::max_ply`]:
//!
//! | column | type | what |
//! |---|---|---|
//! | `zobrist` | UInt64 | the Polyglot key, [`tabla::Position::zobrist`] (not in [`PositionsTable::Keys`]) |
//! | `key_hi`, `key_lo` | Int64 | 96 bits of the 128-bit [`tabla::Position::wide_key`]: its top 64 read as a signed number, and the next 32 ([`tabla::zobrist::key_columns`]); the opening explorer's key, with negligible collisions at 10^11 positions |
//! | `game_id` | Int64 | the game's id in the `games` table |
//! | `ply` | UInt32 | 0 for the start position |
//! | `fen`, `san` | Utf8 | the position's FEN, and the move that led to it in SAN (null at ply 0); not in [`PositionsTable::Keys`] |
//! | `uci` | Utf8 | the move that led to the position (null at ply 0); not in [`PositionsTable::Keys`] |
//! | `next_uci` | Utf8 | the move the game played from the position; null at its last |
//! | `first` | Boolean | whether the game stands in this position for the first time (by the wide key: repetitions are not first) |
//! | `outcome` | Int32 | the game's result: 1 White won, 0 drawn, -1 Black won; null for any other `Result` |
//! | `elo_sum` | Int32 | `WhiteElo` + `BlackElo` when both are integers, else null |
//! | `speed` | Utf8 | the game's `speed` (as in `games`) |
//! | `played_on` | Int32 | the game's date as `YYYYMMDD`, `00` for an unknown month or day (as `games.played`); null without a known year |
//!
//! The last four repeat the game's on each of its positions, so that the opening explorer filters
//! and orders positions without joining `games`. A [`PositionsTable::Keys`] table is not
//! partitioned (its rows carry their game's date in `played_on`): each of its files is sorted by
//! key over every month, so that a lookup of one key reads few files.
//!
//! A [`PositionsTable::Full`] file is sorted by (`zobrist`, `game_id`, `ply`), a
//! [`PositionsTable::Keys`] file by (`key_hi`, `key_lo`, `game_id`, `ply`), with small row
//! groups and statistics, so that a lookup of one key skips most row groups.
//!
//! ## Partitions
//! `year=YYYY/month=M` from `UTCDate`, else `Date` (no leading zero: DuckDB reads `month=01` as
//! text, `month=1` as a number). An unknown year or month is Hive's `__HIVE_DEFAULT_PARTITION__`,
//! which DuckDB and Spark read as NULL.
//!
//! ## Files
//! Each file is written under a hidden temporary name (`.part-...parquet.tmp`) and renamed when
//! complete, so after an interrupted run every `*.parquet` file is whole; readers skip the
//! leftovers. File names carry a run id, so runs never overwrite each other's files: convert
//! into a fresh directory, or the same games are there twice.
//!
//! ## Game ids
//! [`game_id`] derives a game's id from the input's file name and where the game starts in it
//! (the zstd frame and the offset in its text; the byte offset for plain text), so ids do not
//! depend on the threads or on how the input is cut, never repeat within an input, and a game
//! gets the same id whichever machine converts its file. [`GameIds::Numbered`] numbers the
//! games instead (from a given first id, in the order the threads reach them): unique and
//! dense, so a column of them takes a third of the bytes in a table sorted by something else
//! (`tabla db` numbers its games so), but not repeatable from one run to the next with more
//! than one thread. The `positions` table of [`PositionsTable::Keys`] stores `game_id` as
//! differences (delta encoding) for that reason.
//!
//! ## Threads and memory
//! Plain files are cut into byte ranges ([`tabla_pgn::Reader::range`]); pzstd files (the
//! lichess database's: every zstd frame announced by a skippable frame holding its size) at
//! frame boundaries, a range owning the games that start in its frames and reading into the
//! next frames to finish its last one; other zstd files and the standard input are decoded by
//! one thread that cuts the text at game starts into chunks for the others. Every worker writes
//! its own files. Memory stays bounded whatever the input's size: per worker, the open
//! `games` rows gathered ([`Limits::games_buffer_bytes`]) and the open `games` files' row groups
//! ([`Limits::row_group_bytes`], [`Limits::open_partitions`]), the
//! positions buffer ([`Limits::positions_per_worker`], about 120 bytes a position), one or two
//! decoded frames of a pzstd file, and at most the first 8 MiB of a game's text (a longer game
//! is cut and says so in `error`). With the default [`Limits`] that is about 100 to 150 MB per
//! worker without positions and 250 to 300 MB with them.
//!
//! ## Inside the crate
//!
//! Where things are, for contributors.
//!
//! `convert` reads `.pgn`, `.pgn.zst` or the standard input (`source.rs`: detection by magic, the
//! pzstd frame scan, decoding) and hands work to `std::thread::scope` workers through one queue
//! (`job.rs`; the workers and their task runners in `worker.rs`): byte ranges of plain files, one
//! task per pzstd frame, or one decoding task for any other stream. A task that decodes (a frame, a
//! stream) cuts its text at game starts into chunks that idle workers take. `boundary.rs` decides
//! where the games of a frame begin: mostly from the frame's own first lines (the first place that
//! is a game start whatever the frame before ended with), else with the frames around it; every
//! frame is decoded once, the next one only up to that place. Each worker replays games with
//! tabla-pgn (`record.rs`, `track.rs`) into Arrow builders (`tables.rs`) and writes its own
//! Hive-partitioned Parquet files (`output.rs`: hidden temporary name, then rename). `game_id.rs`
//! derives ids from the input's name and where a game starts, so they do not depend on how the
//! input is cut (`GameIds::Numbered`, which `tabla db` asks for, numbers them instead). The crate's
//! docs hold the schemas and the memory bounds (`Limits`).

mod boundary;
mod date;
mod error;
mod game_id;
mod job;
mod ledger;
mod movetext;
mod options;
mod output;
mod progress;
mod record;
mod source;
mod speed;
mod tables;
mod track;
mod worker;

pub use date::utc_minute;
pub use error::ConvertError;
pub use game_id::game_id;
pub use ledger::{
    ConvertedInput, INPUTS_RECORD, RecordedSummary, SkippedInput, convert_recorded,
    converted_inputs,
};
pub use options::{GameIds, Input, Limits, Options, PAGE_ROWS, PositionsTable};
pub use output::DEFAULT_PARTITION;
pub use progress::{NoProgress, ProgressSink};
pub use source::PgnText;
pub use speed::{SPEEDS, speed};
pub use tables::{games_schema, positions_schema};

use arrow_array::RecordBatch;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// What a conversion did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games written.
    pub games: u64,
    /// Of them, games with their `error` set.
    pub games_with_error: u64,
    /// Warnings over all games (entries of the `warnings` column).
    pub warnings: u64,
    /// Rows of the positions table.
    pub positions: u64,
    /// Input bytes read, as stored (compressed bytes for zstd input).
    pub input_bytes: u64,
    /// The Parquet files written, sorted.
    pub files: Vec<PathBuf>,
}

/// The size of an input as stored (compressed for zstd), for a progress bar; `None` for the
/// standard input or a file that cannot be looked at.
pub fn input_len(input: &Input) -> Option<u64> {
    input
        .path()
        .and_then(|path| std::fs::metadata(path).ok().map(|m| m.len()))
}

/// Converts the inputs into the Parquet tables under `options.out_dir`, with the default
/// [`Limits`].
pub fn convert(options: &Options, progress: &dyn ProgressSink) -> Result<Summary, ConvertError> {
    convert_with(options, &Limits::default(), progress)
}

/// [`convert`] with chosen [`Limits`].
pub fn convert_with(
    options: &Options,
    limits: &Limits,
    progress: &dyn ProgressSink,
) -> Result<Summary, ConvertError> {
    run(options, limits, progress, None, None)
}

/// One of `parts` pieces of a conversion, for engines that convert the pieces apart (Spark's
/// partitions, the Python package's data source): the inputs are cut into tasks as for
/// `parts` threads (byte ranges of plain files, pzstd frames, a whole other stream), and part
/// `part` converts every `parts`-th task from the `part`-th. The parts' games together are the
/// whole conversion's, each once, with the same ids ([`GameIds::FromPlace`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Slice {
    /// Which part, from 0.
    pub part: usize,
    /// Of how many.
    pub parts: usize,
}

/// The tables of a conversion as Arrow record batches in memory: the schemas
/// ([`games_schema`], [`positions_schema`]) and rows of the Parquet files [`convert`] would
/// write (the partition columns `year` and `month` are not in the files, nor here).
#[derive(Clone, Debug)]
pub struct ArrowTables {
    /// The `games` table's batches.
    pub games: Vec<RecordBatch>,
    /// The `positions` table's batches; none unless [`Options::positions`] asks for them.
    pub positions: Vec<RecordBatch>,
}

/// [`convert`] into memory rather than files (`options.out_dir` is not used): the same tables
/// as Arrow record batches, for programs that query them without writing Parquet (the Python
/// package's `read_pgn_arrow`). Rows come in the order the threads finish them: with more than
/// one thread, not the input's. Memory grows with the output (about 300 bytes a game of the
/// `games` table and 120 a position).
///
/// ```
/// use std::num::NonZeroUsize;
/// use tabla_convert::{GameIds, Input, NoProgress, Options, PositionsTable, convert_to_arrow};
///
/// let dir = tempfile::tempdir()?;
/// let pgn = dir.path().join("two.pgn");
/// std::fs::write(&pgn, "[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[Result \"*\"]\n\n1. d4 *\n")?;
/// let options = Options {
///     inputs: vec![Input::Path(pgn)],
///     out_dir: dir.path().into(),
///     positions: PositionsTable::Full,
///     max_ply: None,
///     threads: NonZeroUsize::MIN,
///     game_ids: GameIds::FromPlace,
/// };
/// let (summary, tables) = convert_to_arrow(&options, &NoProgress)?;
/// let rows = |batches: &[arrow_array::RecordBatch]| batches.iter().map(|b| b.num_rows()).sum::<usize>();
/// assert_eq!((summary.games, rows(&tables.games)), (2, 2));
/// assert_eq!((summary.positions, rows(&tables.positions)), (5, 5));
/// assert!(summary.files.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn convert_to_arrow(
    options: &Options,
    progress: &dyn ProgressSink,
) -> Result<(Summary, ArrowTables), ConvertError> {
    convert_slice_to_arrow(options, None, progress)
}

/// [`convert_to_arrow`] of one [`Slice`] of the conversion (`None`: all of it).
///
/// ```
/// use std::num::NonZeroUsize;
/// use tabla_convert::{GameIds, Input, NoProgress, Options, PositionsTable, Slice};
///
/// let dir = tempfile::tempdir()?;
/// let pgn = dir.path().join("many.pgn");
/// std::fs::write(&pgn, "[Event \"x\"]\n\n1. e4 e5 *\n\n".repeat(20_000))?;
/// let options = Options {
///     inputs: vec![Input::Path(pgn)],
///     out_dir: dir.path().into(),
///     positions: PositionsTable::None,
///     max_ply: None,
///     threads: NonZeroUsize::MIN,
///     game_ids: GameIds::FromPlace,
/// };
/// let games = |part| {
///     let slice = Slice { part, parts: 3 };
///     tabla_convert::convert_slice_to_arrow(&options, Some(slice), &NoProgress).map(|(s, _)| s.games)
/// };
/// let counts = [games(0)?, games(1)?, games(2)?];
/// assert_eq!(counts.iter().sum::<u64>(), 20_000);
/// assert!(counts.iter().all(|&n| n > 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn convert_slice_to_arrow(
    options: &Options,
    slice: Option<Slice>,
    progress: &dyn ProgressSink,
) -> Result<(Summary, ArrowTables), ConvertError> {
    let collected = Arc::new(output::Collected::default());
    let summary = run(
        options,
        &Limits::default(),
        progress,
        Some(Arc::clone(&collected)),
        slice,
    )?;
    let take = |list: &std::sync::Mutex<Vec<RecordBatch>>| {
        list.lock()
            .map(|mut l| std::mem::take(&mut *l))
            .map_err(|_| ConvertError::Worker("a worker failed".to_owned()))
    };
    let tables = ArrowTables {
        games: take(&collected.games)?,
        positions: take(&collected.positions)?,
    };
    Ok((summary, tables))
}

fn run(
    options: &Options,
    limits: &Limits,
    progress: &dyn ProgressSink,
    memory: Option<Arc<output::Collected>>,
    slice: Option<Slice>,
) -> Result<Summary, ConvertError> {
    if options.inputs.is_empty() {
        return Err(ConvertError::NoInput);
    }
    if let Some(Slice { part, parts }) = slice
        && part >= parts
    {
        return Err(ConvertError::BadSlice { part, parts });
    }
    let mut prepared: Vec<job::Prepared> = Vec::new();
    for input in &options.inputs {
        let name = input.id_name();
        if let Some(other) = prepared.iter().find(|p| p.input.id_name() == name) {
            if *input == Input::Stdin && other.input == Input::Stdin {
                return Err(ConvertError::StdinTwice);
            }
            return Err(ConvertError::SameName {
                first: other.input.clone(),
                second: input.clone(),
                name,
            });
        }
        let layout = source::layout(input)?;
        let frames: Arc<[source::Frame]> = match &layout {
            source::Layout::Frames { frames, .. } => frames.clone().into(),
            _ => Arc::from(Vec::new()),
        };
        prepared.push(job::Prepared {
            input: input.clone(),
            name_hash: game_id::name_hash(&name),
            layout,
            frames,
        });
    }
    if memory.is_none() {
        std::fs::create_dir_all(&options.out_dir).map_err(|source| ConvertError::Create {
            path: options.out_dir.clone(),
            source,
        })?;
    }
    let mut plan = output::OutputPlan::new(
        options.out_dir.clone(),
        limits.clone(),
        output::run_name(),
        options.positions,
    );
    plan.memory = memory;
    let positions_to =
        (options.positions != PositionsTable::None).then_some(options.max_ply.unwrap_or(u32::MAX));
    let threads = options.threads.get();
    let job = job::Job::new(
        prepared,
        plan,
        positions_to,
        threads,
        options.game_ids,
        progress,
        slice,
    );
    let results: Vec<std::thread::Result<output::Written>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|worker| {
                let job = &job;
                scope.spawn(move || job.work(worker))
            })
            .collect();
        handles.into_iter().map(|h| h.join()).collect()
    });
    let mut summary = Summary::default();
    let mut panicked = None;
    for result in results {
        match result {
            Ok(written) => {
                summary.games += written.games;
                summary.games_with_error += written.games_with_error;
                summary.warnings += written.warnings;
                summary.positions += written.positions;
                summary.files.extend(written.files);
            }
            Err(panic) => {
                panicked = Some(ConvertError::Worker(job::panic_message(panic.as_ref())));
            }
        }
    }
    if let Some(error) = job.take_error().or(panicked) {
        return Err(error);
    }
    summary.input_bytes = job.input_bytes.load(Ordering::Relaxed);
    summary.files.sort();
    Ok(summary)
}
