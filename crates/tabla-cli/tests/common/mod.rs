//! Running the real `tabla` binary.

#![allow(dead_code)] // each test file uses its own part of this module

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

/// What a run of `tabla` printed and how it exited.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The last line of standard output.
    pub fn last_line(&self) -> &str {
        self.stdout.lines().last().unwrap_or_default()
    }
}

/// Runs `tabla` with `args`.
pub fn tabla(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_tabla"))
        .args(args)
        .output()
        .expect("the tabla binary runs");
    Run {
        code: output.status.code().expect("tabla exits with a status"),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// The repository's `testdata/`: data every test can count on (testdata/README.md).
pub fn testdata_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

/// `testdata/perft/<name>`, a perft suite.
pub fn perft_data(name: &str) -> PathBuf {
    testdata_dir().join("perft").join(name)
}

/// A folder of PGN files with python-chess's reading of them (scripts/gen_pgn_reference.py).
pub struct PgnSet {
    /// The folder of `.pgn` files.
    pub dir: PathBuf,
    /// The reference: one line per game, `file, game number, plies, final FEN, errors`.
    pub reference: PathBuf,
}

impl PgnSet {
    /// The path of the file `name` of the set, as a string for the command line.
    pub fn file(&self, name: &str) -> String {
        let path = self.dir.join(name);
        path.to_str().expect("utf-8 path").to_owned()
    }

    /// Per file: (plies, final FEN) of each game, from python-chess.
    pub fn reference(&self) -> BTreeMap<String, Vec<(u32, String)>> {
        let text = std::fs::read_to_string(&self.reference).expect("reference data");
        let mut files: BTreeMap<String, Vec<(u32, String)>> = BTreeMap::new();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let cols: Vec<&str> = line.split('\t').collect();
            files
                .entry(cols[0].to_owned())
                .or_default()
                .push((cols[2].parse().expect("plies"), cols[3].to_owned()));
        }
        files
    }
}

/// The PGN files of the repository (`testdata/pgn`), always there.
pub fn testdata() -> PgnSet {
    PgnSet {
        dir: testdata_dir().join("pgn"),
        reference: testdata_dir().join("pgn_reference.tsv"),
    }
}

/// The real-world corpus's PGN files, or `None` when the corpus is not there (see
/// [`corpus_dir`]).
pub fn corpus() -> Option<PgnSet> {
    Some(PgnSet {
        dir: corpus_dir()?.join("pgn"),
        reference: testdata_dir().join("corpus_pgn_reference.tsv"),
    })
}

/// The real-world corpus: the folder named by `TABLA_CORPUS` (relative to the repository root),
/// else `../shared/data` beside the repository. When it is missing, the calling test says it is
/// skipped and gets `None`; with `TABLA_REQUIRE_CORPUS=1` it fails instead, so that CI cannot
/// skip it silently.
pub fn corpus_dir() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = match std::env::var_os("TABLA_CORPUS") {
        Some(named) => root.join(named),
        None => root.join("../shared/data"),
    };
    if dir.is_dir() {
        return Some(dir);
    }
    let test = std::thread::current().name().unwrap_or("test").to_owned();
    assert!(
        std::env::var("TABLA_REQUIRE_CORPUS").as_deref() != Ok("1"),
        "{test}: corpus not found at {} and TABLA_REQUIRE_CORPUS=1: set TABLA_CORPUS to the \
         folder holding perft/, pgn/ and epd/",
        dir.display()
    );
    eprintln!(
        "{test}: skipped: corpus not found at {} (set TABLA_CORPUS)",
        dir.display()
    );
    None
}

/// Writes `text` to a file of this test run's scratch directory and returns its path.
pub fn scratch_file(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).expect("scratch file writable");
    path
}
