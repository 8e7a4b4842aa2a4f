//! Conversions in a child process (this test binary run again): one killed midway leaves only
//! complete Parquet files, and one reading the standard input gives the same games as the file.

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tabla_convert::{
    ConvertError, Input, Limits, NoProgress, PositionsTable, ProgressSink, convert_with,
};

/// Set in the child: what to do and where to write.
const CHILD_MODE: &str = "TABLA_CONVERT_TEST_CHILD";
const CHILD_INPUT: &str = "TABLA_CONVERT_TEST_INPUT";
const CHILD_OUT: &str = "TABLA_CONVERT_TEST_OUT";

/// Slows the child down a little, so there is time to kill it midway.
struct Slow;

impl ProgressSink for Slow {
    fn advance(&self, _input_bytes: u64, _games: u64) {
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Small files, so that many are written.
fn small_files() -> Limits {
    Limits {
        games_per_file: 300,
        positions_per_worker: 5_000,
        ..Limits::default()
    }
}

/// Runs the test `name` of this binary as a child in `mode`.
fn child(name: &str, mode: &str, input: &Path, out: &Path) -> Command {
    let mut command = Command::new(std::env::current_exe().expect("test binary"));
    command
        .args(["--exact", name, "--nocapture", "--test-threads", "1"])
        .env(CHILD_MODE, mode)
        .env(CHILD_INPUT, input)
        .env(CHILD_OUT, out)
        .stdout(Stdio::null());
    command
}

/// The child's side: `Some(())` when this process is the child (and has done its part).
fn as_child() -> Option<()> {
    let mode = std::env::var(CHILD_MODE).ok()?;
    let input = PathBuf::from(std::env::var(CHILD_INPUT).expect("input"));
    let out = PathBuf::from(std::env::var(CHILD_OUT).expect("out"));
    let result = match mode.as_str() {
        "slow" => {
            let mut opts = options(&[input], &out, 2);
            opts.positions = PositionsTable::Full;
            convert_with(&opts, &small_files(), &Slow)
        }
        "stdin" => {
            let mut opts = options(&[], &out, 2);
            opts.inputs = vec![Input::Stdin];
            convert_with(&opts, &Limits::default(), &NoProgress)
        }
        other => panic!("unknown child mode {other}"),
    };
    result.unwrap_or_else(|e| panic!("child conversion: {e}"));
    Some(())
}

fn sample(dir: &Path, copies: usize) -> PathBuf {
    let mut text = Vec::new();
    for _ in 0..copies {
        for name in ["lichess_db_1000k.pgn", "twic1599_1000k.pgn"] {
            text.extend(std::fs::read(testdata().dir.join(name)).expect("testdata file"));
            text.extend_from_slice(b"\n\n");
        }
    }
    let path = dir.join("sample.pgn");
    std::fs::write(&path, text).expect("write sample");
    path
}

#[test]
fn a_killed_run_leaves_only_complete_parquet_files() {
    if as_child().is_some() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let input = sample(dir.path(), 40);
    let out = dir.path().join("out");
    let mut running = child(
        "a_killed_run_leaves_only_complete_parquet_files",
        "slow",
        &input,
        &out,
    )
    .spawn()
    .expect("spawn the child");
    // Wait for a few complete files, then kill the child while it writes the next ones.
    let deadline = Instant::now() + Duration::from_secs(120);
    while parquet_files(&out).len() < 4 {
        assert!(
            running.try_wait().expect("child status").is_none(),
            "the child ended before it could be interrupted"
        );
        assert!(Instant::now() < deadline, "the child wrote no files");
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(
        running.try_wait().expect("child status").is_none(),
        "still running when killed"
    );
    running.kill().expect("kill");
    running.wait().expect("reap");

    let complete = parquet_files(&out);
    assert!(complete.len() >= 4);
    for path in &complete {
        let reader = parquet::file::reader::SerializedFileReader::new(
            std::fs::File::open(path).expect("open"),
        )
        .unwrap_or_else(|e| panic!("{} has a footer: {e}", path.display()));
        let rows: i64 = parquet::file::reader::FileReader::metadata(&reader)
            .file_metadata()
            .num_rows();
        let read: usize = read_batches(path).iter().map(|b| b.num_rows()).sum();
        assert_eq!(read as i64, rows, "{} reads whole", path.display());
    }
    // Leftovers are hidden and do not match `*.parquet`, so readers skip them.
    for path in hidden_files(&out) {
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        assert!(
            name.starts_with(".part-") && name.ends_with(".parquet.tmp"),
            "{name}"
        );
    }
}

#[test]
fn the_standard_input_gives_the_same_games_as_the_file() {
    if as_child().is_some() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let plain = sample(dir.path(), 10);
    let zst = dir.path().join("sample.pgn.zst");
    pzstd(&[
        "-q",
        "-1",
        "-f",
        plain.to_str().expect("utf-8"),
        "-o",
        zst.to_str().expect("utf-8"),
    ]);
    let from_file = dir.path().join("file");
    run(
        &options(std::slice::from_ref(&zst), &from_file, 2),
        &Limits::default(),
    );
    for input in [&zst, &plain] {
        let from_stdin = dir.path().join("stdin");
        let status = child(
            "the_standard_input_gives_the_same_games_as_the_file",
            "stdin",
            input,
            &from_stdin,
        )
        .stdin(std::fs::File::open(input).expect("input"))
        .status()
        .expect("run the child");
        assert!(status.success(), "the child converted its standard input");
        let strip = |rows: Vec<GameRow>| {
            let mut rows: Vec<GameRow> = rows
                .into_iter()
                .map(|r| GameRow { game_id: 0, ..r })
                .collect();
            rows.sort();
            rows
        };
        let a = strip(read_games(&from_file));
        let b = strip(read_games(&from_stdin));
        // Ten copies of 80 lichess and 60 TWIC games (python-chess: testdata/pgn_reference.tsv).
        assert_eq!(a.len(), 10 * (80 + 60));
        assert_eq!(a, b, "{} from the standard input", input.display());
        std::fs::remove_dir_all(&from_stdin).expect("clean up");
    }
}

#[test]
fn a_write_that_fails_midway_removes_the_unfinished_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    // A file where the converter needs the 2025 partition directory.
    std::fs::create_dir_all(out.join("games")).expect("dir");
    std::fs::write(out.join("games").join("year=2025"), "in the way").expect("write");
    // testdata/pgn has games of 2025 (lichess, TWIC).
    let files = testdata().paths();
    let result = convert_with(&options(&files, &out, 2), &small_files(), &NoProgress);
    match result {
        Err(ConvertError::Create { path, .. }) => {
            assert!(
                path.to_string_lossy().contains("year=2025"),
                "{}",
                path.display()
            );
        }
        other => panic!("expected a Create error, got {other:?}"),
    }
    assert!(hidden_files(&out).is_empty(), "no temporary file is left");
    for path in parquet_files(&out) {
        read_batches(&path);
    }
}
