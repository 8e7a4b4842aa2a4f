//! `tabla kbnk`: the alias of `tabla tb` for KBNvK, through the real binary: build, probe (single
//! and batch), line and export. Expectations are hand-checked positions, published figures
//! (docs/background.md) and the answers the KBNK-only table gave before it became the general
//! path's KBNvK (recorded from that version's `tabla kbnk probe --batch`), not the table itself.

mod common;

use common::tabla;
use std::path::PathBuf;
use std::sync::OnceLock;

/// Builds KBNvK once into this test run's scratch folder and returns the directory.
fn tables() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-kbnvk");
        let _ = std::fs::remove_dir_all(&dir);
        let run = tabla(&["kbnk", "build", "--dir", dir.to_str().expect("utf-8 path")]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        // KBNvK, KBvK and KNvK; the published longest mate: 33 moves (65 plies).
        assert!(run.stdout.contains("3 tables in"), "{}", run.stdout);
        assert!(
            run.stdout.contains("mates in 33 (65 plies)"),
            "{}",
            run.stdout
        );
        dir
    })
}

fn dir_arg() -> &'static str {
    tables().to_str().expect("utf-8 path")
}

/// An empty directory: `tabla kbnk` solves KBNvK in memory.
fn empty_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-kbnk-empty");
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

#[test]
fn probe_finds_the_hand_checked_mate_in_one() {
    // Ka8, Kb6, Na6, Be6: Bd5 is mate (the bishop checks along the diagonal, b7/a7/b8 are covered).
    let run = tabla(&[
        "kbnk",
        "probe",
        "--dir",
        dir_arg(),
        "k7/8/NK2B3/8/8/8/8/8 w - - 0 1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("dtm      +1 (mates in 1 move, 1 ply)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("best     Bd5# (e6d5)"),
        "{}",
        run.stdout
    );
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
fn the_alias_prints_what_tb_prints_with_or_without_a_table_file() {
    for fen in [
        "k7/8/NK2B3/8/8/8/8/8 w - - 0 1",
        "8/8/8/8/8/8/8/NBK1k3 w - - 0 1",
        "1k6/8/NK6/8/4B3/8/8/8 b - - 0 1",
        "8/8/8/8/8/nk2b3/8/K7 b - - 0 1",
    ] {
        let tb = tabla(&["tb", "probe", "--dir", dir_arg(), fen]);
        assert_eq!(tb.code, 0, "{}", tb.stderr);
        let alias = tabla(&["kbnk", "probe", "--dir", dir_arg(), fen]);
        assert_eq!(alias.stdout, tb.stdout, "{fen}");
        let memory = tabla(&[
            "kbnk",
            "probe",
            "--dir",
            empty_dir().to_str().expect("utf-8"),
            fen,
        ]);
        assert_eq!(memory.stdout, tb.stdout, "{fen}");
        let json = tabla(&["kbnk", "probe", "--json", "--dir", dir_arg(), fen]);
        let tb_json = tabla(&["tb", "probe", "--json", "--dir", dir_arg(), fen]);
        assert_eq!(json.stdout, tb_json.stdout, "{fen}");
    }
}

#[test]
fn probe_reports_checkmate_and_stalemate() {
    let mate = tabla(&[
        "kbnk",
        "probe",
        "--dir",
        dir_arg(),
        "k7/8/NK6/3B4/8/8/8/8 b - - 0 1",
    ]);
    assert!(
        mate.stdout.contains("dtm      0 (checkmated)"),
        "{}",
        mate.stdout
    );
    assert!(mate.stdout.contains("best     none"), "{}", mate.stdout);
    // Ka8 against Kc7 (b8, b7) and Bd4 (a7), knight far away on a1: no check, no move.
    let stale = tabla(&[
        "kbnk",
        "probe",
        "--dir",
        dir_arg(),
        "k7/2K5/8/8/3B4/8/8/N7 b - - 0 1",
    ]);
    assert!(stale.stdout.contains(", stalemate"), "{}", stale.stdout);
}

/// The positions and the signed DTM the KBNK-only table's `tabla kbnk probe --batch` printed.
const RECORDED: &[(&str, i32)] = &[
    ("k7/8/NK2B3/8/8/8/8/8 w - - 0 1", 1),
    ("k7/8/NK6/3B4/8/8/8/8 b - - 0 1", 0),
    ("k7/2K5/8/8/3B4/8/8/N7 b - - 0 1", 0),
    ("8/8/8/8/8/8/8/NBK1k3 w - - 0 1", 20),
    ("k7/1N6/8/8/8/8/8/K1B5 b - - 0 1", 0),
    ("k7/1N6/1K6/8/8/8/8/2B5 b - - 0 1", -23),
    ("8/8/8/8/3b4/nk6/8/K7 w - - 0 1", 0),
    ("8/8/8/8/8/nk2b3/8/K7 b - - 0 1", 1),
    ("1k6/8/NK6/8/4B3/8/8/8 b - - 0 1", -27),
    ("8/8/8/3k4/8/8/8/KBN5 w - - 0 1", 30),
    ("8/8/8/4k3/8/8/8/2B1KN2 b - - 0 1", -29),
    ("7k/8/8/8/8/8/8/KBN5 w - - 0 1", 29),
    ("8/8/8/4k3/8/8/8/KB6 w - - 0 1", 0),
];

#[test]
fn batch_gives_one_line_per_input_line_and_the_recorded_values() {
    let mut text: String = RECORDED.iter().map(|(fen, _)| format!("{fen}\n")).collect();
    text.push_str("not a fen\n8/8/8/8/8/8/8/KQ5k w - - 0 1\n");
    let input = common::scratch_file("kbnk-batch.txt", &text);
    let run = tabla(&[
        "kbnk",
        "probe",
        "--dir",
        dir_arg(),
        "--batch",
        input.to_str().expect("utf-8"),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), RECORDED.len() + 2);
    for (line, &(fen, dtm)) in lines.iter().zip(RECORDED) {
        // `<FEN>;<dtm>;<plies>`, plies signed as dtm: 2N - 1 for +N, -2N for -N.
        let plies = match dtm {
            0 => 0,
            n if n > 0 => 2 * n - 1,
            n => 2 * n,
        };
        assert_eq!(*line, format!("{fen};{dtm};{plies}"));
    }
    assert!(lines[RECORDED.len()].starts_with("not a fen;error: "));
    assert!(
        lines[RECORDED.len() + 1].starts_with("8/8/8/8/8/8/8/KQ5k w - - 0 1;error: "),
        "{}",
        lines[RECORDED.len() + 1]
    );
    // The same lines as `tabla tb probe --batch`.
    let tb = tabla(&[
        "tb",
        "probe",
        "--dir",
        dir_arg(),
        "--batch",
        input.to_str().expect("utf-8"),
    ]);
    assert_eq!(tb.stdout, run.stdout);
}

#[test]
fn line_ends_in_mate_after_the_probed_number_of_plies() {
    let fen = "8/8/8/8/8/8/8/NBK1k3 w - - 0 1";
    let probe = tabla(&["kbnk", "probe", "--dir", dir_arg(), fen]);
    let plies: usize = probe
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("dtm      +"))
        .and_then(|rest| rest.split(", ").nth(1))
        .and_then(|p| p.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("a winning dtm with plies");
    let line = tabla(&["kbnk", "line", "--dir", dir_arg(), fen]);
    assert_eq!(line.code, 0, "{}", line.stderr);
    assert!(
        line.stdout.contains(&format!("# ({plies} plies)")),
        "{}",
        line.stdout
    );
}

/// Runs `tabla kbnk <subcommand> --out <name>` and returns the file's length.
fn export(subcommand: &str, name: &str) -> u64 {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&out);
    let run = tabla(&["kbnk", subcommand, "--out", out.to_str().expect("utf-8")]);
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
fn bad_input_is_exit_2_with_a_message() {
    let run = tabla(&[
        "kbnk",
        "probe",
        "--dir",
        dir_arg(),
        "8/8/8/8/8/8/8/8 w - - 0 1",
    ]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("no king"), "{}", run.stderr);
    let damaged = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-kbnk-damaged");
    std::fs::create_dir_all(&damaged).expect("a scratch folder");
    std::fs::write(damaged.join("KBNvK.tbm"), "TABLA-TB garbage").expect("written");
    let run = tabla(&[
        "kbnk",
        "probe",
        "--dir",
        damaged.to_str().expect("utf-8"),
        "k7/8/NK2B3/8/8/8/8/8 w - - 0 1",
    ]);
    assert_eq!(run.code, 2);
    assert!(!run.stderr.is_empty());
}
