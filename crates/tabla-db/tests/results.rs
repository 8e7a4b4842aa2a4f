//! One result per game, whoever reads it: the game tree (`Game::result`), `tabla convert`'s
//! `result` column as `tabla db import` stores it, the opening explorer's counts and `tabla db
//! info`'s count agree on every game of testdata/ and of the corpus (when present; with
//! `TABLA_REQUIRE_CORPUS=1` a missing corpus fails). testdata/results/result-spellings.pgn
//! (written by hand) holds each non-standard spelling and tag/marker conflicts, with the result
//! expected written by hand in each game's `Expected` tag.

mod common;

use datafusion::arrow::array::Array;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tabla_db::{Filters, Target};
use tabla_pgn::{Outcome, Reader};

/// What the reader says of every game of `paths`, by game id: its result, whether it starts
/// from the standard position, whether it played a move, and its `Expected` tag.
struct Read {
    games: BTreeMap<i64, (Outcome, bool, bool, Option<String>)>,
}

fn read_all(paths: &[PathBuf]) -> Read {
    let mut games = BTreeMap::new();
    for path in paths {
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for game in Reader::new(&bytes[..]).games() {
            let game = game.expect("read");
            let id = tabla_convert::game_id(&name, 0, game.location.offset).expect("id") as i64;
            let standard = game
                .start
                .as_ref()
                .is_some_and(|p| p.to_fen() == tabla::Position::startpos().to_fen());
            let moved = game.mainline().next().is_some();
            let expected = game.tag("Expected").map(str::to_owned);
            assert_eq!(
                game.result(),
                game.result_outcome().as_str(),
                "{name} game {}",
                game.number
            );
            games.insert(id, (game.result_outcome(), standard, moved, expected));
        }
    }
    Read { games }
}

fn pgn_paths(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    paths.sort();
    paths
}

/// Imports `paths` and checks every game's stored result, the explorer's counts at the start
/// position and `db info`'s count against the reader.
fn agree(paths: Vec<PathBuf>) {
    let read = read_all(&paths);
    let dir = tempfile::tempdir().expect("temp dir");
    let db = common::import_all(&dir.path().join("db"), paths);

    // The games table: one row per game read, and as many of each result, in standard form,
    // as the reader finds. (The database numbers its games 1, 2, 3... in an order that depends
    // on its threads, so games are compared as counts by result; the hand-written games'
    // `Expected` tags check the reader game by game.)
    let batches = db
        .sql("SELECT CAST(result AS VARCHAR) AS result, COUNT(*) AS n FROM games GROUP BY result")
        .expect("select");
    let mut stored: BTreeMap<Option<String>, u64> = BTreeMap::new();
    for batch in &batches {
        let results = datafusion::arrow::compute::cast(
            batch.column_by_name("result").expect("result"),
            &datafusion::arrow::datatypes::DataType::Utf8,
        )
        .expect("cast");
        let results = results
            .as_any()
            .downcast_ref::<datafusion::arrow::array::StringArray>()
            .expect("text");
        let counts = datafusion::arrow::compute::cast(
            batch.column_by_name("n").expect("n"),
            &datafusion::arrow::datatypes::DataType::Int64,
        )
        .expect("cast");
        let counts = counts
            .as_any()
            .downcast_ref::<datafusion::arrow::array::Int64Array>()
            .expect("counts");
        for i in 0..batch.num_rows() {
            let value = results.is_valid(i).then(|| results.value(i).to_owned());
            *stored.entry(value).or_default() += counts.value(i) as u64;
        }
    }
    let mut expected_counts: BTreeMap<Option<String>, u64> = BTreeMap::new();
    for (outcome, _, _, expected) in read.games.values() {
        *expected_counts
            .entry(Some(outcome.as_str().to_owned()))
            .or_default() += 1;
        if let Some(expected) = expected {
            assert_eq!(outcome.as_str(), expected, "the hand-written result");
        }
    }
    assert_eq!(
        stored, expected_counts,
        "the games table's results against the reader's"
    );

    // The explorer at the start position counts every game from it with a result and a move.
    let start = db
        .explore(&Target::Fen("startpos".to_owned()), &Filters::default())
        .expect("explore");
    let from_start = |o: Outcome| {
        read.games
            .values()
            .filter(|(r, standard, moved, _)| *standard && *moved && *r == o)
            .count() as u64
    };
    assert_eq!(
        (start.white, start.draws, start.black),
        (
            from_start(Outcome::WhiteWins),
            from_start(Outcome::Draw),
            from_start(Outcome::BlackWins)
        ),
        "explorer at the start position"
    );

    // db info: counted are the games with a result and a move; the rest are left out.
    let info = db.info().expect("info");
    let counted = read
        .games
        .values()
        .filter(|(r, _, moved, _)| *moved && r.is_decided())
        .count() as u64;
    assert_eq!(info.explorer.counted, counted, "db info's counted games");
    let left: u64 = info.explorer.left_out.iter().map(|l| l.games).sum();
    assert_eq!(counted + left, info.games, "{:?}", info.explorer);
}

#[test]
fn the_hand_written_spellings_agree() {
    let paths = pgn_paths(&tabla_testdata::testdata_dir().join("results"));
    let read = read_all(&paths);
    // 14 games: 8 draws in 7 spellings, 3 White wins, 2 Black wins, 1 unknown.
    let count = |o: Outcome| read.games.values().filter(|g| g.0 == o).count();
    assert_eq!(
        [
            Outcome::WhiteWins,
            Outcome::Draw,
            Outcome::BlackWins,
            Outcome::Unknown
        ]
        .map(count),
        [3, 8, 2, 1]
    );
    agree(paths);
}

#[test]
fn testdata_results_agree() {
    agree(pgn_paths(&tabla_testdata::testdata().dir));
}

#[test]
fn corpus_results_agree() {
    let Some(corpus) = tabla_testdata::corpus() else {
        return;
    };
    agree(pgn_paths(&corpus.dir));
}
