//! Read -> write -> read gives the same tree, and writing is idempotent, on every file of
//! testdata/pgn and of the corpus (when it is there); the movetext stays below 80 columns.

mod common;

use common::{assert_same_text, dump_moves, read_all};
use std::collections::BTreeMap;
use tabla_pgn::{Game, write_game};

const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// The tags by name (first value of each), with the roster tags the export format adds.
fn tags_after_export(game: &Game) -> BTreeMap<String, String> {
    let mut tags = BTreeMap::new();
    for (name, value) in &game.tags {
        tags.entry(name.clone()).or_insert_with(|| value.clone());
    }
    for (name, default) in ROSTER {
        let value = if name == "Result" {
            game.result()
        } else {
            default
        };
        tags.entry(name.to_owned())
            .or_insert_with(|| value.to_owned());
    }
    tags
}

fn first_values(game: &Game) -> BTreeMap<String, String> {
    let mut tags = BTreeMap::new();
    for (name, value) in &game.tags {
        tags.entry(name.clone()).or_insert_with(|| value.clone());
    }
    tags
}

#[test]
fn every_testdata_file_round_trips() {
    round_trips(common::testdata().files());
}

#[test]
fn every_corpus_file_round_trips() {
    if let Some(corpus) = common::corpus() {
        round_trips(corpus.files());
    }
}

fn round_trips(files: Vec<(String, Vec<u8>)>) {
    for (name, bytes) in files {
        let games = read_all(&bytes);
        assert!(!games.is_empty(), "{name}");
        for game in &games {
            let written = write_game(game);
            let again = read_all(written.as_bytes());
            assert_eq!(again.len(), 1, "{name} game {}: {written}", game.number);
            let again = &again[0];
            assert!(
                again.problems.is_empty(),
                "{name} game {}: {:?}",
                game.number,
                again.problems
            );
            let context = format!("{name} game {}", game.number);
            assert_same_text(&dump_moves(again), &dump_moves(game), &context);
            assert_eq!(
                first_values(again),
                tags_after_export(game),
                "{name} game {}",
                game.number
            );
            if game.outcome.is_some() {
                assert_eq!(again.outcome, game.outcome, "{name} game {}", game.number);
            }
            assert_eq!(
                write_game(again),
                written,
                "{name} game {}: not idempotent",
                game.number
            );
            check_line_lengths(&written, &name);
        }
    }
}

/// Movetext lines are below 80 columns unless one token is longer by itself.
fn check_line_lengths(written: &str, name: &str) {
    let movetext = written.split_once("\n\n").map_or("", |(_, m)| m);
    for line in movetext.lines() {
        let long_token = !line.trim().contains(' ') || line.starts_with(';') || line.contains("; ");
        assert!(
            line.chars().count() < 80 || long_token,
            "{name}: line of {} columns: {line}",
            line.chars().count()
        );
    }
}

#[test]
fn export_format_details() {
    let pgn = "[White \"W\"]\n[Black \"B\"]\n[Event \"E\"]\n[ECO \"C20\"]\n\n\
               1. e4 {A comment} e5 (1... c5 {Sicilian} 2. Nf3) 2. Nf3 $1 Nc6 1-0";
    let game = &read_all(pgn.as_bytes())[0];
    let written = write_game(game);
    assert_eq!(
        written,
        "[Event \"E\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"W\"]\n\
         [Black \"B\"]\n[Result \"1-0\"]\n[ECO \"C20\"]\n\n\
         1. e4 { A comment } 1... e5 ( 1... c5 { Sicilian } 2. Nf3 ) 2. Nf3 $1 Nc6 1-0\n\n"
    );
}

#[test]
fn long_comments_wrap_and_read_back_the_same() {
    let words: Vec<String> = (0..60).map(|i| format!("word{i}")).collect();
    let pgn = format!("1. e4 {{{}}} e5 *", words.join(" "));
    let game = &read_all(pgn.as_bytes())[0];
    let written = write_game(game);
    assert!(written.lines().all(|l| l.len() < 80), "{written}");
    let again = &read_all(written.as_bytes())[0];
    assert_eq!(again.moves.nodes[0].comments_after[0].text, words.join(" "));
}

#[test]
fn comment_with_closing_brace_is_written_as_line_comment() {
    let game = &read_all(b"1. e4 ; a } b\n e5 *")[0];
    assert_eq!(game.moves.nodes[0].comments_after[0].text, "a } b");
    let written = write_game(game);
    let again = &read_all(written.as_bytes())[0];
    assert_eq!(dump_moves(again), dump_moves(game));
}
