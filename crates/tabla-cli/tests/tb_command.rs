//! `tabla tb`: build (resumable), probe (text, JSON, batch), line and the missing-table error,
//! through the real binary. Expectations are hand-checked positions and published figures.

mod common;

use common::tabla;
use std::path::PathBuf;
use std::sync::OnceLock;

/// Builds KPvK (and the endings it promotes to) once into this test run's scratch folder.
fn dir() -> &'static str {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-tb");
        let _ = std::fs::remove_dir_all(&dir);
        let d = dir.to_str().expect("utf-8 path");
        let run = tabla(&["tb", "build", "KPK", "--dir", d, "--threads", "2"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        // KPvK, KQvK, KRvK, KBvK, KNvK.
        assert!(run.stdout.starts_with("5 tables in"), "{}", run.stdout);
        // A second run builds nothing.
        let again = tabla(&["tb", "build", "KPvK", "--dir", d]);
        assert_eq!(again.code, 0, "{}", again.stderr);
        assert!(
            again.stdout.contains("(0 built now in 0.0 s"),
            "{}",
            again.stdout
        );
        assert_eq!(
            again.stderr.matches("already built").count(),
            5,
            "{}",
            again.stderr
        );
        dir
    })
    .to_str()
    .expect("utf-8 path")
}

#[test]
fn probe_gives_the_longest_pawn_mate_and_every_move() {
    // KPK's longest win: 28 moves, Ka2 Pg2 kb5 (Peter Karrer's 3-man statistics).
    let run = tabla(&[
        "tb",
        "probe",
        "--dir",
        dir(),
        "8/8/8/1k6/8/8/K5P1/8 w - - 0 1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("material KPvK"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("dtm      +28 (mates in 28 moves, 55 plies)"),
        "{}",
        run.stdout
    );
    // Black's pawn: read from the same table with the colours swapped.
    let json = tabla(&[
        "tb",
        "probe",
        "--json",
        "--dir",
        dir(),
        "8/8/8/8/8/8/3p4/k2K4 b - - 0 1",
    ]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(v["material"], "KvKP");
    assert_eq!(v["turn"], "black");
    // White's king on d1 stops the pawn and takes it before Black's king comes: a draw.
    assert_eq!(v["status"], "draw", "{}", json.stdout);
    assert!(v["moves"].as_array().is_some_and(|m| !m.is_empty()));
}

#[test]
fn stats_count_each_side_and_show_the_longest_mate() {
    let run = tabla(&["tb", "stats", "--dir", dir(), "KvKP"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("KPvK\n"), "{}", run.stdout);
    // KPK: mate in 28 at the longest (Peter Karrer's 3-man statistics).
    let white = run
        .stdout
        .lines()
        .find(|l| l.starts_with("White"))
        .expect("White's row");
    assert!(white.contains("mates in 28 (55 plies)"), "{white}");
}

#[test]
fn line_ends_in_mate_after_as_many_plies_as_the_probe_says() {
    let fen = "8/8/8/8/8/k7/2K5/1Q6 w - - 0 1";
    let probe = tabla(&["tb", "probe", "--json", "--dir", dir(), fen]);
    let v: serde_json::Value = serde_json::from_str(&probe.stdout).expect("json");
    let plies = v["plies"].as_u64().expect("a win");
    let line = tabla(&["tb", "line", "--dir", dir(), fen]);
    assert_eq!(line.code, 0, "{}", line.stderr);
    assert!(line.stdout.contains('#'), "{}", line.stdout);
    assert!(
        line.stdout
            .trim_end()
            .ends_with(&format!("({})", tabla::plural_with(plies, "ply", "plies"))),
        "{}",
        line.stdout
    );
}

#[test]
fn batch_prints_moves_and_plies_and_errors_per_line() {
    let input = common::scratch_file(
        "tb-batch.txt",
        "k7/8/1K6/8/8/8/8/7R w - - 0 1\nk7/8/1K6/8/8/8/8/7R b - - 0 1\nnot a fen\nk7/2K5/8/8/8/8/8/R7 b - - 0 1\n",
    );
    let run = tabla(&[
        "tb",
        "probe",
        "--dir",
        dir(),
        "--batch",
        input.to_str().expect("utf-8"),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{}", run.stdout);
    // Rh8 mates at once; with Black to move, ...Kb8 Rh8# (mated in one move, two plies).
    assert_eq!(lines[0], "k7/8/1K6/8/8/8/8/7R w - - 0 1;1;1");
    assert_eq!(lines[1], "k7/8/1K6/8/8/8/8/7R b - - 0 1;-1;-2");
    assert!(lines[2].starts_with("not a fen;error: "), "{}", lines[2]);
    // Checkmated already.
    assert_eq!(lines[3], "k7/2K5/8/8/8/8/8/R7 b - - 0 1;0;0");
}

#[test]
fn a_missing_table_names_its_ending_and_the_command_that_builds_it() {
    let run = tabla(&[
        "tb",
        "probe",
        "--dir",
        dir(),
        "7k/8/8/8/8/8/8/K2QR3 w - - 0 1",
    ]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stderr.contains("KQRvK"), "{}", run.stderr);
    assert!(
        run.stderr.contains("tabla tb build KQRvK"),
        "{}",
        run.stderr
    );
}

/// A folder of this test run that holds no tables.
fn empty_dir(name: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir.to_str().expect("utf-8 path").to_owned()
}

#[test]
fn the_engines_endings_are_solved_in_memory_without_a_table_file() {
    let empty = empty_dir("cli-tb-empty");
    // Hand-checked: Qb8 mates at once.
    let run = tabla(&[
        "tb",
        "probe",
        "--dir",
        &empty,
        "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("dtm      +1 "), "{}", run.stdout);
    assert!(
        run.stdout.contains("best     Qb8# (b1b8)"),
        "{}",
        run.stdout
    );
    // Solved in memory, KRvK counts what its table file (built from KPvK above) counts.
    let solved = tabla(&["tb", "stats", "--dir", &empty, "KRvK"]);
    let from_file = tabla(&["tb", "stats", "--dir", dir(), "KRvK"]);
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    assert_eq!(solved.stdout, from_file.stdout);
    // The batch solves an ending when a line needs it; other endings still need their file.
    let input = common::scratch_file(
        "tb-batch-in-memory.txt",
        "k7/8/1K6/8/8/8/8/7R w - - 0 1\n8/8/8/8/8/2k5/4P3/3K4 w - - 0 1\n",
    );
    let batch = tabla(&[
        "tb",
        "probe",
        "--dir",
        &empty,
        "--batch",
        input.to_str().expect("utf-8"),
    ]);
    assert_eq!(batch.code, 0, "{}", batch.stderr);
    let lines: Vec<&str> = batch.stdout.lines().collect();
    assert_eq!(lines[0], "k7/8/1K6/8/8/8/8/7R w - - 0 1;1;1");
    assert!(
        lines[1].contains(";error: no table for KPvK"),
        "{}",
        batch.stdout
    );
    let nothing_written = std::fs::read_dir(&empty).expect("folder").count();
    assert_eq!(nothing_written, 0, "the solved endings are not written");
}
