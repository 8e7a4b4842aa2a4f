//! `Database::games` pages past the end of the list, however far: an empty page, not an error.

mod common;

use common::import_all;
use tabla_db::Filters;

#[test]
fn a_page_past_the_end_is_empty_however_large_the_offset() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pgn = dir.path().join("two.pgn");
    std::fs::write(
        &pgn,
        "[White \"a\"]\n[Black \"b\"]\n\n1. e4 e5 1-0\n\n[White \"c\"]\n[Black \"d\"]\n\n1. d4 *\n",
    )
    .expect("write the PGN");
    let db = import_all(&dir.path().join("db"), vec![pgn]);
    let f = Filters::default();
    assert_eq!(
        db.games(&f, None, 10, 0).expect("first page").games.len(),
        2
    );
    // Past i64::MAX, which the query engine could not plan (a 500 from `/api/db/games`).
    for (limit, offset) in [
        (10, usize::MAX),
        (10, 1 << 63),
        (usize::MAX, 0),
        (usize::MAX, 5),
    ] {
        let page = db
            .games(&f, None, limit, offset)
            .unwrap_or_else(|e| panic!("limit {limit}, offset {offset}: {e}"));
        assert_eq!(page.total, 2);
        let expected = if offset == 0 { 2 } else { 0 };
        assert_eq!(page.games.len(), expected, "limit {limit}, offset {offset}");
    }
}
