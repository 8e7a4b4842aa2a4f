//! Shared by the integration tests: the perft suites' positions and the reference data files.

// Each test binary uses only part of this module.
#![allow(dead_code)]

use std::path::PathBuf;
use tabla::{Position, Validation, perft_suite};

/// The perft suites, `testdata/perft` at the repository root (testdata/README.md).
pub fn perft_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/perft")
}

/// `crates/tabla/tests/data`, the files written by the scripts under `scripts/`.
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// Reads a file or stops the test with its path in the message.
pub fn read(path: PathBuf) -> String {
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One position of a perft suite as written there, with its published depth-1 count.
pub struct SuiteEntry {
    /// The FEN as written (4 fields in tricky.perft, 6 in perftsuite.epd).
    pub fen: String,
    /// The published number of legal moves, when the suite gives it.
    pub d1: Option<u64>,
}

/// The positions of perftsuite.epd and tricky.perft, in file order, duplicates removed.
pub fn suite() -> Vec<SuiteEntry> {
    let mut out: Vec<SuiteEntry> = Vec::new();
    for name in ["perftsuite.epd", "tricky.perft"] {
        for entry in perft_suite::parse(&read(perft_dir().join(name))) {
            let case = entry.unwrap_or_else(|e| panic!("{name}: {e}"));
            let d1 = case.counts.iter().find(|(d, _)| *d == 1).map(|&(_, n)| n);
            out.push(SuiteEntry { fen: case.fen, d1 });
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|e| seen.insert(e.fen.clone()));
    out
}

/// The suite's positions, parsed leniently (some are unreachable in a game but playable).
pub fn suite_positions() -> Vec<Position> {
    suite()
        .iter()
        .map(|e| {
            Position::from_fen_with(&e.fen, Validation::Lenient)
                .unwrap_or_else(|err| panic!("{}: {err}", e.fen))
        })
        .collect()
}

/// The lines of a reference file, without `#` comments and blank lines, split at `" | "`.
pub fn reference_lines(name: &str) -> Vec<Vec<String>> {
    read(data_dir().join(name))
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split(" | ").map(str::to_owned).collect())
        .collect()
}
