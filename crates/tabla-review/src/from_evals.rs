//! A review without an engine, from the `[%eval]` comments a game already carries (as lichess
//! exports analysed games).

use crate::{Mainline, Review, Rules, judge};
use tabla_pgn::Game;

/// Reviews a game from its `[%eval]` comments: the first evaluation in the comments after each
/// mainline move is the position's after it (one in the comments before the first move, the
/// start position's). A game with a move lacking one (but a mating last move, which needs none)
/// is not judged: its review has an `error` naming the move.
///
/// ```
/// use tabla_pgn::Reader;
/// use tabla_review::{Judgement, Rules, from_evals};
///
/// let pgn = "1. e4 { [%eval 0.18] } 1... e5 { [%eval 0.21] } 2. Qh5 { [%eval -0.9] } *\n\n\
///            1. e4 { [%eval 0.18] } 1... e5 2. Nf3 { [%eval 0.2] } *";
/// let games: Vec<_> = Reader::new(pgn.as_bytes()).games().map(|g| g.unwrap()).collect();
/// let review = from_evals(&games[0], Rules::Lichess);
/// assert_eq!(review.moves[2].judgement, Some(Judgement::Mistake));
/// assert_eq!(review.white.mistakes, 1);
/// let review = from_evals(&games[1], Rules::Lichess);
/// assert!(review.error.unwrap().contains("1... e5"));
/// ```
pub fn from_evals(game: &Game, rules: Rules) -> Review {
    let mut line = match Mainline::from_game(game) {
        Ok(line) => line,
        Err(error) => {
            let name = |tag| game.tag(tag).map(str::to_owned);
            return Review::failed(name("White"), name("Black"), &error);
        }
    };
    if let Some(first) = game.mainline().next() {
        line.positions[0].eval = first.eval_before();
    }
    for (node, info) in game.mainline().zip(line.positions.iter_mut().skip(1)) {
        info.eval = node.eval();
    }
    judge(&line, rules)
}
