//! `tabla pgn` through the real binary, against python-chess's replay of the PGN files of
//! testdata/pgn and of the corpus, when it is there (`testdata/pgn_reference.tsv` and
//! `testdata/corpus_pgn_reference.tsv`, written by testdata/gen_pgn_reference.py).

mod common;

use common::{PgnSet, tabla};

#[test]
fn check_counts_every_testdata_file_like_python_chess() {
    check_counts_like_python_chess(&common::testdata());
}

#[test]
fn check_counts_every_corpus_file_like_python_chess() {
    if let Some(corpus) = common::corpus() {
        check_counts_like_python_chess(&corpus);
    }
}

fn check_counts_like_python_chess(set: &PgnSet) {
    for (file, games) in set.reference() {
        let run = tabla(&["pgn", "check", &common::pgn_arg(set, &file)]);
        let plies: u32 = games.iter().map(|g| g.plies).sum();
        assert_eq!(
            run.last_line(),
            format!("games {}, moves {plies}, errors 0, warnings 0", games.len()),
            "{file}"
        );
        assert_eq!(run.code, 0, "{file}");
    }
}

#[test]
fn fen_ends_each_game_with_python_chess_final_position() {
    let testdata = common::testdata();
    let reference = testdata.reference();
    for file in ["world_matches.pgn", "dortmund-latin1.pgn", "mate_in_2.pgn"] {
        let run = tabla(&["pgn", "fen", &common::pgn_arg(&testdata, file)]);
        assert_eq!(run.code, 0);
        let games: Vec<&str> = run.stdout.split("\n\n").collect();
        let expected = &reference[file];
        assert_eq!(games.len(), expected.len(), "{file}");
        for (i, (game, e)) in games.iter().zip(expected).enumerate() {
            let lines: Vec<&str> = game.lines().collect();
            assert_eq!(lines.len() as u32, e.plies + 1, "{file} game {}", i + 1);
            // python-chess writes the en-passant square only when a capture is legal; compare
            // the fields that do not depend on that convention.
            let strip = |f: &str| {
                let v: Vec<&str> = f.split(' ').collect();
                format!("{} {} {} {} {}", v[0], v[1], v[2], v[4], v[5])
            };
            assert_eq!(
                strip(lines[lines.len() - 1]),
                strip(&e.fen),
                "{file} game {}",
                i + 1
            );
        }
    }
}

#[test]
fn a_damaged_game_is_reported_and_the_next_is_read() {
    let pgn = "[Event \"one\"]\n\n1. e4 e5 2. Nf3 *\n\n[Event \"two\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n\
               [Event \"three\"]\n\n1. d4 d5 *\n";
    let path = common::scratch_file("damaged.pgn", pgn);
    let run = tabla(&["pgn", "check", path.to_str().expect("utf-8")]);
    assert_eq!(run.code, 1);
    assert_eq!(run.last_line(), "games 3, moves 7, errors 1, warnings 0");
    // Game 2, line 7, column 13, move 2: the king cannot reach e3.
    assert!(
        run.stdout.starts_with("game 2, 7:13, move 2"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("Ke3"));
    let fens = tabla(&["pgn", "fen", path.to_str().expect("utf-8")]);
    let games: Vec<&str> = fens.stdout.split("\n\n").collect();
    assert_eq!(games.len(), 3);
    assert_eq!(
        games[1].lines().count(),
        3,
        "start, e4, e5: the game stopped at Ke3"
    );
}

#[test]
fn json_has_one_object_per_game_and_fmt_round_trips() {
    let testdata = common::testdata();
    let file = common::pgn_arg(&testdata, "annotated.pgn");
    let json = tabla(&["pgn", "json", &file]);
    assert_eq!(json.code, 0);
    let lines: Vec<serde_json::Value> = json
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines.len(), testdata.reference()["annotated.pgn"].len());
    assert!(
        lines
            .iter()
            .all(|g| g["moves"].is_array() && g["tags"].is_object())
    );

    let formatted = tabla(&["pgn", "fmt", &file]);
    let again = common::scratch_file("informant-fmt.pgn", &formatted.stdout);
    let twice = tabla(&["pgn", "fmt", again.to_str().expect("utf-8")]);
    assert_eq!(formatted.stdout, twice.stdout, "fmt is idempotent");
    assert!(formatted.stdout.lines().all(|l| l.chars().count() < 80));
}

/// `fmt --no-comments --no-nags --no-variations --set-tag --remove-tag` (pgn-extract's -C -N
/// -V and tag edits): every game keeps python-chess's mainline (plies, final FEN), and holds
/// nothing else that was asked away.
#[test]
fn fmt_strips_and_sets_tags_keeping_every_mainline() {
    let testdata = common::testdata();
    for file in [
        "annotated.pgn",
        "kasparov-deep-blue-1997.pgn",
        "kbnk-lichess-study.pgn",
    ] {
        let reference = &testdata.reference()[file];
        let run = tabla(&[
            "pgn",
            "fmt",
            &common::pgn_arg(&testdata, file),
            "--no-comments",
            "--no-nags",
            "--no-variations",
            "--set-tag",
            "Annotator=tabla test",
            "--remove-tag",
            "Round",
        ]);
        assert_eq!(run.code, 0, "{file}: {}", run.stderr);
        let games: Vec<tabla_pgn::Game> = tabla_pgn::Reader::new(run.stdout.as_bytes())
            .games()
            .collect::<Result<_, _>>()
            .expect("readable");
        assert_eq!(games.len(), reference.len(), "{file}");
        for (game, expected) in games.iter().zip(reference) {
            assert!(game.problems.is_empty(), "{file}: {:?}", game.problems);
            assert_eq!(game.mainline().count() as u32, expected.plies, "{file}");
            let fen = game.final_position().expect("a start").to_fen();
            assert_eq!(fen, expected.fen, "{file}");
            assert_eq!(game.tag("Annotator"), Some("tabla test"));
            // The roster's Round is written `?` when missing.
            assert_eq!(game.tag("Round"), Some("?"));
            for node in game.mainline() {
                assert!(node.variations.is_empty() && node.nags.is_empty(), "{file}");
                assert!(node.comments_after.is_empty() && node.comments_before.is_empty());
            }
        }
    }
    let bad = tabla(&[
        "pgn",
        "fmt",
        &common::pgn_arg(&testdata, "annotated.pgn"),
        "--set-tag",
        "Bad Name=x",
    ]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(
        bad.stderr.contains("--set-tag") && bad.stdout.is_empty(),
        "{}",
        bad.stderr
    );
}

#[test]
fn missing_file_is_exit_2() {
    let run = tabla(&["pgn", "check", "/nonexistent/file.pgn"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("cannot open"));
}
