//! Annotated PGN read back: the same evaluations, the same marks, the same review; a game
//! lacking an evaluation reported without stopping the others; an engine's line written as
//! lichess writes it.

use tabla_pgn::{Game, Reader};
use tabla_review::{
    BestMove, Eval, Judgement, Mainline, Rules, annotate, annotated_pgn, from_evals, judge,
};

fn read(text: &str) -> Vec<Game> {
    Reader::new(text.as_bytes())
        .games()
        .map(|g| g.expect("readable"))
        .collect()
}

fn lichess_text() -> String {
    let path = tabla_testdata::testdata_dir()
        .join("review")
        .join("lichess-evals.pgn");
    std::fs::read_to_string(path).expect("testdata/review/lichess-evals.pgn")
}

/// The review's words after each move of a game, lichess's `(0.80 → 0.00) Inaccuracy. …`.
fn marks(game: &Game) -> Vec<Option<String>> {
    game.mainline()
        .map(|n| {
            let found: Vec<&str> = n
                .comments_after
                .iter()
                .filter_map(|c| c.text.strip_prefix('(')?.split_once(") ").map(|(_, w)| w))
                .collect();
            assert!(found.len() <= 1, "{}: {:?}", n.san, n.comments_after);
            found.first().map(|w| (*w).to_owned())
        })
        .collect()
}

/// Whether lichess's words say `judgement` (a mate's words go with any of the three).
fn says(words: &str, judgement: Judgement) -> bool {
    words.starts_with(&format!("{judgement:?}."))
        || words.starts_with("Checkmate is now unavoidable.")
        || words.starts_with("Lost forced checkmate sequence.")
}

#[test]
fn annotated_games_read_back_to_the_same_review() {
    for rules in [Rules::Lichess, Rules::LichessDatabase] {
        for game in read(&lichess_text()) {
            let site = game.tag("Site").unwrap_or("?").to_owned();
            let review = from_evals(&game, rules);
            let text = annotated_pgn(&game, &review).expect("annotated");
            let back = read(&text);
            assert_eq!(back.len(), 1, "{site}");
            let back = &back[0];
            assert!(back.problems.is_empty(), "{site}: {:?}", back.problems);
            // The same evaluations, one a move (none after a mate), and the clocks kept.
            for ((node, old), reviewed) in back.mainline().zip(game.mainline()).zip(&review.moves) {
                let evals: Vec<Eval> = node.comments_after.iter().filter_map(|c| c.eval).collect();
                assert_eq!(
                    evals,
                    reviewed.eval.into_iter().collect::<Vec<_>>(),
                    "{site}"
                );
                let clocks = |n: &tabla_pgn::Node| -> Vec<_> {
                    n.comments_after.iter().filter_map(|c| c.clock).collect()
                };
                assert_eq!(clocks(node), clocks(old), "{site} {}", node.san);
            }
            // The same marks.
            for (words, reviewed) in marks(back).iter().zip(&review.moves) {
                match (words, reviewed.judgement) {
                    (None, None) => {}
                    (Some(w), Some(j)) => assert!(says(w, j), "{site}: {w} for {j:?}"),
                    other => panic!("{site} ply {}: {other:?}", reviewed.ply),
                }
            }
            // The same review, read from the annotated game, to the last bit.
            assert_eq!(from_evals(back, rules), review, "{site}");
            // Each side's figures in the tags.
            let tag = |name| back.tag(name).map(str::to_owned);
            assert_eq!(
                tag("WhiteAccuracy"),
                review.white.accuracy.map(|a| format!("{a:.1}"))
            );
            assert_eq!(tag("BlackACPL"), review.black.acpl.map(|a| a.to_string()));
        }
    }
}

#[test]
fn annotating_keeps_earlier_marks() {
    // The file carries lichess's database marks (`9... dxc4?!`); annotated with the site's
    // rules they stay, the site's mark added as a NAG only to a move that has none.
    let mut kept = 0;
    for game in read(&lichess_text()).iter().take(5) {
        let review = from_evals(game, Rules::Lichess);
        let annotated = annotate(game, &review).expect("annotated");
        for ((old, new), reviewed) in game.mainline().zip(annotated.mainline()).zip(&review.moves) {
            let mut expected: Vec<u8> = old.nags.iter().map(|n| n.0).collect();
            kept += expected.len();
            if let Some(j) = reviewed.judgement
                && expected.is_empty()
            {
                expected.push(j.nag());
            }
            let nags: Vec<u8> = new.nags.iter().map(|n| n.0).collect();
            assert_eq!(nags, expected, "{}", old.san);
        }
    }
    assert!(kept > 0);
}

#[test]
fn a_game_lacking_an_eval_is_reported_and_the_next_is_reviewed() {
    let text = lichess_text();
    // The first game's 9... dxc4?! loses its evaluation.
    let cut = text.replacen("9... dxc4?! { [%eval 0.02] [%clk", "9... dxc4?! { [%clk", 1);
    assert_ne!(cut, text);
    let games = read(&cut);
    let reviews: Vec<_> = games
        .iter()
        .map(|g| from_evals(g, Rules::Lichess))
        .collect();
    let error = reviews[0].error.as_deref().expect("an error");
    assert!(
        error.contains("9... dxc4?!") || error.contains("9... dxc4"),
        "{error}"
    );
    assert!(error.contains("ply 18"), "{error}");
    assert!(reviews[0].moves.is_empty());
    assert_eq!(reviews[0].white.name.as_deref(), Some("GASPADAREK"));
    assert!(annotate(&games[0], &reviews[0]).is_err());
    // The games after it are reviewed as if it were whole.
    let whole = read(&text);
    assert_eq!(reviews.len(), whole.len());
    for (review, game) in reviews.iter().zip(&whole).skip(1) {
        assert_eq!(review.error, None);
        assert_eq!(*review, from_evals(game, Rules::Lichess));
    }
}

#[test]
fn the_engines_line_as_lichess_writes_it() {
    let pgn = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 { [%clk 0:03:00] } e5 2. Qh5 Nc6 3. Bc4 \
               Nf6 { Hoping } 4. Qxf7# 1-0";
    let game = read(pgn).remove(0);
    let mut line = Mainline::from_game(&game).expect("mainline");
    let evals = [30, 25, 10, 20, 40];
    for (info, cp) in line.positions.iter_mut().skip(1).zip(evals) {
        info.eval = Some(Eval::Cp(cp));
    }
    line.positions[6].eval = Some(Eval::Mate(1));
    // Before 3... Nf6 the engine wanted 3... g6 4. Qf3 Nf6.
    line.positions[5].best = Some(BestMove {
        san: "g6".into(),
        uci: "g7g6".into(),
    });
    line.positions[5].pv = ["g7g6", "h5f3", "g8f6"].map(String::from).to_vec();
    // Before 1. e4 it wanted e4: no variation, no "was best".
    line.positions[0].best = Some(BestMove {
        san: "e4".into(),
        uci: "e2e4".into(),
    });
    let review = judge(&line, Rules::Lichess);
    assert_eq!(review.error, None);
    let nf6 = &review.moves[5];
    assert_eq!(nf6.judgement, Some(Judgement::Blunder));
    assert_eq!(review.moves[6].eval, None);
    let text = annotated_pgn(&game, &review).expect("annotated");
    let movetext: String = text
        .lines()
        .skip_while(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        movetext.contains(
            "3... Nf6 $4 { Hoping } { (0.40 → Mate in 1) Checkmate is now unavoidable. g6 was \
             best. } { [%eval #1] } ( 3... g6 4. Qf3 Nf6 ) 4. Qxf7# 1-0"
        ),
        "{movetext}"
    );
    assert!(
        movetext.contains("1. e4 { [%eval 0.3] [%clk 0:03:00] } 1... e5"),
        "{movetext}"
    );
    assert!(text.contains("[WhiteAccuracy \""), "{text}");
    // The annotated game reads back with the line as a variation.
    let back = read(&text).remove(0);
    let variation = &back.moves.nodes[5].variations[0];
    let sans: Vec<&str> = variation.nodes.iter().map(|n| n.san.as_str()).collect();
    assert_eq!(sans, ["g6", "Qf3", "Nf6"]);
}
