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
use std::time::{Duration, Instant};
use tabla_analysis::{EngineSpec, UciSpec};
#[cfg(feature = "db")]
use tabla_db::{ImportOptions, QueryOptions, import};
use tabla_endgame::Solved;
#[cfg(feature = "db")]
use tabla_web::GameDb;
use tabla_web::{AppState, LiveEngines, MAX_ANALYSES, TbDir, router};
use tower::ServiceExt;

/// A runtime of two workers, as the server's on CI's two cores, for the tests that drive the
/// router from a plain `#[test]` (with blocking work of their own between requests).
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}

/// KBNvK (with KBvK and KNvK) solved in memory, once per test binary, as `tabla serve` does.
pub fn kbnvk() -> &'static Solved {
    static SOLVED: OnceLock<Solved> = OnceLock::new();
    SOLVED.get_or_init(|| {
        let mut solved = Solved::new();
        solved.solve("KBNvK".parse().expect("men")).expect("KBNvK");
        solved
    })
}

/// The endgame tables of a server without a directory: KBNvK in memory.
pub fn tables() -> TbDir {
    TbDir::none(kbnvk())
}

/// The application `tabla serve` runs.
pub fn app() -> Router {
    router(AppState::new(tables()))
}

/// The application with another body limit.
pub fn app_with_limit(limit: usize) -> Router {
    let mut state = AppState::new(tables());
    state.body_limit = limit;
    router(state)
}

/// The application with a game database.
#[cfg(feature = "db")]
pub fn app_with_db(db: Arc<GameDb>) -> Router {
    let mut state = AppState::new(tables());
    state.db = Some(db);
    router(state)
}

/// The PGN file the database tests import: 80 lichess games (ratings, speeds, dates).
pub const DB_PGN: &str = "lichess_db_1000k.pgn";

/// Imports testdata's [`DB_PGN`] into a new database in `dir` and opens it, as
/// `tabla serve --db` does (with two threads). Blocking: not on an async worker thread.
#[cfg(feature = "db")]
pub fn import_test_db(dir: &Path) -> GameDb {
    let query = QueryOptions {
        threads: 2,
        memory: 128 << 20,
        spill_dir: None,
    };
    let options = ImportOptions {
        db: dir.to_owned(),
        inputs: vec![tabla_testdata::testdata().path(DB_PGN)],
        max_ply: None,
        query: query.clone(),
    };
    import(&options, &tabla_convert::NoProgress).expect("import testdata into a database");
    GameDb::open_with(dir, query).expect("open the database")
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

/// `GET uri` on `app`.
pub async fn get_from(app: Router, uri: &str) -> Answer {
    let req = Request::get(uri).body(Body::empty()).expect("request");
    send(app, req).await
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

/// Starts a live analysis (`GET /api/analyse?query`) on `app`; the response (its body is the
/// stream).
pub async fn open_analysis(app: axum::Router, query: &str) -> axum::response::Response {
    let req = Request::get(format!("/api/analyse?{query}"))
        .body(Body::empty())
        .expect("request");
    app.oneshot(req).await.expect("the router never fails")
}

/// Reads events (`event` name, `data` JSON) from an analysis stream until `done` says enough or
/// 60 s pass.
pub async fn read_events(
    body: &mut Body,
    mut done: impl FnMut(&str, &Value) -> bool,
) -> Vec<(String, Value)> {
    let mut text = String::new();
    let mut events = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        let frame = tokio::time::timeout(Duration::from_secs(5), body.frame())
            .await
            .expect("an event at least every 5 s")
            .expect("the stream goes on")
            .expect("a frame");
        let Ok(data) = frame.into_data() else {
            continue;
        };
        text.push_str(std::str::from_utf8(&data).expect("UTF-8"));
        while let Some(end) = text.find("\n\n") {
            let block: String = text.drain(..end + 2).collect();
            let mut name = String::new();
            let mut json = String::new();
            for line in block.lines() {
                if let Some(rest) = line.strip_prefix("event:") {
                    name = rest.trim().to_owned();
                } else if let Some(rest) = line.strip_prefix("data:") {
                    json.push_str(rest.trim());
                }
            }
            let value: Value = serde_json::from_str(&json).expect("JSON data");
            let stop = done(&name, &value);
            events.push((name, value));
            if stop {
                return events;
            }
        }
    }
    panic!("the stream did not give what was waited for: {events:?}");
}

/// The fake engine of the live analysis's tests (tests/fake_engine/fake_engine.py), `--crash` or not.
pub fn fake_engine(crash: bool) -> EngineSpec {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engine/fake_engine.py");
    let spec = UciSpec::new(path);
    EngineSpec::Uci(if crash { spec.arg("--crash") } else { spec })
}

/// The application with live analyses and suggestions by `spec`, as `tabla serve --engine` sets
/// it up.
pub async fn app_with_engine(spec: EngineSpec) -> (axum::Router, Arc<LiveEngines>) {
    let (live, suggest) = tokio::task::spawn_blocking(move || {
        let live = LiveEngines::start(spec.clone(), None, MAX_ANALYSES)?;
        Ok::<_, Box<tabla_analysis::EngineError>>((live, LiveEngines::start(spec, None, 1)?))
    })
    .await
    .expect("the start runs")
    .expect("the engine starts");
    let mut state = AppState::new(tables());
    state.live = Arc::new(live);
    state.suggest = Arc::new(suggest);
    let live = Arc::clone(&state.live);
    (router(state), live)
}
