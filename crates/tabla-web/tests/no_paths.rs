//! A server error keeps local paths out of its answer (issue 56, 5): a database whose Parquet
//! file is replaced by garbage under a running server fails its query with a message naming
//! the file; the answer says what failed and a number, the server's log has the rest.

#![cfg(feature = "db")]

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{app_with_db, import_test_db, send};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The Parquet files under `dir`, at any depth.
fn parquet_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            parquet_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "parquet") {
            out.push(path);
        }
    }
}

#[test]
fn a_failed_query_answers_500_without_the_database_s_path() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let db = Arc::new(import_test_db(dir.path()));
    let runtime = common::runtime();
    // Every file of the batch damaged in place (same size, not Parquet): reading any fails.
    let mut files = Vec::new();
    parquet_files(&dir.path().join("batches"), &mut files);
    assert!(!files.is_empty());
    for file in &files {
        let len = std::fs::metadata(file).expect("size").len() as usize;
        std::fs::write(file, vec![b'x'; len]).expect("damage");
    }
    let req = Request::get("/api/db/games?limit=5")
        .body(Body::empty())
        .expect("request");
    let a = runtime.block_on(send(app_with_db(Arc::clone(&db)), req));
    let body = String::from_utf8_lossy(&a.body).into_owned();
    assert_eq!(a.status, StatusCode::INTERNAL_SERVER_ERROR, "{body}");
    let error = a.json()["error"].as_str().expect("an error").to_owned();
    assert!(error.contains("(error "), "{error}");
    assert!(error.contains("says why"), "{error}");
    let root = dir.path().to_string_lossy().into_owned();
    assert!(!body.contains(&root), "{body}");
    assert!(!body.contains(".parquet"), "{body}");
}
