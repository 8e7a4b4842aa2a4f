//! Helpers shared by the integration tests: the PGN files (testdata/pgn and the corpus) with
//! python-chess's reference, reading the Parquet output back with the parquet crate's Arrow
//! reader, and pzstd.

#![allow(dead_code, unused_imports)] // each test file uses its own part of this module

use arrow_array::{
    Array, BooleanArray, Date32Array, Int32Array, Int64Array, ListArray, RecordBatch, StringArray,
    StructArray, UInt32Array, UInt64Array,
};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::Command;
use tabla_convert::{Input, Limits, NoProgress, Options, PositionsTable, Summary, convert_with};

pub use tabla_testdata::{Expected, PgnSet, corpus, testdata};

/// A row of the `games` table, with the partition it was found in.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct GameRow {
    pub game_id: u64,
    pub event: Option<String>,
    pub white: Option<String>,
    pub date: Option<i32>,
    pub utc_date: Option<i32>,
    pub white_elo: Option<i32>,
    pub black_elo: Option<i32>,
    pub movetext: String,
    pub uci: Vec<String>,
    pub plies: u32,
    pub final_fen: Option<String>,
    pub error: Option<String>,
    pub warnings: Vec<String>,
    pub tags: Vec<(String, String)>,
    /// `year=...`/`month=...` directory names.
    pub partition: (String, String),
}

/// A row of the `positions` table.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PositionRow {
    pub zobrist: u64,
    pub game_id: u64,
    pub ply: u32,
    pub fen: String,
    pub san: Option<String>,
    pub uci: Option<String>,
    /// `key_hi` and `key_lo` joined.
    pub key: u128,
    pub next_uci: Option<String>,
    pub first: bool,
}

/// Every `*.parquet` file under `dir`, sorted.
pub fn parquet_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "parquet") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Every file under `dir` whose name starts with `.` (temporary files).
pub fn hidden_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
            {
                out.push(path);
            }
        }
    }
    out
}

/// The record batches of one Parquet file.
pub fn read_batches(path: &Path) -> Vec<RecordBatch> {
    let file = std::fs::File::open(path).expect("parquet file");
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .build()
        .expect("reader");
    reader
        .map(|b| b.unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

fn column<'a, T: 'static>(batch: &'a RecordBatch, name: &str) -> &'a T {
    batch
        .column_by_name(name)
        .unwrap_or_else(|| panic!("column {name}"))
        .as_any()
        .downcast_ref::<T>()
        .unwrap_or_else(|| panic!("type of column {name}"))
}

fn text(a: &StringArray, i: usize) -> Option<String> {
    a.is_valid(i).then(|| a.value(i).to_owned())
}

fn partition_of(path: &Path) -> (String, String) {
    let month = path.parent().expect("month directory");
    let year = month.parent().expect("year directory");
    let name = |p: &Path| p.file_name().expect("name").to_string_lossy().into_owned();
    (name(year), name(month))
}

/// Every row of the `games` table under `out`.
pub fn read_games(out: &Path) -> Vec<GameRow> {
    let mut rows = Vec::new();
    for path in parquet_files(&out.join("games")) {
        let partition = partition_of(&path);
        for batch in read_batches(&path) {
            let id = column::<Int64Array>(&batch, "game_id");
            let event = column::<StringArray>(&batch, "event");
            let white = column::<StringArray>(&batch, "white");
            let date = column::<Date32Array>(&batch, "date");
            let utc_date = column::<Date32Array>(&batch, "utc_date");
            let white_elo = column::<Int32Array>(&batch, "white_elo");
            let black_elo = column::<Int32Array>(&batch, "black_elo");
            let movetext = column::<StringArray>(&batch, "movetext");
            let uci = column::<ListArray>(&batch, "uci");
            let plies = column::<UInt32Array>(&batch, "plies");
            let final_fen = column::<StringArray>(&batch, "final_fen");
            let error = column::<StringArray>(&batch, "error");
            let warnings = column::<ListArray>(&batch, "warnings");
            let tags = column::<ListArray>(&batch, "tags");
            for i in 0..batch.num_rows() {
                let moves = uci.value(i);
                let moves = moves
                    .as_any()
                    .downcast_ref::<StringArray>()
                    .expect("uci items");
                let warning_list = warnings.value(i);
                let warning_list = warning_list
                    .as_any()
                    .downcast_ref::<StringArray>()
                    .expect("warning items");
                let pairs = tags.value(i);
                let pairs = pairs
                    .as_any()
                    .downcast_ref::<StructArray>()
                    .expect("tag pairs");
                let names = pairs.column(0).as_any().downcast_ref::<StringArray>();
                let values = pairs.column(1).as_any().downcast_ref::<StringArray>();
                let (names, values) = (names.expect("names"), values.expect("values"));
                rows.push(GameRow {
                    game_id: id.value(i) as u64,
                    event: text(event, i),
                    white: text(white, i),
                    date: date.is_valid(i).then(|| date.value(i)),
                    utc_date: utc_date.is_valid(i).then(|| utc_date.value(i)),
                    white_elo: white_elo.is_valid(i).then(|| white_elo.value(i)),
                    black_elo: black_elo.is_valid(i).then(|| black_elo.value(i)),
                    movetext: movetext.value(i).to_owned(),
                    uci: (0..moves.len())
                        .map(|j| moves.value(j).to_owned())
                        .collect(),
                    plies: plies.value(i),
                    final_fen: text(final_fen, i),
                    error: text(error, i),
                    warnings: (0..warning_list.len())
                        .map(|j| warning_list.value(j).to_owned())
                        .collect(),
                    tags: (0..names.len())
                        .map(|j| (names.value(j).to_owned(), values.value(j).to_owned()))
                        .collect(),
                    partition: partition.clone(),
                });
            }
        }
    }
    rows.sort();
    rows
}

/// Every row of the `positions` table under `out`, by file (each in file order).
pub fn read_positions(out: &Path) -> Vec<(PathBuf, Vec<PositionRow>)> {
    let mut files = Vec::new();
    for path in parquet_files(&out.join("positions")) {
        let mut rows = Vec::new();
        for batch in read_batches(&path) {
            let zobrist = column::<UInt64Array>(&batch, "zobrist");
            let id = column::<Int64Array>(&batch, "game_id");
            let ply = column::<UInt32Array>(&batch, "ply");
            let fen = column::<StringArray>(&batch, "fen");
            let san = column::<StringArray>(&batch, "san");
            let uci = column::<StringArray>(&batch, "uci");
            let key_hi = column::<Int64Array>(&batch, "key_hi");
            let key_lo = column::<Int64Array>(&batch, "key_lo");
            let next_uci = column::<StringArray>(&batch, "next_uci");
            let first = column::<BooleanArray>(&batch, "first");
            for i in 0..batch.num_rows() {
                rows.push(PositionRow {
                    zobrist: zobrist.value(i),
                    game_id: id.value(i) as u64,
                    ply: ply.value(i),
                    fen: fen.value(i).to_owned(),
                    san: text(san, i),
                    uci: text(uci, i),
                    key: tabla::zobrist::key_from_columns(key_hi.value(i), key_lo.value(i)),
                    next_uci: text(next_uci, i),
                    first: first.value(i),
                });
            }
        }
        files.push((path, rows));
    }
    files
}

/// Options for converting `inputs` into `out` on `threads` threads.
pub fn options(inputs: &[PathBuf], out: &Path, threads: usize) -> Options {
    Options {
        inputs: inputs.iter().cloned().map(Input::Path).collect(),
        out_dir: out.to_owned(),
        positions: PositionsTable::None,
        max_ply: None,
        threads: NonZeroUsize::new(threads).expect("threads"),
        game_ids: tabla_convert::GameIds::FromPlace,
    }
}

/// Converts, panicking with the error.
pub fn run(options: &Options, limits: &Limits) -> Summary {
    convert_with(options, limits, &NoProgress).unwrap_or_else(|e| panic!("convert: {e}"))
}

/// Runs pzstd; fails with what to install when it is missing.
pub fn pzstd(args: &[&str]) {
    let status = Command::new("pzstd")
        .args(args)
        .status()
        .unwrap_or_else(|e| {
            panic!(
                "pzstd not found ({e}): install Debian's `zstd` package (apt-get install zstd), \
             which scripts/test.sh --install does"
            )
        });
    assert!(status.success(), "pzstd {args:?} failed");
}

/// Runs zstd; fails with what to install when it is missing.
pub fn zstd(args: &[&str]) {
    let status = Command::new("zstd")
        .args(args)
        .status()
        .unwrap_or_else(|e| {
            panic!(
                "zstd not found ({e}): install Debian's `zstd` package (apt-get install zstd), \
             which scripts/test.sh --install does"
            )
        });
    assert!(status.success(), "zstd {args:?} failed");
}

/// The zstd frames of a pzstd file: how many skippable hints lead zstd frames.
pub fn pzstd_frames(path: &Path) -> usize {
    let bytes = std::fs::read(path).expect("zst file");
    let mut at = 0usize;
    let mut frames = 0;
    while at + 12 <= bytes.len() {
        let word = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        assert_eq!(word(at), 0x184D_2A50, "a pzstd size hint at byte {at}");
        at += 12 + word(at + 8) as usize;
        frames += 1;
    }
    assert_eq!(at, bytes.len(), "frames end with the file");
    frames
}
