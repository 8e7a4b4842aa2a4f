//! `tabla go`, `tabla uci` and `tabla bench` through the real binary.

mod common;

use common::tabla;
use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn go_finds_bh6() {
    // The Bh6 test position (docs/background.md): the game went on 40.Be3-h6, which Stockfish
    // confirms wins. A node limit keeps the test independent of the machine's speed.
    let run = tabla(&[
        "go",
        "6k1/p2q1b2/2n2Qp1/1p2p3/4P3/2P1B3/5R1K/8 w - - 1 40",
        "--nodes",
        "500000",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.last_line(), "bestmove Bh6 e3h6");
    assert!(
        run.stdout.lines().any(|l| l.starts_with("pv 40. Bh6")),
        "{}",
        run.stdout
    );
}

#[test]
fn go_reports_mate_in_one() {
    // Back-rank mate: Ra8# is the only mate.
    let run = tabla(&["go", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "--depth", "3"]);
    assert_eq!(run.last_line(), "bestmove Ra8# a1a8");
    assert!(run.stdout.contains("score #1"), "{}", run.stdout);
}

#[test]
fn go_on_two_threads_finds_the_mate_and_refuses_zero_threads() {
    let run = tabla(&[
        "go",
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "--depth",
        "6",
        "--threads",
        "2",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.last_line(), "bestmove Ra8# a1a8");
    let run = tabla(&["go", "startpos", "--threads", "0"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--threads"), "{}", run.stderr);
}

#[test]
fn go_rejects_a_bad_fen_with_exit_2() {
    let run = tabla(&["go", "8/8/8/8/8/8/8/8 w - - 0 1", "--depth", "2"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("no king"), "{}", run.stderr);
}

#[test]
fn uci_dialogue_survives_malformed_lines() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabla"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("tabla uci runs");
    let script = "uci\nisready\nnonsense here\nposition startpos moves e2e4 e7e5 e1e8\n\
                  position startpos moves e2e4\ngo depth 3\nisready\nquit\n";
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("script written");
    let output = child.wait_with_output().expect("tabla uci ends");
    let text = String::from_utf8(output.stdout).expect("utf-8");
    assert!(text.contains("uciok") && text.contains("readyok"), "{text}");
    assert!(
        text.contains("info string"),
        "malformed lines are answered: {text}"
    );
    let best = text
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("a bestmove line");
    // After 1. e4 the move is Black's: its origin is on rank 7 or 8.
    assert!(
        best.as_bytes()[1] == b'7' || best.as_bytes()[1] == b'8',
        "{best}"
    );
}

#[test]
fn bench_prints_its_node_signature() {
    let run = tabla(&["bench", "--depth", "4"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.last_line().starts_with("nodes "), "{}", run.stdout);
}
