//! `GET /api/tb`: the endgame tables of a directory, built here with `tabla_endgame::build`,
//! against hand-checked mates; the 422 of an ending whose table is not built; bad input.

mod common;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{Answer, enc, get, kbnvk, send, tables};
use std::path::Path;
use std::sync::Arc;
use tabla_endgame::{Men, build};
use tabla_web::{AppState, TbDir, router};

/// The application with the tables of `dir`.
fn app_with_tables(dir: &Path) -> Router {
    let mut state = AppState::new(tables());
    state.tb = Arc::new(TbDir::open(dir, false, kbnvk()).expect("open the tables"));
    router(state)
}

async fn tb(app: Router, fen: &str) -> Answer {
    let req = Request::get(format!("/api/tb?fen={}", enc(fen)))
        .body(Body::empty())
        .expect("request");
    send(app, req).await
}

/// Builds `endings` (and the endings they lead to) into `dir`, off the async threads.
async fn build_into(dir: &Path, endings: &[&str]) {
    let dir = dir.to_owned();
    let men: Vec<Men> = endings
        .iter()
        .map(|e| e.parse().expect("an ending"))
        .collect();
    tokio::task::spawn_blocking(move || build(&dir, &men, 2, &|_| {}).expect("build"))
        .await
        .expect("the build runs");
}

/// The moves of an answer that give checkmate, in SAN, sorted.
fn mating_moves(v: &serde_json::Value) -> Vec<String> {
    let mut mates: Vec<String> = v["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter(|m| m["mate"] == true)
        .map(|m| m["san"].as_str().expect("san").to_owned())
        .collect();
    mates.sort();
    mates
}

#[tokio::test]
async fn tb_answers_from_built_tables_and_names_the_missing_ones() {
    let dir = tempfile::tempdir().expect("temporary directory");
    build_into(dir.path(), &["KRvK"]).await;
    let app = app_with_tables(dir.path());

    // Hand-checked: the king on b6 holds a7 and b7, Rh8 checks along the eighth rank and
    // covers b8; Ra1+ would let the king out to b8. Rh8# is the only mate.
    let a = tb(app.clone(), "k7/8/1K6/8/8/8/8/7R w - - 0 1").await;
    assert_eq!(a.status, StatusCode::OK);
    let v = a.json();
    assert_eq!(v["material"], "KRvK");
    assert_eq!(v["dtm"], 1);
    assert_eq!(v["plies"], 1);
    assert_eq!(v["status"], "win");
    assert_eq!(v["best"]["san"], "Rh8#");
    assert_eq!(mating_moves(&v), ["Rh8#"]);

    // The same with the colours swapped: Black's rook, Black to move, the ending named with
    // White's men first.
    let v = tb(app.clone(), "7r/8/8/8/8/1k6/8/K7 b - - 0 1")
        .await
        .json();
    assert_eq!(v["material"], "KvKR");
    assert_eq!(v["dtm"], 1);
    assert_eq!(v["best"]["san"], "Rh1#");

    // After the mate, and the loser's view of a long mate.
    let v = tb(app.clone(), "k6R/8/1K6/8/8/8/8/8 b - - 0 1")
        .await
        .json();
    assert_eq!(v["status"], "checkmate");
    assert_eq!(v["dtm"], 0);
    assert_eq!(v["best"], serde_json::Value::Null);
    let v = tb(app.clone(), "8/8/8/3k4/8/8/8/R3K3 b - - 0 1")
        .await
        .json();
    assert_eq!(v["status"], "loss");
    assert!(v["dtm"].as_i64().expect("dtm") < 0);

    // Two kings: a draw, no table needed.
    let v = tb(app.clone(), "k7/8/8/8/8/8/8/K7 w - - 0 1").await.json();
    assert_eq!(
        (v["status"].as_str(), v["material"].as_str()),
        (Some("draw"), Some("KvK"))
    );

    // An ending not built: 422 naming it, with the command that builds it here.
    let a = tb(app.clone(), "k7/8/1K6/8/8/8/8/6Q1 w - - 0 1").await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    let v = a.json();
    assert_eq!(v["missing"], "KQvK");
    // The directory's path stays in the server's log (issue 56: 5).
    let command = "tabla tb build KQvK --dir TB_DIR";
    assert_eq!(v["command"], command);
    assert!(a.error().contains(command), "{}", a.error());
    assert!(
        a.error().contains("tables directory (its --tb-dir)"),
        "{}",
        a.error()
    );
    let path = dir.path().to_string_lossy().into_owned();
    assert!(
        !String::from_utf8_lossy(&a.body).contains(&path),
        "{}",
        a.error()
    );
    // Black's queen: the table built is still KQvK.
    let a = tb(app.clone(), "K7/8/1k6/8/8/8/8/6q1 b - - 0 1").await;
    assert_eq!(a.json()["missing"], "KQvK");

    // Built while the server runs: the next request finds it.
    build_into(dir.path(), &["KQvK"]).await;
    let a = tb(app.clone(), "k7/8/1K6/8/8/8/8/6Q1 w - - 0 1").await;
    assert_eq!(
        a.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&a.body)
    );
    // Hand-checked: Qg8# (b8 on the rank, a7 and b7 held by the king) is the only mate; the
    // king on b6 blocks the diagonal to a7, and Qa1+ lets the king out to b8.
    let v = a.json();
    assert_eq!(v["dtm"], 1);
    assert_eq!(mating_moves(&v), ["Qg8#"]);
}

#[tokio::test]
async fn tb_answers_kbnvk_solved_in_memory_without_a_kbnvk_file() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let app = app_with_tables(dir.path());
    let fen = "k7/8/NK2B3/8/8/8/8/8 w - - 0 1";
    let v = tb(app.clone(), fen).await.json();
    assert_eq!(v["material"], "KBNvK");
    assert_eq!(v["dtm"], 1);
    assert_eq!(v["best"]["san"], "Bd5#");
    // The same object as /api/kbnk, plus the ending.
    let mut kbnk = get(&format!("/api/kbnk?fen={}", enc(fen))).await.json();
    kbnk["material"] = "KBNvK".into();
    assert_eq!(v, kbnk);
    let v = tb(app.clone(), "8/8/8/8/3b4/nk6/8/K7 w - - 0 1")
        .await
        .json();
    assert_eq!(
        (v["material"].as_str(), v["status"].as_str()),
        (Some("KvKBN"), Some("checkmate"))
    );
    // The endings KBNvK's captures lead to are solved with it.
    let v = tb(app.clone(), "8/8/8/4k3/8/8/8/KB6 w - - 0 1")
        .await
        .json();
    assert_eq!(
        (v["material"].as_str(), v["dtm"].as_i64()),
        (Some("KBvK"), Some(0))
    );
}

#[tokio::test]
async fn tb_refuses_what_the_tables_do_not_hold() {
    let app = || router(AppState::new(tables()));
    // Not a position: 400 saying why.
    for (fen, says) in [
        ("not a fen", "invalid FEN"),
        ("8/8/8/8/8/8/8/KkBN4 w - - 0 1", "invalid FEN"),
        ("k7/8/8/8/8/8/8/K7 x - - 0 1", "invalid FEN"),
    ] {
        let a = tb(app(), fen).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{fen}");
        assert!(a.error().contains(says), "{fen}: {}", a.error());
    }
    let a = get("/api/tb").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert!(a.error().contains("fen"));
    // Positions the tables do not hold: 422 saying why, without `missing`.
    for (fen, says) in [
        ("4k3/pppp4/8/8/8/8/PP6/4K3 w - - 0 1", "at most 5"),
        ("r3k3/8/8/8/8/8/8/4K3 w q - 0 1", "castling"),
    ] {
        let a = tb(app(), fen).await;
        assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{fen}");
        assert!(a.error().contains(says), "{fen}: {}", a.error());
        assert_eq!(a.json().get("missing"), None, "{fen}");
    }
    // Without a directory, an ending is missing and the command has no --dir.
    let a = tb(app(), "8/5k2/2PK4/5r2/8/8/8/8 w - - 0 1").await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(a.json()["missing"], "KRvKP");
    assert_eq!(a.json()["command"], "tabla tb build KRvKP");
}

/// The application with the tables of `dir`, and an engine that plays from them as `tabla serve`
/// sets it up.
fn app_with_engine_tables(dir: &Path) -> Router {
    let mut state = AppState::new(tables());
    let tb = TbDir::open(dir, false, kbnvk()).expect("open the tables");
    let oracle =
        tabla_engine::EndgameTables::new(tabla_endgame::Solved::new()).with_tablebase(tb.tables());
    state.suggest = Arc::new(
        tabla_web::LiveEngines::start(tabla_analysis::EngineSpec::Tabla, Some(Arc::new(oracle)), 1)
            .expect("tabla's engine starts"),
    );
    state.tb = Arc::new(tb);
    router(state)
}

async fn suggest(app: Router, fen: &str) -> serde_json::Value {
    let req = Request::get(format!("/api/suggest?fen={}&movetime=300", enc(fen)))
        .body(Body::empty())
        .expect("request");
    let a = send(app, req).await;
    assert_eq!(
        a.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&a.body)
    );
    a.json()
}

#[tokio::test]
async fn suggest_plays_the_tables_mate_unless_the_fifty_move_rule_stops_it() {
    let dir = tempfile::tempdir().expect("temporary directory");
    build_into(dir.path(), &["KRvK"]).await;
    let app = app_with_engine_tables(dir.path());
    // A long KRvK mate: the tables' value, and the move that keeps it.
    let fen = "8/8/8/3k4/8/8/8/R3K3 w - - 0 1";
    let probe = tb(app.clone(), fen).await.json();
    let n = probe["dtm"].as_i64().expect("dtm");
    assert!(n >= 10, "mate in {n}");
    let v = suggest(app.clone(), fen).await;
    assert_eq!(v["score"]["mate"], n, "{v}");
    let best = v["best"]["san"].as_str().expect("san");
    let keeps = probe["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .find(|m| m["san"] == best)
        .expect("the move is legal");
    assert_eq!(keeps["dtm"], -(n - 1), "{best} is not a fastest mate");
    // With the clock so far on that the mating move would be the 101st half-move without a
    // capture or a pawn move (and White has neither in KRvK), the game is no win: no mate.
    let late = fen.replace(" 0 1", &format!(" {} 80", 100 - (2 * n - 1) + 1));
    let v = suggest(app.clone(), &late).await;
    assert!(v["score"]["mate"].is_null(), "{v}");
    // One half-move earlier on the clock, the mating move is the 100th: it counts.
    let in_time = fen.replace(" 0 1", &format!(" {} 80", 100 - (2 * n - 1)));
    assert_eq!(suggest(app, &in_time).await["score"]["mate"], n);
}
