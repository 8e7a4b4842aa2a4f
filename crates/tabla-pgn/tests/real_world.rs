//! Awkward text that real PGN collections hold, one small file per case in `tests/data/cases`
//! (written for these tests): `[` at the start of a line inside a comment, `1/2` as a result,
//! unescaped quotes in tag values, junk between moves, a comment never closed. Every game's
//! mainline equals python-chess's (`tests/data/cases/reference.jsonl`, written by
//! `crates/tabla-pgn/tests/data/cases/gen_case_reference.py`); what was repaired is a warning, and
//! only a game that stopped early has an error. Where python-chess is wrong, pgn-extract decides
//! (noted at the test).

mod common;

use common::{dump_game, read_all};
use std::io::Cursor;
use std::path::PathBuf;
use tabla_pgn::{ErrorKind, Game, Outcome, Reader};

fn cases_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/cases")
}

fn case(name: &str) -> Vec<u8> {
    std::fs::read(cases_dir().join(name)).expect("case file")
}

/// python-chess's games of one case file: the mainline in UCI and how many errors it met.
fn reference(name: &str) -> Vec<(Vec<String>, usize)> {
    let text = std::fs::read_to_string(cases_dir().join("reference.jsonl")).expect("reference");
    text.lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON line"))
        .filter(|v| v["file"] == name)
        .map(|v| {
            let uci = v["uci"].as_array().expect("uci").iter();
            let uci = uci.map(|m| m.as_str().expect("move").to_owned()).collect();
            (uci, v["errors"].as_u64().expect("errors") as usize)
        })
        .collect()
}

fn uci(game: &Game) -> Vec<String> {
    game.mainline().map(|n| n.uci()).collect()
}

fn warning_kinds(game: &Game) -> Vec<ErrorKind> {
    game.warnings().map(|w| w.kind.clone()).collect()
}

const CASES: [&str; 5] = [
    "comment-bracket-lines.pgn",
    "draw-abbreviated.pgn",
    "tag-quotes.pgn",
    "movetext-junk.pgn",
    "unclosed-comment.pgn",
];

#[test]
fn every_case_has_python_chess_mainlines() {
    for name in CASES {
        let games = read_all(&case(name));
        let expected = reference(name);
        assert_eq!(games.len(), expected.len(), "{name}: number of games");
        for (i, (game, (moves, errors))) in games.iter().zip(&expected).enumerate() {
            assert_eq!(&uci(game), moves, "{name}: game {}", i + 1);
            assert_eq!(
                game.error().is_some(),
                *errors > 0,
                "{name}: game {}: {:?}",
                i + 1,
                game.problems
            );
        }
    }
}

#[test]
fn a_line_starting_with_a_bracket_inside_a_comment_does_not_end_it() {
    let games = read_all(&case("comment-bracket-lines.pgn"));
    assert_eq!(games.len(), 3);
    for game in &games {
        assert!(game.problems.is_empty(), "{:?}", game.problems);
    }
    // Steinitz - von Bardeleben, Hastings 1895: all 49 plies, the opening's code kept.
    assert_eq!(games[0].mainline().count(), 49);
    let intro = &games[0].moves.nodes[0].comments_before[0].text;
    assert!(intro.starts_with("[C54] A Giuoco Piano"), "{intro}");
    let notes: Vec<&str> = games[1]
        .mainline()
        .flat_map(|n| n.comments_after.iter().map(|c| c.text.as_str()))
        .collect();
    assert!(
        notes
            .iter()
            .any(|c| c.contains("[clk 1:05:23 ] clock reading"))
    );
    assert!(notes.iter().any(|c| c.contains("['just for fun'] is what")));
    // A tag pair with more words after it on its line is comment text too.
    assert!(
        notes
            .iter()
            .any(|c| c.contains("[Event \"not a game\"] and more"))
    );
    assert_eq!(games[2].tag("White"), Some("C"));
}

#[test]
fn one_half_alone_is_read_as_a_draw_with_a_warning() {
    let games = read_all(&case("draw-abbreviated.pgn"));
    assert_eq!(games.len(), 3);
    for game in &games[..2] {
        assert_eq!(game.outcome, Some(Outcome::Draw));
        assert_eq!(warning_kinds(game), [ErrorKind::AbbreviatedDraw]);
        assert!(game.error().is_none());
    }
    let w = games[0].warnings().next().expect("warning");
    assert_eq!((w.location.line, w.location.column), (6, 30));
    // The next game's tags follow the `1/2` with no blank line: still a game of its own
    // (python-chess loses those tags; pgn-extract keeps them, as tabla does).
    assert_eq!(games[2].tag("White"), Some("V"));
    assert_eq!(games[2].outcome, Some(Outcome::WhiteWins));
    // `1/2-1/2` and `1/2` inside a longer token are not repairs.
    let games = read_all(b"1. e4 e5 1/2-1/2\n\n1. d4 1/2x *");
    assert!(games[0].problems.is_empty());
    assert_eq!(games[1].outcome, Some(Outcome::Unknown));
}

#[test]
fn unescaped_quotes_in_a_tag_value_are_kept_with_a_warning() {
    let games = read_all(&case("tag-quotes.pgn"));
    assert_eq!(games.len(), 2);
    let g = &games[0];
    // python-chess's values: the text between the first and the last quote.
    assert_eq!(g.tag("White"), Some("\"Socrates Expert\""));
    assert_eq!(g.tag("Annotator"), Some("Lopez \"Battle Royale\""));
    // Two tags on one line stay two (as pgn-extract reads them; python-chess makes one value,
    // `1"] [Date "1993.??.??`, of the line).
    assert_eq!(g.tag("Round"), Some("1"));
    assert_eq!(g.tag("Date"), Some("1993.??.??"));
    assert_eq!(
        warning_kinds(g),
        [ErrorKind::UnescapedQuotes, ErrorKind::UnescapedQuotes]
    );
    let lines: Vec<u64> = g.warnings().map(|w| w.location.line).collect();
    assert_eq!(lines, [2, 4]);
    // Escaped quotes are no repair (pgn-extract reads `\"` as a quote; python-chess keeps the
    // backslash).
    assert_eq!(games[1].tag("White"), Some("A \"quoted\" name"));
    assert!(games[1].problems.is_empty());
}

#[test]
fn junk_between_moves_is_skipped_with_warnings_and_bad_moves_stay_errors() {
    let games = read_all(&case("movetext-junk.pgn"));
    assert_eq!(games.len(), 4);
    assert_eq!(
        warning_kinds(&games[0]),
        [
            ErrorKind::UnexpectedCharacter,
            ErrorKind::UnexpectedCharacter,
            ErrorKind::UnexpectedCharacter,
            ErrorKind::UnexpectedCharacter,
            ErrorKind::NotMovetext,
            ErrorKind::NotMovetext,
        ]
    );
    let tokens: Vec<&str> = games[0].warnings().map(|w| w.token.as_str()).collect();
    assert_eq!(tokens, ["}", "]", "\"", "\"", "draw", "#"]);
    assert!(games[0].error().is_none());
    assert_eq!(games[0].mainline().count(), 9);
    // A token shaped like a move that names no square stops the game, as does an illegal one.
    let e = games[1].error().expect("Nf9 is an error");
    assert_eq!(
        (e.kind.clone(), e.token.as_str()),
        (ErrorKind::NotAMove, "Nf9")
    );
    let e = games[2].error().expect("a second Nf3 is illegal");
    assert_eq!(
        (e.kind.clone(), e.token.as_str()),
        (ErrorKind::IllegalMove, "Nf3")
    );
    assert!(games[3].problems.is_empty());
}

#[test]
fn a_comment_never_closed_ends_at_the_next_games_tags() {
    let games = read_all(&case("unclosed-comment.pgn"));
    let events: Vec<_> = games.iter().map(|g| g.tag("Event")).collect();
    assert_eq!(
        events,
        [Some("One"), Some("Two"), Some("Three"), Some("Four")]
    );
    for i in [0, 2] {
        assert_eq!(
            warning_kinds(&games[i]),
            [ErrorKind::UnterminatedComment],
            "game {}",
            i + 1
        );
        assert!(games[i].error().is_none());
    }
    assert!(games[1].problems.is_empty() && games[3].problems.is_empty());
    // The comment's text is kept, up to the line before the next game.
    let last = games[0].mainline().last().expect("moves");
    assert_eq!(
        last.comments_after[0].text,
        "a comment the editor never closed 4. Qxf7# 1-0"
    );
}

#[test]
fn case_files_give_the_same_games_cut_at_every_byte() {
    for name in CASES {
        let bytes = case(name);
        let whole: Vec<String> = read_all(&bytes).iter().map(dump_game).collect();
        for cut in 0..=bytes.len() as u64 {
            let mut games = Vec::new();
            for (start, end) in [(0, cut), (cut, bytes.len() as u64)] {
                let mut reader = Reader::range(Cursor::new(&bytes), start, end).expect("seekable");
                games.extend(reader.games().map(|g| dump_game(&g.expect("in memory"))));
            }
            assert_eq!(games, whole, "{name} cut at {cut}");
        }
    }
}
