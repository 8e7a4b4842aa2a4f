//! Editing game trees (`Game::add_move`, `delete`, `promote`, `demote`, `promote_to_main`,
//! `make_mainline`): random edit sequences on real games of testdata/, each operation checked
//! against its inverse and the edited tree against its own export read back.
//!
//! Trees are compared in the form python-chess gives them (each move with its comments, NAGs
//! and the alternatives after it, in order), which is what the edits promise to keep; how
//! alternatives at one position nest in the text (`(1. d4 (1. c4))` or `(1. d4) (1. c4)`) is
//! not part of it.

use proptest::prelude::*;
use tabla_pgn::{Comment, CommentPlace, EditError, Game, Line, MovePath, Nag, Reader, write_game};

/// A move of the tree with what travels with it, and the alternatives after it.
#[derive(Debug, PartialEq)]
struct Canon {
    san: String,
    fen: String,
    nags_before: Vec<u8>,
    nags: Vec<u8>,
    before: Vec<String>,
    after: Vec<String>,
    /// The comments closing the line, after this move (its last).
    closing: Vec<String>,
    next: Vec<Canon>,
}

fn texts(comments: &[tabla_pgn::Comment]) -> Vec<String> {
    comments.iter().map(|c| c.to_string()).collect()
}

fn alternatives(line: &Line, index: usize, out: &mut Vec<Canon>) {
    let Some(node) = line.nodes.get(index) else {
        return;
    };
    let mut next = Vec::new();
    alternatives(line, index + 1, &mut next);
    let last = index + 1 == line.nodes.len();
    out.push(Canon {
        san: node.san.clone(),
        fen: node.fen(),
        nags_before: node.nags_before.iter().map(|n| n.0).collect(),
        nags: node.nags.iter().map(|n| n.0).collect(),
        before: texts(&node.comments_before),
        after: texts(&node.comments_after),
        closing: if last {
            texts(&line.comments)
        } else {
            Vec::new()
        },
        next,
    });
    for variation in &node.variations {
        alternatives(variation, 0, out);
    }
}

/// The tree as python-chess sees it, with every comment and NAG where it stands.
fn canon(game: &Game) -> (Vec<Canon>, Vec<String>) {
    let mut out = Vec::new();
    alternatives(&game.moves, 0, &mut out);
    let without_moves = if game.moves.nodes.is_empty() {
        texts(&game.moves.comments)
    } else {
        Vec::new()
    };
    (out, without_moves)
}

/// The tree's shape (the moves and the order of the alternatives), and every comment and NAG
/// of it, sorted: what an edit and its inverse give back. (A comment that opened a variation
/// which became a line's continuation is written after the move before, the one place the
/// export format has for it; it stays there when the line is demoted again.)
fn shape(game: &Game) -> (Vec<(String, usize)>, Vec<String>, Vec<u8>) {
    fn walk(canon: &[Canon], depth: usize, moves: &mut Vec<(String, usize)>) {
        for c in canon {
            moves.push((format!("{} {}", c.san, c.fen), depth));
            walk(&c.next, depth + 1, moves);
        }
    }
    fn notes(line: &Line, comments: &mut Vec<String>, nags: &mut Vec<u8>) {
        for node in &line.nodes {
            comments.extend(texts(&node.comments_before));
            comments.extend(texts(&node.comments_after));
            nags.extend(node.nags_before.iter().chain(&node.nags).map(|n| n.0));
            for variation in &node.variations {
                notes(variation, comments, nags);
            }
        }
        comments.extend(texts(&line.comments));
    }
    let (mut moves, mut comments, mut nags) = (Vec::new(), Vec::new(), Vec::new());
    walk(&canon(game).0, 0, &mut moves);
    notes(&game.moves, &mut comments, &mut nags);
    comments.sort();
    nags.sort_unstable();
    (moves, comments, nags)
}

/// Every move's path, depth first.
fn paths(line: &Line, prefix: &[usize], out: &mut Vec<MovePath>) {
    for (i, node) in line.nodes.iter().enumerate() {
        let mut here = prefix.to_vec();
        here.push(i);
        out.push(path(&here));
        for (v, variation) in node.variations.iter().enumerate() {
            let mut inner = here.clone();
            inner.push(v);
            paths(variation, &inner, out);
        }
    }
}

fn all_paths(game: &Game) -> Vec<MovePath> {
    let mut out = Vec::new();
    paths(&game.moves, &[], &mut out);
    out
}

fn path(parts: &[usize]) -> MovePath {
    let text: Vec<String> = parts.iter().map(usize::to_string).collect();
    text.join(".")
        .parse()
        .expect("a path of an odd count of numbers")
}

fn read_one(text: &str) -> Game {
    let mut reader = Reader::new(text.as_bytes());
    reader.games().next().expect("one game").expect("readable")
}

/// The games edited: testdata/'s annotated files (comments, NAGs, variations nested several
/// deep) and, last, one written for this test with alternatives nested inside a variation's
/// first move and comments between variations and the next move.
fn games() -> Vec<Game> {
    let data = tabla_testdata::testdata();
    let mut out = Vec::new();
    for name in [
        "annotated.pgn",
        "kasparov-deep-blue-1997.pgn",
        "kbnk-lichess-study.pgn",
    ] {
        let bytes = std::fs::read(data.path(name)).expect("testdata PGN");
        for game in Reader::new(&bytes[..]).games() {
            let game = game.expect("readable");
            if game.error().is_none() && game.start.is_some() {
                out.push(game);
            }
        }
    }
    out.push(read_one(
        "[Event \"nested\"]\n\n{Start} 1. e4 {A} (1. d4 $1 (1. c4 {B} c5) {D} d5) (1. Nf3) e5 $6 \
         (1... c5 2. Nf3 (2. Nc3 Nc6) {E} d6) {F} 2. Nf3 {C} (2. Bc4) {G} *\n",
    ));
    out
}

/// An edit, with numbers that pick the move (modulo the number of moves there).
#[derive(Clone, Debug)]
enum Op {
    Add {
        at: usize,
        choice: usize,
    },
    Delete {
        at: usize,
    },
    Promote {
        at: usize,
    },
    Demote {
        at: usize,
    },
    ToMain {
        at: usize,
    },
    MakeMainline {
        at: usize,
    },
    Comment {
        at: usize,
        before: bool,
        text: usize,
    },
    Nags {
        at: usize,
        nags: Vec<u8>,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (any::<usize>(), any::<usize>()).prop_map(|(at, choice)| Op::Add { at, choice }),
        1 => any::<usize>().prop_map(|at| Op::Delete { at }),
        2 => any::<usize>().prop_map(|at| Op::Promote { at }),
        2 => any::<usize>().prop_map(|at| Op::Demote { at }),
        1 => any::<usize>().prop_map(|at| Op::ToMain { at }),
        1 => any::<usize>().prop_map(|at| Op::MakeMainline { at }),
        2 => (any::<usize>(), any::<bool>(), 0..4usize)
            .prop_map(|(at, before, text)| Op::Comment { at, before, text }),
        1 => (any::<usize>(), proptest::collection::vec(1..=255u8, 0..3))
            .prop_map(|(at, nags)| Op::Nags { at, nags }),
    ]
}

/// The move at `path`'s place among the alternatives at its position.
fn slot(game: &Game, at: &MovePath) -> (Vec<MovePath>, usize) {
    let alternatives = game.alternatives(at);
    let slot = alternatives
        .iter()
        .position(|p| p == at)
        .expect("a move is among the alternatives at its position");
    (alternatives, slot)
}

fn apply(game: &mut Game, op: &Op) -> Result<(), TestCaseError> {
    let paths = all_paths(game);
    let pick = |n: usize| (!paths.is_empty()).then(|| paths[n % paths.len()].clone());
    let before = shape(game);
    match *op {
        Op::Add { at, choice } => {
            // `at` picks the move to play after, or the start (one more choice than moves).
            let at = at % (paths.len() + 1);
            let after = paths.get(at).cloned();
            let position = game
                .position_after(after.as_ref())
                .expect("a position")
                .clone();
            let moves: Vec<tabla::Move> = position.legal_moves().iter().copied().collect();
            if moves.is_empty() {
                return Ok(());
            }
            let mv = moves[choice % moves.len()];
            let next = after
                .as_ref()
                .map_or(MovePath::mainline(0), |p| p.forward(1));
            let existing = game.alternatives(&next).len();
            let added = game
                .add_move(after.as_ref(), mv)
                .expect("a legal move is added");
            let node = game.node(&added).expect("the move is there");
            prop_assert_eq!(node.mv, mv);
            let mut played = position.clone();
            played.play(mv).expect("legal");
            prop_assert_eq!(node.fen(), played.to_fen());
            prop_assert_eq!(node.san.clone(), position.san(mv));
            let now = game.alternatives(&next).len();
            if now > existing {
                // A new move: deleting it gives the tree back.
                prop_assert_eq!(now, existing + 1);
                let mut undone = game.clone();
                undone
                    .delete(&added)
                    .expect("the added move can be deleted");
                prop_assert_eq!(shape(&undone), before);
            } else {
                prop_assert_eq!(shape(game), before);
            }
        }
        Op::Delete { at } => {
            let Some(at) = pick(at) else { return Ok(()) };
            let (alternatives, _) = slot(game, &at);
            game.delete(&at).expect("a move can be deleted");
            let left = game.alternatives(&alternatives[0]);
            prop_assert_eq!(left.len(), alternatives.len() - 1);
            prop_assert!(all_paths(game).len() < paths.len());
        }
        Op::Promote { at } => {
            let Some(at) = pick(at) else { return Ok(()) };
            let (alternatives, slot) = slot(game, &at);
            let mv = game.node(&at).expect("there").mv;
            if slot == 0 {
                prop_assert!(game.promote(&at).is_err());
                prop_assert_eq!(shape(game), before);
                return Ok(());
            }
            game.promote(&at).expect("promoted");
            let moved = game.alternatives(&alternatives[0])[slot - 1].clone();
            prop_assert_eq!(game.node(&moved).expect("there").mv, mv);
            let mut undone = game.clone();
            undone.demote(&moved).expect("demoted back");
            prop_assert_eq!(shape(&undone), before);
        }
        Op::Demote { at } => {
            let Some(at) = pick(at) else { return Ok(()) };
            let (alternatives, slot) = slot(game, &at);
            let mv = game.node(&at).expect("there").mv;
            if slot + 1 == alternatives.len() {
                prop_assert!(game.demote(&at).is_err());
                prop_assert_eq!(shape(game), before);
                return Ok(());
            }
            game.demote(&at).expect("demoted");
            let moved = game.alternatives(&alternatives[0])[slot + 1].clone();
            prop_assert_eq!(game.node(&moved).expect("there").mv, mv);
            let mut undone = game.clone();
            undone.promote(&moved).expect("promoted back");
            prop_assert_eq!(shape(&undone), before);
        }
        Op::ToMain { at } => {
            let Some(at) = pick(at) else { return Ok(()) };
            let mv = game.node(&at).expect("there").mv;
            let fen = game.node(&at).expect("there").fen();
            let count = game.alternatives(&at).len();
            let now = game.promote_to_main(&at).expect("promoted to main");
            let node = game.node(&now).expect("there");
            prop_assert_eq!((node.mv, node.fen()), (mv, fen));
            prop_assert_eq!(slot(game, &now).1, 0);
            prop_assert_eq!(game.alternatives(&now).len(), count);
        }
        Op::MakeMainline { at } => {
            let Some(at) = pick(at) else { return Ok(()) };
            let fen = game.node(&at).expect("there").fen();
            let moves = all_paths(game).len();
            let now = game.make_mainline(&at).expect("made the mainline");
            prop_assert_eq!(now.depth(), 0);
            prop_assert_eq!(game.node(&now).expect("there").fen(), fen);
            prop_assert_eq!(all_paths(game).len(), moves);
        }
        Op::Comment {
            at,
            before: is_before,
            text,
        } => {
            let Some(at) = pick(at) else { return Ok(()) };
            // Empty (clears), plain, with an arrow and a clock, with braces written as text.
            let text = [
                "",
                "a plan",
                "[%cal Ge2e4] [%clk 0:01:00] the arrow",
                "x } y",
            ][text];
            let comment = Comment::parse(text);
            let place = if is_before {
                CommentPlace::Before
            } else {
                CommentPlace::After
            };
            match game.set_comment(&at, place, comment.clone()) {
                Ok(()) => {
                    let node = game.node(&at).expect("there");
                    let set = if is_before {
                        &node.comments_before
                    } else {
                        &node.comments_after
                    };
                    let want: Vec<Comment> = (!comment.is_empty())
                        .then_some(comment)
                        .into_iter()
                        .collect();
                    prop_assert_eq!(set, &want);
                }
                Err(EditError::NoPlaceBefore(_)) => {
                    prop_assert!(is_before && at.index() > 0);
                    prop_assert_eq!(shape(game), before);
                }
                Err(other) => prop_assert!(false, "{other}"),
            }
        }
        Op::Nags { at, ref nags } => {
            let Some(at) = pick(at) else { return Ok(()) };
            let nags: Vec<Nag> = nags.iter().map(|&n| Nag(n)).collect();
            game.set_nags(&at, nags.clone()).expect("a move takes NAGs");
            prop_assert_eq!(&game.node(&at).expect("there").nags, &nags);
        }
    }
    // Whatever the edit, the tree writes out to text that reads back as the same tree.
    let written = write_game(game);
    let again = read_one(&written);
    prop_assert!(again.problems.is_empty(), "{:?}\n{written}", again.problems);
    prop_assert_eq!(canon(&again), canon(game), "{}", written);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_edits_keep_the_tree_whole(
        pick in any::<usize>(),
        ops in proptest::collection::vec(op(), 1..12),
    ) {
        let games = games();
        // The game written for the test a third of the time, a real one otherwise.
        let mut game = match pick % 3 {
            0 => games[games.len() - 1].clone(),
            _ => games[pick % games.len()].clone(),
        };
        for op in &ops {
            apply(&mut game, op)?;
        }
    }
}

/// Moves and variations added by hand, written as a GUI user would expect.
#[test]
fn an_analysis_session_writes_as_expected() {
    let mut game = read_one("[Event \"e\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n");
    let e5 = MovePath::mainline(1);
    let nc3 = game.add_san(Some(&e5), "Nc3").expect("legal");
    let nf6 = game.add_san(Some(&nc3), "Nf6").expect("legal");
    game.add_san(Some(&nf6), "f4").expect("legal");
    let text = write_game(&game);
    assert!(
        text.contains("1. e4 e5 2. Nf3 ( 2. Nc3 Nf6 3. f4 ) 2... Nc6 *"),
        "{text}"
    );
    // The variation becomes the game; the old moves a variation.
    let now = game.make_mainline(&nf6).expect("made the mainline");
    assert_eq!(now, MovePath::mainline(3));
    let text = write_game(&game);
    assert!(
        text.contains("1. e4 e5 2. Nc3 ( 2. Nf3 Nc6 ) 2... Nf6 3. f4 *"),
        "{text}"
    );
    // Errors change nothing.
    let before = write_game(&game);
    assert!(game.add_san(Some(&now), "Ke3").is_err());
    assert!(game.delete(&path(&[9])).is_err());
    assert!(game.promote(&MovePath::mainline(0)).is_err());
    assert_eq!(write_game(&game), before);
}
