//! The engine's choice in a review is the first move of the line its evaluation comes from: under
//! a node budget tabla's engine can answer `bestmove` from an iteration it did not finish (the
//! scholar's mate at 20,000 nodes, before 2...Nc6, did: Nc6 beside a line starting Qg5), and
//! then "X was best" would stand beside a variation that starts with another move, and a move
//! could go unmarked as "the engine's choice" when the evaluated line disagrees.

use tabla_analysis::{Budget, EngineSpec, Pool};
use tabla_pgn::Reader;
use tabla_review::{ReviewCounts, Rules, review_games};

#[test]
fn best_is_the_first_move_of_the_evaluated_line() {
    let pgn = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n\
               1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 7. Bh4 b6 *\n";
    let games: Vec<_> = Reader::new(pgn.as_bytes())
        .games()
        .collect::<Result<_, _>>()
        .expect("games");
    let mut checked = 0;
    for nodes in [5_000, 20_000, 60_000] {
        let mut pool = Pool::start(&EngineSpec::Tabla, 2).expect("engines");
        let mut counts = ReviewCounts::default();
        let reviews = review_games(
            &games,
            &mut pool,
            &Budget::Nodes(nodes),
            Rules::Lichess,
            &mut counts,
        );
        for review in &reviews {
            assert!(review.error.is_none(), "{review:?}");
            for mv in &review.moves {
                if let (Some(best), Some(first)) = (&mv.best, mv.pv.first()) {
                    assert_eq!(&best.uci, first, "ply {} at {nodes} nodes", mv.ply);
                    checked += 1;
                }
            }
        }
    }
    // Every move has a line from the position before it (the mating move's too).
    assert_eq!(checked, 3 * (7 + 14));
}
