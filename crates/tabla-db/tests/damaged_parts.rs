//! A database never answers from part of its files: the manifest lists every Parquet file an
//! import or a compaction wrote, with its size, and opening the database refuses one that is
//! missing, of another size, without Parquet's footer, or not listed — naming the file and
//! how to repair. Putting the file back (the repair from a backup) gives the same answers
//! again. A manifest written before files were listed still opens, its files checked for their
//! footer, and the next import lists them.

mod common;

use common::query;
use std::path::{Path, PathBuf};
use tabla_db::{Database, DbError, ImportOptions, Manifest, compact, import};

fn testdata(name: &str) -> PathBuf {
    tabla_testdata::testdata().path(name)
}

fn import_one(db: &Path, name: &str) {
    let options = ImportOptions {
        db: db.to_owned(),
        inputs: vec![testdata(name)],
        max_ply: Some(50),
        query: query(),
    };
    import(&options, &tabla_convert::NoProgress).expect("import");
}

/// A database of three imports.
fn three_imports(db: &Path) {
    for name in [
        "world_matches.pgn",
        "kasparov-deep-blue-1997.pgn",
        "tactics.pgn",
    ] {
        import_one(db, name);
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Games as SQL counts them, and the start position's games as the explorer counts them.
fn counts(db: &Path) -> (i64, u64) {
    let db = Database::open_with(db, &query()).expect("open");
    let batches = db.sql("SELECT count(*) AS n FROM games").expect("sql");
    let games = batches[0]
        .column(0)
        .as_any()
        .downcast_ref::<arrow_array::Int64Array>()
        .expect("int64")
        .value(0);
    let explorer = db
        .explore(
            &tabla_db::Target::Fen("startpos".into()),
            &tabla_db::Filters::default(),
        )
        .expect("explore");
    (games, explorer.games)
}

/// The error opening `db` gives, which must be a damaged part: its file and problem.
fn damaged(db: &Path) -> (PathBuf, String, String) {
    match Database::open_with(db, &query()) {
        Err(DbError::DamagedPart {
            part,
            problem,
            repair,
            ..
        }) => (part, problem, repair),
        Err(e) => panic!("expected a damaged part, got {e}"),
        Ok(_) => panic!("a damaged database opened"),
    }
}

#[test]
fn every_written_file_is_listed_with_its_size() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("db");
    three_imports(&db);
    let manifest = Manifest::read(&db).expect("manifest");
    for batch in &manifest.batches {
        let tables: std::collections::BTreeSet<&str> = batch
            .parts
            .iter()
            .map(|p| p.path.split('/').next().expect("table"))
            .collect();
        for table in ["games", "positions", "game_refs", "explorer"] {
            assert!(tables.contains(table), "batch {}: {tables:?}", batch.id);
        }
        for part in &batch.parts {
            let on_disk = db.join(batch.dir()).join(&part.path);
            let bytes = std::fs::metadata(&on_disk).expect("listed file").len();
            assert_eq!(bytes, part.bytes, "{}", on_disk.display());
        }
    }
    // The manifest's games are what SQL and the explorer count.
    let (games, start) = counts(&db);
    assert_eq!(games as u64, manifest.games());
    assert!(start > 0 && start <= manifest.games());
}

#[test]
fn a_missing_emptied_cut_or_foreign_file_is_refused_and_putting_it_back_repairs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let good = dir.path().join("good");
    three_imports(&good);
    let before = counts(&good);
    let manifest = Manifest::read(&good).expect("manifest");
    let batch = &manifest.batches[1];
    let file_of = |table: &str| {
        let part = (batch.parts.iter())
            .find(|p| p.path.starts_with(&format!("{table}/")))
            .unwrap_or_else(|| panic!("a {table} file"));
        (batch.dir().join(&part.path), part.bytes)
    };
    type Damage = fn(&Path, u64);
    let cases: [(&str, Damage, &str); 5] = [
        (
            "games",
            |p, _| std::fs::remove_file(p).expect("rm"),
            "missing",
        ),
        (
            "positions",
            |p, _| std::fs::write(p, b"").expect("empty"),
            "0 bytes where",
        ),
        (
            "explorer",
            |p, n| {
                let bytes = std::fs::read(p).expect("read");
                std::fs::write(p, &bytes[..n as usize / 2]).expect("cut");
            },
            "bytes where",
        ),
        (
            "game_refs",
            |p, _| {
                // The same size, its footer overwritten.
                let mut bytes = std::fs::read(p).expect("read");
                let n = bytes.len();
                bytes[n - 4..].copy_from_slice(b"XXXX");
                std::fs::write(p, bytes).expect("write");
            },
            "does not end with Parquet's footer",
        ),
        (
            "games",
            |p, _| {
                let extra = p.with_file_name("part-99999.parquet");
                std::fs::copy(p, extra).expect("copy");
            },
            "not written by",
        ),
    ];
    for (i, (table, damage, says)) in cases.into_iter().enumerate() {
        let db = dir.path().join(format!("case-{i}"));
        copy_dir(&good, &db);
        let (rel, bytes) = file_of(table);
        damage(&db.join(&rel), bytes);
        let (part, problem, repair) = damaged(&db);
        assert!(problem.contains(says), "{table}: {problem}");
        if says == "not written by" {
            assert_eq!(part, rel.with_file_name("part-99999.parquet"));
        } else {
            assert_eq!(part, rel, "{problem}");
        }
        assert!(
            repair.contains("import 2, of") && repair.contains("kasparov-deep-blue-1997.pgn"),
            "{repair}"
        );
        // The error as printed names the database, the file and the repair.
        let text = Database::open_with(&db, &query())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(text.contains(&part.display().to_string()), "{text}");
        // Putting the file back (from a backup) repairs it.
        let _ = std::fs::remove_file(db.join(rel.with_file_name("part-99999.parquet")));
        std::fs::copy(good.join(&rel), db.join(&rel)).expect("restore");
        assert_eq!(counts(&db), before, "{table} restored");
    }
}

#[test]
fn an_older_manifest_opens_its_files_checked_and_the_next_import_lists_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("db");
    import_one(&db, "world_matches.pgn");
    let before = counts(&db);
    // What a tabla before parts were listed wrote: the same manifest without `parts`.
    let mut old = Manifest::read(&db).expect("manifest");
    let listed = std::mem::take(&mut old.batches[0].parts);
    old.write(&db).expect("write");
    let text = std::fs::read_to_string(db.join("tabla-db.json")).expect("read");
    assert!(!text.contains("\"parts\""), "{text}");
    assert_eq!(counts(&db), before);
    // A zero-byte file is still found; a missing one cannot be.
    let games = db.join(old.batches[0].dir()).join(&listed[0].path);
    let kept = std::fs::read(&games).expect("read");
    std::fs::write(&games, b"").expect("empty");
    let (part, problem, _) = damaged(&db);
    assert_eq!(db.join(part), games);
    assert!(problem.contains("empty (0 bytes)"), "{problem}");
    std::fs::write(&games, kept).expect("restore");
    // The next import lists the older batch's files as they are.
    import_one(&db, "tactics.pgn");
    let manifest = Manifest::read(&db).expect("manifest");
    assert_eq!(manifest.batches[0].parts, listed);
    assert!(!manifest.batches[1].parts.is_empty());
}

#[test]
fn a_compaction_lists_its_files_and_retires_the_imports_aggregates() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("db");
    three_imports(&db);
    let before = counts(&db);
    let summary = compact(&db, &query()).expect("compact");
    assert_eq!(summary.parts, 3);
    let manifest = Manifest::read(&db).expect("manifest");
    let compaction = manifest.compacted.clone().expect("compacted");
    assert!(!compaction.parts.is_empty());
    for batch in &manifest.batches {
        assert!(
            (batch.parts.iter())
                .all(|p| !p.path.starts_with("explorer/") && !p.path.starts_with("totals/")),
            "batch {}: {:?}",
            batch.id,
            batch.parts
        );
        assert!(!db.join(batch.dir()).join("explorer").exists());
    }
    assert_eq!(counts(&db), before);
    let file = db.join(compaction.dir()).join(&compaction.parts[0].path);
    std::fs::remove_file(&file).expect("rm");
    let (part, problem, repair) = damaged(&db);
    assert_eq!(db.join(part), file);
    assert_eq!(problem, "missing");
    assert!(repair.contains("sum of imports 1 to 3"), "{repair}");
}

#[test]
fn an_emptied_file_of_the_reviews_is_refused_with_its_repair() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("db");
    import_one(&db, "world_matches.pgn");
    let evals = db.join("evals").join("some-engine");
    std::fs::create_dir_all(&evals).expect("mkdir");
    let file = evals.join("evals-1-00001.parquet");
    std::fs::write(&file, b"").expect("empty");
    let (part, problem, repair) = damaged(&db);
    assert_eq!(db.join(part), file);
    assert!(problem.contains("empty (0 bytes)"), "{problem}");
    assert!(repair.contains("remove the file"), "{repair}");
    // A temporary file of a review under way is not one of the table's.
    std::fs::rename(&file, evals.join(".tmp-evals-1-00001.parquet")).expect("rename");
    assert_eq!(tabla_db::verify_parts(&db).map(|n| n > 0).ok(), Some(true));
}
