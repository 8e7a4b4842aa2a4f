//! Running the real `tabla` binary.

#![allow(dead_code, unused_imports)] // each test file uses its own part of this module

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
    tabla_env(args, &[])
}

/// Runs `tabla` with `args` and the environment variables `vars` set. The engine configured by
/// whoever runs the tests is not seen: `TABLA_ENGINE` is removed and the configuration
/// directory is one that does not exist (`vars` may set either).
pub fn tabla_env(args: &[&str], vars: &[(&str, &std::ffi::OsStr)]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_tabla"))
        .args(args)
        .env_remove("TABLA_ENGINE")
        .env("XDG_CONFIG_HOME", "/nonexistent/tabla-tests-config")
        .envs(vars.iter().copied())
        .output()
        .expect("the tabla binary runs");
    Run {
        code: output.status.code().expect("tabla exits with a status"),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

pub use tabla_testdata::{Expected, PgnSet, corpus, testdata, testdata_dir};

/// `testdata/perft/<name>`, a perft suite.
pub fn perft_data(name: &str) -> PathBuf {
    testdata_dir().join("perft").join(name)
}

/// The path of `set`'s file `name`, as a string for the command line.
pub fn pgn_arg(set: &PgnSet, name: &str) -> String {
    set.path(name).to_str().expect("UTF-8 path").to_owned()
}

/// Writes `text` to a file of this test run's scratch directory and returns its path.
pub fn scratch_file(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).expect("scratch file writable");
    path
}
