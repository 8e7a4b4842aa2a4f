//! The `/api/db` routes (`tabla serve --db`) through the router, against tabla-db's own answers
//! for the same database: testdata's lichess games imported into a temporary directory. Each
//! route must answer exactly what the library answers for the same question (the routes add
//! parsing and HTTP, nothing else), a game must open at the ply the explorer says it reached the
//! position, bad input gets 4xx with `{"error"}`, and a server without a database says how to
//! make one.

mod common;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use common::{Answer, app, app_with_db, enc, get, import_test_db, post, send};
use serde_json::Value;
use std::sync::Arc;
use tabla_db::{Filters, SearchQuery, Side, Target, YearMonth, parse_pattern};
use tabla_web::{GameDb, NO_DB_HINT};
use tempfile::TempDir;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// As tabla writes it: the en-passant square after every double push.
const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";

/// A database of testdata's games, and a runtime to call the router on (the test itself stays
/// off it, as the database's own runtime must).
struct Fixture {
    db: Arc<GameDb>,
    runtime: tokio::runtime::Runtime,
    _dir: TempDir,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().expect("temporary directory");
        let db = Arc::new(import_test_db(dir.path()));
        let runtime = common::runtime();
        Fixture {
            db,
            runtime,
            _dir: dir,
        }
    }

    fn send(&self, req: Request<Body>) -> Answer {
        self.runtime
            .block_on(send(app_with_db(Arc::clone(&self.db)), req))
    }

    fn get(&self, uri: &str) -> Answer {
        self.send(Request::get(uri).body(Body::empty()).expect("request"))
    }

    /// `GET uri`, which must succeed with JSON.
    fn json(&self, uri: &str) -> Value {
        let a = self.get(uri);
        assert_eq!(
            a.status,
            StatusCode::OK,
            "{uri}: {}",
            String::from_utf8_lossy(&a.body)
        );
        assert!(a.content_type.starts_with("application/json"), "{uri}");
        a.json()
    }

    /// `GET uri`, which must be refused with `status` and a JSON error; the error.
    fn refused(&self, uri: &str, status: StatusCode) -> String {
        let a = self.get(uri);
        assert_eq!(
            a.status,
            status,
            "{uri}: {}",
            String::from_utf8_lossy(&a.body)
        );
        a.error()
    }
}

fn value<T: serde::Serialize>(answer: T) -> Value {
    serde_json::to_value(answer).expect("the library's answer as JSON")
}

#[test]
fn explore_answers_what_the_library_answers() {
    let f = Fixture::new();
    let db = f.db.database();
    let start = db
        .explore(&Target::Fen("startpos".into()), &Filters::default())
        .expect("explore");
    assert!(start.games > 0 && !start.moves.is_empty() && !start.top_games.is_empty());
    assert_eq!(f.json("/api/db/explore?fen=startpos"), value(&start));
    assert_eq!(
        f.json(&format!("/api/db/explore?fen={}", enc(START))),
        value(&start)
    );
    assert_eq!(f.json("/api/db/explore?moves="), value(&start));

    // After 1. e4, by moves (SAN or UCI) and by FEN.
    let e4 = db
        .explore(&Target::Moves("e4".into()), &Filters::default())
        .expect("explore");
    assert_eq!(e4.fen, AFTER_E4);
    assert_eq!(
        e4.games,
        start
            .moves
            .iter()
            .find(|m| m.san == "e4")
            .map_or(0, |m| m.games)
    );
    assert_eq!(f.json("/api/db/explore?moves=e4"), value(&e4));
    assert_eq!(f.json("/api/db/explore?moves=e2e4"), value(&e4));
    assert_eq!(
        f.json(&format!("/api/db/explore?fen={}", enc(AFTER_E4))),
        value(&e4)
    );

    // Filters: a rating group, speeds, months, a player and their colour.
    let player = start.top_games[0]
        .white
        .clone()
        .expect("a top game's White");
    let filtered = Filters {
        rating: Some((Some(1600), Some(2199))),
        speeds: vec!["blitz".into(), "rapid".into(), "bullet".into()],
        since: Some(YearMonth::parse("2013-01").expect("month")),
        until: Some(YearMonth::parse("2030-12").expect("month")),
        ..Filters::default()
    };
    let answer = db
        .explore(&Target::Fen("startpos".into()), &filtered)
        .expect("explore");
    assert!(
        answer.games > 0 && answer.games < start.games,
        "{}",
        answer.games
    );
    assert_eq!(
        f.json(
            "/api/db/explore?fen=startpos&rating=1600-2199\
             &speed=blitz,rapid,bullet&since=2013-01&until=2030-12"
        ),
        value(&answer)
    );
    let theirs = Filters {
        player: Some(player.clone()),
        color: Some(Side::White),
        ..Filters::default()
    };
    let answer = db
        .explore(&Target::Fen("startpos".into()), &theirs)
        .expect("explore");
    assert!(answer.games >= 1);
    assert_eq!(
        f.json(&format!(
            "/api/db/explore?fen=startpos&player={}&color=white",
            enc(&player)
        )),
        value(&answer)
    );
}

#[test]
fn search_answers_what_the_library_answers() {
    let f = Fixture::new();
    let db = f.db.database();
    let filters = Filters::default();
    let e4 = SearchQuery::Position(Target::Moves("e4".into()));
    let all = db.search(&e4, &filters, 200, 0).expect("search");
    assert!(all.total > 3, "{}", all.total);
    assert!(all.games.iter().all(|g| g.ply == 1));
    assert_eq!(f.json("/api/db/search?moves=e4&limit=500"), value(&all));
    let page = db.search(&e4, &filters, 2, 1).expect("search");
    assert_eq!(page.games, all.games[1..3]);
    assert_eq!(
        f.json(&format!(
            "/api/db/search?fen={}&limit=2&offset=1",
            enc(AFTER_E4)
        )),
        value(&page)
    );
    let first = db.search(&e4, &filters, 20, 0).expect("search");
    assert_eq!(f.json("/api/db/search?moves=e4"), value(&first));

    let material = SearchQuery::material("KRvK", true).expect("material");
    assert_eq!(
        f.json("/api/db/search?material=KRvK&either_color=1"),
        value(db.search(&material, &filters, 20, 0).expect("search"))
    );
    let pattern = SearchQuery::Pattern(parse_pattern("wKg1,bKg8").expect("pattern"));
    let castled = db.search(&pattern, &filters, 20, 0).expect("search");
    assert!(castled.total > 0);
    assert_eq!(f.json("/api/db/search?pattern=wKg1,bKg8"), value(&castled));
    let blitz = Filters {
        speeds: vec!["blitz".into()],
        ..Filters::default()
    };
    assert_eq!(
        f.json("/api/db/search?pattern=wKg1,bKg8&speed=blitz"),
        value(db.search(&pattern, &blitz, 20, 0).expect("search"))
    );
}

#[test]
fn games_page_through_the_database() {
    let f = Fixture::new();
    let db = f.db.database();
    let all = db.games(&Filters::default(), None, 200, 0).expect("games");
    assert_eq!(all.total, 80);
    assert_eq!(
        f.json("/api/db/games"),
        value(db.games(&Filters::default(), None, 20, 0).expect("games"))
    );
    let page = f.json("/api/db/games?limit=10&offset=75");
    assert_eq!(
        page,
        value(db.games(&Filters::default(), None, 10, 75).expect("games"))
    );
    assert_eq!(page["games"].as_array().map(Vec::len), Some(5));
    assert_eq!(page["total"], 80);

    // A text search over players, events and sites, any case, with filters.
    let name = all.games[0].black.clone().expect("a player");
    let part: String = name.chars().take(4).collect::<String>().to_uppercase();
    let found = db
        .games(&Filters::default(), Some(&part), 20, 0)
        .expect("games");
    assert!(found.total >= 1);
    assert_eq!(
        f.json(&format!("/api/db/games?q={}", enc(&part))),
        value(&found)
    );
    let rated = Filters {
        rating: Some((Some(2000), None)),
        ..Filters::default()
    };
    assert_eq!(
        f.json("/api/db/games?rating=2000-&limit=3"),
        value(db.games(&rated, None, 3, 0).expect("games"))
    );
}

#[test]
fn a_game_opens_as_the_pgn_browser_reads_it_at_the_ply_it_reached_the_position() {
    let f = Fixture::new();
    let db = f.db.database();
    let after = db
        .explore(&Target::Moves("e4 e5".into()), &Filters::default())
        .expect("explore");
    let listed = after
        .top_games
        .first()
        .or(after.recent_games.first())
        .expect("a game that reached 1. e4 e5");
    assert_eq!(listed.ply, 2);

    // The same JSON as POST /api/pgn/game for the game's PGN from the library.
    let pgn = db
        .game_pgn(&listed.id)
        .expect("game_pgn")
        .expect("the listed game");
    let expected = f
        .runtime
        .block_on(post(app(), "/api/pgn/game", pgn.clone()))
        .json();
    let game = f.json(&format!("/api/db/game/{}", listed.id));
    assert_eq!(game, expected);
    assert_eq!(game["tags"]["White"].as_str(), listed.white.as_deref());
    assert!(game["pgn"].as_str().is_some_and(|t| t.contains("1. e4 e5")));
    // Its position after `ply` moves is the one explored (clocks aside).
    let reached = game["moves"][listed.ply as usize - 1]["fen"]
        .as_str()
        .expect("a FEN");
    let placement = |fen: &str| fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
    assert_eq!(placement(reached), placement(&after.fen));

    let e = f.refused("/api/db/game/123456789", StatusCode::NOT_FOUND);
    assert!(e.contains("123456789"), "{e}");
    let e = f.refused("/api/db/game/not-a-number", StatusCode::BAD_REQUEST);
    assert!(e.contains("not a game id"), "{e}");
    // Not valid UTF-8 once decoded.
    f.refused("/api/db/game/%FF", StatusCode::BAD_REQUEST);
}

#[test]
fn info_and_bad_input() {
    let f = Fixture::new();
    let info = f.json("/api/db");
    assert_eq!(info, value(f.db.database().info().expect("info")));
    assert_eq!(info["games"], 80);

    let bad = [
        ("/api/db/explore", "missing query parameter `fen`"),
        ("/api/db/explore?fen=startpos&moves=e4", "not both"),
        (
            "/api/db/explore?fen=8/8/8/8/8/8/8/8+w+-+-+0+1",
            "invalid FEN",
        ),
        ("/api/db/explore?moves=e4+e4", "`moves`"),
        ("/api/db/explore?fen=startpos&rating=high", "`rating`"),
        (
            "/api/db/explore?fen=startpos&rating=2200-2000",
            "MIN is above MAX",
        ),
        ("/api/db/explore?fen=startpos&speed=turbo", "`speed`"),
        ("/api/db/explore?fen=startpos&since=2024-13", "not a month"),
        (
            "/api/db/explore?fen=startpos&since=2024-02&until=2024-01",
            "after",
        ),
        ("/api/db/explore?fen=startpos&color=white", "needs `player`"),
        (
            "/api/db/explore?fen=startpos&player=A&color=green",
            "white or black",
        ),
        ("/api/db/search", "one of `fen`"),
        (
            "/api/db/search?fen=startpos&material=KvK",
            "not `fen` and `material`",
        ),
        ("/api/db/search?material=KRvR", "`material`"),
        (
            "/api/db/search?material=KRvK&either_color=maybe",
            "either_color",
        ),
        ("/api/db/search?pattern=wKg9", "`pattern`"),
        ("/api/db/search?pattern=wKg1&limit=0", "`limit`"),
        ("/api/db/games?offset=-1", "`offset`"),
        ("/api/db/games?limit=ten", "`limit`"),
        ("/api/db/games?speed=turbo", "`speed`"),
    ];
    for (uri, expected) in bad {
        let e = f.refused(uri, StatusCode::BAD_REQUEST);
        assert!(e.contains(expected), "{uri}: {e}");
    }

    // Another method: 405 naming GET, as every route.
    for path in [
        "/api/db",
        "/api/db/explore",
        "/api/db/search",
        "/api/db/games",
        "/api/db/game/1",
    ] {
        let a = f.send(
            Request::builder()
                .method(Method::POST)
                .uri(path)
                .body(Body::empty())
                .expect("request"),
        );
        assert_eq!(a.status, StatusCode::METHOD_NOT_ALLOWED, "{path}");
        assert!(
            a.allow.as_deref().is_some_and(|v| v.contains("GET")),
            "{path}"
        );
        assert!(a.error().contains("POST"), "{path}");
    }
}

#[tokio::test]
async fn without_a_database_the_routes_say_how_to_make_one() {
    let a = get("/api/db").await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(
        a.json(),
        serde_json::json!({ "db": null, "hint": NO_DB_HINT })
    );
    assert!(NO_DB_HINT.contains("tabla db import GAMES.pgn --db DIR"));
    for uri in [
        "/api/db/explore?fen=startpos",
        "/api/db/search?moves=e4",
        "/api/db/games",
        "/api/db/game/1",
        // The database is missing whatever the request says.
        "/api/db/explore?fen=nonsense",
    ] {
        let a = get(uri).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{uri}");
        assert!(a.error().contains(NO_DB_HINT), "{uri}: {}", a.error());
    }
}

// ---------------------------------------------------------------- reviews of the database's games

/// A router over the fixture's database whose engine reviews search `nodes` per position; its
/// reviews (for their running count).
fn reviewing_app(f: &Fixture, nodes: u64) -> (axum::Router, Arc<tabla_web::GameReviews>) {
    let mut state = tabla_web::AppState::new(common::tables());
    state.db = Some(Arc::clone(&f.db));
    let reviews = Arc::new(
        tabla_web::GameReviews::new(None).with_budget(tabla_analysis::Budget::Nodes(nodes)),
    );
    state.reviews = Arc::clone(&reviews);
    (tabla_web::router(state), reviews)
}

/// `POST /api/db/review?query` to the end: its NDJSON lines.
fn review_lines(f: &Fixture, app: &axum::Router, query: &str) -> Vec<Value> {
    let req = Request::post(format!("/api/db/review?{query}"))
        .body(Body::empty())
        .expect("request");
    let a = f.runtime.block_on(send(app.clone(), req));
    assert_eq!(
        a.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&a.body)
    );
    assert_eq!(a.content_type, "application/x-ndjson");
    String::from_utf8_lossy(&a.body)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// The rows of a query as JSON objects, as `tabla db sql --json` prints them.
fn sql_rows(db: &tabla_db::Database, sql: &str) -> Vec<Value> {
    let batches = db.sql(sql).expect(sql);
    let mut out = Vec::new();
    tabla_db::write_rows(&batches, tabla_db::Format::Json, &mut out).expect("JSON rows");
    serde_json::from_slice(&out).expect("a JSON array")
}

#[test]
fn a_players_games_reviewed_in_one_go_show_the_tables_figures() {
    let f = Fixture::new();
    let db = f.db.database();
    let first = db
        .games(&Filters::default(), None, 1, 0)
        .expect("a game")
        .games
        .remove(0);
    let player = first.white.clone().expect("White's name");
    let (app, reviews) = reviewing_app(&f, 2000);
    let query = format!("player={}", enc(&player));

    // Before: no review shown.
    let before = f.json(&format!("/api/db/games?{query}"));
    assert!(before["games"][0].get("review").is_none(), "{before}");

    let lines = review_lines(&f, &app, &query);
    let (last, progress) = lines.split_last().expect("lines");
    assert!(!progress.is_empty(), "progress before the summary");
    for line in progress {
        assert_eq!(line["progress"]["total"], 1, "{line}");
    }
    let summary = &last["summary"];
    // The library's counts: one game selected and reviewed, its positions those of its moves.
    let rows = sql_rows(
        &db,
        &format!(
            "SELECT engine, rules, white_accuracy, black_accuracy, white_acpl, black_acpl, \
             white_inaccuracies, white_mistakes, white_blunders, black_inaccuracies, \
             black_mistakes, black_blunders, moves FROM review_games WHERE game_id = {}",
            first.id
        ),
    );
    assert_eq!(rows.len(), 1, "{rows:?}");
    let row = &rows[0];
    assert_eq!(summary["selected"], 1);
    assert_eq!(summary["already"], 0);
    assert_eq!(summary["games"], 1);
    assert_eq!(summary["errors"], 0);
    assert_eq!(
        summary["positions"],
        row["moves"].as_u64().expect("moves") + 1
    );
    assert_eq!(summary["engine"], row["engine"]);
    assert_eq!(summary["rules"], "lichess");
    assert_eq!(
        summary["evaluated"].as_u64().expect("evaluated")
            + summary["from_cache"].as_u64().expect("from cache"),
        summary["positions"].as_u64().expect("positions"),
        "each position once (a game without repetitions)"
    );
    assert_eq!(reviews.running(), 0);

    // The list shows the table's figures, under the configuration the server's reviews write.
    let after = {
        let req = Request::get(format!("/api/db/games?{query}"))
            .body(Body::empty())
            .expect("request");
        f.runtime.block_on(send(app.clone(), req)).json()
    };
    let game = after["games"]
        .as_array()
        .expect("games")
        .iter()
        .find(|g| g["id"] == first.id.as_str())
        .expect("the game");
    let review = &game["review"];
    assert_eq!(review["engine"], row["engine"]);
    assert_eq!(review["rules"], row["rules"]);
    assert_eq!(review["white_accuracy"], row["white_accuracy"]);
    assert_eq!(review["black_accuracy"], row["black_accuracy"]);
    for side in ["white", "black"] {
        for what in ["acpl", "inaccuracies", "mistakes", "blunders"] {
            assert_eq!(
                review[side][what],
                row[format!("{side}_{what}")],
                "{side} {what}"
            );
        }
    }
    // The search's list shows it too.
    let search = {
        let req = Request::get(format!("/api/db/search?moves=&{query}"))
            .body(Body::empty())
            .expect("request");
        f.runtime.block_on(send(app.clone(), req)).json()
    };
    assert_eq!(search["games"][0]["review"], *review);

    // The PGN browser's report of that game comes from the database's evaluations at once
    // (the server's own cache is empty: in memory here), with the table's figures.
    let pgn = f.json(&format!("/api/db/game/{}", first.id))["pgn"]
        .as_str()
        .expect("the game's PGN")
        .to_owned();
    let report = {
        let req = Request::post("/api/review?cached=1&engine=1")
            .body(Body::from(pgn))
            .expect("request");
        f.runtime.block_on(send(app.clone(), req)).json()
    };
    assert_eq!(report["source"], "engine", "{report}");
    for side in ["white", "black"] {
        let shown = report["review"][side]["accuracy"]
            .as_f64()
            .expect("accuracy");
        let stored = row[format!("{side}_accuracy")].as_f64().expect("accuracy");
        assert!(
            (shown - stored).abs() < 1e-9,
            "{side}: {shown} against {stored}"
        );
        assert_eq!(report["review"][side]["acpl"], row[format!("{side}_acpl")]);
    }
    assert_eq!(reviews.running(), 0, "no engine started");

    // A second run reviews nothing new.
    let again = review_lines(&f, &app, &query);
    let summary = &again.last().expect("a summary")["summary"];
    assert_eq!(
        (&summary["selected"], &summary["already"], &summary["games"]),
        (&Value::from(1), &Value::from(1), &Value::from(0))
    );
}

#[test]
fn a_bulk_review_ends_when_its_client_leaves_and_one_runs_at_a_time() {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let f = Fixture::new();
    // A budget no test waits for: only a cancel ends this review soon.
    let (app, reviews) = reviewing_app(&f, 50_000_000);
    let req = Request::post("/api/db/review?all=1")
        .body(Body::empty())
        .expect("request");
    let started = std::time::Instant::now();
    let mut body = f.runtime.block_on(async {
        let response = app.clone().oneshot(req).await.expect("an answer");
        assert_eq!(response.status(), StatusCode::OK);
        let mut body = response.into_body();
        let frame = tokio::time::timeout(std::time::Duration::from_secs(30), body.frame())
            .await
            .expect("a first line within 30 s")
            .expect("the stream goes on")
            .expect("a frame");
        let text = String::from_utf8(frame.into_data().expect("data").to_vec()).expect("UTF-8");
        assert!(text.starts_with("{\"progress\""), "{text}");
        body
    });
    assert_eq!(reviews.running(), 1);

    // One at a time, shared with the game report's engine review.
    let busy = f.runtime.block_on(send(
        app.clone(),
        Request::post("/api/db/review?player=x")
            .body(Body::empty())
            .expect("request"),
    ));
    assert_eq!(busy.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(!busy.error().is_empty());
    let report = f.runtime.block_on(common::post(
        app.clone(),
        "/api/review?engine=1",
        "1. e4 e5 2. Nf3 *",
    ));
    assert_eq!(report.status, StatusCode::TOO_MANY_REQUESTS);

    // The client leaves: the engines stop and the place is given back.
    f.runtime.block_on(async {
        let _ = tokio::time::timeout(std::time::Duration::from_millis(50), body.frame()).await;
    });
    drop(body);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while reviews.running() > 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the review still runs 20 s after its client left"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    // Nothing of the cancelled batch is stored: none of its games counts as reviewed.
    let rows = sql_rows(&f.db.database(), "SELECT COUNT(*) AS n FROM review_games");
    assert_eq!(rows[0]["n"], 0);
}

#[test]
fn a_bulk_review_refuses_bad_filters() {
    let f = Fixture::new();
    let (app, reviews) = reviewing_app(&f, 2000);
    for (query, says) in [
        ("speed=turbo", "turbo"),
        ("color=white", "`player`"),
        ("rating=abc", "rating"),
        // A typo is not ignored (it would review the whole database), nor is an empty filter.
        ("playr=Carlsen", "unknown query parameter `playr`"),
        ("player=", "empty query parameter `player`"),
        // The whole database only when asked for.
        ("", "needs `all=1`"),
        ("all=yes&speed=blitz", "`all` is 1"),
    ] {
        let a = f.runtime.block_on(send(
            app.clone(),
            Request::post(format!("/api/db/review?{query}"))
                .body(Body::empty())
                .expect("request"),
        ));
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{query}");
        let error = a.error();
        assert!(error.contains(says), "{query}: {error}");
    }
    assert_eq!(reviews.running(), 0);
    // Without a database: 404 saying how to start with one.
    let a = f.runtime.block_on(send(
        app_without_db(),
        Request::post("/api/db/review")
            .body(Body::empty())
            .expect("request"),
    ));
    assert_eq!(a.status, StatusCode::NOT_FOUND);
}

fn app_without_db() -> axum::Router {
    app()
}
