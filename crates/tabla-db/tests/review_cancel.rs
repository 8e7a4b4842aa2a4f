//! `Database::review_cancellable` stopped from outside: the batches finished before are stored,
//! the one cancelled is not (its games are not marked reviewed with the cancel as their error),
//! and a later run reviews exactly the rest. Also the review figures a list shows
//! (`Database::add_reviews`) against the `review_games` table.

mod common;

use common::import_all;
use datafusion::arrow::array::{Array, Float64Array};
use tabla_analysis::{Budget, EngineSpec, Pool};
use tabla_db::{DbError, Filters, ReviewCancel, ReviewWith};
use tabla_review::Rules;

/// testdata's 80 lichess games: two batches of the review (64, then 16).
const GAMES: &str = "lichess_db_1000k.pgn";

#[test]
fn a_cancelled_review_keeps_the_finished_batches_only() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = import_all(
        &dir.path().join("db"),
        vec![tabla_testdata::testdata().path(GAMES)],
    );
    let spec = EngineSpec::Tabla;
    let mut pool = Pool::start(&spec, 1).expect("tabla's engine");
    let budget = Budget::Depth(1);
    let cancel = ReviewCancel::new();
    let mut seen_second_batch = false;
    let run = db.review_cancellable(
        &Filters::default(),
        ReviewWith::Engine {
            pool: &mut pool,
            spec: &spec,
            budget,
            flush_every: tabla_review::FLUSH_EVERY,
        },
        Rules::Lichess,
        &cancel,
        &mut |counts, total| {
            assert_eq!(total, 80);
            // The second batch's games are counted as soon as its searches are submitted.
            if counts.games > 64 && !seen_second_batch {
                seen_second_batch = true;
                cancel.cancel();
            }
        },
    );
    assert!(seen_second_batch, "the review reached its second batch");
    assert!(
        matches!(run, Err(DbError::Cancelled)),
        "a cancelled run says so: {run:?}"
    );
    let stored = count(&db, "SELECT COUNT(*) FROM review_games");
    let failed = count(
        &db,
        "SELECT COUNT(*) FROM review_games WHERE error IS NOT NULL",
    );
    assert_eq!((stored, failed), (64, 0), "the first batch, without errors");

    // A second run reviews the 16 others, and a third nothing.
    for (already, reviewed) in [(64, 16), (80, 0)] {
        let summary = db
            .review(
                &Filters::default(),
                ReviewWith::Engine {
                    pool: &mut pool,
                    spec: &spec,
                    budget,
                    flush_every: tabla_review::FLUSH_EVERY,
                },
                Rules::Lichess,
                &mut |_, _| {},
            )
            .expect("the review runs");
        assert_eq!(
            (summary.selected, summary.already, summary.counts.games),
            (80, already, reviewed)
        );
    }
    assert_eq!(count(&db, "SELECT COUNT(*) FROM review_games"), 80);

    // The figures a list shows are the table's.
    let mut page = db
        .games(&Filters::default(), None, 5, 0)
        .expect("a page of games");
    db.add_reviews(&mut page.games, None)
        .expect("their reviews");
    for game in &page.games {
        let review = game.review.as_ref().expect("every game is reviewed");
        let row = db
            .sql(&format!(
                "SELECT engine, white_accuracy, black_accuracy, CAST(white_blunders AS BIGINT) AS wb, \
                 CAST(black_mistakes AS BIGINT) AS bm FROM review_games WHERE game_id = {}",
                game.id
            ))
            .expect("its row");
        let batch = row.iter().find(|b| b.num_rows() > 0).expect("one row");
        let text = |name: &str| {
            let column = batch.column_by_name(name).expect("column");
            datafusion::arrow::util::display::array_value_to_string(column, 0).expect("a value")
        };
        let float = |name: &str| {
            let column = batch.column_by_name(name).expect("column");
            let values = column
                .as_any()
                .downcast_ref::<Float64Array>()
                .expect("Float64");
            values.is_valid(0).then(|| values.value(0))
        };
        assert_eq!(review.engine, text("engine"));
        assert_eq!(review.white_accuracy, float("white_accuracy"));
        assert_eq!(review.black_accuracy, float("black_accuracy"));
        assert_eq!(review.white.blunders.to_string(), text("wb"));
        assert_eq!(review.black.mistakes.to_string(), text("bm"));
    }
}

/// The single number a `SELECT COUNT(*)` answers.
fn count(db: &tabla_db::Database, sql: &str) -> i64 {
    let batches = db.sql(sql).expect(sql);
    let column = batches[0].column(0);
    datafusion::arrow::util::display::array_value_to_string(column, 0)
        .expect("a count")
        .parse()
        .expect("a number")
}
