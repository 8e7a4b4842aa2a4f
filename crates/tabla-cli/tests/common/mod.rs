//! Running the real `tabla` binary.

#![allow(dead_code)] // each test file uses its own part of this module

use std::path::PathBuf;
use std::process::Command;

/// What a run of `tabla` printed and how it exited.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The last line of standard output.
    pub fn last_line(&self) -> &str {
        self.stdout.lines().last().unwrap_or_default()
    }
}

/// Runs `tabla` with `args`.
pub fn tabla(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_tabla"))
        .args(args)
        .output()
        .expect("the tabla binary runs");
    Run {
        code: output.status.code().expect("tabla exits with a status"),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// `shared/data/perft/<name>`, beside the repository.
pub fn perft_data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/perft")
        .join(name)
}

/// Writes `text` to a file of this test run's scratch directory and returns its path.
pub fn scratch_file(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).expect("scratch file writable");
    path
}
