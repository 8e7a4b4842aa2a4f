//! `tabla review` through the real binary: a hand-checked game reviewed by tabla's engine (and by
//! Stockfish when installed), `--from-evals` on lichess's own analysis against tabla-review's
//! library answer, and bad input: a damaged game among good ones, a game without evaluations, an
//! engine that does not exist.

mod common;

use common::{scratch_file, tabla, testdata_dir};
use serde_json::Value;

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
    assert!(text.contains("3... Nf6 $4 {"), "{text}");
    assert!(text.contains("Checkmate is now unavoidable."), "{text}");
    assert!(text.contains("[%eval #1]"), "{text}");
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
