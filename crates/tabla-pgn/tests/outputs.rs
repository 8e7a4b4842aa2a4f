//! What `tabla pgn check|fen|json` print, built from the library: totals against the
//! python-chess reference, FEN listings, and the JSON shape.

mod common;

use common::PgnSet;
use tabla_pgn::{Reader, check, game_json};

/// Games and mainline plies of a file of `set`, from its reference data.
fn reference_totals(set: &PgnSet, file: &str) -> (u64, u64) {
    let reference = set.reference();
    let games = reference.get(file).map_or(&[][..], Vec::as_slice);
    let plies = games.iter().map(|g| u64::from(g.plies)).sum();
    (games.len() as u64, plies)
}

/// `check`'s totals on every file of `set`: python-chess's games and plies, no errors.
fn check_totals_match_the_reference(set: &PgnSet) {
    for (name, bytes) in set.files() {
        let totals = check(&bytes[..], false, |_| Ok(())).expect("in memory");
        let (games, plies) = reference_totals(set, &name);
        assert_eq!(
            (totals.games, totals.moves, totals.errors),
            (games, plies, 0),
            "{name}"
        );
    }
}

#[test]
fn check_totals_match_the_reference_on_testdata() {
    check_totals_match_the_reference(&common::testdata());
}

#[test]
fn check_totals_match_the_reference_on_the_corpus() {
    if let Some(corpus) = common::corpus() {
        check_totals_match_the_reference(&corpus);
    }
}

#[test]
fn check_counts_a_damaged_game() {
    let damaged = "1. e4 e5 2. Ke3 *\n\n1. d4 d5 *\n";
    let totals = check(damaged.as_bytes(), false, |_| Ok(())).expect("in memory");
    assert_eq!(totals.to_string(), "games 2, moves 4, errors 1, warnings 0");
}

#[test]
fn fen_listing_covers_start_and_every_mainline_move() {
    let dir = common::testdata().dir;
    let bytes = std::fs::read(dir.join("molinari-bordais-1979.pgn")).expect("file");
    let mut listing = Vec::new();
    check(&bytes[..], true, |g| {
        listing.push(g.fens.clone());
        Ok(())
    })
    .expect("in memory");
    assert_eq!(listing.len(), 1);
    assert_eq!(listing[0].len(), 11, "start position and 10 plies");
    assert_eq!(
        listing[0][0],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    // The final FEN as python-chess gives it (reference data).
    assert_eq!(
        listing[0][10],
        "r1bqkb1r/pp1ppppp/5n2/2p5/2P1P3/2Nn2P1/PP1PNP1P/R1BQKB1R w KQkq - 1 6"
    );
    // A game with tags only lists its start position.
    let bom = std::fs::read(dir.join("utf8-bom.pgn")).expect("file");
    let mut counts = Vec::new();
    check(&bom[..], true, |g| {
        counts.push(g.fens.len());
        Ok(())
    })
    .expect("in memory");
    assert_eq!(counts, [1, 1]);
}

#[test]
fn json_shape() {
    // testdata/pgn/annotated.pgn, written for the purpose: its first game has a clock comment
    // (`[%clk 0:05:00]`) after 1. e4.
    let bytes = std::fs::read(common::testdata().dir.join("annotated.pgn")).expect("file");
    let game = Reader::new(&bytes[..])
        .games()
        .next()
        .expect("a game")
        .expect("in memory");
    let line = game_json(&game);
    // One line of NDJSON, tags in the order written.
    assert!(!line.contains('\n'));
    assert!(
        line.starts_with(r#"{"tags":{"Event":"tabla test: comments, NAGs, variations","Site":"#),
        "{line}"
    );
    let json: serde_json::Value = serde_json::from_str(&line).expect("valid JSON");
    assert_eq!(json["tags"]["Round"], "1");
    assert_eq!(json["result"], "1-0");
    assert_eq!(
        json["start_fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    let moves = json["moves"].as_array().expect("moves");
    let first = &moves[0];
    assert_eq!(
        (
            first["san"].as_str(),
            first["lan"].as_str(),
            first["uci"].as_str()
        ),
        (Some("e4"), Some("e2-e4"), Some("e2e4"))
    );
    assert_eq!(
        first["fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    assert_eq!(first["clock"], 300.0);
    assert!(
        first["variations"]
            .as_array()
            .expect("variations")
            .is_empty()
    );
    assert!(json["error"].is_null());
    assert_eq!(json["warnings"], serde_json::json!([]));
}
