//! `tabla kbnk`: build, probe (single and batch), line and export through the real binary.
//! Expectations are hand-checked positions and published figures (docs/background.md), not the
//! table itself.

mod common;

use common::tabla;
use std::path::PathBuf;
use std::sync::OnceLock;

/// Builds the table once into this test run's scratch folder and returns its path.
fn table() -> &'static PathBuf {
    static TABLE: OnceLock<PathBuf> = OnceLock::new();
    TABLE.get_or_init(|| {
        let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-kbnk.tbl");
        let _ = std::fs::remove_file(&path);
        let run = tabla(&["kbnk", "build", "--out", path.to_str().expect("utf-8 path")]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        // The published longest mate: 33 moves, for both sides to move.
        assert!(run.stdout.contains("mates in 33"), "{}", run.stdout);
        assert!(run.stdout.contains("mated in 33"), "{}", run.stdout);
        path
    })
}

fn file_arg() -> &'static str {
    table().to_str().expect("utf-8 path")
}

#[test]
fn probe_finds_the_hand_checked_mate_in_one() {
    // Ka8, Kb6, Na6, Be6: Bd5 is mate (the bishop checks along the diagonal, b7/a7/b8 are covered).
    let run = tabla(&[
        "kbnk",
        "probe",
        "--file",
        file_arg(),
        "k7/8/NK2B3/8/8/8/8/8 w - - 0 1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("dtm   +1 (mates in 1 move, 1 ply)"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("best  Bd5# (e6d5)"), "{}", run.stdout);
    // Every legal move is listed: 5 king moves, 3 knight moves... 20 in all (python-chess count).
    let listed = run
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("moves"))
        .skip(1)
        .count();
    assert_eq!(listed, 20);
}

#[test]
fn probe_reports_checkmate_and_stalemate() {
    let mate = tabla(&[
        "kbnk",
        "probe",
        "--file",
        file_arg(),
        "k7/8/NK6/3B4/8/8/8/8 b - - 0 1",
    ]);
    assert!(
        mate.stdout.contains("dtm   0 (checkmated)"),
        "{}",
        mate.stdout
    );
    assert!(mate.stdout.contains("best  none"), "{}", mate.stdout);
    // Ka8 against Kc7 (b8, b7) and Bd4 (a7), knight far away on a1: no check, no move.
    let stale = tabla(&[
        "kbnk",
        "probe",
        "--file",
        file_arg(),
        "k7/2K5/8/8/3B4/8/8/N7 b - - 0 1",
    ]);
    assert!(stale.stdout.contains(", stalemate"), "{}", stale.stdout);
}

#[test]
fn batch_gives_one_line_per_input_line() {
    let input = common::scratch_file(
        "kbnk-batch.txt",
        "k7/8/NK2B3/8/8/8/8/8 w - - 0 1\nnot a fen\nk7/8/NK6/3B4/8/8/8/8 b - - 0 1\n8/8/8/8/8/8/8/KQ5k w - - 0 1\n",
    );
    let run = tabla(&[
        "kbnk",
        "probe",
        "--file",
        file_arg(),
        "--batch",
        input.to_str().expect("utf-8"),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0], "k7/8/NK2B3/8/8/8/8/8 w - - 0 1;1");
    assert!(lines[1].starts_with("not a fen;error: "));
    assert_eq!(lines[2], "k7/8/NK6/3B4/8/8/8/8 b - - 0 1;0");
    assert!(
        lines[3].starts_with("8/8/8/8/8/8/8/KQ5k w - - 0 1;error: "),
        "{}",
        lines[3]
    );
}

#[test]
fn line_ends_in_mate_after_the_probed_number_of_plies() {
    let fen = "8/8/8/8/8/8/8/NBK1k3 w - - 0 1";
    let probe = tabla(&["kbnk", "probe", "--file", file_arg(), fen]);
    let plies: usize = probe
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("dtm   +"))
        .and_then(|rest| rest.split(", ").nth(1))
        .and_then(|p| p.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("a winning dtm with plies");
    let line = tabla(&["kbnk", "line", "--file", file_arg(), fen]);
    assert_eq!(line.code, 0, "{}", line.stderr);
    assert!(
        line.stdout.contains(&format!("# ({plies} plies)")),
        "{}",
        line.stdout
    );
}

/// Runs `tabla kbnk <subcommand> --out <name>` on the test table and returns the file's length.
fn export(subcommand: &str, name: &str) -> u64 {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&out);
    let run = tabla(&[
        "kbnk",
        subcommand,
        "--file",
        file_arg(),
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    std::fs::metadata(&out).expect("written").len()
}

#[test]
fn export_two_byte_writes_16_mib() {
    // 64 * 32 * 64 * 64 slots of 2 bytes.
    assert_eq!(
        export("export-two-byte", "kbnk-two-byte.bin"),
        64 * 32 * 64 * 64 * 2
    );
}

#[test]
fn export_seed_is_still_accepted() {
    // The subcommand's former name stays an alias, so existing scripts keep working.
    assert_eq!(
        export("export-seed", "kbnk-export-seed.bin"),
        64 * 32 * 64 * 64 * 2
    );
}

#[test]
fn bad_input_is_exit_2_with_a_message() {
    let run = tabla(&[
        "kbnk",
        "probe",
        "--file",
        file_arg(),
        "8/8/8/8/8/8/8/8 w - - 0 1",
    ]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("no king"), "{}", run.stderr);
    let damaged = common::scratch_file("damaged.tbl", "TABLA-EG garbage");
    let run = tabla(&[
        "kbnk",
        "probe",
        "--file",
        damaged.to_str().expect("utf-8"),
        "k7/8/NK2B3/8/8/8/8/8 w - - 0 1",
    ]);
    assert_eq!(run.code, 2);
    assert!(!run.stderr.is_empty());
}
