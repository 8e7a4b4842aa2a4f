//! `tabla db` through the real binary: import's summary line (its counts against
//! `tabla convert`'s of the same files), `explore --json`'s exact shape and its answers against
//! python-chess's (scripts/gen_explorer_reference.py), `sql` in three formats, and exit status
//! 2 with a message for bad input.

mod common;

use common::tabla;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fresh(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("db-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn utf8(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

fn pgn(name: &str) -> String {
    common::testdata().dir.join(name).display().to_string()
}

/// A database of two testdata files, imported once per test binary run.
fn database(name: &str) -> PathBuf {
    let db = fresh(name);
    let run = tabla(&[
        "db",
        "import",
        "--db",
        utf8(&db),
        "--threads",
        "2",
        &pgn("lichess_db_1000k.pgn"),
        &pgn("twic1599_1000k.pgn"),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    db
}

#[test]
fn import_prints_the_same_counts_as_convert() {
    let db = fresh("counts");
    let out = fresh("counts-convert");
    let files = [pgn("lichess_db_1000k.pgn"), pgn("mate_in_2.pgn")];
    let import = tabla(&["db", "import", "--db", utf8(&db), &files[0], &files[1]]);
    assert_eq!(import.code, 0, "{}", import.stderr);
    let convert = tabla(&["convert", "--out", utf8(&out), &files[0], &files[1]]);
    assert_eq!(convert.code, 0, "{}", convert.stderr);
    // `games G, errors E, warnings W, positions P` against convert's first three counts.
    let line = import.last_line();
    let fields: Vec<&str> = line.split(", ").collect();
    assert_eq!(fields.len(), 4, "{line}");
    assert!(fields[3].starts_with("positions "), "{line}");
    assert!(
        convert.last_line().starts_with(&fields[..3].join(", ")),
        "{line} / {}",
        convert.last_line()
    );
    // Importing the same files again is refused with exit 2.
    let again = tabla(&["db", "import", "--db", utf8(&db), &files[1]]);
    assert_eq!(again.code, 2);
    assert!(
        again.stderr.contains("already imported"),
        "{}",
        again.stderr
    );
    let info = tabla(&["db", "info", "--db", utf8(&db), "--json"]);
    assert_eq!(info.code, 0, "{}", info.stderr);
    let info: Value = serde_json::from_str(&info.stdout).expect("info JSON");
    assert_eq!(info["max_ply"], 50);
    assert_eq!(info["batches"], 1);
    let games: u64 = fields[0]
        .trim_start_matches("games ")
        .parse()
        .expect("games");
    assert_eq!(info["games"].as_u64(), Some(games));
}

#[test]
fn explore_json_has_exactly_the_documented_shape() {
    let db = database("shape");
    let run = tabla(&[
        "db",
        "explore",
        "--db",
        utf8(&db),
        "--moves",
        "e4",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: Value = serde_json::from_str(&run.stdout).expect("JSON");
    let keys = |v: &Value| -> Vec<String> {
        let mut k: Vec<String> = v.as_object().expect("object").keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(
        keys(&v),
        [
            "black",
            "draws",
            "fen",
            "games",
            "moves",
            "recent_games",
            "top_games",
            "white"
        ]
    );
    // As tabla writes FENs (`tabla fen`, `tabla pgn fen`): the en-passant square after every
    // double push; `tabla pgn fen` of the game 1. e4 prints the same line.
    let pgn = std::env::temp_dir().join("tabla-db-command-e4.pgn");
    std::fs::write(&pgn, "1. e4 *\n").expect("write");
    let replay = tabla(&["pgn", "fen", utf8(&pgn)]);
    assert!(
        replay
            .stdout
            .lines()
            .any(|l| l.ends_with(v["fen"].as_str().expect("fen"))),
        "{} / {}",
        v["fen"],
        replay.stdout
    );
    let first = &v["moves"][0];
    assert_eq!(
        keys(first),
        [
            "avg_rating",
            "black",
            "draws",
            "games",
            "last_played",
            "san",
            "uci",
            "white"
        ]
    );
    let game = &v["top_games"][0];
    assert_eq!(
        keys(game),
        [
            "black",
            "black_elo",
            "date",
            "event",
            "id",
            "ply",
            "result",
            "white",
            "white_elo"
        ]
    );
    assert!(game["id"].is_string(), "{game}");
    assert_eq!(game["ply"], 1);
    assert!(v["top_games"].as_array().expect("list").len() <= 8);
    let sum: u64 = v["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["games"].as_u64().expect("n"))
        .sum();
    assert_eq!(v["games"].as_u64(), Some(sum));
    // Text output for people.
    let text = tabla(&["db", "explore", "--db", utf8(&db), "--moves", "1. e4 c5"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.contains("games: white"), "{}", text.stdout);
}

#[test]
fn sql_prints_a_table_json_or_csv_and_refuses_writes() {
    let db = database("sql");
    let query = "SELECT result, COUNT(*) AS n FROM games GROUP BY result ORDER BY result";
    let table = tabla(&["db", "sql", "--db", utf8(&db), query]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert!(table.stdout.contains("| result"), "{}", table.stdout);
    let json = tabla(&["db", "sql", "--db", utf8(&db), "--json", query]);
    let rows: Value = serde_json::from_str(&json.stdout).expect("JSON rows");
    let total: u64 = rows
        .as_array()
        .expect("array")
        .iter()
        .map(|r| r["n"].as_u64().expect("n"))
        .sum();
    let csv = tabla(&["db", "sql", "--db", utf8(&db), "--csv", query]);
    assert_eq!(csv.stdout.lines().next(), Some("result,n"));
    assert_eq!(
        csv.stdout.lines().count(),
        rows.as_array().expect("array").len() + 1
    );
    let info = tabla(&["db", "info", "--db", utf8(&db), "--json"]);
    let info: Value = serde_json::from_str(&info.stdout).expect("info JSON");
    assert_eq!(info["games"].as_u64(), Some(total));
    let empty = tabla(&[
        "db",
        "sql",
        "--db",
        utf8(&db),
        "--json",
        "SELECT game_id FROM games WHERE false",
    ]);
    assert_eq!(empty.stdout.trim(), "[]");
    for bad in [
        "DROP TABLE games",
        "CREATE TABLE t AS SELECT 1",
        "INSERT INTO games SELECT * FROM games",
        "SELEC 1",
        "SELECT nope FROM games",
    ] {
        let run = tabla(&["db", "sql", "--db", utf8(&db), bad]);
        assert_eq!(run.code, 2, "{bad}: {}", run.stdout);
        assert!(run.stderr.starts_with("error: "), "{bad}: {}", run.stderr);
    }
}

#[test]
fn bad_input_exits_2_with_what_and_where() {
    let db = database("bad");
    let d = utf8(&db);
    for (args, needle) in [
        (vec!["--fen", "8/8/8/8/8/8/8/8 w - - 0 1"], "--fen"),
        (vec!["--fen", "rnbqkbnr/pppppppp/8/8 w"], "--fen"),
        (vec!["--moves", "e4 e5 Qh6"], "word 3 \"Qh6\""),
        (vec!["--rating", "2200-2000"], "--rating"),
        (vec!["--rating", "abc"], "--rating"),
        (vec!["--speed", "hyperbullet"], "--speed"),
        (vec!["--since", "2024-13"], "2024-13"),
        (vec!["--since", "2024-05", "--until", "2024-01"], "--since"),
        (vec!["--player", "x", "--color", "green"], "--color"),
    ] {
        let mut full = vec!["db", "explore", "--db", d];
        full.extend(&args);
        let run = tabla(&full);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stdout);
        assert!(run.stderr.contains(needle), "{args:?}: {}", run.stderr);
    }
    let none = fresh("none");
    let run = tabla(&["db", "explore", "--db", utf8(&none)]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("not a tabla database"),
        "{}",
        run.stderr
    );
    let run = tabla(&[
        "db",
        "import",
        "--db",
        utf8(&fresh("m")),
        "--max-ply",
        "0",
        &pgn("tactics.pgn"),
    ]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--max-ply 0"), "{}", run.stderr);
}

#[test]
fn explore_through_the_cli_equals_the_reference() {
    // The reference's start-position answer for testdata, with the whole set imported.
    let text = std::fs::read_to_string(common::testdata_dir().join("explorer_reference.json"))
        .expect("reference");
    let reference: Value = serde_json::from_str(&text).expect("JSON");
    let db = fresh("reference");
    let mut args = vec![
        "db".to_owned(),
        "import".into(),
        "--db".into(),
        utf8(&db).to_owned(),
    ];
    for f in reference["files"].as_array().expect("files") {
        args.push(pgn(f.as_str().expect("name")));
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = tabla(&refs);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let case = reference["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .find(|c| {
            c["moves"].as_array().is_some_and(|m| m.len() == 4)
                && c["filters"] == serde_json::json!({"speed": ["blitz"]})
        })
        .expect("a case after four moves, blitz");
    let moves: Vec<&str> = case["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().expect("uci"))
        .collect();
    let run = tabla(&[
        "db",
        "explore",
        "--db",
        utf8(&db),
        "--moves",
        &moves.join(" "),
        "--speed",
        "blitz",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let got: Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(got["games"], case["answer"]["games"]);
    assert_eq!(got["moves"], case["answer"]["moves"]);
}

#[test]
fn search_and_export_through_the_cli() {
    let db = database("search");
    let d = utf8(&db);
    let run = tabla(&[
        "db",
        "search",
        "--db",
        d,
        "--moves",
        "e4 e5 Nf3 Nc6",
        "--json",
        "--limit",
        "3",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: Value = serde_json::from_str(&run.stdout).expect("JSON");
    let mut keys: Vec<&String> = v.as_object().expect("object").keys().collect();
    keys.sort();
    assert_eq!(keys, ["games", "total"]);
    let total = v["total"].as_u64().expect("total");
    assert!(total > 3, "{v}");
    assert_eq!(v["games"].as_array().expect("games").len(), 3);
    // The same position by FEN, and the export of its games: as many as found.
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let by_fen = tabla(&["db", "search", "--db", d, "--fen", fen, "--json"]);
    let by_fen: Value = serde_json::from_str(&by_fen.stdout).expect("JSON");
    assert_eq!(by_fen["total"].as_u64(), Some(total));
    let export = tabla(&["db", "export", "--db", d, "--fen", fen]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    assert_eq!(export.stdout.matches("[Event ").count() as u64, total);
    // The text output, a material search and a pattern search.
    let text = tabla(&["db", "search", "--db", d, "--material", "KRvKR"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.ends_with(" games\n") || text.stdout.contains(" games\n"));
    let pattern = tabla(&[
        "db",
        "search",
        "--db",
        d,
        "--pattern",
        "wKg1,bKg8",
        "--json",
    ]);
    assert_eq!(pattern.code, 0, "{}", pattern.stderr);
    // Bad input: exit 2 with what is wrong.
    for (args, needle) in [
        (vec!["--material", "KRvR"], "--material"),
        (vec!["--pattern", "wKz1"], "--pattern"),
        (vec!["--fen", "nonsense"], "--fen"),
        (vec!["--moves", "e4", "--rating", "x"], "--rating"),
    ] {
        let mut full = vec!["db", "search", "--db", d];
        full.extend(&args);
        let run = tabla(&full);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stdout);
        assert!(run.stderr.contains(needle), "{args:?}: {}", run.stderr);
    }
    let none = tabla(&["db", "search", "--db", d]);
    assert_eq!(none.code, 2);
}

#[test]
fn sql_chess_functions_give_the_tables_keys() {
    let db = database("udf");
    let d = utf8(&db);
    // The key of the position after 1. e4 from its FEN, and from the games' moves, equals the
    // key the positions table holds at ply 1 of every game that opened 1. e4.
    let query = "SELECT COUNT(*) AS n, \
        SUM(CASE WHEN p.key_hi = fen_key_hi(fen_after(g.uci, 1)) \
                  AND p.key_lo = fen_key_lo(fen_after(g.uci, 1)) THEN 1 ELSE 0 END) AS same \
        FROM positions p JOIN games g ON p.game_id = g.game_id \
        WHERE p.ply = 1 AND array_element(g.uci, 1) = 'e2e4'";
    let run = tabla(&["db", "sql", "--db", d, "--json", query]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows: Value = serde_json::from_str(&run.stdout).expect("JSON");
    let n = rows[0]["n"].as_u64().expect("n");
    assert!(n > 10, "{rows}");
    assert_eq!(rows[0]["same"].as_u64(), Some(n), "{rows}");
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let by_fen = format!(
        "SELECT COUNT(*) AS n FROM positions WHERE ply = 1 AND key_hi = fen_key_hi('{fen}') \
         AND key_lo = fen_key_lo('{fen}')"
    );
    let run = tabla(&["db", "sql", "--db", d, "--json", &by_fen]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows: Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(rows[0]["n"].as_u64(), Some(n), "{rows}");
}

#[test]
fn compact_folds_the_imports_and_every_answer_stays() {
    let db = fresh("compact");
    let d = utf8(&db);
    for file in ["lichess_db_1000k.pgn", "twic1599_1000k.pgn"] {
        let run = tabla(&["db", "import", "--db", d, &pgn(file)]);
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    let explore = |moves: &str| {
        let run = tabla(&["db", "explore", "--db", d, "--moves", moves, "--json"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        serde_json::from_str::<Value>(&run.stdout).expect("json")
    };
    let positions = ["", "e4", "d4 Nf6 c4", "e4 c5 Nf3"];
    let before: Vec<Value> = positions.iter().map(|m| explore(m)).collect();
    assert!(before[0]["games"].as_u64().is_some_and(|g| g > 0));

    let run = tabla(&["db", "compact", "--db", d]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("compacted 2 parts"),
        "{}",
        run.stdout
    );
    let after: Vec<Value> = positions.iter().map(|m| explore(m)).collect();
    assert_eq!(after, before);
    let run = tabla(&["db", "compact", "--db", d]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("nothing to compact"), "{}", run.stdout);

    let run = tabla(&["db", "compact", "--db", utf8(&fresh("not-a-db"))]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("not a tabla database"),
        "{}",
        run.stderr
    );
}
