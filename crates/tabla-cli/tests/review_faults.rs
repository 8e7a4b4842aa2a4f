//! `tabla review` and `tabla db review` when things go wrong: an engine that crashes once (and
//! works when started again) is named in a warning and gives exit status 1; one that hangs stops
//! a database review within about one time limit, stores nothing it failed on, and says so; a
//! database review killed with SIGKILL keeps what its engine evaluated up to a second before.
//! The fake engines are tabla-analysis's (`crates/tabla-analysis/tests/fake_engines`).

mod common;

use common::{Run, tabla_env};
use std::path::Path;

fn fake(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tabla-analysis/tests/fake_engines")
        .join(name)
        .to_str()
        .expect("UTF-8 path")
        .to_owned()
}

fn utf8(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

/// Games shuffling the king's knights (what the fakes can answer), `n` of them, White named
/// `A1`, `A2`...: 17 positions each, 4 of them distinct in all.
fn shuffle_games(n: usize) -> String {
    (1..=n)
        .map(|i| {
            let mut pgn = format!("[White \"A{i}\"]\n[Black \"B\"]\n\n");
            for m in 0..4 {
                let k = 2 * m + 1;
                pgn.push_str(&format!("{k}. Nf3 Nf6 {}. Ng1 Ng8 ", k + 1));
            }
            pgn.push_str("*\n\n");
            pgn
        })
        .collect()
}

#[test]
fn an_engine_restarted_after_a_crash_is_named_and_gives_exit_status_1() {
    let pids = tempfile::tempdir().expect("temporary directory");
    let file = common::scratch_file("crash-once.pgn", &shuffle_games(1));
    let engine = fake("crash_once.py");
    let args = [
        "review",
        utf8(&file),
        "--json",
        "--engine",
        &engine,
        "--depth",
        "3",
        "--engines",
        "1",
        "--no-cache",
    ];
    let run: Run = tabla_env(&args, &[("FAKE_UCI_PID_DIR", pids.path().as_os_str())]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    // Every position evaluated: the review is whole.
    let review: serde_json::Value = serde_json::from_str(run.stdout.trim()).expect("a JSON line");
    assert_eq!(review["error"], serde_json::Value::Null, "{review}");
    let warning = run
        .stderr
        .lines()
        .find(|l| l.starts_with("warning: engine: "))
        .unwrap_or_else(|| panic!("no warning: {}", run.stderr));
    assert!(
        warning.starts_with("warning: engine: game 1 (A1 - B), before 2. Ng1: Fake crash once ("),
        "{warning}"
    );
    assert!(warning.contains("exited (exit code 5)"), "{warning}");
    assert!(
        warning.ends_with("started again, it evaluated the position"),
        "{warning}"
    );
    assert!(
        run.stderr
            .contains("games 1, positions 17, evaluated 4, from cache 0, errors 0, not evaluated 0, engine faults 1"),
        "{}",
        run.stderr
    );
}

/// `tabla db review`: the game database is a feature of the build.
#[cfg(feature = "db")]
mod database {
    use super::*;
    use common::tabla;
    use std::path::PathBuf;
    use std::time::{Duration, Instant};

    /// A fresh database of `pgn` under this test run's scratch directory.
    fn db_of(name: &str, pgn: &str) -> PathBuf {
        let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).expect("scratch directory");
        let file = root.join("games.pgn");
        std::fs::write(&file, pgn).expect("write the games");
        let db = root.join("db");
        let run = tabla(&[
            "db",
            "import",
            "--db",
            utf8(&db),
            "--threads",
            "1",
            utf8(&file),
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        db
    }

    /// The Parquet files under `dir`, at any depth, not counting temporary ones.
    fn parquet_files(dir: &Path) -> usize {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return 0;
        };
        entries
            .flatten()
            .map(|e| {
                let path = e.path();
                let name = e.file_name().to_string_lossy().into_owned();
                if path.is_dir() {
                    parquet_files(&path)
                } else {
                    usize::from(!name.starts_with('.') && name.ends_with(".parquet"))
                }
            })
            .sum()
    }

    #[test]
    fn a_hung_engine_stops_a_database_review_which_stores_nothing_it_failed() {
        let db = db_of("hung-db-review", &shuffle_games(3));
        let engine = fake("hang_always.py");
        // A movetime budget's time limit: 100 ms and a margin of 5 s.
        let args = [
            "db",
            "review",
            "--db",
            utf8(&db),
            "--engine",
            &engine,
            "--movetime",
            "100",
            "--engines",
            "1",
        ];
        let started = Instant::now();
        let run = tabla(&args);
        let took = started.elapsed();
        eprintln!("the review of a hung engine ended after {took:?}");
        assert!(took < Duration::from_secs(20), "{took:?}");
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(
            run.stderr
                .contains("error: the engine hung, the review stopped (game 1 (A1 - B)"),
            "{}",
            run.stderr
        );
        assert!(
            run.stderr.contains("sent no bestmove within 5.1 s"),
            "{}",
            run.stderr
        );
        assert!(
            run.stdout
                .contains("evaluated 0, from cache 0, errors 3, not evaluated 4"),
            "{}",
            run.stdout
        );
        assert_eq!(parquet_files(&db.join("review")), 0, "nothing stored");
        // The next run takes the games up again.
        let again = tabla(&args);
        assert!(
            again.stderr.contains("3 games selected, 0 reviewed before"),
            "{}",
            again.stderr
        );
    }

    /// How long a review may hold evaluations before they are on disk (tabla_review::FLUSH_EVERY),
    /// with room for a slow machine.
    const KEPT_WITHIN: Duration = Duration::from_secs(5);

    #[test]
    fn a_database_review_killed_with_sigkill_keeps_what_it_evaluated() {
        // Three games of lichess-evals.pgn: 137 distinct positions, many seconds at 100,000 nodes.
        let text = std::fs::read_to_string(common::testdata_dir().join("review/lichess-evals.pgn"))
            .expect("lichess-evals.pgn");
        let three: String = text
            .split_inclusive("\n[Event ")
            .take(3)
            .collect::<String>()
            .trim_end_matches("[Event ")
            .to_owned();
        let db = db_of("killed-db-review", &three);
        let review = |db: &Path| {
            std::process::Command::new(env!("CARGO_BIN_EXE_tabla"))
                .args(["db", "review", "--db", utf8(db), "--nodes", "100000"])
                .args(["--engines", "1"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("tabla starts")
        };
        let mut child = review(&db);
        // The run has opened its evaluation cache once its folder exists.
        let deadline = Instant::now() + Duration::from_secs(60);
        let evals = db.join("evals");
        while !evals.exists() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        let opened = Instant::now();
        while parquet_files(&evals) == 0 && opened.elapsed() < KEPT_WITHIN {
            std::thread::sleep(Duration::from_millis(5));
        }
        let first_file = opened.elapsed();
        eprintln!("the first evaluations were on disk {first_file:?} after the cache was opened");
        assert!(
            child.try_wait().expect("status").is_none(),
            "the run ended before it was killed"
        );
        // SIGKILL: no destructor, no last write.
        child.kill().expect("kill");
        child.wait().expect("wait");
        assert!(
            parquet_files(&evals) > 0,
            "nothing kept {KEPT_WITHIN:?} into the review"
        );
        // The next run resumes: the positions evaluated before come from the cache, and every game
        // is reviewed.
        let resumed = review(&db).wait_with_output().expect("tabla runs");
        let stdout = String::from_utf8_lossy(&resumed.stdout);
        assert!(
            resumed.status.success(),
            "{}",
            String::from_utf8_lossy(&resumed.stderr)
        );
        let from_cache: u64 = stdout
            .split(", ")
            .find_map(|f| f.strip_prefix("from cache "))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("{stdout}"));
        assert!(from_cache > 0, "{stdout}");
        assert!(stdout.starts_with("games 3, "), "{stdout}");
        assert!(stdout.trim_end().ends_with("errors 0"), "{stdout}");
    }
}
