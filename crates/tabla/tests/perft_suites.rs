//! The perft suites of `testdata/perft/`: published node counts, checked by playing every move
//! (make/unmake at every node) and with bulk counting.

mod common;

use tabla::{Position, Validation};

/// One position of a suite with its published counts, `(depth, nodes)`.
struct Case {
    fen: String,
    counts: Vec<(u32, u64)>,
}

/// `FEN ;D1 n ;D2 n ...` lines.
fn read_epd(name: &str) -> Vec<Case> {
    let text = common::read(common::perft_dir().join(name));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap_or_default().trim().to_owned();
            let counts = parts
                .map(|p| {
                    let mut it = p.split_whitespace();
                    let d = it.next().unwrap_or_default().trim_start_matches('D');
                    let n = it.next().unwrap_or_default();
                    (d.parse().expect("depth"), n.parse().expect("count"))
                })
                .collect();
            Case { fen, counts }
        })
        .collect()
}

/// `id` / `epd` / `perft d n` blocks.
fn read_blocks(name: &str) -> Vec<Case> {
    let text = common::read(common::perft_dir().join(name));
    let mut cases: Vec<Case> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(fen) = line.strip_prefix("epd ") {
            cases.push(Case {
                fen: fen.to_owned(),
                counts: Vec::new(),
            });
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut it = rest.split_whitespace();
            let d = it.next().expect("depth").parse().expect("depth");
            let n = it.next().expect("count").parse().expect("count");
            cases
                .last_mut()
                .expect("perft after epd")
                .counts
                .push((d, n));
        }
    }
    cases
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
    let cases = read_epd("perftsuite.epd");
    // 127 lines, one of them repeated: 126 distinct positions.
    assert_eq!(cases.len(), 127);
    let distinct: std::collections::HashSet<&str> = cases.iter().map(|c| c.fen.as_str()).collect();
    assert_eq!(distinct.len(), 126);
    assert!(check(&cases, 20_000_000) >= 126 * 4);
}

#[test]
fn tricky_perft() {
    let cases = read_blocks("tricky.perft");
    assert!(cases.len() >= 25);
    check(&cases, 20_000_000);
}

/// The full suites at every published depth (about 3 billion nodes). Run with
/// `cargo test --release -p tabla --test perft_suites -- --ignored`.
#[test]
#[ignore]
fn full_depth() {
    check(&read_epd("perftsuite.epd"), u64::MAX);
    check(&read_blocks("tricky.perft"), u64::MAX);
}
