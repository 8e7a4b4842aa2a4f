//! The PGN corpus of ../shared/data/pgn against python-chess (scripts/gen_pgn_reference.py):
//! the number of games of every file, and for every game the mainline's length, its final FEN
//! and whether python-chess found errors. All 3,601 games agree.
//!
//! Where the two readers differ by design (none of it occurs in the corpus): python-chess ends a
//! game at an empty line inside movetext, tabla at the termination marker or the next tag pair;
//! python-chess skips unknown tokens silently, tabla reports them (`NotAMove`) and ends the
//! line; python-chess plays a null move in check, tabla reports `NullMoveInCheck`; python-chess
//! keeps line breaks inside comments, tabla reads them as spaces; python-chess accepts any FEN
//! tag it can parse, tabla needs a playable setup (lenient validation: kings present, side not
//! to move not in check); tabla also ends a `{` comment left open at the next line starting
//! with `[` and a letter, where python-chess reads on to the next `}`.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::PathBuf;
use tabla_pgn::{GameTree, Reader, Replayer, Summarize};

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/pgn")
}

/// One game as python-chess read it.
#[derive(Debug, PartialEq)]
struct Expected {
    plies: usize,
    fen: String,
    errors: usize,
}

fn reference() -> BTreeMap<String, Vec<Expected>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/pgn_reference.tsv");
    let text = std::fs::read_to_string(path).expect("reference data");
    let mut files: BTreeMap<String, Vec<Expected>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 5, "bad reference line {line:?}");
        let games = files.entry(f[0].to_owned()).or_default();
        assert_eq!(f[1].parse::<usize>().expect("game number"), games.len() + 1);
        games.push(Expected {
            plies: f[2].parse().expect("plies"),
            fen: f[3].to_owned(),
            errors: f[4].parse().expect("errors"),
        });
    }
    files
}

#[test]
fn every_file_matches_python_chess() {
    let reference = reference();
    assert_eq!(reference.len(), 16, "one entry per corpus file");
    for (name, expected) in &reference {
        let file = File::open(data_dir().join(name)).expect("corpus file");
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
                (g.plies, fen.as_str(), g.problems.len()),
                (e.plies, e.fen.as_str(), e.errors),
                "{name}: game {} ({:?})",
                i + 1,
                g.problems
            );
        }
    }
}

#[test]
fn trees_agree_with_the_light_replay() {
    for (name, expected) in &reference() {
        let file = File::open(data_dir().join(name)).expect("corpus file");
        let mut reader = Reader::new(file);
        let mut tree = GameTree::new();
        let mut n = 0;
        while let Some(game) = reader.read_game(&mut tree).expect("read") {
            let e = &expected[n];
            n += 1;
            assert_eq!(game.mainline().count(), e.plies, "{name}: game {n}");
            let fen = game
                .final_position()
                .map(|p| p.to_fen())
                .unwrap_or_default();
            assert_eq!(fen, e.fen, "{name}: game {n}");
        }
        assert_eq!(n, expected.len(), "{name}");
    }
}
