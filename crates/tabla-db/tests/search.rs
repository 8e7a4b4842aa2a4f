//! Position search against python-chess's (testdata/gen_search_reference.py), on testdata/pgn
//! always and on the corpus when it is there: exact positions (any move order, any ply),
//! material balances and patterns, under the explorer's filters; and `export` read back: the
//! games it writes, imported again, give the same explorer and search answers.

mod common;

use common::{filters, import_all, pgn_files, reference};
use serde_json::Value;
use tabla_db::{Database, Filters, SearchQuery, Target, parse_pattern};

fn query(q: &Value) -> SearchQuery {
    if let Some(moves) = q.get("moves").and_then(Value::as_array) {
        let moves: Vec<&str> = moves.iter().map(|m| m.as_str().expect("uci")).collect();
        return SearchQuery::Position(Target::Moves(moves.join(" ")));
    }
    if let Some(m) = q.get("material").and_then(Value::as_str) {
        let either = q.get("either_color").and_then(Value::as_bool) == Some(true);
        return SearchQuery::material(m, either).expect("material");
    }
    let p = q["pattern"].as_str().expect("pattern");
    SearchQuery::Pattern(parse_pattern(p).expect("pattern"))
}

/// Compares every case; returns the matches checked.
fn check(db: &Database, reference: &Value) -> u64 {
    let mut checked = 0;
    for case in reference["cases"].as_array().expect("cases") {
        let (q, f) = (query(&case["query"]), filters(&case["filters"]));
        let what = format!("{} with {}", case["query"], case["filters"]);
        let answer = db
            .search(&q, &f, usize::MAX, 0)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(Some(answer.total), case["total"].as_u64(), "{what}: total");
        let mut got: Vec<Value> = answer
            .games
            .iter()
            .map(|g| {
                let date = (g.date != "????-??-??").then(|| g.date.clone());
                // python-chess reads a missing White or Black tag as "?".
                let name = |n: &Option<String>| n.clone().unwrap_or_else(|| "?".to_owned());
                serde_json::json!([name(&g.white), name(&g.black), date, g.ply])
            })
            .collect();
        got.sort_by_key(|v| v.to_string());
        let mut want = case["games"].as_array().expect("games").clone();
        want.sort_by_key(|v| v.to_string());
        assert_eq!(got, want, "{what}: games");
        // The list is most recent first.
        let dates: Vec<String> = answer
            .games
            .iter()
            .map(|g| g.date.replace('?', "0"))
            .collect();
        assert!(
            dates.windows(2).all(|w| w[0] >= w[1]),
            "{what}: order {dates:?}"
        );
        // A page is a slice of the whole list.
        let page = db.search(&q, &f, 2, 1).expect("page");
        assert_eq!(page.total, answer.total);
        assert_eq!(
            page.games,
            answer
                .games
                .iter()
                .skip(1)
                .take(2)
                .cloned()
                .collect::<Vec<_>>()
        );
        checked += answer.total;
    }
    checked
}

#[test]
fn search_matches_python_chess_on_testdata_and_export_reads_back() {
    let reference = reference("search_reference.json");
    let dir = tempfile::tempdir().expect("temp dir");
    let inputs = pgn_files(&tabla_testdata::testdata().dir, &reference["files"]);
    let db = import_all(&dir.path().join("db"), inputs);
    assert_eq!(Some(db.manifest().games()), reference["games"].as_u64());
    let checked = check(&db, &reference);
    assert!(checked >= 100, "{checked} matches");

    // Every game exported, then imported again: the same games, explorer and search answers.
    let pgn = dir.path().join("all.pgn");
    let mut file = std::fs::File::create(&pgn).expect("create");
    let n = db
        .export(&Filters::default(), None, &mut file)
        .expect("export");
    drop(file);
    assert_eq!(n, db.manifest().games());
    let again = import_all(&dir.path().join("again"), vec![pgn]);
    assert_eq!(again.manifest().games(), db.manifest().games());
    for moves in ["", "e4", "d4 Nf6 c4 e6", "e4 c5 Nf3"] {
        let target = Target::Moves(moves.into());
        let (a, b) = (
            db.explore(&target, &Filters::default()).expect("explore"),
            again
                .explore(&target, &Filters::default())
                .expect("explore"),
        );
        assert_eq!((a.games, &a.moves), (b.games, &b.moves), "after {moves:?}");
    }
    check(&again, &reference);

    // Export of the games that reached a position: as many as the search finds.
    let target = Target::Moves("e4 e5 Nf3 Nc6".into());
    let found = db
        .search(
            &SearchQuery::Position(target.clone()),
            &Filters::default(),
            0,
            0,
        )
        .expect("search");
    let mut out = Vec::new();
    let n = db
        .export(&Filters::default(), Some(&target), &mut out)
        .expect("export");
    assert_eq!(n, found.total);
    let text = String::from_utf8(out).expect("utf-8");
    assert_eq!(text.matches("[Event ").count() as u64, found.total);

    // One game back by its id; an unknown id is None, a malformed one an error.
    let first = db
        .search(&SearchQuery::Position(target), &Filters::default(), 1, 0)
        .expect("search");
    let id = &first.games[0].id;
    let game = db.game_pgn(id).expect("game").expect("the game is there");
    assert!(game.contains("[White "), "{game}");
    assert_eq!(db.game_pgn("12345").expect("no such game"), None);
    assert!(db.game_pgn("x1").is_err());
}

#[test]
fn search_matches_python_chess_on_the_corpus() {
    let Some(corpus) = tabla_testdata::corpus() else {
        return;
    };
    let reference = reference("corpus_search_reference.json");
    let dir = tempfile::tempdir().expect("temp dir");
    let db = import_all(
        &dir.path().join("db"),
        pgn_files(&corpus.dir, &reference["files"]),
    );
    assert_eq!(Some(db.manifest().games()), reference["games"].as_u64());
    check(&db, &reference);
}

#[test]
fn bad_queries_are_refused_with_what_is_wrong() {
    for bad in ["KRvK", "KKvK", "KXvK", "vK", "KRPPPPPPPPPvK"] {
        let e = SearchQuery::material(bad, false);
        assert!(bad == "KRvK" || e.is_err(), "{bad}");
    }
    assert!(SearchQuery::material("KRvK", false).is_ok());
    for bad in ["", "wKg9", "xKg1", "wXg1", "wKg1,bKg1", "wK"] {
        let e = parse_pattern(bad).expect_err(bad);
        assert!(e.to_string().contains("--pattern"), "{e}");
    }
}
