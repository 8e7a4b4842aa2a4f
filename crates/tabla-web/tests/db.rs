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
use tabla_db::{Filters, Material, SearchQuery, Side, Target, YearMonth, parse_pattern};
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
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
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
             &speed=blitz,rapid,bullet&since=2013-01&until=2030-12&player=&color="
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

    let material = SearchQuery::Material(Material::parse("KRvK", true).expect("material"));
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
        f.json("/api/db/games?q=&rating=2000-&limit=3"),
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
        ("/api/db/search?material=KRK", "`material`"),
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
