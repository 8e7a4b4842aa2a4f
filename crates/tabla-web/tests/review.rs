//! `POST /api/review` through the router: a game's `[%eval]`s judged by lichess's rules (marks
//! worked out by hand from the winning-chances formula), an engine review streamed as NDJSON and
//! answered from the cache afterwards, bad input, one review at a time, and a client that leaves.

mod common;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::{Answer, post, tables};
use http_body_util::BodyExt;
use serde_json::Value;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabla_pgn::Reader;
use tabla_review::{DEFAULT_NODES, Rules, from_evals};
use tabla_web::{AppState, GameReviews, router};
use tower::ServiceExt;

/// The Blackburne Shilling trap with evaluations chosen so that each mark follows from lichess's
/// winning chances, `2 / (1 + exp(-0.00368208 cp)) - 1`, lost by the mover: 0.1 an inaccuracy,
/// 0.2 a mistake, 0.3 a blunder.
/// - 3... Nd4 (+0.20 → +0.90): Black loses 0.127: inaccuracy;
/// - 4. Nxe5 (+0.90 → -3.00): White loses 0.666: blunder;
/// - 4... Qg5 (-3.00 → -1.50): Black loses 0.233: mistake;
/// - 5... Qxg2 (-1.60 → -0.60): Black loses 0.176: inaccuracy;
/// - 6. Rf1 (-0.60 → -1.40): White loses 0.142: inaccuracy;
/// - the other moves lose less than 0.02.
const EVALS_PGN: &str = r#"[Event "Trap"]
[White "Victim"]
[Black "Trapper"]
[Result "*"]

1. e4 { [%eval 0.2] } 1... e5 { [%eval 0.25] } 2. Nf3 { [%eval 0.2] } 2... Nc6 { [%eval 0.3] }
3. Bc4 { [%eval 0.2] } 3... Nd4 { [%eval 0.9] } 4. Nxe5 { [%eval -3.0] } 4... Qg5 { [%eval -1.5] }
5. Nxf7 { [%eval -1.6] } 5... Qxg2 { [%eval -0.6] } 6. Rf1 { [%eval -1.4] } 6... Qxe4+ { [%eval -9.0] } *
"#;

/// A short game without evaluations: 7 positions for the engine.
const SHORT_PGN: &str = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n";

/// A long game (41 positions): a review of it takes many seconds.
const LONG_PGN: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 \
    8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 \
    16. Bh4 c5 17. dxe5 Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 *";

/// The application with its evaluation cache in `dir`, and its reviews' state.
fn app_with_cache(dir: &std::path::Path) -> (Router, Arc<GameReviews>) {
    let mut state = AppState::new(tables());
    let reviews = Arc::new(GameReviews::new(Some(dir.to_owned())));
    state.reviews = Arc::clone(&reviews);
    (router(state), reviews)
}

fn review_request(path: &str, pgn: &str) -> Request<Body> {
    Request::post(path)
        .header(header::CONTENT_TYPE, "application/x-chess-pgn")
        .body(Body::from(pgn.to_owned()))
        .expect("a request")
}

/// The lines of an NDJSON answer.
fn lines(answer: &Answer) -> Vec<Value> {
    assert_eq!(
        answer.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&answer.body)
    );
    assert_eq!(answer.content_type, "application/x-ndjson");
    String::from_utf8_lossy(&answer.body)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a line of JSON"))
        .collect()
}

/// Waits until no engine review runs (its engines stopped), for at most `limit`.
async fn wait_idle(reviews: &GameReviews, limit: Duration) -> Duration {
    let started = Instant::now();
    while reviews.running() > 0 {
        assert!(
            started.elapsed() < limit,
            "a review still runs after {limit:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    started.elapsed()
}

#[tokio::test]
async fn a_game_with_evals_is_judged_by_lichess_rules_without_an_engine() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let (app, reviews) = app_with_cache(dir.path());
    for path in ["/api/review", "/api/review?cached=1"] {
        let a = post(app.clone(), path, EVALS_PGN).await;
        assert_eq!(a.status, StatusCode::OK, "{path}");
        assert!(a.content_type.starts_with("application/json"), "{path}");
        let v = a.json();
        assert_eq!(v["source"], "evals");
        assert_eq!(v["engine"], Value::Null);
        let moves = v["review"]["moves"].as_array().expect("moves");
        assert_eq!(moves.len(), 12);
        let marks: Vec<(String, String)> = moves
            .iter()
            .filter(|m| !m["judgement"].is_null())
            .map(|m| {
                (
                    m["san"].as_str().expect("san").to_owned(),
                    m["judgement"].as_str().expect("judgement").to_owned(),
                )
            })
            .collect();
        let expected = [
            ("Nd4", "Inaccuracy"),
            ("Nxe5", "Blunder"),
            ("Qg5", "Mistake"),
            ("Qxg2", "Inaccuracy"),
            ("Rf1", "Inaccuracy"),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(s, j)| (s.to_string(), j.to_string()))
            .collect();
        assert_eq!(marks, expected);
        let white = &v["review"]["white"];
        let black = &v["review"]["black"];
        assert_eq!(white["name"], "Victim");
        assert_eq!(
            (
                &white["inaccuracies"],
                &white["mistakes"],
                &white["blunders"]
            ),
            (&Value::from(1), &Value::from(0), &Value::from(1))
        );
        assert_eq!(
            (
                &black["inaccuracies"],
                &black["mistakes"],
                &black["blunders"]
            ),
            (&Value::from(2), &Value::from(1), &Value::from(0))
        );
        // The accuracies are the library's for the same game.
        let game = Reader::new(EVALS_PGN.as_bytes())
            .games()
            .next()
            .expect("a game")
            .expect("read");
        // (Through text, so that both sides' floats are parsed alike.)
        let expected = serde_json::to_string(&from_evals(&game, Rules::Lichess)).expect("json");
        let expected: Value = serde_json::from_str(&expected).expect("json");
        assert_eq!(v["review"], expected);
        assert!(
            v["lines"]
                .as_array()
                .is_some_and(|l| l.iter().all(|t| t == ""))
        );
        // The annotated PGN marks the blunder as `tabla review` does.
        let pgn = v["pgn"].as_str().expect("pgn");
        assert!(pgn.contains("4. Nxe5 $4"), "{pgn}");
        assert!(pgn.contains("[WhiteAccuracy \""), "{pgn}");
    }
    // No engine ran, and no cache folder was made.
    assert_eq!(reviews.running(), 0);
    assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 0);
}

#[tokio::test]
async fn the_annotated_pgn_keeps_the_annotators_marks_and_comments() {
    // EVALS_PGN with a master's glyphs and words: 3... Nd4! and 4. Nxe5!? (both marked by the
    // review), 2. Nf3 $14 (not marked), and a comment before the evaluation.
    let annotated = EVALS_PGN
        .replace("3... Nd4 {", "3... Nd4! {")
        .replace("4. Nxe5 {", "4. Nxe5!? { A trap? } {")
        .replace("2. Nf3 {", "2. Nf3 $14 {");
    let dir = tempfile::tempdir().expect("temporary directory");
    let (app, _) = app_with_cache(dir.path());
    let v = post(app, "/api/review", annotated.clone()).await.json();
    let read = |text: &str| {
        Reader::new(text.as_bytes())
            .games()
            .next()
            .expect("a game")
            .expect("read")
    };
    let before = read(&annotated);
    let after = read(v["pgn"].as_str().expect("pgn"));
    let nags = |g: &tabla_pgn::Game| -> Vec<Vec<u8>> {
        g.mainline()
            .map(|n| n.nags.iter().map(|x| x.0).collect())
            .collect()
    };
    // The master's NAGs alone where they assess the move; lichess's where it had none
    // (4... Qg5 ?, 5... Qxg2 ?!, 6. Rf1 ?!).
    let mut expected = nags(&before);
    assert_eq!(expected[5], [1]);
    assert_eq!(expected[6], [5]);
    for (ply, nag) in [(7, 2), (9, 6), (10, 6)] {
        expected[ply].insert(0, nag);
    }
    assert_eq!(nags(&after), expected);
    // The comment stays first; the engine's words follow it.
    let texts: Vec<&str> = after.moves.nodes[6]
        .comments_after
        .iter()
        .map(|c| c.text.as_str())
        .filter(|t| !t.is_empty())
        .collect();
    assert_eq!(texts, ["A trap?", "(0.90 → -3.00) Blunder."]);
}

#[tokio::test]
async fn an_engine_review_streams_progress_then_is_answered_from_the_cache() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let (app, reviews) = app_with_cache(dir.path());
    // Nothing cached yet.
    let before = post(app.clone(), "/api/review?cached=1", SHORT_PGN).await;
    assert_eq!(before.status, StatusCode::OK);
    let before = before.json();
    assert_eq!(before["review"], Value::Null);
    assert_eq!(
        (before["positions"].as_u64(), before["from_cache"].as_u64()),
        (Some(7), Some(0))
    );
    assert!(
        before["engine"]
            .as_str()
            .is_some_and(|e| e.contains(&format!("nodes {DEFAULT_NODES}"))),
        "{before}"
    );

    let a = common::send(app.clone(), review_request("/api/review", SHORT_PGN)).await;
    let lines = lines(&a);
    let (last, progress) = lines.split_last().expect("lines");
    assert!(!progress.is_empty(), "progress before the review");
    for p in progress {
        assert_eq!(p["progress"]["positions"], 7, "{p}");
    }
    let done: Vec<u64> = progress
        .iter()
        .map(|p| p["progress"]["done"].as_u64().expect("done"))
        .collect();
    assert!(done.windows(2).all(|w| w[0] <= w[1]), "{done:?}");
    assert_eq!(done.last(), Some(&7));
    assert_eq!(last["source"], "engine");
    let review = &last["review"];
    assert_eq!(review["moves"].as_array().map(Vec::len), Some(6));
    assert_eq!(review["error"], Value::Null);
    assert!(review["white"]["accuracy"].is_number());
    // Every move has the engine's choice, and its line as numbered SAN from before the move.
    for (i, m) in review["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .enumerate()
    {
        assert!(m["best"]["uci"].is_string(), "{m}");
        let line = last["lines"][i].as_str().expect("a line");
        let san = m["best"]["san"].as_str().expect("san");
        let number = format!("{}.{} {san}", i / 2 + 1, if i % 2 == 1 { ".." } else { "" });
        assert!(line.starts_with(&number), "move {i}: {line} (best {san})");
    }
    assert!(last["pgn"].as_str().is_some_and(|p| p.contains("[%eval ")));
    wait_idle(&reviews, Duration::from_secs(5)).await;

    // Now every position is cached: the same review, without an engine.
    let after = post(app.clone(), "/api/review?cached=1", SHORT_PGN).await;
    let after = after.json();
    assert_eq!(after["review"], *review);
    assert_eq!(after["pgn"], last["pgn"]);
    assert_eq!(
        (after["positions"].as_u64(), after["from_cache"].as_u64()),
        (Some(7), Some(7))
    );
    // And a review asked again takes all from the cache.
    let again = common::send(app, review_request("/api/review", SHORT_PGN)).await;
    let again = self::lines(&again);
    let last_again = again.last().expect("an answer");
    assert_eq!(last_again["review"], *review);
    assert_eq!(last_again["from_cache"], 7);
}

#[tokio::test]
async fn bad_input_is_refused_with_what_and_where() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let (app, reviews) = app_with_cache(dir.path());
    let cases: [(&str, &str, &str); 6] = [
        ("/api/review", "", "no game"),
        ("/api/review", "1. e4 e5 2. Ke3 Nc6 *", "Ke3"),
        (
            "/api/review?cached=1",
            "1. e4 e5 *\n\n1. d4 d5 *\n",
            "more than one game",
        ),
        ("/api/review", "[White \"A\"]\n\n*", "no moves"),
        ("/api/review?cached=maybe", SHORT_PGN, "cached"),
        ("/api/review?line=0", SHORT_PGN, "line"),
    ];
    for (path, body, says) in cases {
        let a = post(app.clone(), path, body).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{path} {body:?}");
        let error = a.error();
        assert!(error.contains(says), "{body:?}: {error}");
    }
    // The place of the illegal move, as in the whole file when the game's origin is given.
    let a = post(
        app.clone(),
        "/api/review?index=4&start=900&line=30&column=1",
        "[White \"C\"]\n\n1. e4 e5 2. Ke3 *",
    )
    .await;
    let error = a.error();
    assert!(error.contains("game 5, 32:"), "{error}");
    let a = common::send(
        app,
        Request::get("/api/review")
            .body(Body::empty())
            .expect("request"),
    )
    .await;
    assert_eq!(a.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(reviews.running(), 0);
}

#[tokio::test]
async fn one_review_at_a_time_and_a_client_that_leaves_stops_it() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let (app, reviews) = app_with_cache(dir.path());
    let response = app
        .clone()
        .oneshot(review_request("/api/review", LONG_PGN))
        .await
        .expect("an answer");
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    // The first progress line: the engines are searching.
    let frame = body.frame().await.expect("a line").expect("no error");
    let first: Value =
        serde_json::from_slice(frame.data_ref().expect("data")).expect("a JSON line");
    assert_eq!(first["progress"]["positions"], 41, "{first}");
    assert_eq!(reviews.running(), 1);

    // A second review meanwhile: 429, as /api/suggest; a cached-only question is answered.
    let second = post(app.clone(), "/api/review", SHORT_PGN).await;
    assert_eq!(second.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        second.error().contains("another game"),
        "{}",
        second.error()
    );
    let cached = post(app.clone(), "/api/review?cached=1", SHORT_PGN).await;
    assert_eq!(cached.status, StatusCode::OK);

    // The client leaves: the searches stop and the engines end at once.
    drop(body);
    let took = wait_idle(&reviews, Duration::from_secs(5)).await;
    eprintln!("the review stopped {took:?} after its client left");
    // It did not finish: the cache lacks positions of the game.
    let after = post(app.clone(), "/api/review?cached=1", LONG_PGN)
        .await
        .json();
    assert_eq!(after["review"], Value::Null, "{after}");
    assert!(after["from_cache"].as_u64() < Some(41), "{after}");
    // The place is free again.
    let a = common::send(app, review_request("/api/review", SHORT_PGN)).await;
    assert_eq!(lines(&a).last().expect("answer")["source"], "engine");
}
