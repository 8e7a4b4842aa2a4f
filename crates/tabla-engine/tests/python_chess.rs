//! Chess960 games through the `tabla-engine` binary's UCI loop, driven and judged by python-chess
//! (`tests/chess960_python_chess.py`): an independent reading of `UCI_Chess960`, Shredder-FEN and
//! king-takes-rook castling, both ways. python-chess lives in the virtual environment
//! `<target>/py-venv` that scripts/test.sh installs; without it this test says it is skipped,
//! unless `TABLA_REQUIRE_CORPUS=1` (CI).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The virtual environment's Python when it has python-chess, else `None` (the test is skipped).
fn python_chess() -> Option<PathBuf> {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory");
    let python = target.join("py-venv/bin/python");
    let found = Command::new(&python)
        .args(["-c", "import chess.engine"])
        .output()
        .is_ok_and(|out| out.status.success());
    if found {
        return Some(python);
    }
    let test = std::thread::current().name().unwrap_or("test").to_owned();
    let install = format!(
        "python3 -m venv {0} && {0}/bin/pip install chess",
        target.join("py-venv").display()
    );
    assert!(
        std::env::var("TABLA_REQUIRE_CORPUS").as_deref() != Ok("1"),
        "{test}: python-chess not found in {} and TABLA_REQUIRE_CORPUS=1: {install}",
        python.display()
    );
    eprintln!(
        "{test}: skipped: python-chess not found in {} ({install})",
        python.display()
    );
    None
}

#[test]
fn python_chess_plays_chess960_games_with_the_engine() {
    let Some(python) = python_chess() else {
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/chess960_python_chess.py");
    let out = Command::new(python)
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_tabla-engine"))
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("castling moves in Chess960"),
        "{stdout}\n{stderr}"
    );
}
