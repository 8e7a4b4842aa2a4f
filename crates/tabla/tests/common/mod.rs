//! Shared by the integration tests: the perft suites' positions and the reference data files.

// Each test binary uses only part of this module.
#![allow(dead_code)]

use std::path::PathBuf;
use tabla::{Position, Validation};

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
    for line in read(perft_dir().join("perftsuite.epd")).lines() {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or_default().trim();
        if fen.is_empty() {
            continue;
        }
        let d1 = parts
            .find_map(|p| p.trim().strip_prefix("D1 "))
            .and_then(|n| n.trim().parse().ok());
        out.push(SuiteEntry {
            fen: fen.to_owned(),
            d1,
        });
    }
    for line in read(perft_dir().join("tricky.perft")).lines() {
        let line = line.trim();
        if let Some(fen) = line.strip_prefix("epd ") {
            out.push(SuiteEntry {
                fen: fen.trim().to_owned(),
                d1: None,
            });
        } else if let Some(n) = line.strip_prefix("perft 1 ")
            && let Some(last) = out.last_mut()
        {
            last.d1 = n.trim().parse().ok();
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
