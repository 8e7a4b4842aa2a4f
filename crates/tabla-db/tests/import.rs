//! Importing: incremental (a second import adds its games, and the explorer's counts are the
//! sums), never a duplicate (the same content under another name is refused), crash-safe (what
//! an interrupted import leaves is never read and is removed by the next one), and max-ply
//! fixed at creation.

use std::path::{Path, PathBuf};
use tabla_db::{Database, DbError, Filters, ImportOptions, QueryOptions, Target, import};

fn query() -> QueryOptions {
    QueryOptions {
        threads: 2,
        memory: 128 << 20,
        spill_dir: None,
    }
}

fn options(db: &Path, inputs: &[PathBuf], max_ply: Option<u32>) -> ImportOptions {
    ImportOptions {
        db: db.to_owned(),
        inputs: inputs.to_vec(),
        max_ply,
        query: query(),
    }
}

fn testdata(name: &str) -> PathBuf {
    tabla_testdata::testdata().path(name)
}

/// The start position's totals and moves.
fn start(db: &Path) -> (u64, Vec<(String, u64)>) {
    let db = Database::open_with(db, &query()).expect("open");
    let answer = db
        .explore(&Target::Fen("startpos".into()), &Filters::default())
        .expect("explore");
    (
        answer.games,
        answer
            .moves
            .iter()
            .map(|m| (m.uci.clone(), m.games))
            .collect(),
    )
}

#[test]
fn imports_add_up_and_the_same_content_is_skipped_under_any_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (a, b) = (
        testdata("lichess_db_1000k.pgn"),
        testdata("twic1599_1000k.pgn"),
    );
    let only = |inputs: &[PathBuf], name: &str| {
        let db = dir.path().join(name);
        import(&options(&db, inputs, None), &tabla_convert::NoProgress).expect("import");
        start(&db)
    };
    let (games_a, _) = only(std::slice::from_ref(&a), "a");
    let (games_b, _) = only(std::slice::from_ref(&b), "b");
    let (games_ab, moves_ab) = only(&[a.clone(), b.clone()], "ab");
    assert!(games_a > 0 && games_b > 0);
    assert_eq!(games_ab, games_a + games_b);

    // Two imports into one database answer as one import of both.
    let db = dir.path().join("db");
    let first = import(
        &options(&db, std::slice::from_ref(&a), None),
        &tabla_convert::NoProgress,
    )
    .expect("first import");
    let second = import(
        &options(&db, std::slice::from_ref(&b), Some(50)),
        &tabla_convert::NoProgress,
    )
    .expect("second import");
    assert_eq!((first.batch, second.batch), (1, 2));
    assert_eq!(start(&db), (games_ab, moves_ab.clone()));
    // The database numbers its games 1, 2, 3... over both imports, each id once, and every
    // position row names one of them.
    let ids = |sql: &str| -> Vec<i64> {
        let batches = Database::open_with(&db, &query())
            .expect("open")
            .sql(sql)
            .expect("query");
        let batch = &batches[0];
        (0..batch.num_columns())
            .map(|c| {
                let column = datafusion::arrow::compute::cast(
                    batch.column(c),
                    &datafusion::arrow::datatypes::DataType::Int64,
                )
                .expect("cast");
                let column = column
                    .as_any()
                    .downcast_ref::<datafusion::arrow::array::Int64Array>()
                    .expect("int64")
                    .clone();
                column.value(0)
            })
            .collect()
    };
    let all =
        ids("SELECT COUNT(*), COUNT(DISTINCT game_id), MIN(game_id), MAX(game_id) FROM games");
    assert_eq!(all[1..], [all[0], 1, all[0]]);
    let manifest = tabla_db::Manifest::read(&db).expect("manifest");
    let [a_batch, b_batch] = &manifest.batches[..] else {
        panic!("two batches")
    };
    assert_eq!(a_batch.first_game_id, Some(1));
    assert_eq!(b_batch.first_game_id, Some(1 + a_batch.games));
    assert_eq!(a_batch.games + b_batch.games, all[0] as u64);
    assert_eq!(
        ids("SELECT COUNT(*) FROM positions WHERE game_id NOT IN (SELECT game_id FROM games)"),
        [0]
    );

    // The same bytes again, under the same name or another, add nothing: they are skipped,
    // and said so with the earlier input's name and date.
    let copy = dir.path().join("renamed.pgn");
    std::fs::copy(&a, &copy).expect("copy");
    for again in [a.clone(), copy.clone()] {
        let summary = import(
            &options(&db, std::slice::from_ref(&again), None),
            &tabla_convert::NoProgress,
        )
        .expect("an input imported before is skipped, not refused");
        assert_eq!((summary.batch, summary.games), (0, 0));
        let [skipped] = &summary.skipped[..] else {
            panic!("one input skipped: {:?}", summary.skipped)
        };
        assert!(skipped.imported.is_some(), "{skipped}");
        let text = skipped.to_string();
        assert!(text.contains("already imported"), "{text}");
        // The date as a date (`2026-12-02 06:41 UTC`), not seconds since 1970.
        assert!(text.contains(" UTC)"), "{text}");
    }
    let db_open = Database::open_with(&db, &query()).expect("open");
    assert_eq!(db_open.manifest().batches.len(), 2);
    assert_eq!(start(&db), (games_ab, moves_ab));

    // Inputs imported before and one given twice: the rest is imported, once.
    let mate = testdata("mate_in_2.pgn");
    let summary = import(
        &options(&db, &[a.clone(), mate.clone(), copy, mate.clone()], None),
        &tabla_convert::NoProgress,
    )
    .expect("import the rest");
    assert_eq!(summary.batch, 3);
    let skipped: Vec<(String, bool)> = summary
        .skipped
        .iter()
        .map(|s| (s.input.clone(), s.imported.is_some()))
        .collect();
    let name = |p: &Path| p.display().to_string();
    assert_eq!(
        skipped,
        [
            (name(&a), true),
            (name(&dir.path().join("renamed.pgn")), true),
            (name(&mate), false)
        ]
    );
    let manifest = tabla_db::Manifest::read(&db).expect("manifest");
    assert_eq!(manifest.batches.len(), 3);
    assert_eq!(manifest.batches[2].inputs.len(), 1);

    // max-ply is fixed when the database is made.
    let err = import(
        &options(&db, &[testdata("tactics.pgn")], Some(30)),
        &tabla_convert::NoProgress,
    )
    .expect_err("another max-ply");
    assert!(
        matches!(
            err,
            DbError::MaxPly {
                given: 30,
                fixed: 50
            }
        ),
        "{err}"
    );
}

#[test]
fn an_interrupted_import_leaves_the_database_as_it_was() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("db");
    let a = testdata("lichess_db_1000k.pgn");
    import(&options(&db, &[a], None), &tabla_convert::NoProgress).expect("import");
    let before = start(&db);
    let manifest = std::fs::read(db.join("tabla-db.json")).expect("manifest");

    // An import that fails part-way (its second input cannot be read) changes nothing.
    let missing = dir.path().join("missing.pgn");
    let err = import(
        &options(&db, &[testdata("tactics.pgn"), missing], None),
        &tabla_convert::NoProgress,
    )
    .expect_err("missing input");
    assert!(err.to_string().contains("missing.pgn"), "{err}");
    assert_eq!(
        std::fs::read(db.join("tabla-db.json")).expect("manifest"),
        manifest
    );

    // What a killed import leaves on disk: a staging directory, and a batch moved into place
    // but never committed to the manifest, both holding games. Readers ignore them...
    let tactics = dir.path().join("scratch");
    import(
        &options(&tactics, &[testdata("tactics.pgn")], None),
        &tabla_convert::NoProgress,
    )
    .expect("scratch import");
    let copy = |to: &Path| copy_dir(&tactics.join("batches/000001"), to);
    copy(&db.join(".staging-000002"));
    copy(&db.join("batches/000002"));
    assert_eq!(start(&db), before);
    // ...and the next import removes them before it adds its own.
    import(
        &options(&db, &[testdata("twic1599_1000k.pgn")], None),
        &tabla_convert::NoProgress,
    )
    .expect("import after a crash");
    assert!(!db.join(".staging-000002").exists());
    let opened = Database::open_with(&db, &query()).expect("open");
    assert_eq!(opened.manifest().batches.len(), 2);
    let info = opened.info().expect("info");
    assert_eq!(info.games, opened.manifest().games());
    let (games, _) = start(&db);
    let twic = dir.path().join("twic");
    import(
        &options(&twic, &[testdata("twic1599_1000k.pgn")], None),
        &tabla_convert::NoProgress,
    )
    .expect("twic alone");
    assert_eq!(
        games,
        before.0 + start(&twic).0,
        "the crashed batch's games are not counted"
    );
}

#[test]
fn an_interrupted_compaction_leaves_the_database_as_it_was() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("db");
    for input in ["lichess_db_1000k.pgn", "twic1599_1000k.pgn"] {
        import(
            &options(&db, &[testdata(input)], None),
            &tabla_convert::NoProgress,
        )
        .expect("import");
    }
    let before = start(&db);
    // What a killed compaction leaves: its staging directory, and its table moved into place
    // but never committed, both holding explorer rows. Readers ignore them...
    let explorer = db.join("batches/000001/explorer");
    copy_dir(&explorer, &db.join(".staging-explorer-000001"));
    copy_dir(&explorer, &db.join("explorer/000001"));
    assert_eq!(start(&db), before);
    // ...and the next compaction removes them, then sums the two imports' parts into one.
    let summary = tabla_db::compact(&db, &query()).expect("compact");
    assert_eq!(summary.parts, 2);
    assert!(!db.join(".staging-explorer-000001").exists());
    assert_eq!(start(&db), before);
    let opened = Database::open_with(&db, &query()).expect("open");
    let compacted = opened.manifest().compacted.clone().expect("compacted");
    assert_eq!((compacted.id, compacted.through), (1, 2));
    assert!(!explorer.exists(), "the folded part is removed");
    let info = opened.info().expect("info");
    let table = info.table_bytes.iter().find(|t| t.table == "explorer");
    assert!(
        table.is_some_and(|t| t.files > 0 && t.bytes > 0),
        "{info:?}"
    );
}

#[test]
fn a_convert_directory_imports_as_its_pgn_and_an_aggregate_made_elsewhere_needs_its_max_ply() {
    let dir = tempfile::tempdir().expect("temp dir");
    let inputs = [
        testdata("lichess_db_1000k.pgn"),
        testdata("twic1599_1000k.pgn"),
    ];
    let from_pgn = dir.path().join("from-pgn");
    import(
        &options(&from_pgn, &inputs, None),
        &tabla_convert::NoProgress,
    )
    .expect("import");
    let want = start(&from_pgn);
    assert!(want.0 > 0);

    // What `tabla convert --positions` writes: the aggregate is computed on import.
    let converted = dir.path().join("converted");
    let convert = tabla_convert::Options {
        inputs: inputs
            .iter()
            .cloned()
            .map(tabla_convert::Input::Path)
            .collect(),
        out_dir: converted.clone(),
        positions: tabla_convert::PositionsTable::Full,
        max_ply: None,
        threads: std::num::NonZeroUsize::new(2).expect("2"),
        game_ids: tabla_convert::GameIds::FromPlace,
    };
    tabla_convert::convert(&convert, &tabla_convert::NoProgress).expect("convert");
    let attached = dir.path().join("attached");
    import(
        &options(&attached, std::slice::from_ref(&converted), None),
        &tabla_convert::NoProgress,
    )
    .expect("attach");
    assert_eq!(start(&attached), want);

    // With an aggregate made elsewhere (here: the first database's), beside the file that says
    // which max-ply it was made with.
    copy_dir(
        &from_pgn.join("batches/000001/explorer"),
        &converted.join("explorer"),
    );
    let try_attach = |name: &str| {
        import(
            &options(
                &dir.path().join(name),
                std::slice::from_ref(&converted),
                None,
            ),
            &tabla_convert::NoProgress,
        )
    };
    let err = try_attach("no-sidecar").expect_err("no sidecar");
    assert!(err.to_string().contains(tabla_db::SIDECAR), "{err}");
    let sidecar = converted.join("explorer").join(tabla_db::SIDECAR);
    std::fs::write(&sidecar, "{\"max_ply\": 30}").expect("write");
    let err = try_attach("other-max-ply").expect_err("max-ply 30");
    assert!(err.to_string().contains("max-ply 30"), "{err}");
    std::fs::write(&sidecar, "max_ply = 50").expect("write");
    let err = try_attach("bad-sidecar").expect_err("not JSON");
    assert!(err.to_string().contains("not {\"max_ply\": N}"), "{err}");
    std::fs::write(&sidecar, "{\"max_ply\": 50}").expect("write");
    try_attach("with-aggregate").expect("attach with its aggregate");
    assert_eq!(start(&dir.path().join("with-aggregate")), want);
}

#[test]
fn a_second_import_waits_for_no_one_it_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("db");
    std::fs::create_dir_all(&db).expect("mkdir");
    let held = std::fs::File::create(db.join("tabla-db.lock")).expect("lock file");
    held.lock().expect("lock");
    let err = import(
        &options(&db, &[testdata("tactics.pgn")], None),
        &tabla_convert::NoProgress,
    )
    .expect_err("locked");
    assert!(matches!(err, DbError::Locked(_)), "{err}");
    drop(held);
    import(
        &options(&db, &[testdata("tactics.pgn")], None),
        &tabla_convert::NoProgress,
    )
    .expect("unlocked");
}

#[test]
fn bad_arguments_are_typed_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let err = Database::open(dir.path()).expect_err("no database");
    assert!(matches!(err, DbError::NotADatabase(_)), "{err}");
    let err = import(
        &options(&dir.path().join("x"), &[testdata("tactics.pgn")], Some(0)),
        &tabla_convert::NoProgress,
    )
    .expect_err("max-ply 0");
    assert!(matches!(err, DbError::BadMaxPly(0)), "{err}");
    // A directory that is not a database is not taken over.
    std::fs::write(dir.path().join("notes.txt"), "mine").expect("write");
    let err = import(
        &options(dir.path(), &[testdata("tactics.pgn")], None),
        &tabla_convert::NoProgress,
    )
    .expect_err("not empty");
    assert!(err.to_string().contains("not empty"), "{err}");
    for bad in [
        Target::Fen("8/8/8/8/8/8/8/8 w - - 0 1".into()),
        Target::Fen("not a fen".into()),
        Target::Moves("e4 e5 Ke3".into()),
        Target::Moves("e4 Nf6 Nf6".into()),
    ] {
        assert!(
            matches!(bad.position(), Err(DbError::Argument(_))),
            "{bad:?}"
        );
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

#[test]
fn a_failed_first_import_leaves_the_directory_as_it_found_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("missing.pgn");
    // A directory that was not there is not there after.
    let db = dir.path().join("new-db");
    let err = import(
        &options(&db, &[testdata("tactics.pgn"), missing.clone()], None),
        &tabla_convert::NoProgress,
    )
    .expect_err("missing input");
    assert!(err.to_string().contains("missing.pgn"), "{err}");
    assert!(
        !db.exists(),
        "left behind: {:?}",
        std::fs::read_dir(&db).ok()
    );
    // An empty directory given stays, empty.
    let empty = dir.path().join("empty-db");
    std::fs::create_dir(&empty).expect("mkdir");
    import(
        &options(&empty, &[missing], None),
        &tabla_convert::NoProgress,
    )
    .expect_err("missing input");
    let left: Vec<_> = std::fs::read_dir(&empty)
        .expect("still there")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
    // And the next import into it works.
    import(
        &options(&empty, &[testdata("tactics.pgn")], None),
        &tabla_convert::NoProgress,
    )
    .expect("a good import after a failed one");
}

#[test]
fn what_a_killed_first_import_leaves_is_empty_for_the_next() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A scratch database whose batch stands in for what the killed import had written.
    let scratch = dir.path().join("scratch");
    import(
        &options(&scratch, &[testdata("tactics.pgn")], None),
        &tabla_convert::NoProgress,
    )
    .expect("scratch import");
    let fresh = start(&scratch);
    // Killed with kill -9 before it committed: the lock, a staging directory, and a batch moved
    // into place, but no manifest.
    let db = dir.path().join("db");
    std::fs::create_dir_all(db.join("batches")).expect("mkdir");
    std::fs::write(db.join("tabla-db.lock"), "").expect("lock file");
    copy_dir(&scratch.join("batches/000001"), &db.join(".staging-000001"));
    copy_dir(&scratch.join("batches/000001"), &db.join("batches/000001"));
    import(
        &options(&db, &[testdata("tactics.pgn")], None),
        &tabla_convert::NoProgress,
    )
    .expect("an import after a killed first one");
    assert_eq!(start(&db), fresh);
    assert!(!db.join(".staging-000001").exists());
    // Anything else in a directory that is no database is still refused, and kept.
    let other = dir.path().join("other");
    std::fs::create_dir_all(&other).expect("mkdir");
    std::fs::write(other.join("notes.txt"), "mine").expect("write");
    let err = import(
        &options(&other, &[testdata("tactics.pgn")], None),
        &tabla_convert::NoProgress,
    )
    .expect_err("a directory of something else");
    assert!(err.to_string().contains("not a tabla database"), "{err}");
    assert!(other.join("notes.txt").is_file());
}

#[test]
fn an_empty_file_is_no_games_and_names_no_staging_path() {
    let dir = tempfile::tempdir().expect("temp dir");
    let empty = dir.path().join("empty.pgn");
    std::fs::write(&empty, "").expect("write");
    let db = dir.path().join("db");
    let err =
        import(&options(&db, &[empty], None), &tabla_convert::NoProgress).expect_err("no games");
    let text = err.to_string();
    assert!(err.is_usage(), "{text}");
    assert!(text.contains("empty.pgn: no games"), "{text}");
    assert!(!text.contains(".staging"), "{text}");
    assert!(!db.exists());
}

#[test]
fn games_without_a_playable_start_are_refused_by_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = dir.path().join("bad-fen.pgn");
    std::fs::write(&bad, "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n").expect("write");
    let db = dir.path().join("db");
    let err = import(&options(&db, &[bad], None), &tabla_convert::NoProgress)
        .expect_err("no playable start");
    let text = err.to_string();
    assert!(err.is_usage(), "{text}");
    assert!(
        text.contains("bad-fen.pgn: no game with a playable start"),
        "{text}"
    );
    assert!(!text.contains(".staging"), "{text}");
    assert!(!db.exists());
}
