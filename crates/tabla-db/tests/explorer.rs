//! The explorer's answers against python-chess's (testdata/gen_explorer_reference.py), on
//! testdata/pgn always and on the corpus when it is there: every position (the start, a
//! transposition reached by two move orders, ...) under every filter, through the aggregate's
//! buckets and through the games alike, from one import or many and after compaction.

mod common;

use common::{filters, import_all, pgn_files, reference};
use serde_json::Value;
use tabla_db::{COMPACT_AFTER, Database, ImportOptions, Target, compact, import};

/// Compares every case of a reference file; returns how many were checked.
fn check(db: &Database, reference: &Value) -> usize {
    let cases = reference["cases"].as_array().expect("cases");
    for case in cases {
        let moves: Vec<&str> = case["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| m.as_str().expect("uci"))
            .collect();
        let f = filters(&case["filters"]);

        let got = db
            .explore(&Target::Moves(moves.join(" ")), &f)
            .unwrap_or_else(|e| panic!("{moves:?} {f:?}: {e}"));

        let want = &case["answer"];
        let what = format!("after {moves:?} with {}", case["filters"]);
        // The position itself: placement, side, castling (python-chess writes any en-passant
        // square after a double push; tabla only a capturable one).
        let fen = |f: &str| f.split(' ').take(3).collect::<Vec<_>>().join(" ");
        assert_eq!(
            fen(&got.fen),
            fen(case["fen"].as_str().expect("fen")),
            "{what}"
        );
        for (field, value) in [
            ("games", got.games),
            ("white", got.white),
            ("draws", got.draws),
            ("black", got.black),
        ] {
            assert_eq!(Some(value), want[field].as_u64(), "{what}: {field}");
        }
        let got_moves = serde_json::to_value(&got.moves).expect("json");
        assert_eq!(&got_moves, &want["moves"], "{what}: moves");
        // Top games: the highest averages, highest first (ties in any order).
        let top: Vec<f64> = got
            .top_games
            .iter()
            .map(|g| {
                (g.white_elo.expect("top game has Elos") + g.black_elo.expect("Elos")) as f64 / 2.0
            })
            .collect();
        let want_top: Vec<f64> = want["top_ratings"]
            .as_array()
            .expect("top_ratings")
            .iter()
            .map(|v| v.as_f64().expect("rating"))
            .collect();
        assert_eq!(top, want_top, "{what}: top games' ratings");
        let recent: Vec<&str> = got.recent_games.iter().map(|g| g.date.as_str()).collect();
        let want_recent: Vec<&str> = want["recent_dates"]
            .as_array()
            .expect("recent_dates")
            .iter()
            .map(|v| v.as_str().expect("date"))
            .collect();
        assert_eq!(recent, want_recent, "{what}: recent games' dates");
        for g in got.top_games.iter().chain(&got.recent_games) {
            assert!(g.ply < 50, "{what}: reached at ply {}", g.ply);
            assert!(g.id.parse::<i64>().is_ok(), "{what}: id {:?}", g.id);
        }
    }
    cases.len()
}

#[test]
fn explorer_matches_python_chess_on_testdata() {
    let reference = reference("explorer_reference.json");
    let dir = tempfile::tempdir().expect("temp dir");
    let inputs = pgn_files(&tabla_testdata::testdata().dir, &reference["files"]);
    let db = import_all(&dir.path().join("db"), inputs);
    assert_eq!(Some(db.manifest().games()), reference["games"].as_u64());
    let n = check(&db, &reference);
    assert!(n >= 100, "{n} cases");
}

#[test]
fn explorer_matches_python_chess_on_the_corpus() {
    let Some(corpus) = tabla_testdata::corpus() else {
        return;
    };
    let reference = reference("corpus_explorer_reference.json");
    let dir = tempfile::tempdir().expect("temp dir");
    let db = import_all(
        &dir.path().join("db"),
        pgn_files(&corpus.dir, &reference["files"]),
    );
    assert_eq!(Some(db.manifest().games()), reference["games"].as_u64());
    check(&db, &reference);
}

/// The explorer's parts on disk: the compaction's and the imports' after it.
fn parts(db: &std::path::Path) -> Vec<std::path::PathBuf> {
    tabla_db::Manifest::read(db)
        .expect("manifest")
        .explorer_parts(db)
}

#[test]
fn explorer_matches_python_chess_with_one_import_per_file_and_after_compaction() {
    // Nineteen imports: the explorer sums one aggregate per import, and past COMPACT_AFTER
    // parts an import sums them into one; then `compact` folds the rest. Every answer stays
    // python-chess's.
    let reference = reference("explorer_reference.json");
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("db");
    let inputs = pgn_files(&tabla_testdata::testdata().dir, &reference["files"]);
    assert!(inputs.len() > COMPACT_AFTER + 2, "{} files", inputs.len());
    let (mut compactions, mut completed) = (0, 0);
    for input in inputs {
        let options = ImportOptions {
            db: db.clone(),
            inputs: vec![input],
            max_ply: Some(50),
            query: common::query(),
        };
        let summary = import(&options, &tabla_convert::NoProgress).expect("import");
        if let Some(c) = summary.compacted {
            compactions += 1;
            assert_eq!(c.parts, COMPACT_AFTER + 1, "compacted when past the limit");
            // More rows than the parts' when positions popular in one import but not in
            // another were completed from the latter's positions.
            assert!(c.rows > 0 && c.rows <= c.rows_before + c.completed, "{c:?}");
            completed += c.completed;
        }
        assert!(parts(&db).len() <= COMPACT_AFTER, "{:?}", parts(&db));
    }
    assert!(compactions >= 1, "19 imports compact at least once");
    assert!(completed > 0, "no compaction had a position to complete");
    let opened = Database::open_with(&db, &common::query()).expect("open");
    assert_eq!(Some(opened.manifest().games()), reference["games"].as_u64());
    check(&opened, &reference);
    // The parts the compaction replaced are gone from disk.
    let through = opened
        .manifest()
        .compacted
        .as_ref()
        .expect("compacted")
        .through;
    for batch in opened.manifest().batches.iter().filter(|b| b.id <= through) {
        assert!(!db.join(batch.dir()).join("explorer").exists(), "{batch:?}");
        assert!(!db.join(batch.dir()).join("totals").exists(), "{batch:?}");
    }

    use arrow_array::Array;
    // `compact` folds whatever parts the last imports left (none when the last one compacted).
    let before = parts(&db).len();
    let summary = compact(&db, &common::query()).expect("compact");
    assert_eq!(summary.parts, before);
    assert_eq!(parts(&db).len(), 1);
    let opened = Database::open_with(&db, &common::query()).expect("open");
    let only = opened.manifest().compacted.clone().expect("compacted");
    assert_eq!(only.through, 19, "every import folded");
    let rows = opened
        .sql("SELECT COUNT(*) AS n FROM explorer")
        .expect("count");
    let n = rows[0]
        .column(0)
        .as_any()
        .downcast_ref::<arrow_array::Int64Array>()
        .expect("count")
        .value(0);
    assert_eq!(
        n as u64, only.rows,
        "the compacted table holds what it reported"
    );
    check(&opened, &reference);
    // Nothing left to fold: a no-op.
    assert_eq!(compact(&db, &common::query()).expect("again").rows, 0);
    let on_disk: Vec<_> = std::fs::read_dir(db.join("explorer"))
        .expect("explorer dir")
        .map(|e| e.expect("entry").path())
        .collect();
    assert_eq!(
        on_disk,
        vec![db.join(only.dir())],
        "earlier compactions removed"
    );
}
