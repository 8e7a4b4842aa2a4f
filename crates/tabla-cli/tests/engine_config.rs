//! The engine a user chooses, in one place: `--engine`, else `$TABLA_ENGINE`, else `tabla engine
//! set`'s file, else tabla's own; used by `tabla go` here (the other commands resolve it the
//! same way, through the same arguments), with the hint that an installed Stockfish could be the
//! default. The UCI engine is tabla-analysis's scripted fake, which always answers Nc3 from the
//! starting position (`crates/tabla-analysis/tests/fake_engines/fake_uci.py`).

mod common;

use common::tabla_env;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

fn fake_engine() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tabla-analysis/tests/fake_engines/fake_uci.py")
}

/// `tabla go startpos --depth 1` with the configuration directory `config` and `vars`.
fn go(config: &Path, vars: &[(&str, &OsStr)]) -> common::Run {
    let mut all = vec![("XDG_CONFIG_HOME", config.as_os_str())];
    all.extend_from_slice(vars);
    tabla_env(&["go", "startpos", "--depth", "1"], &all)
}

fn engine_line(run: &common::Run) -> &str {
    run.stdout.lines().next().unwrap_or_default()
}

#[test]
fn the_command_line_then_the_variable_then_the_file_then_tabla_s_own() {
    let config = tempfile::tempdir().expect("temp dir");
    let fake = fake_engine();
    let fake = fake.as_os_str();

    // Nothing configured: tabla's own engine.
    let own = go(config.path(), &[]);
    assert_eq!(own.code, 0, "{}", own.stderr);
    assert!(
        engine_line(&own).starts_with("info string engine tabla"),
        "{}",
        own.stdout
    );

    // $TABLA_ENGINE names the fake.
    let from_env = go(config.path(), &[("TABLA_ENGINE", fake)]);
    assert_eq!(from_env.code, 0, "{}", from_env.stderr);
    assert_eq!(from_env.last_line(), "bestmove Nc3 b1c3");

    // `tabla engine set` checks the engine and writes the file; `show` reads it back.
    let vars = [("XDG_CONFIG_HOME", config.path().as_os_str())];
    let set = tabla_env(
        &[
            "engine",
            "set",
            fake.to_str().expect("UTF-8"),
            "--engine-option",
            "Hash=32",
        ],
        &vars,
    );
    assert_eq!(set.code, 0, "{}", set.stderr);
    let file = config.path().join("tabla/engine.toml");
    assert!(
        set.stdout.contains(&file.display().to_string()),
        "{}",
        set.stdout
    );
    let show = tabla_env(&["engine", "show"], &vars);
    assert_eq!(show.code, 0, "{}", show.stderr);
    assert!(show.stdout.contains("configured in"), "{}", show.stdout);
    assert!(show.stdout.contains("option: Hash=32"), "{}", show.stdout);

    let from_file = go(config.path(), &[]);
    assert_eq!(from_file.code, 0, "{}", from_file.stderr);
    assert_eq!(from_file.last_line(), "bestmove Nc3 b1c3");
    // The variable and the command line come before the file; `tabla` is tabla's own engine.
    let env_first = go(config.path(), &[("TABLA_ENGINE", OsStr::new("tabla"))]);
    assert!(
        engine_line(&env_first).starts_with("info string engine tabla"),
        "{}",
        env_first.stdout
    );
    let line_first = tabla_env(
        &["go", "startpos", "--depth", "1", "--engine", "tabla"],
        &vars,
    );
    assert!(
        engine_line(&line_first).starts_with("info string engine tabla"),
        "{}",
        line_first.stdout
    );
    // Options from the command line go to the configured engine, after the file's.
    let option = tabla_env(
        &[
            "go",
            "startpos",
            "--depth",
            "1",
            "--engine-option",
            "Hash=8",
        ],
        &vars,
    );
    assert_eq!(option.code, 0, "{}", option.stderr);
    let unknown = tabla_env(
        &[
            "go",
            "startpos",
            "--depth",
            "1",
            "--engine-option",
            "Nope=8",
        ],
        &vars,
    );
    assert_eq!(unknown.code, 2, "{}", unknown.stdout);
    assert!(unknown.stderr.contains("Nope"), "{}", unknown.stderr);
}

#[test]
fn an_engine_that_does_not_start_is_not_made_the_default() {
    let config = tempfile::tempdir().expect("temp dir");
    let vars = [("XDG_CONFIG_HOME", config.path().as_os_str())];
    let run = tabla_env(&["engine", "set", "/no/such/engine"], &vars);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stderr.contains("/no/such/engine"), "{}", run.stderr);
    assert!(!config.path().join("tabla/engine.toml").exists());
    // Options are for a UCI engine.
    let run = tabla_env(
        &["engine", "set", "tabla", "--engine-option", "Hash=1"],
        &vars,
    );
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stderr.contains("takes none"), "{}", run.stderr);
}

#[test]
fn a_broken_file_is_an_error_naming_it_and_its_line() {
    let config = tempfile::tempdir().expect("temp dir");
    let file = config.path().join("tabla/engine.toml");
    std::fs::create_dir_all(file.parent().expect("dir")).expect("dir");
    std::fs::write(
        &file,
        "engine = \"/usr/games/stockfish\"\n[options\nHash = 64\n",
    )
    .expect("written");
    let run = go(config.path(), &[]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stderr.contains(&file.display().to_string()),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("line 2"), "{}", run.stderr);
}

#[test]
fn an_installed_stockfish_is_pointed_out_while_nothing_is_configured() {
    let config = tempfile::tempdir().expect("temp dir");
    let bin = tempfile::tempdir().expect("temp dir");
    // Never run: only found.
    let stockfish = bin.path().join("stockfish");
    std::fs::write(&stockfish, "#!/bin/sh\nexit 1\n").expect("written");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&stockfish, std::fs::Permissions::from_mode(0o755)).expect("mode");
    }
    let path = [("PATH", bin.path().as_os_str())];
    let run = go(config.path(), &path);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let advice = format!("`tabla engine set {}`", stockfish.display());
    assert!(run.stderr.contains(&advice), "{}", run.stderr);
    // Once an engine is chosen, even tabla's own, no hint.
    let chosen = go(
        config.path(),
        &[path[0], ("TABLA_ENGINE", OsStr::new("tabla"))],
    );
    assert_eq!(chosen.code, 0, "{}", chosen.stderr);
    assert!(
        !chosen.stderr.contains("tabla engine set"),
        "{}",
        chosen.stderr
    );
}

#[test]
fn stockfish_from_the_command_line_finds_the_mate() {
    let stockfish = Path::new("/usr/games/stockfish");
    if !stockfish.exists() {
        assert!(
            std::env::var("TABLA_REQUIRE_CORPUS").as_deref() != Ok("1"),
            "Stockfish is required here (apt-get install stockfish)"
        );
        eprintln!("/usr/games/stockfish not installed: the Stockfish go test is skipped");
        return;
    }
    let run = tabla_env(
        &[
            "go",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            "--nodes",
            "100000",
            "--engine",
            "/usr/games/stockfish",
        ],
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        engine_line(&run).starts_with("info string engine Stockfish"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("score #1"), "{}", run.stdout);
    assert_eq!(run.last_line(), "bestmove Ra8# a1a8");
}
