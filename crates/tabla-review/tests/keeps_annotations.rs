//! A review adds the engine's judgement beside the annotator's own (docs/review.md, "Annotated
//! PGN"): every NAG, comment and variation a game had is read back from the annotated PGN, in
//! its place and order, checked against the game as the PGN reader read it before the review.
//! The engine's NAG is there exactly when it marked a move that had no move assessment (`$1` to
//! `$6`) of its own, its words after the game's comments.
//!
//! The games: testdata/pgn/annotated.pgn, and the corpus's annotated files when the corpus is
//! there (`TABLA_REQUIRE_CORPUS=1` requires it). Reviewed by tabla's engine at a small node
//! budget, and by a scripted review (evaluations drawn at random, the engine always preferring
//! another move) that marks about a third of the moves, so that marked moves with and without
//! an assessment of their own are certain to be met.

use std::collections::HashMap;
use tabla_analysis::{Budget, EngineSpec, Pool};
use tabla_pgn::{Comment, Game, Line, Reader, write_game};
use tabla_review::{
    BestMove, Eval, Judgement, Mainline, Review, ReviewCounts, Rules, annotated_pgn, judge,
    review_games,
};

fn read(bytes: &[u8]) -> Vec<Game> {
    Reader::new(bytes).games().filter_map(Result::ok).collect()
}

/// A comment as the annotator wrote it: everything but the evaluation, which the review's
/// replaces. `None` for a comment that held an evaluation only.
fn own(c: &Comment) -> Option<String> {
    let mut c = c.clone();
    c.eval = None;
    c.eval_depth = None;
    (!c.is_empty()).then(|| c.to_string())
}

/// Everything of a line the annotator wrote, with each move's UCI, recursively.
fn line_marks(line: &Line) -> String {
    let mut out = String::new();
    for n in &line.nodes {
        out.push_str(&format!(
            "{} {:?} {:?} {:?} {:?} [",
            n.uci(),
            n.comments_before,
            n.nags_before,
            n.nags,
            n.comments_after
        ));
        for v in &n.variations {
            out.push_str(&line_marks(v));
            out.push('|');
        }
        out.push(']');
    }
    out.push_str(&format!("{:?}", line.comments));
    out
}

/// The NAG lichess gives a judgement (written here, not taken from the library).
fn nag_of(j: Judgement) -> u8 {
    match j {
        Judgement::Inaccuracy => 6,
        Judgement::Mistake => 2,
        Judgement::Blunder => 4,
    }
}

/// What was checked, so that a run that met no case says so.
#[derive(Default, Debug)]
struct Seen {
    moves: usize,
    comments: usize,
    nags: usize,
    marked_with_own_assessment: usize,
    marked_without: usize,
}

/// The annotated PGN of `game` read back keeps everything `game` had, and adds what the review
/// says where docs/review.md says.
fn check(game: &Game, review: &Review, what: &str, seen: &mut Seen) {
    let text = annotated_pgn(game, review).unwrap_or_else(|e| panic!("{what}: {e}"));
    let back = read(text.as_bytes());
    assert_eq!(back.len(), 1, "{what}: {text}");
    let back = &back[0];
    assert_eq!(back.mainline().len(), game.mainline().len(), "{what}");
    assert_eq!(back.moves.comments, game.moves.comments, "{what}");
    for (name, value) in &game.tags {
        assert_eq!(back.tag(name), Some(value.as_str()), "{what}: tag {name}");
    }
    for ((old, new), reviewed) in game.mainline().zip(back.mainline()).zip(&review.moves) {
        let at = format!("{what}, ply {} ({})", reviewed.ply, old.san);
        assert_eq!(new.uci(), old.uci(), "{at}");
        assert_eq!(new.comments_before, old.comments_before, "{at}");
        assert_eq!(new.nags_before, old.nags_before, "{at}");
        // The NAGs: the game's, in their order, with the engine's first when it marked a move
        // that had no assessment of its own.
        let old_nags: Vec<u8> = old.nags.iter().map(|n| n.0).collect();
        let new_nags: Vec<u8> = new.nags.iter().map(|n| n.0).collect();
        let assessed = old_nags.iter().any(|n| (1..=6).contains(n));
        let mut expected = old_nags.clone();
        if let Some(j) = reviewed.judgement {
            if assessed {
                seen.marked_with_own_assessment += 1;
            } else {
                seen.marked_without += 1;
                expected.insert(0, nag_of(j));
            }
        }
        assert_eq!(new_nags, expected, "{at}");
        // The comments: the game's first, in their order, then the review's words.
        let old_comments: Vec<String> = old.comments_after.iter().filter_map(own).collect();
        let new_comments: Vec<String> = new.comments_after.iter().filter_map(own).collect();
        assert!(
            new_comments.starts_with(&old_comments),
            "{at}: {old_comments:?} became {new_comments:?}"
        );
        let added = &new_comments[old_comments.len()..];
        match reviewed.judgement {
            None => assert!(added.is_empty(), "{at}: {added:?}"),
            Some(j) => {
                assert_eq!(added.len(), 1, "{at}: {added:?}");
                let words = &added[0];
                assert!(words.starts_with('('), "{at}: {words}");
                let named = [
                    format!("{j:?}."),
                    "Checkmate is now unavoidable.".into(),
                    "Lost forced checkmate sequence.".into(),
                ];
                assert!(
                    named.iter().any(|w| words.contains(w.as_str())),
                    "{at}: {words}"
                );
            }
        }
        // One evaluation, the review's.
        let evals: Vec<Eval> = new.comments_after.iter().filter_map(|c| c.eval).collect();
        assert_eq!(evals, reviewed.eval.into_iter().collect::<Vec<_>>(), "{at}");
        // The game's variations first, as they were; the engine's line perhaps after them.
        assert!(new.variations.len() >= old.variations.len(), "{at}");
        for (o, n) in old.variations.iter().zip(&new.variations) {
            assert_eq!(line_marks(n), line_marks(o), "{at}");
        }
        seen.moves += 1;
        seen.comments += old_comments.len();
        seen.nags += old_nags.len();
    }
}

/// A review that marks about a third of the moves: random evaluations, the engine always
/// preferring another legal move (so "X was best." and a line), with the rules of the site.
fn scripted_review(game: &Game) -> Option<Review> {
    let mut line = Mainline::from_game(game).ok()?;
    let mut before = game.start.as_ref()?.clone_without_history();
    let mut seed = game.number.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut draw = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        i32::try_from(seed % 801).expect("small") - 400
    };
    for (i, node) in game.mainline().enumerate() {
        line.positions[i].eval = Some(Eval::Cp(draw()));
        let other = before.legal_moves().iter().copied().find(|&m| m != node.mv);
        if let Some(mv) = other {
            line.positions[i].best = Some(BestMove {
                san: before.san(mv),
                uci: before.uci(mv),
            });
            line.positions[i].pv = vec![before.uci(mv)];
        }
        before = node.position.clone_without_history();
    }
    if line.end.is_none() {
        let last = line.positions.len() - 1;
        line.positions[last].eval = Some(Eval::Cp(draw()));
    }
    let review = judge(&line, Rules::Lichess);
    review.error.is_none().then_some(review)
}

/// The corpus's files with annotators' NAGs and comments (its README.md).
const ANNOTATED_CORPUS: [&str; 6] = [
    "world_matches.pgn",
    "dortmund-latin1.pgn",
    "chess-informant-sample.pgn",
    "kasparov-deep-blue-1997.pgn",
    "molinari-bordais-1979.pgn",
    "nepomniachtchi-liren-game1.pgn",
];

fn testdata_games() -> Vec<Game> {
    let path = tabla_testdata::testdata().path("annotated.pgn");
    read(&std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

#[test]
fn annotated_pgn_reviewed_keeps_every_mark_and_comment() {
    let games = testdata_games();
    assert_eq!(games.len(), 2);
    let mut seen = Seen::default();
    for game in &games {
        let review = scripted_review(game).expect("a scripted review");
        check(
            game,
            &review,
            &format!("annotated.pgn game {}", game.number),
            &mut seen,
        );
    }
    let mut pool = Pool::start(&EngineSpec::Tabla, 2).expect("tabla's engine");
    let mut counts = ReviewCounts::default();
    let reviews = review_games(
        &games,
        &mut pool,
        &Budget::Nodes(3_000),
        Rules::Lichess,
        &mut counts,
    );
    for (game, review) in games.iter().zip(&reviews) {
        assert_eq!(review.error, None);
        check(
            game,
            review,
            &format!("annotated.pgn game {} (engine)", game.number),
            &mut seen,
        );
    }
    // Both games twice. Game 1's own: 1. e4 $1 { [%clk] }, 1... e5 { [%clk] }, 2. Nf3 $5,
    // 2... Nc6 $6, 3. Bb5 $14, 3... a6 ; a comment, 5... Be7 { shapes }, 9. h3 $140,
    // 23. Qh6 $18 { and White wins }; game 2's: 1. Kf7 { shapes }.
    assert_eq!(seen.moves, 2 * (45 + 16), "{seen:?}");
    assert_eq!((seen.nags, seen.comments), (2 * 6, 2 * 6), "{seen:?}");
    assert!(
        seen.marked_without > 0 && seen.marked_with_own_assessment > 0,
        "{seen:?}"
    );
}

#[test]
fn annotated_corpus_games_reviewed_keep_every_mark_and_comment() {
    let Some(corpus) = tabla_testdata::corpus() else {
        return;
    };
    let mut seen = Seen::default();
    let mut per_file: HashMap<&str, usize> = HashMap::new();
    let mut engine_games = Vec::new();
    for name in ANNOTATED_CORPUS {
        let bytes = std::fs::read(corpus.path(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        for game in read(&bytes) {
            // A game the reader could not finish is not reviewed (tests/annotate.rs).
            let Some(review) = scripted_review(&game) else {
                continue;
            };
            check(
                &game,
                &review,
                &format!("{name} game {}", game.number),
                &mut seen,
            );
            *per_file.entry(name).or_default() += 1;
            if engine_games.len() < 4 && game.mainline().any(|n| !n.nags.is_empty()) {
                engine_games.push((name, game));
            }
        }
    }
    // The engine's review too, of the first annotated games.
    let games: Vec<Game> = engine_games.iter().map(|(_, g)| g.clone()).collect();
    let mut pool = Pool::start(&EngineSpec::Tabla, 2).expect("tabla's engine");
    let mut counts = ReviewCounts::default();
    let reviews = review_games(
        &games,
        &mut pool,
        &Budget::Nodes(2_000),
        Rules::Lichess,
        &mut counts,
    );
    for ((name, game), review) in engine_games.iter().zip(&reviews) {
        assert_eq!(review.error, None, "{name}");
        check(
            game,
            review,
            &format!("{name} game {} (engine)", game.number),
            &mut seen,
        );
    }
    for name in ANNOTATED_CORPUS {
        assert!(
            per_file.get(name).copied().unwrap_or(0) > 0,
            "{name}: no game reviewed"
        );
    }
    // world_matches.pgn alone has thousands of NAGs and comments.
    assert!(seen.nags > 2_000 && seen.comments > 1_000, "{seen:?}");
    assert!(
        seen.marked_with_own_assessment > 100 && seen.marked_without > 1_000,
        "{seen:?}"
    );
}

#[test]
fn a_game_reviewed_again_reads_the_same() {
    // The earlier review's words and line are replaced, its NAG kept as the game's: the same
    // review written twice gives the same game.
    for game in testdata_games() {
        let review = scripted_review(&game).expect("a scripted review");
        let once = annotated_pgn(&game, &review).expect("annotated");
        let again = read(once.as_bytes()).remove(0);
        assert_eq!(annotated_pgn(&again, &review).expect("annotated"), once);
    }
}

#[test]
fn a_masters_mark_stays_and_the_engine_speaks_in_words() {
    // The example: a master's 5. e4! that the engine calls an inaccuracy.
    let pgn = "[White \"A\"]\n\n1. d4 { [%eval 0.2] } 1... d5 { [%eval 0.2] } 2. c4 { [%eval 0.2] } \
               2... e6 { [%eval 0.2] } 3. Nc3 { [%eval 0.2] } 3... c5 { [%eval 0.2] } \
               4. cxd5 { [%eval 0.2] } 4... exd5 { [%eval 0.2] } \
               5. e4! { A pawn sacrifice } { [%eval -0.5] } (5. Nf3 Nc6) *";
    let game = read(pgn.as_bytes()).remove(0);
    let mut line = Mainline::from_game(&game).expect("mainline");
    for (info, node) in line.positions.iter_mut().skip(1).zip(game.mainline()) {
        info.eval = node.comments_after.iter().find_map(|c| c.eval);
    }
    line.positions[8].best = Some(BestMove {
        san: "Nf3".into(),
        uci: "g1f3".into(),
    });
    line.positions[8].pv = ["g1f3", "b8c6", "g2g3"].map(String::from).to_vec();
    let review = judge(&line, Rules::Lichess);
    assert_eq!(review.moves[8].judgement, Some(Judgement::Inaccuracy));
    let text =
        write_game(&tabla_review::annotate(&game, &review).expect("annotated")).replace('\n', " ");
    assert!(
        text.contains(
            "5. e4 $1 { A pawn sacrifice } { (0.20 → -0.50) Inaccuracy. Nf3 was best. } \
             { [%eval -0.5] } ( 5. Nf3 Nc6 ) ( 5. Nf3 Nc6 6. g3 ) *"
        ),
        "{text}"
    );
}
