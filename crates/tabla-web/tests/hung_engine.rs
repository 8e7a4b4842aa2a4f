//! A server whose engine hangs (tests/fake_engine/fake_engine.py `--hang`: it never ends a
//! search, not even when told to stop): the review of a game, and of the database, give their
//! place back within twice the per-position time limit, with an answer that says the engine
//! hung, instead of holding the server's only review place for two time limits a position.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::send;
use serde_json::Value;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabla_analysis::{Budget, EngineSpec, Timeouts, UciSpec};
use tabla_web::{AppState, GameReviews, LiveEngines};

/// The per-position time limit of these tests: a depth budget's bound.
const LIMIT: Duration = Duration::from_secs(3);

fn hung_engine() -> EngineSpec {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engine/fake_engine.py");
    let timeouts = Timeouts {
        handshake: Duration::from_secs(10),
        movetime_margin: Duration::from_secs(1),
        min_nps: 1_000,
        depth: LIMIT,
        stop_grace: Duration::from_secs(1),
    };
    EngineSpec::Uci(UciSpec::new(path).arg("--hang").timeouts(timeouts))
}

/// The state of an application whose engine (live analysis and reviews) hangs, and its
/// reviews' state.
async fn hung_state() -> (AppState, Arc<GameReviews>) {
    let live = tokio::task::spawn_blocking(|| LiveEngines::start(hung_engine(), None, 1))
        .await
        .expect("the start runs")
        .expect("the handshake works");
    let mut state = AppState::new(common::tables());
    state.live = Arc::new(live);
    let reviews = Arc::new(GameReviews::new(None).with_budget(Budget::Depth(5)));
    state.reviews = Arc::clone(&reviews);
    (state, reviews)
}

fn ndjson(body: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(body)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hung_engine_gives_the_review_place_back_within_twice_its_time_limit() {
    let (state, reviews) = hung_state().await;
    let app = tabla_web::router(state);
    let pgn = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n";
    let started = Instant::now();
    let request = Request::post("/api/review")
        .header(header::CONTENT_TYPE, "application/x-chess-pgn")
        .body(Body::from(pgn))
        .expect("a request");
    let a = send(app.clone(), request).await;
    assert_eq!(a.status, StatusCode::OK);
    let lines = ndjson(&a.body);
    let last = lines.last().expect("an answer");
    let error = last["error"].as_str().expect("an error line");
    assert!(error.contains("Fake hang"), "{error}");
    assert!(error.contains("sent no bestmove within 3 s"), "{error}");
    // The engine by its file name: the server's paths stay in its log.
    assert!(error.contains("fake_engine.py"), "{error}");
    assert!(!error.contains(env!("CARGO_MANIFEST_DIR")), "{error}");
    while reviews.running() > 0 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let took = started.elapsed();
    eprintln!("a hung engine's review gave its place back after {took:?}");
    assert!(took < 2 * LIMIT, "{took:?}");
}

#[cfg(feature = "db")]
#[test]
fn a_hung_engine_stops_a_database_review_which_says_so_and_stores_nothing_it_failed() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let db = Arc::new(common::import_test_db(dir.path()));
    let runtime = common::runtime();
    let (mut state, reviews) = runtime.block_on(hung_state());
    state.db = Some(Arc::clone(&db));
    let app = tabla_web::router(state);
    let started = Instant::now();
    let request = Request::post("/api/db/review?all=1")
        .body(Body::empty())
        .expect("a request");
    let a = runtime.block_on(send(app.clone(), request));
    assert_eq!(
        a.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&a.body)
    );
    let lines = ndjson(&a.body);
    let summary = &lines.last().expect("a summary")["summary"];
    let hung = summary["hung"].as_str().expect("the summary says it hung");
    assert!(hung.contains("sent no bestmove within 3 s"), "{summary}");
    let notes = summary["engine_notes"].to_string();
    assert!(notes.contains("fake_engine.py"), "{summary}");
    for said in [hung, &notes] {
        assert!(!said.contains(env!("CARGO_MANIFEST_DIR")), "{summary}");
    }
    assert!(summary["engine_faults"].as_u64() >= Some(1), "{summary}");
    assert!(summary["not_evaluated"].as_u64() >= Some(1), "{summary}");
    assert_eq!(summary["evaluated"], 0, "{summary}");
    runtime.block_on(async {
        while reviews.running() > 0 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    });
    let took = started.elapsed();
    eprintln!("a hung engine's database review gave its place back after {took:?}");
    assert!(took < 2 * LIMIT, "{took:?}");
    // The games it could not review are not stored: the next run takes them up again.
    let stored = db
        .fresh()
        .expect("the database")
        .sql("SELECT count(*) AS n FROM review_games")
        .expect("SQL");
    let mut json = Vec::new();
    tabla_db::write_rows(&stored, tabla_db::Format::Json, &mut json).expect("rows");
    let rows: Value = serde_json::from_slice(&json).expect("JSON rows");
    assert_eq!(rows[0]["n"], 0, "{rows}");
}
