//! # tabla-testdata — the data tabla's tests read, found in one place
//!
//! A development crate (a dev-dependency of the others, never published). The repository's
//! `testdata/` is always there ([`testdata_dir`], [`testdata`]); the larger real-world corpus is
//! optional ([`corpus_dir`], [`corpus`]): the folder named by `TABLA_CORPUS` (relative to the
//! repository root), else `../shared/data` beside the repository. A test that needs the corpus
//! and does not find it says that it is skipped and returns, unless `TABLA_REQUIRE_CORPUS=1`,
//! under which it fails, so that CI cannot skip it silently.
//!
//! ```
//! let set = tabla_testdata::testdata();
//! let reference = set.reference();
//! // python-chess reads 80 games in the repository's lichess sample.
//! assert_eq!(reference["lichess_db_1000k.pgn"].len(), 80);
//! assert!(set.paths().iter().any(|p| p.ends_with("lichess_db_1000k.pgn")));
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The repository's root.
pub fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The repository's `testdata/`: data every test can count on (testdata/README.md).
pub fn testdata_dir() -> PathBuf {
    repository_root().join("testdata")
}

/// The real-world corpus folder (holding `perft/`, `pgn/` and `epd/`), or `None` when it is not
/// there: then the calling test is reported as skipped on stderr, or, with
/// `TABLA_REQUIRE_CORPUS=1`, this panics.
pub fn corpus_dir() -> Option<PathBuf> {
    let root = repository_root();
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

/// A folder of PGN files with python-chess's reading of them (`testdata/gen_pgn_reference.py`).
#[derive(Clone, Debug)]
pub struct PgnSet {
    /// The folder of `.pgn` files.
    pub dir: PathBuf,
    /// The reference: one line per game, `file, game number, plies, final FEN, errors`.
    pub reference: PathBuf,
}

/// One game as python-chess read it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Expected {
    /// Mainline plies played.
    pub plies: u32,
    /// The FEN after the last of them.
    pub fen: String,
    /// How many errors python-chess met in the game.
    pub errors: usize,
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

impl PgnSet {
    /// The path of the set's file `name`.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The set's `.pgn` files, sorted.
    pub fn paths(&self) -> Vec<PathBuf> {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&self.dir)
            .unwrap_or_else(|e| panic!("{}: {e}", self.dir.display()))
            .map(|entry| entry.expect("directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
            .collect();
        paths.sort();
        paths
    }

    /// Every `.pgn` file of the set with its bytes, by name.
    pub fn files(&self) -> Vec<(String, Vec<u8>)> {
        self.paths()
            .into_iter()
            .map(|p| {
                let name = p.file_name().expect("file name").to_string_lossy();
                let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                (name.into_owned(), bytes)
            })
            .collect()
    }

    /// python-chess's reading of every file of the set: its games in order.
    pub fn reference(&self) -> BTreeMap<String, Vec<Expected>> {
        let text = std::fs::read_to_string(&self.reference)
            .unwrap_or_else(|e| panic!("{}: {e}", self.reference.display()));
        let mut files: BTreeMap<String, Vec<Expected>> = BTreeMap::new();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 5, "bad reference line {line:?}");
            let games = files.entry(f[0].to_owned()).or_default();
            assert_eq!(
                f[1].parse::<usize>().ok(),
                Some(games.len() + 1),
                "{line:?}"
            );
            games.push(Expected {
                plies: f[2].parse().expect("plies"),
                fen: f[3].to_owned(),
                errors: f[4].parse().expect("errors"),
            });
        }
        files
    }
}
