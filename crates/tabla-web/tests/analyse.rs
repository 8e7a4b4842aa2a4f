//! `GET /api/analyse` (live analysis as Server-Sent Events) and `GET /api/engine`, in process:
//! the lines of hand-checked positions from White's point of view, the limit of analyses at
//! once, bad input, and that a client going away stops the search (with tabla's engine and with
//! Debian's Stockfish, whose process must then be idle).

mod common;

use axum::http::StatusCode;
use common::{
    app_with_engine, enc, fake_engine, get, open_analysis as open, read_events as read_until,
    tables,
};
use http_body_util::BodyExt;
use serde_json::Value;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabla_analysis::{EngineSpec, UciSpec};
use tabla_web::{AppState, LiveEngines, MAX_ANALYSES, router};

const STOCKFISH: &str = "/usr/games/stockfish";

/// Black to move mates with Ra1# (the White king is shut in by its own pawns).
const BLACK_MATES: &str = "6k1/8/8/8/8/8/r4PPP/6K1 b - - 0 1";

/// Waits until no analysis runs (the search has really ended), at most 10 s.
async fn until_idle(live: &LiveEngines) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while live.running() > 0 {
        assert!(Instant::now() < deadline, "an analysis still runs");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lines_are_white_view_and_the_search_stops_when_the_client_goes() {
    let state = AppState::new(tables());
    let live = Arc::clone(&state.live);
    let app = router(state);
    let response = open(app, &format!("fen={}&multipv=2", enc(BLACK_MATES))).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .expect("text")
            .starts_with("text/event-stream")
    );
    let mut body = response.into_body();
    let events = read_until(&mut body, |_, v| {
        v["lines"].as_array().is_some_and(|l| l.len() == 2)
            && v["lines"][0]["eval"] == serde_json::json!({"mate": -1})
    })
    .await;
    let (name, last) = events.last().expect("an event");
    assert_eq!(name, "lines");
    assert_eq!(last["fen"], BLACK_MATES);
    assert_eq!(last["done"], false);
    let best = &last["lines"][0];
    // Black mates: a mate from White's point of view is negative, and White's chances are 0%.
    assert_eq!(best["moves"][0]["uci"], "a2a1");
    assert_eq!(best["line"], "1... Ra1#");
    assert!(best["win"].as_f64().expect("win") < 5.0, "{best}");
    let second = &last["lines"][1];
    assert_eq!(second["multipv"], 2);
    assert_ne!(second["moves"][0]["uci"], "a2a1");
    assert_eq!(live.running(), 1);
    drop(body);
    until_idle(&live).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_limit_analyses_get_429_until_one_stops() {
    let state = AppState::new(tables());
    let live = Arc::clone(&state.live);
    let app = router(state);
    let start = format!(
        "fen={}",
        enc("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    );
    let mut held = Vec::new();
    for _ in 0..MAX_ANALYSES {
        let response = open(app.clone(), &start).await;
        assert_eq!(response.status(), StatusCode::OK);
        held.push(response.into_body());
    }
    let refused = open(app.clone(), &start).await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    let text = refused
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    let error: Value = serde_json::from_slice(&text).expect("JSON");
    assert!(
        error["error"]
            .as_str()
            .expect("error")
            .contains("live analyses run already"),
        "{error}"
    );
    drop(held.pop());
    until_idle_below(&live, MAX_ANALYSES).await;
    let again = open(app.clone(), &start).await;
    assert_eq!(again.status(), StatusCode::OK);
    drop(again);
    drop(held);
    until_idle(&live).await;
}

async fn until_idle_below(live: &LiveEngines, limit: usize) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while live.running() >= limit {
        assert!(Instant::now() < deadline, "no place freed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn bad_requests_are_400_with_what_was_wrong() {
    let fools_mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    for (query, words) in [
        ("multipv=2".to_owned(), "fen"),
        ("fen=not+a+fen".to_owned(), "invalid FEN"),
        (format!("fen={}&multipv=0", enc(BLACK_MATES)), "multipv"),
        (format!("fen={}&multipv=6", enc(BLACK_MATES)), "multipv"),
        (
            format!("fen={}&moves=a2a1+g1h1", enc(BLACK_MATES)),
            "move 2",
        ),
        (format!("fen={}", enc(fools_mate)), "checkmate"),
        (format!("fen={}", enc(stalemate)), "stalemate"),
    ] {
        let answer = get(&format!("/api/analyse?{query}")).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{query}");
        assert!(
            answer.error().contains(words),
            "{query}: {}",
            answer.error()
        );
    }
}

#[tokio::test]
async fn the_engine_route_names_the_engine_and_its_limits() {
    let answer = get("/api/engine").await.json();
    assert_eq!(answer["name"], tabla_engine::uci::ENGINE_NAME);
    assert_eq!(answer["path"], "in process");
    assert_eq!(answer["running"], 0);
    assert_eq!(answer["limit"], MAX_ANALYSES);
    assert_eq!(answer["max_multipv"], 5);
}

/// Held by each test that runs Stockfish, so that one's Stockfish does not count as the
/// other's in [`children_ticks`] (the tests of this file run at the same time).
static STOCKFISH_TESTS: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// CPU ticks (user + system) the Stockfish child processes of this process have used, by
/// process id (the fake engines other tests run at the same time are not counted).
fn children_ticks() -> Vec<(u32, u64)> {
    let mut out = Vec::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return out;
    };
    for task in tasks.flatten() {
        let Ok(children) = std::fs::read_to_string(task.path().join("children")) else {
            continue;
        };
        for pid in children
            .split_whitespace()
            .filter_map(|p| p.parse::<u32>().ok())
        {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            if !stat.contains("(stockfish)") {
                continue;
            }
            // The fields after the command's closing parenthesis: state is the 3rd field, utime
            // the 14th and stime the 15th.
            let rest = &stat[stat.rfind(')').map_or(0, |i| i + 2)..];
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let ticks = fields
                .get(11)
                .and_then(|u| u.parse::<u64>().ok())
                .unwrap_or(0)
                + fields
                    .get(12)
                    .and_then(|s| s.parse::<u64>().ok())
                    .unwrap_or(0);
            out.push((pid, ticks));
        }
    }
    out
}

/// Ticks the children used over `span`.
async fn ticks_over(span: Duration) -> u64 {
    let before = children_ticks();
    tokio::time::sleep(span).await;
    let after = children_ticks();
    after
        .iter()
        .map(|(pid, t)| {
            let was = before.iter().find(|(p, _)| p == pid).map_or(0, |(_, t)| *t);
            t.saturating_sub(was)
        })
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stockfish_analyses_and_is_idle_once_the_client_goes() {
    if !std::path::Path::new(STOCKFISH).exists() {
        eprintln!("skipped: {STOCKFISH} is not installed (scripts/test.sh --install installs it)");
        return;
    }
    let _alone = STOCKFISH_TESTS.lock().await;
    let (app, live) = app_with_engine(EngineSpec::Uci(UciSpec::new(STOCKFISH))).await;
    assert!(
        live.id()
            .name
            .as_deref()
            .unwrap_or("")
            .starts_with("Stockfish"),
        "{}",
        live.id()
    );
    let response = open(app, &format!("fen={}&multipv=3", enc(BLACK_MATES))).await;
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    let events = read_until(&mut body, |_, v| {
        v["lines"].as_array().is_some_and(|l| l.len() == 3)
            && v["lines"][0]["eval"] == serde_json::json!({"mate": -1})
    })
    .await;
    let last = &events.last().expect("an event").1;
    assert_eq!(last["lines"][0]["line"], "1... Ra1#");
    assert!(last["nps"].as_u64().is_some_and(|n| n > 0), "{last}");
    // Searching: the engine's process works. Stopped: it rests.
    let busy = ticks_over(Duration::from_secs(1)).await;
    drop(body);
    until_idle(&live).await;
    let idle = ticks_over(Duration::from_secs(1)).await;
    assert!(
        busy >= 10,
        "Stockfish searched for 1 s and used {busy} ticks"
    );
    assert!(
        idle <= 3,
        "Stockfish used {idle} ticks in 1 s after the client went away"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bound_is_shown_as_one_and_a_crash_ends_the_stream_with_the_engine_s_words() {
    let start = format!(
        "fen={}",
        enc("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    );
    let (app, live) = app_with_engine(fake_engine(false)).await;
    let response = open(app, &start).await;
    let mut body = response.into_body();
    let events = read_until(&mut body, |_, v| {
        v["lines"].as_array().is_some_and(|l| !l.is_empty())
    })
    .await;
    let line = &events.last().expect("an event").1["lines"][0];
    assert_eq!(line["bound"], "lower");
    assert_eq!(line["eval"], serde_json::json!({"cp": 30}));
    assert_eq!(line["line"], "1. e4");
    assert_eq!(events.last().expect("an event").1["engine"], "Fake bound");
    drop(body);
    until_idle(&live).await;

    let (app, live) = app_with_engine(fake_engine(true)).await;
    let response = open(app, &start).await;
    let mut body = response.into_body();
    let events = read_until(&mut body, |name, _| name == "done").await;
    let done = &events.last().expect("an event").1;
    assert_eq!(done["done"], true);
    let error = done["error"].as_str().expect("an error");
    assert!(
        error.contains("Fake crash") && error.contains("crashing on purpose"),
        "{error}"
    );
    // The engine by its file name: the server's paths stay in its log.
    assert!(
        error.contains("fake_engine.py") && !error.contains(env!("CARGO_MANIFEST_DIR")),
        "{error}"
    );
    // The stream ends after `done`, and the broken engine is not lent again.
    assert!(body.frame().await.is_none(), "nothing after done");
    until_idle(&live).await;
}

/// `GET /api/suggest` of a server started with a UCI engine asks that engine (not tabla's), and
/// says so; a crash is answered with the engine's words and the next request gets a new process.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn suggest_asks_the_server_s_uci_engine_and_names_it() {
    let start = enc("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let (app, _) = app_with_engine(fake_engine(false)).await;
    let a = common::get_from(app, &format!("/api/suggest?fen={start}&movetime=50")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.error());
    let v = a.json();
    assert_eq!(v["engine"], "Fake bound");
    // What the fake said: 1. e4 at 30 centipawns (White to move: White's view too), 20 nodes.
    assert_eq!(v["best"]["uci"], "e2e4");
    assert_eq!(v["score"], serde_json::json!({"cp": 30}));
    assert_eq!(
        (v["nodes"].as_u64(), v["line"].as_str()),
        (Some(20), Some("1. e4"))
    );

    let (app, _) = app_with_engine(fake_engine(true)).await;
    for _ in 0..2 {
        let a = common::get_from(app.clone(), &format!("/api/suggest?fen={start}")).await;
        assert_eq!(a.status, StatusCode::BAD_GATEWAY);
        let error = a.error();
        assert!(
            error.contains("Fake crash") && error.contains("crashing on purpose"),
            "{error}"
        );
        assert!(!error.contains(env!("CARGO_MANIFEST_DIR")), "{error}");
    }
}

/// With Stockfish as the server's engine, `/api/suggest` and `/api/analyse` are Stockfish's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stockfish_suggests_the_mate_and_the_answers_name_it() {
    if !std::path::Path::new(STOCKFISH).exists() {
        eprintln!("skipped: {STOCKFISH} is not installed (scripts/test.sh --install installs it)");
        return;
    }
    let _alone = STOCKFISH_TESTS.lock().await;
    let (app, _) = app_with_engine(EngineSpec::Uci(UciSpec::new(STOCKFISH))).await;
    // Hand-checked (and python-chess): Bd5# is the only mate.
    let fen = enc("k7/8/NK2B3/8/8/8/8/8 w - - 0 1");
    let v = common::get_from(app.clone(), &format!("/api/suggest?fen={fen}&movetime=200"))
        .await
        .json();
    assert!(
        v["engine"]
            .as_str()
            .is_some_and(|e| e.starts_with("Stockfish")),
        "{v}"
    );
    assert_eq!(
        (&v["best"]["san"], &v["score"]["mate"]),
        (&"Bd5#".into(), &1.into()),
        "{v}"
    );
    let response = open(app, &format!("fen={fen}")).await;
    let mut body = response.into_body();
    let events = read_until(&mut body, |_, v| {
        v["lines"].as_array().is_some_and(|l| !l.is_empty())
    })
    .await;
    let last = &events.last().expect("an event").1;
    assert!(
        last["engine"]
            .as_str()
            .is_some_and(|e| e.starts_with("Stockfish")),
        "{last}"
    );
}
