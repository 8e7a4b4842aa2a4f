//! `tabla review` through the real binary: a hand-checked game reviewed by tabla's engine (and by
//! Stockfish when installed), `--from-evals` on lichess's own analysis against tabla-review's
//! library answer, and bad input: a damaged game among good ones, a game without evaluations, an
//! engine that does not exist.

mod common;

use common::{Run, scratch_file, tabla_env, testdata_dir};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Runs `tabla` with a data directory of its own ($XDG_DATA_HOME), fresh for each run: the
/// default evaluation cache of one test's run never answers another's.
fn tabla(args: &[&str]) -> Run {
    let home = tempfile::tempdir().expect("a temporary data directory");
    tabla_env(args, &[("XDG_DATA_HOME", home.path().as_os_str())])
}

/// The scholar's mate: 3... Nf6?? allows mate in one (any other defence of f7 holds).
const SCHOLAR: &str =
    "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n";

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect()
}

/// Checks the review of [`SCHOLAR`] by an engine: the one blunder, the mate that follows it, and
/// nothing after the mating move.
fn check_scholar(review: &Value) {
    let moves = review["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 7);
    assert_eq!(moves[5]["san"], "Nf6");
    assert_eq!(moves[5]["judgement"], "Blunder", "{review}");
    assert_eq!(moves[5]["eval"]["mate"], 1, "{review}");
    assert_ne!(moves[5]["best"]["san"], "Nf6");
    // After the mating move lichess evaluates nothing, and neither does tabla.
    assert!(moves[6]["eval"].is_null() && moves[6]["judgement"].is_null());
    assert_eq!(review["black"]["blunders"], 1);
    assert_eq!(review["white"]["blunders"], 0);
    assert!(review["error"].is_null());
}

#[test]
fn tabla_engine_finds_the_blunder() {
    let pgn = scratch_file("review-scholar.pgn", SCHOLAR);
    let path = pgn.to_str().expect("UTF-8 path");
    let run = tabla(&[
        "review",
        path,
        "--json",
        "--nodes",
        "20000",
        "--engines",
        "1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let reviews = json_lines(&run.stdout);
    assert_eq!(reviews.len(), 1);
    check_scholar(&reviews[0]);
    assert!(
        run.stderr
            .contains("games 1, positions 8, evaluated 8, from cache 0, errors 0"),
        "{}",
        run.stderr
    );

    // Annotated PGN in a file: the summary is then the last line of standard output.
    let out = scratch_file("review-scholar-out.pgn", "");
    let run = tabla(&[
        "review",
        path,
        "--nodes",
        "20000",
        "--out",
        out.to_str().expect("UTF-8"),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.last_line(),
        "games 1, positions 8, evaluated 8, from cache 0, errors 0"
    );
    let text = std::fs::read_to_string(&out).expect("the annotated PGN");
    // Lines are wrapped where the evaluations' widths put the breaks: compare the words.
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("3... Nf6 $4 {"), "{text}");
    assert!(words.contains("Checkmate is now unavoidable."), "{text}");
    assert!(words.contains("[%eval #1]"), "{text}");
    assert!(text.contains("[BlackAccuracy \""), "{text}");
}

#[test]
fn stockfish_finds_the_same_blunder() {
    let stockfish = std::path::Path::new("/usr/games/stockfish");
    if !stockfish.exists() {
        assert!(
            std::env::var("TABLA_REQUIRE_CORPUS").as_deref() != Ok("1"),
            "Stockfish is required here (apt-get install stockfish)"
        );
        eprintln!("/usr/games/stockfish not installed: the Stockfish review test is skipped");
        return;
    }
    let pgn = scratch_file("review-scholar-sf.pgn", SCHOLAR);
    let run = tabla(&[
        "review",
        pgn.to_str().expect("UTF-8 path"),
        "--json",
        "--engine",
        "/usr/games/stockfish",
        "--engine-option",
        "Hash=16",
        "--nodes",
        "50000",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    check_scholar(&json_lines(&run.stdout)[0]);
}

#[test]
fn from_evals_answers_as_the_library() {
    let path = testdata_dir().join("review").join("lichess-evals.pgn");
    let run = tabla(&[
        "review",
        path.to_str().expect("UTF-8 path"),
        "--from-evals",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let file = std::fs::File::open(&path).expect("testdata/review/lichess-evals.pgn");
    // Compared as text: the CLI writes what serde writes (parsing floats back may differ in the
    // last bit).
    let expected: Vec<String> = tabla_pgn::Reader::new(file)
        .games()
        .map(|game| {
            let review =
                tabla_review::from_evals(&game.expect("readable"), tabla_review::Rules::Lichess);
            serde_json::to_string(&review).expect("serialisable")
        })
        .collect();
    let got: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(got.len(), 37);
    assert_eq!(expected.len(), 37);
    for (i, (got, expected)) in got.iter().zip(&expected).enumerate() {
        assert!(
            got == expected,
            "game {}: the CLI and the library differ",
            i + 1
        );
    }
}

#[test]
fn damaged_and_unevaluated_games_are_reported_and_the_rest_reviewed() {
    // An illegal move (2. Ke3) stops the first game; the second has no [%eval]s; the third is fine.
    let text = "[White \"X\"]\n\n1. e4 e5 2. Ke3 *\n\n[White \"Y\"]\n\n1. d4 d5 *\n\n\
                [White \"Z\"]\n\n1. e4 { [%eval 0.3] } 1... e5 { [%eval 0.2] } *\n";
    let pgn = scratch_file("review-damaged.pgn", text);
    let path = pgn.to_str().expect("UTF-8 path");
    let run = tabla(&["review", path, "--from-evals", "--json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let reviews = json_lines(&run.stdout);
    assert_eq!(reviews.len(), 3);
    assert!(
        reviews[0]["error"]
            .as_str()
            .is_some_and(|e| e.contains("could not be read"))
    );
    assert!(
        reviews[1]["error"]
            .as_str()
            .is_some_and(|e| e.contains("1. d4")),
        "{}",
        reviews[1]
    );
    assert!(reviews[2]["error"].is_null());
    assert_eq!(reviews[2]["moves"].as_array().map(Vec::len), Some(2));
    assert!(run.stderr.contains("errors 2"), "{}", run.stderr);

    // With the engine, the damaged game is still reported and the others reviewed.
    let run = tabla(&["review", path, "--json", "--depth", "3", "--engines", "1"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let reviews = json_lines(&run.stdout);
    assert!(reviews[0]["error"].is_string());
    assert!(reviews[1]["error"].is_null() && reviews[2]["error"].is_null());
}

#[test]
fn an_engine_that_does_not_exist_is_named() {
    let pgn = scratch_file("review-noengine.pgn", SCHOLAR);
    let run = tabla(&[
        "review",
        pgn.to_str().expect("UTF-8 path"),
        "--engine",
        "/no/such/engine",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("/no/such/engine"), "{}", run.stderr);
    // Options need an engine to go to.
    let run = tabla(&["review", "x.pgn", "--engine-option", "Hash=1"]);
    assert_eq!(run.code, 2);
}

/// The games of testdata/review/lichess-evals.pgn, a real file of 37 games.
fn lichess_games() -> String {
    testdata_dir()
        .join("review/lichess-evals.pgn")
        .to_str()
        .expect("UTF-8 path")
        .to_owned()
}

/// The summary line's counts: games, positions, evaluated, from cache, errors.
fn summary(run: &Run) -> [u64; 5] {
    let line = run.last_line();
    let numbers: Vec<u64> = line
        .split(", ")
        .filter_map(|part| part.rsplit(' ').next()?.parse().ok())
        .collect();
    numbers
        .try_into()
        .unwrap_or_else(|_| panic!("a summary line, not {line:?}; stderr {}", run.stderr))
}

fn cache_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for config in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        for file in std::fs::read_dir(config.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            // Not the temporary files of writes under way (`.tmp-…`).
            let whole = !file.file_name().to_string_lossy().starts_with('.');
            if whole && file.path().extension().is_some_and(|e| e == "parquet") {
                files.push(file.path());
            }
        }
    }
    files
}

#[test]
fn a_second_run_evaluates_nothing_and_reviews_the_same() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let cache = dir.path().join("cache");
    let games = lichess_games();
    let run = |out: &str| {
        let out = dir.path().join(out);
        let args = [
            "review",
            &games,
            "--json",
            "--depth",
            "3",
            "--cache",
            cache.to_str().expect("UTF-8 path"),
            "--out",
            out.to_str().expect("UTF-8 path"),
        ];
        let run = tabla(&args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        (
            summary(&run),
            std::fs::read_to_string(out).expect("the output file"),
        )
    };
    let (first, first_out) = run("first.json");
    let (second, second_out) = run("second.json");
    // Every game and position counted the same way both times.
    assert_eq!((first[0], first[1]), (37, second[1]));
    // The games share positions (their openings), so fewer searches than positions...
    assert!(
        first[2] < first[1] && first[2] > 0 && first[3] == 0,
        "{first:?}"
    );
    // ...and the second run searches none: every distinct position comes from the cache.
    assert_eq!((second[2], second[3]), (0, first[2]), "{second:?}");
    assert_eq!(first_out, second_out);
    // Without a cache, the same reviews.
    let out = dir.path().join("uncached.json");
    let uncached = tabla(&[
        "review",
        &games,
        "--json",
        "--depth",
        "3",
        "--no-cache",
        "--out",
        out.to_str().expect("UTF-8 path"),
    ]);
    assert_eq!(summary(&uncached)[2], first[2]);
    assert_eq!(std::fs::read_to_string(out).expect("output"), first_out);
}

#[test]
fn the_default_cache_is_in_the_data_directory() {
    let home = tempfile::tempdir().expect("temporary directory");
    let pgn = scratch_file("review-default-cache.pgn", SCHOLAR);
    let args = [
        "review",
        pgn.to_str().expect("UTF-8 path"),
        "--json",
        "--depth",
        "3",
    ];
    let vars = [("XDG_DATA_HOME", home.path().as_os_str())];
    let first = tabla_env(&args, &vars);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(
        first.stderr.contains("evaluated 8, from cache 0"),
        "{}",
        first.stderr
    );
    assert_eq!(cache_files(&home.path().join("tabla/evals")).len(), 1);
    let second = tabla_env(&args, &vars);
    assert!(
        second.stderr.contains("evaluated 0, from cache 8"),
        "{}",
        second.stderr
    );
    assert_eq!(first.stdout, second.stdout);
}

#[test]
fn an_interrupted_run_keeps_what_it_evaluated_and_the_next_resumes() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let cache = dir.path().join("cache");
    let cache_arg = cache.to_str().expect("UTF-8 path").to_owned();
    let games = lichess_games();
    // Written after every search, so that there is something to keep when the run is killed.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tabla"))
        .args(["review", &games, "--json", "--depth", "5", "--engines", "1"])
        .args(["--cache", &cache_arg, "--flush-secs", "0"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("tabla starts");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while cache_files(&cache).len() < 3 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // Still running: the kill interrupts it (SIGKILL: no destructor, no last write).
    assert!(
        child.try_wait().expect("status").is_none(),
        "the run ended before it was killed"
    );
    child.kill().expect("kill");
    child.wait().expect("wait");
    let kept = cache_files(&cache).len();
    assert!(kept >= 3, "{kept} files");

    let out = dir.path().join("resumed.json");
    let resumed = tabla(&[
        "review",
        &games,
        "--json",
        "--depth",
        "5",
        "--cache",
        &cache_arg,
        "--out",
        out.to_str().expect("UTF-8 path"),
    ]);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    let [_, _, evaluated, from_cache, _] = summary(&resumed);
    assert!(from_cache >= 3 && evaluated > 0, "{:?}", summary(&resumed));
    // The same reviews as a run that was never interrupted.
    let fresh_out = dir.path().join("fresh.json");
    let fresh = tabla(&[
        "review",
        &games,
        "--json",
        "--depth",
        "5",
        "--no-cache",
        "--out",
        fresh_out.to_str().expect("UTF-8 path"),
    ]);
    assert_eq!(summary(&fresh)[2], evaluated + from_cache);
    assert_eq!(
        std::fs::read_to_string(out).expect("output"),
        std::fs::read_to_string(fresh_out).expect("output")
    );
}

#[test]
fn two_runs_at_once_share_the_cache_safely() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let cache = dir.path().join("cache");
    let cache_arg = cache.to_str().expect("UTF-8 path").to_owned();
    // Eight of the games (about 500 distinct positions): each run writes a file per search.
    let all = std::fs::read_to_string(lichess_games()).expect("test data");
    let eight: Vec<&str> = all.split("\n\n[Event ").take(8).collect();
    let games = scratch_file("review-two-runs.pgn", &(eight.join("\n\n[Event ") + "\n"));
    let games = games.to_str().expect("UTF-8 path").to_owned();
    let start = |name: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_tabla"))
            .args(["review", &games, "--json", "--depth", "4", "--engines", "1"])
            .args(["--cache", &cache_arg, "--flush-secs", "0", "--out"])
            .arg(dir.path().join(name))
            .output()
    };
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| start("a.json"));
        let b = s.spawn(|| start("b.json"));
        (a.join().expect("thread"), b.join().expect("thread"))
    });
    for run in [a, b] {
        let run = run.expect("tabla runs");
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
    let text = |name: &str| std::fs::read_to_string(dir.path().join(name)).expect("output");
    assert_eq!(text("a.json"), text("b.json"));
    // Between them they wrote every position (more than 64 files: this run compacts them).
    let out = dir.path().join("c.json");
    let third = tabla(&[
        "review",
        &games,
        "--json",
        "--depth",
        "4",
        "--cache",
        &cache_arg,
        "--out",
        out.to_str().expect("UTF-8 path"),
    ]);
    assert_eq!(summary(&third)[2], 0, "{}", third.stderr);
    assert_eq!(text("c.json"), text("a.json"));
    assert!(cache_files(&cache).len() <= 2, "{:?}", cache_files(&cache));
}

#[test]
fn a_cache_folder_that_cannot_be_made_is_an_error() {
    let pgn = scratch_file("review-bad-cache.pgn", SCHOLAR);
    let file = scratch_file("review-not-a-folder", "a file");
    let run = tabla(&[
        "review",
        pgn.to_str().expect("UTF-8 path"),
        "--depth",
        "2",
        "--cache",
        file.to_str().expect("UTF-8 path"),
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("evaluation cache") && run.stderr.contains("review-not-a-folder"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_zstd_compressed_file_is_reviewed_as_its_text() {
    let plain = std::fs::read(lichess_games()).expect("test data");
    let dir = tempfile::tempdir().expect("temporary directory");
    let packed = dir.path().join("games.pgn.zst");
    std::fs::write(&packed, zstd::encode_all(&plain[..], 3).expect("zstd")).expect("write");
    let review = |path: &str| {
        let run = tabla(&["review", path, "--from-evals", "--json"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.stdout
    };
    let from_packed = review(packed.to_str().expect("UTF-8 path"));
    assert_eq!(from_packed.lines().count(), 37);
    assert_eq!(from_packed, review(&lichess_games()));
}

/// The help states the defaults and limits the libraries hold (written in prose there, so a
/// change of the constant must show here).
#[test]
fn the_help_names_the_libraries_defaults() {
    let run = tabla(&["review", "--help"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let help = run.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    let nodes = format!("(default {})", tabla_review::DEFAULT_NODES);
    let depth = format!("(at most {})", tabla_analysis::Budget::MAX_DEPTH);
    for expected in [nodes.as_str(), depth.as_str()] {
        assert!(help.contains(expected), "{expected:?} in {help}");
    }
    let run = tabla(&["go", "--help"]);
    let movetime = format!(
        "the default is {} when no limit is given",
        tabla_analysis::DEFAULT_MOVETIME.as_millis()
    );
    let help = run.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(help.contains(&movetime), "{movetime:?} in {help}");
}
