//! `POST /api/pgn/index` and `POST /api/pgn/game`: the game list first, a game's moves when it
//! is opened, through the same router `tabla serve` runs.
//!
//! Expected values are written here by hand (byte ranges found by searching the test's own
//! text, lines and columns counted in it) or come from `POST /api/pgn`, the route that reads a
//! whole text at once.

mod common;

use axum::Router;
use axum::http::StatusCode;
use common::{app, app_with_limit, post};
use serde_json::Value;

/// The index of `pgn`, checked to be a 200 JSON answer.
async fn index(app: Router, pgn: &[u8]) -> Value {
    let a = post(app, "/api/pgn/index", pgn.to_vec()).await;
    assert_eq!(
        a.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&a.body)
    );
    assert_eq!(a.content_type, "application/json");
    a.json()
}

/// Game `entry` of an index, asked for the way the browser does: its bytes and its entry's
/// `index`, `start`, `line` and `column`.
async fn open_game(app: Router, pgn: &[u8], entry: &Value) -> Value {
    let n = |name: &str| entry[name].as_u64().expect(name);
    let (start, end) = (n("start") as usize, n("end") as usize);
    let uri = format!(
        "/api/pgn/game?index={}&start={start}&line={}&column={}",
        n("index"),
        n("line"),
        n("column")
    );
    let a = post(app, &uri, pgn[start..end].to_vec()).await;
    assert_eq!(
        a.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&a.body)
    );
    assert_eq!(a.content_type, "application/json");
    a.json()
}

/// A text of five games: a byte-order mark, CRLF line ends and a Latin-1 name in the first; an
/// illegal move in the second; a stray `}` (a warning) in the third; the fifth starts in the
/// middle of the fourth's last line and has an illegal first move.
fn five_games() -> Vec<u8> {
    let mut pgn = b"\xef\xbb\xbf".to_vec();
    pgn.extend_from_slice(
        b"[Event \"Test\"]\r\n[White \"M\xfcller\"]\r\n[Black \"B\"]\r\n[Result \"1-0\"]\r\n\r\n\
          1. e4 e5 2. Nf3 1-0\r\n\r\n",
    );
    pgn.extend_from_slice(
        b"[Event \"Test\"]\n[White \"C\"]\n[Black \"D\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n\
          [White \"E\"]\n[Black \"F\"]\n\n1. d4 d5 } 2. c4 *\n\n\
          [White \"G\"]\n\n1. c4 * [White \"H\"] 1. Ke2 *\n",
    );
    pgn
}

fn find(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("in the text")
}

#[tokio::test]
async fn index_lists_the_games_with_exact_byte_ranges() {
    let pgn = five_games();
    let v = index(app(), &pgn).await;
    let games = v["games"].as_array().expect("games");
    assert_eq!(games.len(), 5);
    assert_eq!(v["errors"], 2);
    assert_eq!(v["warnings"], 1);
    assert_eq!(v["bytes"], pgn.len());

    // Ranges: from the start of the text (byte-order mark included), then from each game's
    // first tag, to the next game's start.
    let starts = [
        0,
        find(&pgn, b"[Event \"Test\"]\n"),
        find(&pgn, b"[White \"E\"]"),
        find(&pgn, b"[White \"G\"]"),
        find(&pgn, b"[White \"H\"]"),
    ];
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["index"], i);
        assert_eq!(g["start"], starts[i], "game {i}");
        let end = starts.get(i + 1).copied().unwrap_or(pgn.len());
        assert_eq!(g["end"], end, "game {i}");
    }
    // Lines and columns of the starts, counted in the text above.
    let places: Vec<(u64, u64)> = games
        .iter()
        .map(|g| {
            (
                g["line"].as_u64().expect("a number"),
                g["column"].as_u64().expect("a number"),
            )
        })
        .collect();
    assert_eq!(places, [(1, 1), (8, 1), (14, 1), (19, 1), (21, 9)]);

    // Tags, results, plies.
    assert_eq!(games[0]["tags"]["White"], "Müller");
    assert_eq!(games[0]["tags"]["Event"], "Test");
    assert_eq!(games[0]["result"], "1-0");
    assert_eq!(games[0]["plies"], 3);
    assert_eq!(games[1]["tags"]["Black"], "D");
    assert_eq!(games[1]["plies"], 2);
    assert_eq!(games[2]["tags"]["White"], "E");
    assert!(games[2]["tags"].get("Event").is_none());
    assert_eq!(games[3]["result"], "*");
    assert_eq!(games[4]["tags"]["White"], "H");

    // Errors and warnings, with the places of the whole text.
    assert!(games[0]["error"].is_null());
    assert_eq!(games[0]["warnings"], serde_json::json!([]));
    let error = games[1]["error"].as_str().expect("an error");
    assert!(
        error.starts_with("game 2, 12:13, move 2.: \"Ke3\": illegal"),
        "{error}"
    );
    assert!(games[2]["error"].is_null());
    assert_eq!(
        games[2]["warnings"],
        serde_json::json!([
            "warning: game 3, 17:10, move 2.: \"}\": unexpected character, skipped"
        ])
    );
    let error = games[4]["error"].as_str().expect("an error");
    assert!(
        error.starts_with("game 5, 21:24, move 1.: \"Ke2\""),
        "{error}"
    );
}

#[tokio::test]
async fn a_game_opened_from_its_range_is_the_game_of_the_whole_text() {
    let pgn = five_games();
    let whole = post(app(), "/api/pgn", pgn.clone()).await.json();
    let v = index(app(), &pgn).await;
    let games = v["games"].as_array().expect("games");
    for (i, entry) in games.iter().enumerate() {
        let mut game = open_game(app(), &pgn, entry).await;
        let text = game
            .as_object_mut()
            .expect("an object")
            .remove("pgn")
            .expect("a `pgn` field");
        assert_eq!(game, whole["games"][i], "game {i}");
        // The index says what the game says.
        assert_eq!(entry["error"], game["error"], "game {i}");
        assert_eq!(entry["warnings"], game["warnings"], "game {i}");
        assert_eq!(entry["result"], game["result"], "game {i}");
        assert_eq!(
            entry["plies"].as_u64(),
            game["moves"].as_array().map(|m| m.len() as u64)
        );
        // The PGN text in export format reads back as the same game.
        let text = text.as_str().expect("text");
        let again = post(app(), "/api/pgn/game", text.to_owned()).await.json();
        assert_eq!(again["moves"], game["moves"], "game {i}: {text}");
    }
    let first = open_game(app(), &pgn, &games[0]).await;
    let text = first["pgn"].as_str().expect("text");
    assert!(text.starts_with("[Event \"Test\"]\n"), "{text}");
    assert!(text.contains("[White \"Müller\"]\n"), "{text}");
    assert!(text.contains("\n1. e4 e5 2. Nf3 1-0\n"), "{text}");
    assert_eq!(first["moves"][2]["san"], "Nf3");
    assert_eq!(
        first["moves"][2]["fen"],
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    // Without parameters the body is a text of its own: game 1, its own lines.
    let range = |g: &Value| {
        g["start"].as_u64().expect("a number") as usize
            ..g["end"].as_u64().expect("a number") as usize
    };
    let alone = post(app(), "/api/pgn/game", pgn[range(&games[1])].to_vec()).await;
    assert_eq!(
        alone.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&alone.body)
    );
    let error = alone.json()["error"].as_str().expect("text").to_owned();
    assert!(
        error.starts_with("game 1, 5:13, move 2.: \"Ke3\""),
        "{error}"
    );
}

#[tokio::test]
async fn a_large_text_read_on_several_threads_gives_the_games_of_one_reader() {
    // Over a megabyte: the index reads it in ranges on several threads (when there are cores).
    let pgn = five_games();
    let unit = &pgn[find(&pgn, b"[Event \"Test\"]\n")..];
    let repeats = (3 << 20) / unit.len() + 1;
    let big = unit.repeat(repeats);
    let v = index(app(), &big).await;
    let games = v["games"].as_array().expect("games");
    assert_eq!(games.len(), 4 * repeats);
    assert_eq!(v["errors"], 2 * repeats);
    assert_eq!(v["warnings"], repeats);
    let whole = post(app(), "/api/pgn", big.clone()).await.json();
    let whole = whole["games"].as_array().expect("games");
    assert_eq!(whole.len(), games.len());
    let mut end = 0;
    for (i, (entry, game)) in games.iter().zip(whole).enumerate() {
        assert_eq!(entry["start"], end, "game {i}: the ranges cover the text");
        end = entry["end"].as_u64().expect("a number");
        assert_eq!(entry["error"], game["error"], "game {i}");
        assert_eq!(entry["warnings"], game["warnings"], "game {i}");
        assert_eq!(entry["tags"]["White"], game["tags"]["White"], "game {i}");
    }
    assert_eq!(end, big.len() as u64);
    // The last unit's game with a warning, with its number and line in the whole text.
    let lines_per_unit = unit.iter().filter(|&&b| b == b'\n').count();
    let last = &games[games.len() - 3];
    let expected = format!(
        "warning: game {}, {}:10, move 2.: \"}}\": unexpected character, skipped",
        games.len() - 2,
        (repeats - 1) * lines_per_unit + 10
    );
    assert_eq!(last["warnings"][0], expected);
    // And one game opened from the middle.
    let middle = &games[games.len() / 2 + 1];
    let game = open_game(app(), &big, middle).await;
    let i = middle["index"].as_u64().expect("a number") as usize;
    assert_eq!(game["error"], whole[i]["error"]);
    assert_eq!(game["moves"], whole[i]["moves"]);
}

#[tokio::test]
async fn no_game_or_an_empty_text_is_an_empty_list() {
    for body in [&b""[..], b"\n\n  \n", b"\xef\xbb\xbf"] {
        let v = index(app(), body).await;
        assert_eq!(v["games"], serde_json::json!([]));
        assert_eq!(v["errors"], 0);
    }
    // Anything is read as PGN: binary bytes give damaged games, never a 5xx.
    let noise: Vec<u8> = (0..=255u8).cycle().take(10_000).collect();
    let v = index(app(), &noise).await;
    assert!(v["games"].as_array().is_some());
}

#[tokio::test]
async fn bad_requests_for_one_game_are_typed_4xx_errors() {
    let cases: [(&str, &[u8], &str); 6] = [
        ("/api/pgn/game", b"", "no game"),
        ("/api/pgn/game", b"  \n\n", "no game"),
        (
            "/api/pgn/game",
            b"[White \"A\"]\n\n1. e4 *\n\n[White \"B\"]\n\n1. d4 *\n",
            "more than one game",
        ),
        ("/api/pgn/game?line=0", b"1. e4 *", "`line`"),
        ("/api/pgn/game?start=abc", b"1. e4 *", "`start`"),
        ("/api/pgn/game?index=-1", b"1. e4 *", "`index`"),
    ];
    for (uri, body, expected) in cases {
        let a = post(app(), uri, body.to_vec()).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{uri}");
        let error = a.error();
        assert!(error.contains(expected), "{uri}: {error}");
    }
}

#[tokio::test]
async fn the_body_limit_holds_for_both_routes() {
    let pgn = five_games();
    for uri in ["/api/pgn/index", "/api/pgn/game"] {
        let a = post(app_with_limit(100), uri, pgn.clone()).await;
        assert_eq!(a.status, StatusCode::PAYLOAD_TOO_LARGE, "{uri}");
        assert!(a.error().contains("limit of 100 bytes"), "{uri}");
    }
    // 16,000,000 bytes are under the default limit; 17 MiB are over it.
    let a = post(app(), "/api/pgn/index", vec![b' '; 16_000_000]).await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.json()["bytes"], 16_000_000);
    let a = post(app(), "/api/pgn/game", vec![b' '; 16_000_000]).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert!(a.error().contains("no game"));
    let a = post(app(), "/api/pgn/index", vec![b' '; 17 << 20]).await;
    assert_eq!(a.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(a.error().contains("limit"));
}

/// One request's cost is bounded: a body of more games than the browser lists is refused with
/// 413 saying the limit and what takes such files; at the limit it is answered.
#[tokio::test]
async fn an_index_lists_at_most_its_limit_of_games() {
    let limit = tabla_web::MAX_INDEX_GAMES;
    // The cheapest games there are: `*` and a newline, two bytes each.
    let over = "*\n".repeat(limit + 1);
    let a = post(app_with_limit(64 << 20), "/api/pgn/index", over).await;
    assert_eq!(a.status, StatusCode::PAYLOAD_TOO_LARGE);
    let error = a.error();
    assert!(
        error.contains(&format!("more than {limit} games")),
        "{error}"
    );
    assert!(error.contains("tabla db import"), "{error}");
    let at = "*\n".repeat(limit);
    let v = index(app_with_limit(64 << 20), at.as_bytes()).await;
    assert_eq!(v["games"].as_array().map(Vec::len), Some(limit));
}

/// A game lists its first warnings and counts the others; opened, it has them all.
#[tokio::test]
async fn a_game_lists_its_first_warnings_and_counts_the_rest() {
    let listed = tabla_web::MAX_LISTED_WARNINGS;
    let n = listed + 15;
    // `$300` is no NAG: one warning each (`tabla pgn check` says "not a NAG").
    let pgn = format!("[Event \"w\"]\n\n1. e4 {} e5 *\n", "$300 ".repeat(n));
    let v = index(app(), pgn.as_bytes()).await;
    let warnings = v["games"][0]["warnings"].as_array().expect("warnings");
    assert_eq!(warnings.len(), listed + 1);
    assert!(warnings[0].as_str().expect("text").contains("not a NAG"));
    assert_eq!(
        warnings[listed].as_str(),
        Some("and 15 more warnings (the game lists them all when it is opened)")
    );
    assert_eq!(v["warnings"].as_u64(), Some(n as u64));
    let game = open_game(app(), pgn.as_bytes(), &v["games"][0]).await;
    assert_eq!(game["warnings"].as_array().map(Vec::len), Some(n));
}
