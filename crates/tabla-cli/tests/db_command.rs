//! `tabla db` through the real binary: import's summary line (its counts against
//! `tabla convert`'s of the same files), `explore --json`'s exact shape and its answers against
//! python-chess's (testdata/gen_explorer_reference.py), `sql` in three formats, and exit status
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
    // Importing a file again skips it, says so with the date it was imported, and imports
    // the rest.
    let again = tabla(&["db", "import", "--db", utf8(&db), &files[1]]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        again.stderr.contains("skipped, already imported") && again.stderr.contains(" UTC)"),
        "{}",
        again.stderr
    );
    assert!(
        again.stderr.contains("nothing imported"),
        "{}",
        again.stderr
    );
    assert_eq!(
        again.last_line(),
        "games 0, errors 0, warnings 0, positions 0"
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

    // `import A B` with A imported before: A skipped (and named), B imported.
    let tactics = pgn("tactics.pgn");
    let more = tabla(&["db", "import", "--db", utf8(&db), &files[0], &tactics]);
    assert_eq!(more.code, 0, "{}", more.stderr);
    assert!(
        more.stderr
            .contains(&format!("{}: skipped, already imported", files[0])),
        "{}",
        more.stderr
    );
    assert!(!more.stderr.contains("nothing imported"), "{}", more.stderr);
    let line = more.last_line();
    assert!(
        line.starts_with("games ") && !line.starts_with("games 0,"),
        "{line}"
    );
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

#[test]
fn every_command_refuses_a_database_with_a_missing_or_emptied_file() {
    let good = database("damaged-good");
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(good.join("tabla-db.json")).expect("manifest"),
    )
    .expect("json");
    let parts = manifest["batches"][0]["parts"].as_array().expect("parts");
    let file = |table: &str| {
        let part = (parts.iter())
            .map(|p| p["path"].as_str().expect("path"))
            .find(|p| p.starts_with(&format!("{table}/")))
            .unwrap_or_else(|| panic!("a {table} file"));
        PathBuf::from("batches/000001").join(part)
    };
    let copy = |name: &str| {
        let db = fresh(name);
        let run = std::process::Command::new("cp")
            .args(["-r", utf8(&good), utf8(&db)])
            .status()
            .expect("cp");
        assert!(run.success());
        db
    };
    // One file deleted, one emptied (which the query engine would skip without a word).
    let deleted = copy("damaged-deleted");
    std::fs::remove_file(deleted.join(file("games"))).expect("rm");
    let emptied = copy("damaged-emptied");
    std::fs::write(emptied.join(file("positions")), b"").expect("empty");
    for (db, part, problem) in [
        (&deleted, file("games"), "missing"),
        (&emptied, file("positions"), "0 bytes where"),
    ] {
        let d = utf8(db);
        let input = pgn("mate_in_2.pgn");
        let commands: [&[&str]; 9] = [
            &["info"],
            &["sql", "SELECT count(*) FROM games"],
            &["explore", "--moves", "e4"],
            &["search", "--material", "KRvKR"],
            &["export", "--moves", "e4"],
            &["players"],
            &["review", "--from-evals"],
            &["compact"],
            &["import", &input],
        ];
        for args in commands {
            let mut full = vec!["db", args[0], "--db", d];
            full.extend(&args[1..]);
            let run = tabla(&full);
            // An error that stops the command, as every one: exit status 2, nothing on stdout.
            assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
            assert!(run.stdout.is_empty(), "{args:?}: {}", run.stdout);
            let says = run.stderr.trim_end();
            assert!(
                says.contains(&part.display().to_string()) && says.contains(problem),
                "{args:?}: {says}"
            );
            assert!(says.contains("import the inputs again"), "{args:?}: {says}");
        }
    }
}

// `tabla db review`: reviews stored as tables, against testdata/review_reference.json
// (python-chess and lichess's published rules, testdata/gen_review_reference.py).

/// `testdata/review/lichess-evals.pgn`'s games (37, each with lichess's `[%eval]`s), as texts.
fn evals_games() -> Vec<String> {
    let path = common::testdata_dir()
        .join("review")
        .join("lichess-evals.pgn");
    let text = std::fs::read_to_string(path).expect("lichess-evals.pgn");
    let mut games: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("[Event ") || games.is_empty() {
            games.push(String::new());
        }
        let game = games.last_mut().expect("a game");
        game.push_str(line);
        game.push('\n');
    }
    assert_eq!(games.len(), 37);
    games
}

/// A PGN file of this test run holding `games`.
fn pgn_file(name: &str, games: &[String]) -> String {
    let path = common::scratch_file(name, &games.join("\n"));
    utf8(&path).to_owned()
}

/// A fresh database of the PGN files `inputs`, imported one by one.
fn review_db(name: &str, inputs: &[String]) -> PathBuf {
    let db = fresh(name);
    for input in inputs {
        let run = tabla(&["db", "import", "--db", utf8(&db), "--threads", "1", input]);
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    db
}

/// `tabla db sql --json` rows.
fn sql(db: &Path, query: &str) -> Vec<Value> {
    let run = tabla(&["db", "sql", "--db", utf8(db), "--json", query]);
    assert_eq!(run.code, 0, "{query}: {}", run.stderr);
    let rows: Value = serde_json::from_str(&run.stdout).expect("JSON rows");
    rows.as_array().expect("an array").clone()
}

/// `tabla db review --db DB args...`, its summary line's counts.
fn db_review(db: &Path, args: &[&str]) -> (i32, [u64; 5], String) {
    let mut full = vec!["db", "review", "--db", utf8(db)];
    full.extend(args);
    let run = tabla(&full);
    let line = run.last_line().to_owned();
    let counts: Vec<u64> = line
        .split(", ")
        .map(|f| {
            f.rsplit(' ')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{line:?}: {}", run.stderr))
        })
        .collect();
    let counts: [u64; 5] = counts.try_into().unwrap_or_else(|_| panic!("{line}"));
    assert!(
        line.starts_with("games ") && line.contains(", from cache "),
        "{line}"
    );
    (run.code, counts, run.stderr)
}

/// testdata/review_reference.json: python-chess's review of lichess-evals.pgn's games, in order.
fn reference() -> Value {
    let path = common::testdata_dir().join("review_reference.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("reference")).expect("JSON")
}

fn close(got: &Value, expected: &Value, what: &str) {
    match (got.as_f64(), expected.as_f64()) {
        (Some(g), Some(e)) => assert!((g - e).abs() < 1e-9, "{what}: {g} against {e}"),
        _ => assert!(
            got.is_null() && expected.is_null(),
            "{what}: {got} against {expected}"
        ),
    }
}

#[test]
fn db_review_from_evals_gives_the_reference_figures() {
    let games = evals_games();
    let db = review_db("review-evals", &[pgn_file("review-evals.pgn", &games)]);
    let (code, counts, stderr) = db_review(&db, &["--from-evals"]);
    assert_eq!(code, 0, "{stderr}");
    // 2,231 moves in 37 games: 2,268 positions; no engine.
    assert_eq!(counts, [37, 2268, 0, 0, 0]);
    let reference = reference();
    let expected = reference["games"].as_array().expect("games");
    let rows = sql(
        &db,
        "SELECT g.site, r.* FROM review_games r JOIN games g USING (game_id) ORDER BY g.site",
    );
    assert_eq!(rows.len(), expected.len());
    for e in expected {
        let site = e["site"].as_str().expect("site");
        let row = rows
            .iter()
            .find(|r| r["site"] == e["site"])
            .unwrap_or_else(|| panic!("{site} not reviewed"));
        assert_eq!(row["engine"], "from-evals");
        assert_eq!(row["rules"], "lichess");
        assert_eq!(row["error"], Value::Null, "{site}");
        for side in ["white", "black"] {
            let s = &e[side];
            close(
                &row[format!("{side}_accuracy")],
                &s["accuracy"],
                &format!("{site} {side} accuracy"),
            );
            for (column, key) in [
                ("acpl", "acpl"),
                ("inaccuracies", "inaccuracies"),
                ("mistakes", "mistakes"),
                ("blunders", "blunders"),
            ] {
                assert_eq!(
                    row[format!("{side}_{column}")],
                    s[key],
                    "{site} {side} {key}"
                );
            }
        }
        assert_eq!(
            row["moves"].as_u64(),
            Some(e["moves"].as_array().expect("moves").len() as u64)
        );
    }
    // Every move: its mark, accuracy, win% and evaluation, and who played it.
    let moves = sql(
        &db,
        "SELECT g.site, m.ply, m.color, m.san, m.cp, m.mate, m.win, m.judgement, m.accuracy, m.best \
         FROM review_moves m JOIN games g USING (game_id) ORDER BY g.site, m.ply",
    );
    let expected_moves: usize = expected
        .iter()
        .map(|e| e["moves"].as_array().expect("moves").len())
        .sum();
    assert_eq!(moves.len(), expected_moves);
    for e in expected {
        let site = &e["site"];
        let got: Vec<&Value> = moves.iter().filter(|m| &m["site"] == site).collect();
        for (m, x) in got.iter().zip(e["moves"].as_array().expect("moves")) {
            let what = format!("{site} ply {}", x["ply"]);
            assert_eq!(m["ply"], x["ply"], "{what}");
            assert_eq!(m["san"], x["san"], "{what}");
            let color = if x["ply"].as_u64().expect("ply") % 2 == 1 {
                "white"
            } else {
                "black"
            };
            assert_eq!(m["color"], color, "{what}");
            assert_eq!(m["cp"], x["eval"]["cp"], "{what}");
            assert_eq!(m["mate"], x["eval"]["mate"], "{what}");
            close(&m["win"], &x["win"], &format!("{what} win"));
            close(&m["accuracy"], &x["accuracy"], &format!("{what} accuracy"));
            assert_eq!(m["judgement"], x["judgement"], "{what}");
            assert_eq!(m["best"], Value::Null, "{what}");
        }
    }
    // The same games under lichess's database rules: a configuration of their own, lichess's
    // `judgement_database` marks.
    let (code, counts, stderr) = db_review(&db, &["--from-evals", "--rules", "lichess-database"]);
    assert_eq!((code, counts[0]), (0, 37), "{stderr}");
    let marks = sql(
        &db,
        "SELECT rules, COUNT(judgement) AS marks FROM review_moves GROUP BY rules ORDER BY rules",
    );
    let database_marks = expected
        .iter()
        .flat_map(|e| e["moves"].as_array().expect("moves"))
        .filter(|m| !m["judgement_database"].is_null())
        .count();
    assert_eq!(marks[1]["rules"], "lichess-database");
    assert_eq!(marks[1]["marks"].as_u64(), Some(database_marks as u64));
    // Nothing left to review.
    let (code, counts, _) = db_review(&db, &["--from-evals"]);
    assert_eq!((code, counts), (0, [0; 5]));
}

#[test]
fn db_review_with_an_engine_reviews_each_game_once() {
    let games = evals_games();
    let first = pgn_file("review-engine-1.pgn", &games[..4]);
    let db = review_db("review-engine", &[first]);
    let depth = ["--depth", "3", "--engines", "1"];
    let (code, counts, stderr) = db_review(&db, &depth);
    assert_eq!(code, 0, "{stderr}");
    let [g, positions, evaluated, cached, errors] = counts;
    assert_eq!((g, errors, cached), (4, 0, 0));
    // Each distinct position once; the start position is in every game.
    assert!(evaluated > 0 && evaluated < positions, "{counts:?}");
    let stored = sql(
        &db,
        "SELECT COUNT(*) AS n, COUNT(DISTINCT engine) AS e FROM evals",
    );
    assert_eq!(stored[0]["n"].as_u64(), Some(evaluated));
    assert_eq!(stored[0]["e"].as_u64(), Some(1));
    // Again: nothing new to review, nothing evaluated.
    let (code, counts, stderr) = db_review(&db, &depth);
    assert_eq!((code, counts), (0, [0; 5]), "{stderr}");
    assert!(
        stderr.contains("4 games selected, 4 reviewed before"),
        "{stderr}"
    );
    // Games added later: only they are reviewed, their known positions from the cache.
    let second = pgn_file("review-engine-2.pgn", &games[4..7]);
    let run = tabla(&["db", "import", "--db", utf8(&db), "--threads", "1", &second]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (code, counts, stderr) = db_review(&db, &depth);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!((counts[0], counts[4]), (3, 0));
    assert!(
        counts[3] >= 1,
        "the start position comes from the cache: {counts:?}"
    );
    let rows = sql(
        &db,
        "SELECT (SELECT COUNT(*) FROM review_games) AS games, \
                (SELECT COUNT(*) FROM review_moves) AS moves, \
                (SELECT SUM(plies) FROM games) AS plies, \
                (SELECT COUNT(*) FROM evals) AS evals, \
                (SELECT COUNT(*) FROM review_moves m JOIN evals e \
                   ON m.key_hi = e.key_hi AND m.key_lo = e.key_lo AND m.engine = e.engine \
                   WHERE m.best = e.best) AS joined",
    );
    assert_eq!(rows[0]["games"].as_u64(), Some(7));
    assert_eq!(rows[0]["moves"], rows[0]["plies"]);
    assert_eq!(rows[0]["evals"].as_u64(), Some(evaluated + counts[2]));
    // Every move's position is in `evals`, with the engine's choice the review shows.
    assert_eq!(rows[0]["joined"], rows[0]["moves"]);
    let info = tabla(&["db", "info", "--db", utf8(&db), "--json"]);
    let info: Value = serde_json::from_str(&info.stdout).expect("info JSON");
    let tables: Vec<&Value> = info["table_bytes"]
        .as_array()
        .expect("tables")
        .iter()
        .collect();
    for name in ["evals", "review_moves", "review_games"] {
        let t = tables.iter().find(|t| t["table"] == name).expect(name);
        assert!(t["files"].as_u64() > Some(0), "{name}");
    }
}

#[test]
fn db_review_selects_by_the_filters() {
    let games = evals_games();
    let db = review_db("review-filters", &[pgn_file("review-filters.pgn", &games)]);
    // The player of the most games, and how many each filter selects.
    let players = sql(
        &db,
        "SELECT name, COUNT(*) AS n FROM (SELECT white AS name FROM games UNION ALL \
         SELECT black FROM games) GROUP BY name ORDER BY n DESC, name LIMIT 1",
    );
    let player = players[0]["name"].as_str().expect("name").to_owned();
    let as_white = sql(
        &db,
        &format!(
            "SELECT game_id FROM games WHERE white = '{}' ORDER BY game_id",
            player.replace('\'', "''")
        ),
    );
    let (code, counts, stderr) = db_review(
        &db,
        &["--from-evals", "--player", &player, "--color", "white"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(counts[0], as_white.len() as u64);
    let reviewed = sql(&db, "SELECT game_id FROM review_games ORDER BY game_id");
    assert_eq!(reviewed, as_white);
    // The rest of the player's games, then the rest of the database.
    let all: u64 = sql(
        &db,
        &format!(
            "SELECT COUNT(*) AS n FROM games WHERE white = '{0}' OR black = '{0}'",
            player.replace('\'', "''")
        ),
    )[0]["n"]
        .as_u64()
        .expect("n");
    let (_, counts, _) = db_review(&db, &["--from-evals", "--player", &player]);
    assert_eq!(counts[0] + as_white.len() as u64, all);
    let (_, counts, _) = db_review(&db, &["--from-evals", "--since", "2000-01"]);
    assert_eq!(counts[0] + all, 37);
    let (_, counts, _) = db_review(&db, &["--from-evals"]);
    assert_eq!(counts[0], 0);
}

#[test]
fn db_review_stores_a_game_it_cannot_review_and_refuses_bad_input() {
    let games = vec![
        evals_games()[0].clone(),
        "[Event \"no evals\"]\n[White \"a\"]\n[Black \"b\"]\n\n1. e4 e5 2. Nf3 *\n".to_owned(),
    ];
    let db = review_db("review-errors", &[pgn_file("review-errors.pgn", &games)]);
    let (code, counts, stderr) = db_review(&db, &["--from-evals"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!((counts[0], counts[4]), (2, 1));
    let rows = sql(
        &db,
        "SELECT g.event, r.error, r.moves FROM review_games r JOIN games g USING (game_id) \
         WHERE r.error IS NOT NULL",
    );
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["event"], "no evals");
    assert!(
        rows[0]["error"]
            .as_str()
            .is_some_and(|e| e.contains("1. e4")),
        "{rows:?}"
    );
    assert_eq!(rows[0]["moves"].as_u64(), Some(0));
    // What an interrupted run leaves (a `moves` part without its `games` part, a temporary
    // file) is not read, and the next run removes it.
    let moves_dir = db
        .join("review")
        .join("from-evals")
        .join("lichess")
        .join("moves");
    let part = std::fs::read_dir(&moves_dir)
        .expect("moves/")
        .map(|e| e.expect("entry").path())
        .find(|p| p.extension().is_some_and(|e| e == "parquet"))
        .expect("a moves part");
    let orphan = moves_dir.join("part-0-0-00001.parquet");
    let tmp = moves_dir.join(".part-0-0-00002.parquet.tmp");
    std::fs::copy(&part, &orphan).expect("copy");
    std::fs::write(&tmp, "not parquet").expect("write");
    let count = "SELECT COUNT(*) AS n FROM review_moves";
    let expected_moves = reference()["games"][0]["moves"]
        .as_array()
        .expect("the first game's moves")
        .len() as u64;
    assert_eq!(sql(&db, count)[0]["n"].as_u64(), Some(expected_moves));
    // Stored with its error: not reviewed again.
    let (code, counts, _) = db_review(&db, &["--from-evals"]);
    assert_eq!((code, counts[0]), (0, 0));
    assert!(!orphan.exists() && !tmp.exists());
    assert_eq!(sql(&db, count)[0]["n"].as_u64(), Some(expected_moves));
    let d = utf8(&db);
    for (args, needle) in [
        (vec!["--rating", "abc"], "--rating"),
        (vec!["--since", "2024-13"], "2024-13"),
        (vec!["--player", "x", "--color", "green"], "--color"),
        (vec!["--color", "white"], "--player"),
        (vec!["--from-evals", "--depth", "3"], "--depth"),
        (vec!["--engine", "/no/such/engine"], "/no/such/engine"),
        (vec!["--nodes", "0"], "--nodes"),
    ] {
        let mut full = vec!["db", "review", "--db", d];
        full.extend(&args);
        let run = tabla(&full);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stdout);
        assert!(run.stderr.contains(needle), "{args:?}: {}", run.stderr);
    }
    let run = tabla(&[
        "db",
        "review",
        "--db",
        utf8(&fresh("review-none")),
        "--from-evals",
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("not a tabla database"),
        "{}",
        run.stderr
    );
}
