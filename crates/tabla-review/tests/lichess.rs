//! Reviews of the lichess games of testdata/review/lichess-evals.pgn from their `[%eval]` comments,
//! against two expectations from elsewhere: lichess's own marks in the file, and
//! testdata/review_reference.json (python-chess and lichess's published rules, written by
//! testdata/gen_review_reference.py apart from this crate).

use serde_json::Value;
use std::collections::BTreeMap;
use tabla_pgn::{Game, Reader};
use tabla_review::{Eval, Judgement, Review, Rules, from_evals};

fn games() -> Vec<Game> {
    let path = tabla_testdata::testdata_dir()
        .join("review")
        .join("lichess-evals.pgn");
    let file = std::fs::File::open(&path).expect("testdata/review/lichess-evals.pgn");
    Reader::new(file)
        .games()
        .map(|g| g.expect("readable"))
        .collect()
}

/// The two moves lichess does not mark although its rules would: the engine's first choice was
/// the move played (lichess judges only moves the engine would not have played, and its file
/// does not say which). Game site and ply.
const ENGINES_OWN_CHOICE: [(&str, u32); 2] = [
    ("https://lichess.org/UM4HDZ7S", 9),  // 5. f3 from 6.15 to 3.97
    ("https://lichess.org/YveoBdo2", 68), // 34... Qc7 from #-7 to -14.79
];

#[test]
fn database_rules_give_lichess_marks_on_every_move() {
    let games = games();
    assert_eq!(games.len(), 37);
    let mut marks = 0;
    let mut moves = 0;
    for game in &games {
        let site = game.tag("Site").expect("Site");
        let review = from_evals(game, Rules::LichessDatabase);
        assert_eq!(review.error, None, "{site}");
        for (node, reviewed) in game.mainline().zip(&review.moves) {
            moves += 1;
            let lichess = node.nags.iter().find_map(|n| Judgement::from_nag(n.0));
            marks += usize::from(lichess.is_some());
            if ENGINES_OWN_CHOICE.contains(&(site, reviewed.ply)) {
                assert!(lichess.is_none() && reviewed.judgement.is_some(), "{site}");
                continue;
            }
            let got = reviewed.judgement;
            assert_eq!(got, lichess, "{site} ply {} {}", reviewed.ply, reviewed.san);
        }
        // The sides' counts are the marks of their moves.
        for (color, side) in [(1, &review.white), (0, &review.black)] {
            let count = |j| {
                review
                    .moves
                    .iter()
                    .filter(|m| m.ply % 2 == color && m.judgement == Some(j))
                    .count() as u32
            };
            assert_eq!(
                (side.inaccuracies, side.mistakes, side.blunders),
                (
                    count(Judgement::Inaccuracy),
                    count(Judgement::Mistake),
                    count(Judgement::Blunder)
                ),
                "{site}"
            );
        }
    }
    assert_eq!((moves, marks), (2231, 503));
}

#[test]
fn site_rules_mark_the_same_moves() {
    // lichess's analysis marks exactly the moves its database marks (it keeps the engine's line
    // for those only), however severely.
    for game in &games() {
        let site = game.tag("Site").expect("Site");
        let by_site = from_evals(game, Rules::Lichess);
        let by_database = from_evals(game, Rules::LichessDatabase);
        for (a, b) in by_site.moves.iter().zip(&by_database.moves) {
            assert_eq!(
                a.judgement.is_some(),
                b.judgement.is_some(),
                "{site} {}",
                a.ply
            );
        }
    }
}

fn reference() -> Value {
    let path = tabla_testdata::testdata_dir().join("review_reference.json");
    let text = std::fs::read_to_string(&path).expect("testdata/review_reference.json");
    serde_json::from_str(&text).expect("JSON")
}

fn close(got: Option<f64>, expected: &Value, what: &str) {
    match (got, expected.as_f64()) {
        (Some(g), Some(e)) => assert!((g - e).abs() < 1e-9, "{what}: {g} against {e}"),
        (None, None) => assert!(expected.is_null(), "{what}: {expected}"),
        _ => panic!("{what}: {got:?} against {expected}"),
    }
}

fn judgement(value: &Value) -> Option<Judgement> {
    serde_json::from_value(value.clone()).expect("a judgement or null")
}

#[test]
fn every_number_matches_the_python_reference() {
    let reference = reference();
    let expected_games = reference["games"].as_array().expect("games");
    let games = games();
    assert_eq!(games.len(), expected_games.len());
    for (game, expected) in games.iter().zip(expected_games) {
        let site = expected["site"].as_str().expect("site");
        assert_eq!(game.tag("Site"), Some(site));
        let review = from_evals(game, Rules::Lichess);
        let database = from_evals(game, Rules::LichessDatabase);
        check_review(&review, &database, expected, site);
    }
}

fn check_review(review: &Review, database: &Review, expected: &Value, site: &str) {
    for (side, e) in [
        (&review.white, &expected["white"]),
        (&review.black, &expected["black"]),
    ] {
        assert_eq!(side.name.as_deref(), e["name"].as_str(), "{site}");
        close(side.accuracy, &e["accuracy"], &format!("{site} accuracy"));
        assert_eq!(side.acpl.map(u64::from), e["acpl"].as_u64(), "{site} acpl");
        let counts = [side.inaccuracies, side.mistakes, side.blunders].map(u64::from);
        let expected_counts = ["inaccuracies", "mistakes", "blunders"].map(|k| e[k].as_u64());
        assert_eq!(counts.map(Some), expected_counts, "{site}");
    }
    let moves = expected["moves"].as_array().expect("moves");
    assert_eq!(review.moves.len(), moves.len(), "{site}");
    for ((m, db), e) in review.moves.iter().zip(&database.moves).zip(moves) {
        let what = format!("{site} ply {}", m.ply);
        assert_eq!(Some(u64::from(m.ply)), e["ply"].as_u64(), "{what}");
        assert_eq!(Some(m.san.as_str()), e["san"].as_str(), "{what}");
        assert_eq!(Some(m.uci.as_str()), e["uci"].as_str(), "{what}");
        let eval: Option<Eval> = serde_json::from_value(e["eval"].clone()).expect("eval");
        assert_eq!(m.eval, eval, "{what}");
        close(m.win, &e["win"], &format!("{what} win"));
        close(m.accuracy, &e["accuracy"], &format!("{what} accuracy"));
        assert_eq!(m.judgement, judgement(&e["judgement"]), "{what}");
        assert_eq!(
            db.judgement,
            judgement(&e["judgement_database"]),
            "{what} database"
        );
    }
}

#[test]
fn lichess_marks_by_side_add_up() {
    // A summary of the file: how many marks of each kind lichess gave, by rules.
    let mut totals: BTreeMap<&str, [u32; 3]> = BTreeMap::new();
    for game in &games() {
        for (name, rules) in [
            ("site", Rules::Lichess),
            ("database", Rules::LichessDatabase),
        ] {
            let review = from_evals(game, rules);
            let t = totals.entry(name).or_default();
            for side in [&review.white, &review.black] {
                t[0] += side.inaccuracies;
                t[1] += side.mistakes;
                t[2] += side.blunders;
            }
        }
    }
    // lichess's file: 503 marks; two of the database rule's 505 are the engine's own moves.
    let db = totals["database"];
    assert_eq!(db.iter().sum::<u32>(), 505);
    assert_eq!(totals["site"].iter().sum::<u32>(), 505);
}
