//! A served database that another process imports into and compacts (issue 56, 8): the server
//! answers the new counts after each commit, and never a 500 when the parts it had opened were
//! replaced. The expected answers are the library's, from a database opened afresh after each
//! step, and the imports' own counts of the games they read.

#![cfg(feature = "db")]

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{Answer, app_with_db, import_test_db, send};
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;
use tabla_db::{Database, Filters, ImportOptions, Manifest, QueryOptions, Target, compact, import};
use tabla_web::GameDb;

fn options() -> QueryOptions {
    QueryOptions {
        threads: 2,
        memory: 128 << 20,
        spill_dir: None,
    }
}

/// `GET uri` through the router serving `db`, which must answer 200 with JSON.
fn json(runtime: &tokio::runtime::Runtime, db: &Arc<GameDb>, uri: &str) -> Value {
    let req = Request::get(uri).body(Body::empty()).expect("request");
    let answer: Answer = runtime.block_on(send(app_with_db(Arc::clone(db)), req));
    assert_eq!(
        answer.status,
        StatusCode::OK,
        "{uri}: {}",
        String::from_utf8_lossy(&answer.body)
    );
    answer.json()
}

/// What a database opened now answers at the start position: games in it, the explorer.
fn fresh(dir: &Path) -> (Value, Value) {
    let db = Database::open_with(dir, &options()).expect("open afresh");
    let info = serde_json::to_value(db.info().expect("info")).expect("json");
    let start = db
        .explore(&Target::Fen("startpos".into()), &Filters::default())
        .expect("explore");
    (info, serde_json::to_value(start).expect("json"))
}

#[test]
fn a_served_database_answers_the_new_counts_after_an_import_and_a_compaction() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let db = Arc::new(import_test_db(dir.path()));
    let runtime = common::runtime();
    let before = json(&runtime, &db, "/api/db");
    let first = before["games"].as_u64().expect("games");
    let start_before = json(&runtime, &db, "/api/db/explore?fen=startpos");

    // Another process's import, while the server holds the database open.
    let more = ImportOptions {
        db: dir.path().to_owned(),
        inputs: vec![tabla_testdata::testdata().path("twic1599_1000k.pgn")],
        max_ply: None,
        query: options(),
    };
    let summary = import(&more, &tabla_convert::NoProgress).expect("the second import");
    assert!(summary.games > 0, "the second file has games");
    let (info, start) = fresh(dir.path());
    let after = json(&runtime, &db, "/api/db");
    assert_eq!(after["games"].as_u64(), Some(first + summary.games));
    assert_eq!(after, info);
    let start_after = json(&runtime, &db, "/api/db/explore?fen=startpos");
    assert_eq!(start_after, start);
    assert_ne!(
        start_after["games"], start_before["games"],
        "the import adds games"
    );

    // A compaction replaces the explorer's parts the server had opened.
    let compacted = compact(dir.path(), &options()).expect("compaction");
    assert!(
        compacted.parts >= 2,
        "two imports' parts folded: {compacted:?}"
    );
    let (info, start) = fresh(dir.path());
    assert_eq!(json(&runtime, &db, "/api/db"), info);
    assert_eq!(json(&runtime, &db, "/api/db/explore?fen=startpos"), start);
    assert_eq!(start, start_after, "a compaction changes no count");
}

/// A file deleted under the running server stops its answers (500, saying a file is damaged and
/// where to look, not the path) within `RECHECK_EVERY`; put back, the answers are as before.
#[test]
fn a_file_deleted_under_the_server_stops_its_answers_until_it_is_back() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let db = Arc::new(import_test_db(dir.path()));
    let runtime = common::runtime();
    let before = json(&runtime, &db, "/api/db/games?limit=5");
    let manifest = Manifest::read(dir.path()).expect("manifest");
    let batch = &manifest.batches[0];
    let part = (batch.parts.iter())
        .find(|p| p.path.starts_with("games/"))
        .expect("a games file");
    let file = dir.path().join(batch.dir()).join(&part.path);
    let kept = std::fs::read(&file).expect("read");
    std::fs::remove_file(&file).expect("rm");
    std::thread::sleep(tabla_web::RECHECK_EVERY);
    let req = Request::get("/api/db/games?limit=5")
        .body(Body::empty())
        .expect("request");
    let answer = runtime.block_on(send(app_with_db(Arc::clone(&db)), req));
    let body = String::from_utf8_lossy(&answer.body).into_owned();
    assert_eq!(answer.status, StatusCode::INTERNAL_SERVER_ERROR, "{body}");
    assert!(body.contains("a file of the database is damaged"), "{body}");
    assert!(body.contains("tabla db info"), "{body}");
    assert!(!body.contains(&*dir.path().to_string_lossy()), "{body}");
    std::fs::write(&file, kept).expect("put back");
    std::thread::sleep(tabla_web::RECHECK_EVERY);
    assert_eq!(json(&runtime, &db, "/api/db/games?limit=5"), before);
}
