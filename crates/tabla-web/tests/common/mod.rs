//! The router `tabla serve` runs, called in process, and its answers.

#![allow(dead_code)] // each test file uses its own part of this module

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::Value;
#[cfg(feature = "db")]
use std::path::Path;
use std::sync::{Arc, OnceLock};
#[cfg(feature = "db")]
use tabla_db::{Database, EngineOptions, ImportOptions, import};
use tabla_endgame::{Material, Table, generate};
#[cfg(feature = "db")]
use tabla_web::GameDb;
use tabla_web::{AppState, router};
use tower::ServiceExt;

/// The KBNK table, generated once per test binary.
pub fn table() -> Arc<Table> {
    static TABLE: OnceLock<Arc<Table>> = OnceLock::new();
    TABLE
        .get_or_init(|| Arc::new(generate(Material::KBNK, &mut |_| {})))
        .clone()
}

/// The application `tabla serve` runs.
pub fn app() -> Router {
    router(AppState::new(table()))
}

/// The application with another body limit.
pub fn app_with_limit(limit: usize) -> Router {
    let mut state = AppState::new(table());
    state.body_limit = limit;
    router(state)
}

/// The application with a game database.
#[cfg(feature = "db")]
pub fn app_with_db(db: Arc<GameDb>) -> Router {
    let mut state = AppState::new(table());
    state.db = Some(db);
    router(state)
}

/// The PGN file the database tests import: 80 lichess games (ratings, speeds, dates).
pub const DB_PGN: &str = "lichess_db_1000k.pgn";

/// Imports testdata's [`DB_PGN`] into a new database in `dir` and opens it, as
/// `tabla serve --db` does (with two threads). Blocking: not on an async worker thread.
#[cfg(feature = "db")]
pub fn import_test_db(dir: &Path) -> GameDb {
    let engine = EngineOptions {
        threads: 2,
        memory: 128 << 20,
        spill_dir: None,
    };
    let options = ImportOptions {
        db: dir.to_owned(),
        inputs: vec![tabla_testdata::testdata().path(DB_PGN)],
        max_ply: None,
        engine: engine.clone(),
    };
    import(&options, &tabla_convert::NoProgress).expect("import testdata into a database");
    GameDb::new(Database::open_with(dir, &engine).expect("open the database"))
}

/// An answer: status, content type and body.
pub struct Answer {
    pub status: StatusCode,
    pub content_type: String,
    /// The `Allow` header, when there is one (405).
    pub allow: Option<String>,
    pub body: Vec<u8>,
}

impl Answer {
    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}): {}",
                String::from_utf8_lossy(&self.body[..self.body.len().min(300)])
            )
        })
    }

    /// The `error` of a JSON error answer.
    pub fn error(&self) -> String {
        assert!(
            self.content_type.starts_with("application/json"),
            "{}",
            self.content_type
        );
        self.json()["error"]
            .as_str()
            .expect("an `error` string")
            .to_owned()
    }
}

/// Sends `req` to `app` and collects the answer.
pub async fn send(app: Router, req: Request<Body>) -> Answer {
    let res = app.oneshot(req).await.expect("the router never fails");
    let status = res.status();
    let content_type = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let allow = res
        .headers()
        .get(header::ALLOW)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let body = res
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes()
        .to_vec();
    Answer {
        status,
        content_type,
        allow,
        body,
    }
}

/// `GET uri` on a new app.
pub async fn get(uri: &str) -> Answer {
    let req = Request::get(uri).body(Body::empty()).expect("request");
    send(app(), req).await
}

/// `POST uri` with a PGN body.
pub async fn post(app: Router, uri: &str, body: impl Into<Body>) -> Answer {
    let req = Request::post(uri)
        .header(header::CONTENT_TYPE, "application/x-chess-pgn")
        .body(body.into())
        .expect("request");
    send(app, req).await
}

/// Percent-encodes a query value (FENs hold spaces and slashes).
pub fn enc(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
