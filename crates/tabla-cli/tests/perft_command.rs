//! `tabla perft`: single positions against published counts, divide against python-chess
//! (1.11.2), and suite files, real and deliberately broken.

mod common;

use common::{perft_data, scratch_file, tabla};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn startpos_depth_4_matches_the_published_count() {
    for extra in [&[][..], &["--bulk"][..]] {
        let run = tabla(&[&["perft", "startpos", "4"][..], extra].concat());
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(run.stdout, "nodes 197281\n");
        // Timing goes to stderr so that `nodes N` stays the last line of stdout.
        assert!(run.stderr.contains("nodes/s"), "{}", run.stderr);
    }
}

#[test]
fn fen_argument_matches_published_counts() {
    // chessprogramming.org perft results: Kiwipete d3 97862, position 3 d4 43238.
    let run = tabla(&["perft", KIWIPETE, "3"]);
    assert_eq!(run.last_line(), "nodes 97862");
    let run = tabla(&[
        "perft",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -",
        "4",
        "--bulk",
    ]);
    assert_eq!(run.last_line(), "nodes 43238");
    assert_eq!(tabla(&["perft", "startpos", "0"]).stdout, "nodes 1\n");
}

#[test]
fn divide_matches_python_chess_and_sums_to_the_total() {
    let expected = "a1b1:43 a1c1:43 a1d1:43 a2a3:44 a2a4:44 b2b3:42 c3a4:42 c3b1:42 c3b5:39 \
        c3d1:42 d2c1:43 d2e3:43 d2f4:43 d2g5:42 d2h6:41 d5d6:41 d5e6:46 e1c1:43 e1d1:43 e1f1:43 \
        e1g1:43 e2a6:36 e2b5:39 e2c4:41 e2d1:44 e2d3:42 e2f1:44 e5c4:42 e5c6:41 e5d3:43 e5d7:45 \
        e5f7:44 e5g4:44 e5g6:42 f3d3:42 f3e3:43 f3f4:43 f3f5:45 f3f6:39 f3g3:43 f3g4:43 f3h3:43 \
        f3h5:43 g2g3:42 g2g4:42 g2h3:43 h1f1:43 h1g1:43";
    let expected: Vec<String> = expected
        .split_whitespace()
        .map(|w| w.replace(':', ": "))
        .collect();
    for extra in [&[][..], &["--bulk"][..]] {
        let run = tabla(&[&["perft", KIWIPETE, "2", "--divide"][..], extra].concat());
        assert_eq!(run.code, 0, "{}", run.stderr);
        let lines: Vec<&str> = run.stdout.lines().collect();
        let (last, rows) = lines.split_last().expect("output");
        assert_eq!(rows, expected);
        let sum: u64 = rows
            .iter()
            .map(|r| {
                r.rsplit(' ')
                    .next()
                    .and_then(|n| n.parse::<u64>().ok())
                    .expect("count")
            })
            .sum();
        assert_eq!(sum, 2039); // the published Kiwipete d2
        assert_eq!(*last, "nodes 2039");
    }
    let run = tabla(&["perft", "startpos", "4", "--divide"]);
    assert_eq!(run.stdout.lines().count(), 21);
    assert_eq!(run.last_line(), "nodes 197281");
}

#[test]
fn unusual_setups_are_counted_with_a_note() {
    // perftsuite.epd: `B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1 ;D1 6 ;D2 106 ;D3 1829 ;D4 31151`.
    let run = tabla(&["perft", "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1", "4"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "nodes 31151\n");
    assert!(
        run.stderr.contains("the check cannot arise in a game"),
        "{}",
        run.stderr
    );
    let legal = tabla(&["perft", "startpos", "1"]);
    assert!(!legal.stderr.contains("note"), "{}", legal.stderr);
}

#[test]
fn bad_input_exits_2() {
    let run = tabla(&[
        "perft",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1",
        "3",
    ]);
    assert_eq!(run.code, 2);
    assert!(run.stdout.is_empty());
    assert!(run.stderr.contains("castling field"), "{}", run.stderr);
    let run = tabla(&["perft", "8/8/8/8/8/8/8/K7 w - - 0 1", "3"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("a side has no king"), "{}", run.stderr);
    assert_eq!(tabla(&["perft", "startpos"]).code, 2);
    assert_eq!(tabla(&["perft", "startpos", "three"]).code, 2);
    assert_eq!(tabla(&["perft", "startpos", "-1"]).code, 2);
    assert_eq!(tabla(&["perft", "startpos", "0", "--divide"]).code, 2);
    assert_eq!(tabla(&["perft", "startpos", "3", "--depth", "2"]).code, 2);
}

/// The positions of a suite file, counted independently of tabla's reader.
fn positions_in(name: &str) -> usize {
    let text = std::fs::read_to_string(perft_data(name)).expect("suite readable");
    text.lines()
        .filter(|l| l.contains(';') || l.starts_with("epd "))
        .count()
}

#[test]
fn perftsuite_epd_passes() {
    let path = perft_data("perftsuite.epd");
    let run = tabla(&[
        "perft",
        "--epd",
        path.to_str().expect("UTF-8 path"),
        "--depth",
        "3",
    ]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let n = positions_in("perftsuite.epd");
    assert_eq!(run.last_line(), format!("passed {n}, failed 0"));
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), n + 1);
    assert_eq!(
        lines[0],
        "ok rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 depth 3 nodes 8902"
    );
    assert!(lines[..n].iter().all(|l| l.starts_with("ok ")));
    // The one position strict validation rejects is named on stderr.
    assert!(
        run.stderr.contains("the check cannot arise in a game"),
        "{}",
        run.stderr
    );
}

#[test]
fn tricky_perft_passes() {
    let path = perft_data("tricky.perft");
    let run = tabla(&[
        "perft",
        "--epd",
        path.to_str().expect("UTF-8 path"),
        "--depth",
        "3",
    ]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let n = positions_in("tricky.perft");
    assert_eq!(run.last_line(), format!("passed {n}, failed 0"));
    assert!(run.stdout.contains("ok pos-2 depth 3 nodes 97862\n"));
    // Bulk counting gives the same verdicts.
    let bulk = tabla(&[
        "perft",
        "--epd",
        path.to_str().expect("UTF-8 path"),
        "--depth",
        "3",
        "--bulk",
    ]);
    assert_eq!(bulk.stdout, run.stdout);
}

#[test]
fn a_wrong_count_fails() {
    let path = scratch_file(
        "wrong-count.epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8903\n\
         4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66\n",
    );
    let run = tabla(&["perft", "--epd", path.to_str().expect("UTF-8 path")]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout,
        "FAIL rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 depth 3 expected 8903 got 8902\n\
         ok 4k3/8/8/8/8/8/8/4K2R w K - 0 1 depth 2 nodes 66\n\
         passed 1, failed 1\n"
    );
    // Below the wrong depth, the suite passes.
    let run = tabla(&[
        "perft",
        "--epd",
        path.to_str().expect("UTF-8 path"),
        "--depth",
        "2",
    ]);
    assert_eq!((run.code, run.last_line()), (0, "passed 2, failed 0"));
}

#[test]
fn a_wrong_count_fails_in_block_format() {
    let path = scratch_file(
        "wrong-count.perft",
        "id kiwipete\nepd r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -\n\
         perft 1 48\nperft 2 2040\n",
    );
    let run = tabla(&["perft", "--epd", path.to_str().expect("UTF-8 path")]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout,
        "FAIL r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - depth 2 expected 2040 got 2039\n\
         passed 0, failed 1\n"
    );
}

#[test]
fn malformed_lines_fail_with_their_line_number() {
    let path = scratch_file(
        "malformed.epd",
        "# a comment\n\
         4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 sixty-six\n\
         4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\n\
         4k3/8/8/8/8/8/8/4K2X w K - 0 1 ;D1 15\n\
         4k3/8/8/8/8/8/8/8 w - - 0 1 ;D1 15\n\
         hello\n",
    );
    let run = tabla(&["perft", "--epd", path.to_str().expect("UTF-8 path")]);
    assert_eq!(run.code, 1);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 6, "{}", run.stdout);
    assert!(lines[0].starts_with("FAIL line 2: ") && lines[0].contains("sixty-six"));
    assert_eq!(
        lines[1],
        "ok 4k3/8/8/8/8/8/8/4K2R w K - 0 1 depth 1 nodes 15"
    );
    assert!(lines[2].starts_with("FAIL line 4: invalid FEN") && lines[2].contains("'X'"));
    assert!(lines[3].starts_with("FAIL line 5: invalid FEN") && lines[3].contains("no king"));
    assert!(lines[4].starts_with("FAIL line 6: ") && lines[4].contains("\"hello\""));
    assert_eq!(lines[5], "passed 1, failed 4");
}

#[test]
fn unreadable_or_empty_suites_are_bad_input() {
    let run = tabla(&["perft", "--epd", "/nonexistent/suite.epd"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("/nonexistent/suite.epd"),
        "{}",
        run.stderr
    );
    let empty = scratch_file("empty.epd", "# nothing here\n\n");
    let run = tabla(&["perft", "--epd", empty.to_str().expect("UTF-8 path")]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("no perft positions"), "{}", run.stderr);
    let suite = perft_data("tricky.perft");
    let run = tabla(&[
        "perft",
        "--epd",
        suite.to_str().expect("UTF-8 path"),
        "--depth",
        "0",
    ]);
    assert_eq!(run.code, 2);
}
