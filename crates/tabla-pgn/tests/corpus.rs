//! PGN files against python-chess (testdata/gen_pgn_reference.py): the number of games of every
//! file, and for every game the mainline's length and its final FEN; and no spurious error (a
//! game python-chess reads cleanly is not stopped early by tabla, but for the errors kept on
//! purpose, listed in `kept_on_purpose`). The files: the repository's testdata/pgn (game scores
//! from the corpus, files written for awkward cases, generated games; 475 games) always, and the
//! real-world corpus (3,601 games) when it is there. All games agree.
//!
//! Where the two readers differ by design (none of it occurs in the corpus; the case files of
//! `tests/real_world.rs` show most): python-chess ends a game at an empty line inside movetext,
//! tabla at the termination marker or the next tag pair; python-chess skips unknown tokens
//! silently, tabla skips junk with a warning and stops at a token shaped like a move that does
//! not resolve (`Nf9`); python-chess plays a null move in check, tabla reports
//! `NullMoveInCheck`; python-chess keeps line breaks inside comments, tabla reads them as spaces;
//! python-chess accepts any FEN tag it can parse, tabla needs a playable setup (lenient
//! validation: kings present, side not to move not in check); python-chess reads a comment left
//! open to the end of the file, tabla ends it at the next game's tags (see `game_start`).

mod common;

use common::PgnSet;
use std::fs::File;
use tabla_pgn::{ErrorKind, GameTree, Reader, Replayer, Summarize};

/// The errors tabla reports where python-chess reads on: a variant tabla does not play (python-
/// chess plays its rules), a null move while in check (python-chess plays it), a `FEN` tag
/// without both kings (python-chess sets it up anyway). None occurs in the corpus today.
fn kept_on_purpose(kind: &ErrorKind) -> bool {
    match kind {
        ErrorKind::UnknownVariant { .. } | ErrorKind::NullMoveInCheck => true,
        ErrorKind::InvalidFen { reason } => {
            reason.contains("no king") || reason.contains("more than one king")
        }
        _ => false,
    }
}

#[test]
fn testdata_matches_python_chess() {
    matches_python_chess(&common::testdata(), 19);
}

#[test]
fn corpus_matches_python_chess() {
    if let Some(corpus) = common::corpus() {
        matches_python_chess(&corpus, 16);
    }
}

/// Every file of `set` (`files` of them) read as python-chess reads it.
fn matches_python_chess(set: &PgnSet, files: usize) {
    let reference = set.reference();
    assert_eq!(reference.len(), files, "one entry per file");
    assert_eq!(
        set.files().len(),
        files,
        "{}: .pgn files",
        set.dir.display()
    );
    for (name, expected) in &reference {
        let file = File::open(set.dir.join(name)).expect("PGN file");
        let mut reader = Reader::new(file);
        let mut visitor = Replayer::new(Summarize::new(false));
        let mut got = Vec::new();
        while let Some(summary) = reader.read_game(&mut visitor).expect("read") {
            got.push(summary);
        }
        assert_eq!(got.len(), expected.len(), "{name}: number of games");
        for (i, (g, e)) in got.iter().zip(expected).enumerate() {
            let fen = g
                .final_position
                .as_ref()
                .map(|p| p.to_fen())
                .unwrap_or_default();
            assert_eq!(
                (g.plies, fen.as_str()),
                (e.plies as usize, e.fen.as_str()),
                "{name}: game {} ({:?})",
                i + 1,
                g.problems
            );
            // No spurious error: a game python-chess reads cleanly is not stopped early by
            // tabla, but for the errors kept on purpose; and a game python-chess finds damaged
            // is damaged for tabla too.
            match g.error() {
                Some(error) if e.errors == 0 => assert!(
                    kept_on_purpose(&error.kind),
                    "{name}: game {}: spurious error {error}",
                    i + 1
                ),
                None if e.errors > 0 => panic!("{name}: game {}: python-chess finds errors", i + 1),
                _ => {}
            }
        }
    }
}

#[test]
fn testdata_trees_agree_with_the_light_replay() {
    trees_agree_with_the_light_replay(&common::testdata());
}

#[test]
fn corpus_trees_agree_with_the_light_replay() {
    if let Some(corpus) = common::corpus() {
        trees_agree_with_the_light_replay(&corpus);
    }
}

fn trees_agree_with_the_light_replay(set: &PgnSet) {
    for (name, expected) in &set.reference() {
        let file = File::open(set.dir.join(name)).expect("PGN file");
        let mut reader = Reader::new(file);
        let mut tree = GameTree::new();
        let mut n = 0;
        while let Some(game) = reader.read_game(&mut tree).expect("read") {
            let e = &expected[n];
            n += 1;
            assert_eq!(
                game.mainline().count(),
                e.plies as usize,
                "{name}: game {n}"
            );
            let fen = game
                .final_position()
                .map(|p| p.to_fen())
                .unwrap_or_default();
            assert_eq!(fen, e.fen, "{name}: game {n}");
        }
        assert_eq!(n, expected.len(), "{name}");
    }
}
