//! The JSON API route by route, bad input included, through the same router `tabla serve` runs.
//!
//! Expected values come from outside tabla: published figures (20 moves in the start position),
//! python-chess (FENs after a move, mates in one, stalemates, game and move counts of the PGN
//! files) and hand-checked positions.

mod common;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use common::{Answer, app, app_with_limit, enc, get, post, send};
use serde_json::{Value, json};

async fn post_pgn(app: Router, body: impl Into<Body>) -> Answer {
    post(app, "/api/pgn", body).await
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// ---------------------------------------------------------------- /api/position

#[tokio::test]
async fn position_lists_the_twenty_opening_moves() {
    let a = get(&format!("/api/position?fen={}", enc(START))).await;
    assert_eq!(a.status, StatusCode::OK);
    assert!(a.content_type.starts_with("application/json"));
    let v = a.json();
    assert_eq!(v["fen"], START);
    assert_eq!(v["status"], "in play");
    assert_eq!(v["turn"], "white");
    let moves = v["legal_moves"].as_array().expect("legal_moves");
    assert_eq!(moves.len(), 20);
    let nf3 = moves
        .iter()
        .find(|m| m["san"] == "Nf3")
        .expect("Nf3 among the moves");
    assert_eq!(nf3["lan"], "Ng1-f3");
    assert_eq!(nf3["uci"], "g1f3");
}

#[tokio::test]
async fn position_accepts_plus_for_spaces_and_canonicalises() {
    // The knight-check FEN with a full-move number of 0 (python-chess writes it back with 1).
    let a = get("/api/position?fen=8/8/8/8/8/kn1b4/2P5/K7+w+-+-+0+0").await;
    assert_eq!(a.status, StatusCode::OK);
    let v = a.json();
    assert_eq!(v["fen"], "8/8/8/8/8/kn1b4/2P5/K7 w - - 0 1");
    assert_eq!(v["check"], true);
    let sans: Vec<&str> = v["legal_moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["san"].as_str().expect("san"))
        .collect();
    assert_eq!(sans.len(), 2);
    assert!(sans.contains(&"Kb1") && sans.contains(&"cxb3"));
}

#[tokio::test]
async fn position_reports_mate_and_stalemate() {
    // Hand-checked (and by python-chess): the fool's mate, and a KBNK stalemate.
    let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let v = get(&format!("/api/position?fen={}", enc(mate)))
        .await
        .json();
    assert_eq!(v["status"], "checkmate");
    assert_eq!(v["legal_moves"].as_array().map(Vec::len), Some(0));
    let stalemate = "k7/2K5/2N5/8/8/8/7B/8 b - - 0 1";
    let v = get(&format!("/api/position?fen={}", enc(stalemate)))
        .await
        .json();
    assert_eq!(v["status"], "stalemate");
}

#[tokio::test]
async fn position_refuses_bad_fens_with_400_naming_the_problem() {
    let cases = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1",
            "castling",
        ),
        ("8/8/8 w - - 0 1", "rank"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "king"),
        // Kings side by side: each is in check.
        ("8/8/8/8/8/8/8/Kk6 w - - 0 1", "check"),
        ("", "empty"),
    ];
    for (fen, word) in cases {
        let a = get(&format!("/api/position?fen={}", enc(fen))).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{fen}");
        let e = a.error();
        assert!(e.to_lowercase().contains(word), "{fen}: {e}");
    }
    let a = get("/api/position").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert!(a.error().contains("fen"));
}

#[tokio::test]
async fn position_after_a_line_of_moves() {
    // python-chess: b = Board(); [b.push_uci(m) for m in ...]; b.fen(), and
    // Board().variation_san(moves) == "1. e4 e5 2. Nf3 Nc6 3. Bb5" (python-chess writes no
    // space after "...", tabla does, as PGN movetext).
    let a = get(&format!(
        "/api/position?fen={}&moves=e2e4,e7e5,g1f3%20b8c6+f1b5",
        enc(START)
    ))
    .await;
    assert_eq!(a.status, StatusCode::OK);
    let v = a.json();
    assert_eq!(
        v["fen"],
        "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
    );
    assert_eq!(v["line"], "1. e4 e5 2. Nf3 Nc6 3. Bb5");
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let v = get(&format!("/api/position?fen={}&moves=e7e5", enc(after_e4)))
        .await
        .json();
    assert_eq!(v["line"], "1... e5");
    // Without `moves` there is no line; with an empty list, the empty line.
    let v = get(&format!("/api/position?fen={}", enc(START)))
        .await
        .json();
    assert!(v.get("line").is_none(), "{v}");
    let v = get(&format!("/api/position?fen={}&moves=", enc(START)))
        .await
        .json();
    assert_eq!(v["line"], "");
    // An illegal move is named with its place in the list.
    let a = get(&format!("/api/position?fen={}&moves=e2e4,e2e4", enc(START))).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert!(a.error().contains("move 2"), "{}", a.error());
}

// ---------------------------------------------------------------- /api/play

#[tokio::test]
async fn play_gives_the_position_after_the_move() {
    let a = get(&format!("/api/play?fen={}&uci=g1f3", enc(START))).await;
    assert_eq!(a.status, StatusCode::OK);
    let v = a.json();
    assert_eq!(v["played"]["san"], "Nf3");
    // python-chess: Board().push_uci("g1f3").fen()
    assert_eq!(
        v["fen"],
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"
    );
    assert_eq!(v["legal_moves"].as_array().map(Vec::len), Some(20));

    for bad in ["e2e5", "zz", "0000", ""] {
        let a = get(&format!("/api/play?fen={}&uci={}", enc(START), enc(bad))).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{bad}");
        // An empty `uci` is refused before the move is read, by name.
        let said = if bad.is_empty() { "`uci`" } else { "move" };
        assert!(a.error().contains(said), "{bad}: {}", a.error());
    }
}

// ---------------------------------------------------------------- /api/kbnk

#[tokio::test]
async fn kbnk_mate_in_one() {
    // python-chess: Bd5# is the only mating move of 20.
    let a = get(&format!(
        "/api/kbnk?fen={}",
        enc("k7/8/NK2B3/8/8/8/8/8 w - - 0 1")
    ))
    .await;
    assert_eq!(a.status, StatusCode::OK);
    let v = a.json();
    assert_eq!(v["dtm"], 1);
    assert_eq!(v["plies"], 1);
    assert_eq!(v["status"], "win");
    assert_eq!(v["best"]["san"], "Bd5#");
    assert_eq!(v["best"]["uci"], "e6d5");
    let moves = v["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 20);
    assert_eq!(moves[0]["san"], "Bd5#");
    assert_eq!(moves[0]["mate"], true);
    assert_eq!(moves[0]["dtm"], 0);
    assert_eq!(moves.iter().filter(|m| m["mate"] == true).count(), 1);

    // The same position mirrored, Black with the pieces: Bd4#.
    let v = get(&format!(
        "/api/kbnk?fen={}",
        enc("8/8/8/8/8/nk2b3/8/K7 b - - 0 1")
    ))
    .await
    .json();
    assert_eq!(v["dtm"], 1);
    assert_eq!(v["best"]["san"], "Bd4#");
}

#[tokio::test]
async fn kbnk_checkmate_stalemate_and_draw_by_capture() {
    let v = get(&format!(
        "/api/kbnk?fen={}",
        enc("k7/8/NK6/3B4/8/8/8/8 b - - 0 1")
    ))
    .await
    .json();
    assert_eq!(
        (v["status"].as_str(), v["dtm"].as_i64()),
        (Some("checkmate"), Some(0))
    );
    assert_eq!(v["best"], Value::Null);
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(0));

    let v = get(&format!(
        "/api/kbnk?fen={}",
        enc("k7/2K5/2N5/8/8/8/7B/8 b - - 0 1")
    ))
    .await
    .json();
    assert_eq!(v["status"], "stalemate");
    assert_eq!(v["stalemate"], true);
    assert_eq!(v["plies"], Value::Null);

    // Black in check by the bishop, both pieces unprotected: Kxa1 and Kxa2 draw.
    let v = get(&format!(
        "/api/kbnk?fen={}",
        enc("7K/8/8/8/8/8/Nk6/B7 b - - 0 1")
    ))
    .await
    .json();
    assert_eq!(v["status"], "draw");
    assert_eq!(v["dtm"], 0);
    let best = v["best"]["san"].as_str().expect("best");
    assert!(best == "Kxa1" || best == "Kxa2", "{best}");
    let moves = v["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 6); // python-chess: Kb3 Ka3 Kc2 Kxa2 Kb1 Kxa1
    for m in moves
        .iter()
        .filter(|m| m["san"].as_str().is_some_and(|s| s.contains('x')))
    {
        assert_eq!(
            (m["dtm"].as_i64(), &m["plies"]),
            (Some(0), &Value::Null),
            "{m}"
        );
    }
}

#[tokio::test]
async fn kbnk_values_agree_with_the_moves() {
    // For White to move, the DTM is one more than the fastest Black loss after a move; for Black
    // to move, the DTM is the slowest loss among its moves. Check along the optimal line.
    let mut fen = "8/8/8/3k4/8/8/8/KBN5 w - - 0 1".to_owned();
    let mut previous: Option<i64> = None;
    for _ in 0..200 {
        let v = get(&format!("/api/kbnk?fen={}", enc(&fen))).await.json();
        let dtm = v["dtm"].as_i64().expect("dtm");
        if v["status"] == "checkmate" {
            break;
        }
        let moves = v["moves"].as_array().expect("moves");
        let after: Vec<i64> = moves
            .iter()
            .map(|m| m["dtm"].as_i64().expect("dtm"))
            .collect();
        if v["turn"] == "white" {
            assert!(dtm > 0, "{fen}");
            // A move's value is Black's: -N when Black is then mated in N (0 for mate itself).
            let fastest = moves
                .iter()
                .zip(&after)
                .filter(|(m, d)| **d < 0 || m["mate"] == true)
                .map(|(_, d)| -d)
                .min();
            assert_eq!(Some(dtm - 1), fastest, "{fen}");
        } else {
            assert!(dtm < 0, "{fen}");
            assert_eq!(after.iter().max(), Some(&(-dtm)), "{fen}");
        }
        if let Some(p) = previous {
            assert_eq!(p, -dtm + i64::from(v["turn"] == "black"), "{fen}");
        }
        previous = Some(dtm);
        let best = v["best"]["uci"].as_str().expect("best").to_owned();
        let next = get(&format!("/api/play?fen={}&uci={best}", enc(&fen)))
            .await
            .json();
        fen = next["fen"].as_str().expect("fen").to_owned();
    }
    assert_eq!(
        get(&format!("/api/kbnk?fen={}", enc(&fen))).await.json()["status"],
        "checkmate"
    );
}

#[tokio::test]
async fn kbnk_refuses_other_material_and_illegal_positions() {
    let a = get(&format!("/api/kbnk?fen={}", enc(START))).await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        a.error().contains("KBNK") || a.error().contains("bare king"),
        "{}",
        a.error()
    );
    let a = get(&format!(
        "/api/kbnk?fen={}",
        enc("k7/8/8/8/8/8/8/KQ6 w - - 0 1")
    ))
    .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    // Black in check with White to move: not a legal position.
    let a = get(&format!(
        "/api/kbnk?fen={}",
        enc("k7/8/NK6/3B4/8/8/8/8 w - - 0 1")
    ))
    .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert!(a.error().contains("check"), "{}", a.error());
    let a = get("/api/kbnk?fen=nonsense").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    let a = get("/api/kbnk").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
}

// ---------------------------------------------------------------- /api/pgn

#[tokio::test]
async fn pgn_reads_the_sample() {
    let a = post_pgn(app(), tabla_web::SAMPLE_PGN).await;
    assert_eq!(a.status, StatusCode::OK);
    let v = a.json();
    let games = v["games"].as_array().expect("games");
    assert_eq!(games.len(), 2);
    // python-chess: 33 and 45 plies, both ending in mate.
    assert_eq!(games[0]["moves"].as_array().map(Vec::len), Some(33));
    assert_eq!(games[1]["moves"].as_array().map(Vec::len), Some(45));
    assert_eq!(games[0]["tags"]["White"], "Morphy, Paul");
    assert_eq!(games[0]["moves"][32]["san"], "Rd8#");
    assert_eq!(games[0]["moves"][32]["lan"], "Rd1-d8#");
    // 3... Bg4 $6 has a variation 3... exd4 with a comment.
    let bg4 = &games[0]["moves"][5];
    assert_eq!(bg4["san"], "Bg4");
    assert_eq!(bg4["nags"][0], 6);
    assert_eq!(bg4["variations"][0][0]["san"], "exd4");
    assert!(
        bg4["variations"][0][0]["comments"][0]
            .as_str()
            .is_some_and(|c| c.contains("usual"))
    );
    assert!(games.iter().all(|g| g["error"].is_null()));
}

#[tokio::test]
async fn pgn_damaged_game_carries_its_error_and_the_others_load() {
    let pgn = "[White \"A\"]\n\n1. e4 e5 2. Nf3 *\n\n\
               [White \"B\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n\
               [White \"C\"]\n\n1. d4 d5 *\n";
    let v = post_pgn(app(), pgn).await.json();
    let games = v["games"].as_array().expect("games");
    assert_eq!(games.len(), 3);
    assert!(games[0]["error"].is_null());
    assert!(games[2]["error"].is_null());
    assert_eq!(games[2]["moves"].as_array().map(Vec::len), Some(2));
    let e = games[1]["error"].as_str().expect("the second game's error");
    // 2. Ke3 is on line 7, column 13.
    assert!(
        e.contains("Ke3") && e.contains("illegal") && e.contains("7:13"),
        "{e}"
    );
    assert_eq!(games[1]["moves"].as_array().map(Vec::len), Some(2));
}

#[tokio::test]
async fn pgn_reads_files_of_testdata() {
    // Game counts and mainline plies from python-chess (testdata/pgn_reference.tsv, written by
    // testdata/gen_pgn_reference.py).
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/pgn/");
    for (file, games, first_plies) in [
        ("lichess_db_1000k.pgn", 80, 42),
        ("kasparov-deep-blue-1997.pgn", 6, 89),
    ] {
        let bytes = std::fs::read(format!("{data}{file}")).expect("testdata PGN file");
        let v = post_pgn(app(), bytes).await.json();
        let list = v["games"].as_array().expect("games");
        assert_eq!(list.len(), games, "{file}");
        assert_eq!(
            list[0]["moves"].as_array().map(Vec::len),
            Some(first_plies),
            "{file}"
        );
    }
}

#[tokio::test]
async fn pgn_over_the_limit_is_413() {
    let pgn = tabla_web::SAMPLE_PGN;
    let a = post_pgn(app_with_limit(100), pgn).await;
    assert_eq!(a.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(a.error().contains("limit"), "{}", a.error());
    // Without a length given in advance (a streamed body) too.
    let chunks = Body::new(Chunks {
        bytes: pgn.as_bytes().to_vec(),
        at: 0,
    });
    let a = post_pgn(app_with_limit(100), chunks).await;
    assert_eq!(a.status, StatusCode::PAYLOAD_TOO_LARGE);
    // The default limit is 16 MiB: 17 MiB of spaces is refused, 1 MiB is read (no games).
    let a = post_pgn(app(), vec![b' '; 17 << 20]).await;
    assert_eq!(a.status, StatusCode::PAYLOAD_TOO_LARGE);
    let a = post_pgn(app(), vec![b' '; 1 << 20]).await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.json()["games"].as_array().map(Vec::len), Some(0));
}

/// A body that arrives 16 bytes a frame, with no length announced.
struct Chunks {
    bytes: Vec<u8>,
    at: usize,
}

impl http_body::Body for Chunks {
    type Data = axum::body::Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        let at = self.at;
        if at >= self.bytes.len() {
            return std::task::Poll::Ready(None);
        }
        let end = (at + 16).min(self.bytes.len());
        self.at = end;
        let chunk = axum::body::Bytes::copy_from_slice(&self.bytes[at..end]);
        std::task::Poll::Ready(Some(Ok(http_body::Frame::data(chunk))))
    }
}

// ---------------------------------------------------------------- /api/suggest

#[tokio::test]
async fn suggest_finds_the_mate_in_one() {
    // Hand-checked (and python-chess): Bd5# is the only mate.
    let a = get(&format!(
        "/api/suggest?fen={}&movetime=300",
        enc("k7/8/NK2B3/8/8/8/8/8 w - - 0 1")
    ))
    .await;
    assert_eq!(a.status, StatusCode::OK);
    let v = a.json();
    assert_eq!(v["best"]["san"], "Bd5#");
    assert_eq!(v["best"]["uci"], "e6d5");
    assert_eq!(v["score"]["mate"], 1);
    assert_eq!(v["pv"][0]["san"], "Bd5#");
    assert_eq!(v["line"], "1. Bd5#");
    assert_eq!(v["movetime"], 300);
    // tabla's own engine when the server is given none.
    assert_eq!(v["engine"], tabla_engine::uci::ENGINE_NAME);

    // The same mate with colours swapped (python-chess: Bd5# the only mate): the score is
    // White's point of view, as everywhere in the API, so Black's mate is -1.
    let a = get(&format!(
        "/api/suggest?fen={}&movetime=300",
        enc("K7/8/nk2b3/8/8/8/8/8 b - - 0 1")
    ))
    .await;
    assert_eq!(a.status, StatusCode::OK);
    let v = a.json();
    assert_eq!(
        (&v["best"]["san"], &v["score"]),
        (&json!("Bd5#"), &json!({"mate": -1}))
    );
}

#[tokio::test]
async fn suggest_gives_a_legal_move_and_line() {
    // The Bh6 test position of docs/background.md (the game went on 40. Bh6).
    let fen = "6k1/p2q1b2/2n2Qp1/1p2p3/4P3/2P1B3/5R1K/8 w - - 1 40";
    let v = get(&format!("/api/suggest?fen={}&movetime=200", enc(fen)))
        .await
        .json();
    let legal = get(&format!("/api/position?fen={}", enc(fen))).await.json();
    let legal: Vec<&Value> = legal["legal_moves"]
        .as_array()
        .expect("moves")
        .iter()
        .collect();
    assert!(
        legal
            .iter()
            .any(|m| m["uci"] == v["best"]["uci"] && m["san"] == v["best"]["san"]),
        "{v}"
    );
    let pv = v["pv"].as_array().expect("pv");
    assert_eq!(pv[0], v["best"]);
    // Every move of the line is legal where it is played.
    let mut at = fen.to_owned();
    for m in pv {
        let uci = m["uci"].as_str().expect("uci");
        let next = get(&format!("/api/play?fen={}&uci={uci}", enc(&at))).await;
        assert_eq!(next.status, StatusCode::OK, "{uci} in {at}");
        let next = next.json();
        assert_eq!(next["played"]["san"], m["san"]);
        at = next["fen"].as_str().expect("fen").to_owned();
    }
    // `line` is the same moves, numbered: the SANs in order, with "40." before White's first
    // and a number before each of White's next moves.
    let mut expected = String::new();
    for (i, m) in pv.iter().enumerate() {
        if i % 2 == 0 {
            expected.push_str(&format!("{}{}. ", if i > 0 { " " } else { "" }, 40 + i / 2));
        } else {
            expected.push(' ');
        }
        expected.push_str(m["san"].as_str().expect("san"));
    }
    assert_eq!(v["line"], expected.as_str(), "{v}");
    assert!(
        v["score"]["cp"].is_i64() || v["score"]["mate"].is_i64(),
        "{v}"
    );
}

#[tokio::test]
async fn suggest_refuses_bad_input() {
    let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let stalemate = "k7/2K5/2N5/8/8/8/7B/8 b - - 0 1";
    for (query, word) in [
        (format!("fen={}", enc(mate)), "checkmate"),
        (format!("fen={}", enc(stalemate)), "stalemate"),
        (format!("fen={}&movetime=abc", enc(START)), "movetime"),
        (format!("fen={}&movetime=0", enc(START)), "movetime"),
        (format!("fen={}&movetime=-1", enc(START)), "movetime"),
        ("movetime=100".to_owned(), "fen"),
        ("fen=xyz".to_owned(), "FEN"),
    ] {
        let a = get(&format!("/api/suggest?{query}")).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{query}");
        assert!(a.error().contains(word), "{query}: {}", a.error());
    }
}

// ---------------------------------------------------------------- static files and the rest

#[tokio::test]
async fn pages_and_assets_are_served_from_the_binary() {
    for page in ["/", "/endgame", "/kbnk", "/analysis", "/pgn", "/games"] {
        let a = get(page).await;
        assert_eq!(a.status, StatusCode::OK, "{page}");
        assert!(a.content_type.starts_with("text/html"), "{page}");
        assert!(String::from_utf8_lossy(&a.body).contains("<title>tabla"));
    }
    let a = get("/api/sample").await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.body, tabla_web::SAMPLE_PGN.as_bytes());
}

#[tokio::test]
async fn static_files_cannot_escape_their_root() {
    for path in [
        "/../Cargo.toml",
        "/..%2fCargo.toml",
        "/%2e%2e/%2e%2e/Cargo.toml",
        "/static/../../Cargo.toml",
        "//etc/passwd",
        "/index.html/..",
        "/src/lib.rs",
        "/build.rs",
        "/nope.js",
    ] {
        let a = get(path).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{path}");
        assert!(!a.error().is_empty());
    }
    let req = Request::builder()
        .method(Method::DELETE)
        .uri("/")
        .body(Body::empty())
        .expect("request");
    assert_eq!(
        send(app(), req).await.status,
        StatusCode::METHOD_NOT_ALLOWED
    );
    let a = get("/api/nothing").await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    assert!(a.error().contains("/api/nothing"));
    // An API route called with the wrong method: 405, a JSON error and the method it takes.
    for (method, uri, allowed) in [
        (Method::GET, "/api/pgn", "POST"),
        (Method::PUT, "/api/position", "GET"),
    ] {
        let req = Request::builder()
            .method(method.clone())
            .uri(uri)
            .body(Body::empty())
            .expect("request");
        let a = send(app(), req).await;
        assert_eq!(a.status, StatusCode::METHOD_NOT_ALLOWED, "{method} {uri}");
        assert!(a.error().contains(method.as_str()), "{}", a.error());
        let allow = a.allow.unwrap_or_default();
        assert!(allow.contains(allowed), "{method} {uri}: Allow {allow:?}");
    }
}

#[tokio::test]
async fn nothing_a_client_sends_gives_a_server_error() {
    let queries = [
        "fen=%ff%fe",
        "fen=%",
        "fen=%zz",
        "fen",
        "fen=&fen=",
        "fen=8/8/8/8/8/8/8/8%20w%20-%20-%200%201&fen=x",
        "fen=kkkkkkkk/8/8/8/8/8/8/KKKKKKKK%20w",
        "fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%20w%20KQkq%20e3%200%201",
        "fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%20w%20KQkq%20-%2099999999999%2099999999999",
        "uci=e2e4",
        "fen=k7/8/NK2B3/8/8/8/8/8%20w%20-%20-%200%201&uci=%ff",
    ];
    let long = "fen=".to_owned() + &"8/".repeat(2000);
    for route in [
        "/api/position",
        "/api/play",
        "/api/kbnk",
        "/api/tb",
        "/api/suggest",
    ] {
        for q in queries.iter().copied().chain([long.as_str()]) {
            let a = get(&format!("{route}?{q}")).await;
            assert!(
                a.status.is_client_error() || a.status.is_success(),
                "{route}?{q}: {}",
                a.status
            );
            let _ = a.json();
        }
    }
    let bodies: [&[u8]; 6] = [
        b"",
        b"\xff\xfe\x00garbage",
        b"[Event \"unterminated",
        b"1. e4 { never closed",
        b"((((((((((((((((((((((((((((((((((((((((1. e4",
        b"[FEN \"not a fen\"]\n\n1. e4 *",
    ];
    for body in bodies {
        let a = post_pgn(app(), body.to_vec()).await;
        assert_eq!(a.status, StatusCode::OK, "{body:?}");
        let _ = a.json();
    }
    let deep = "1. e4 ".to_owned() + &"(1. d4 ".repeat(10_000);
    let a = post_pgn(app(), deep).await;
    assert_eq!(a.status, StatusCode::OK);
}
