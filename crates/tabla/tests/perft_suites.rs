//! The perft suites of `testdata/perft/`: published node counts, checked by playing every move
//! (make/unmake at every node) and with bulk counting.

mod common;

use tabla::perft_suite::{self, Case};
use tabla::{Position, Validation};

/// The cases of a suite file of `testdata/perft`, every line well formed.
fn read(name: &str) -> Vec<Case> {
    perft_suite::parse(&common::read(common::perft_dir().join(name)))
        .into_iter()
        .map(|entry| entry.unwrap_or_else(|e| panic!("{name}: {e}")))
        .collect()
}

/// Runs every case up to the depth whose published count is at most `max_nodes`.
fn check(cases: &[Case], max_nodes: u64) -> usize {
    let mut checked = 0;
    for case in cases {
        let mut pos = Position::from_fen_with(&case.fen, Validation::Lenient)
            .unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        for &(depth, expected) in &case.counts {
            if expected > max_nodes {
                continue;
            }
            assert_eq!(pos.perft(depth), expected, "{} depth {depth}", case.fen);
            assert_eq!(
                pos.perft_bulk(depth),
                expected,
                "{} depth {depth} (bulk)",
                case.fen
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn perftsuite_epd() {
    let cases = read("perftsuite.epd");
    // 127 lines, one of them repeated: 126 distinct positions.
    assert_eq!(cases.len(), 127);
    let distinct: std::collections::HashSet<&str> = cases.iter().map(|c| c.fen.as_str()).collect();
    assert_eq!(distinct.len(), 126);
    assert!(check(&cases, 20_000_000) >= 126 * 4);
}

#[test]
fn tricky_perft() {
    let cases = read("tricky.perft");
    assert!(cases.len() >= 25);
    check(&cases, 20_000_000);
}

/// The full suites at every published depth (about 3 billion nodes). Run with
/// `cargo test --release -p tabla --test perft_suites -- --ignored`.
#[test]
#[ignore]
fn full_depth() {
    check(&read("perftsuite.epd"), u64::MAX);
    check(&read("tricky.perft"), u64::MAX);
}
