//! A review without an engine, from the evaluations an [`EvalCache`] already holds (a game
//! reviewed before, by `tabla review`, `tabla serve` or `tabla db review`, with the same engine,
//! options and budget).

use crate::{EvalCache, Mainline, Review, ReviewError, Rules, judge};
use tabla_pgn::Game;

/// Reviews a game from `cache` alone: `None` when the cache lacks the evaluation of one of its
/// positions (the one before each move, and the last), the review otherwise, the same one
/// [`crate::Reviewer`] gives with that cache. A game that cannot be reviewed (a PGN error cut
/// its mainline, no start position) gets a review with its `error`.
///
/// ```
/// use tabla_pgn::Reader;
/// use tabla_analysis::{Budget, EngineSpec, Pool};
/// use tabla_review::{CacheConfig, EvalCache, Reviewer, Rules, from_cache};
/// let pgn = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0";
/// let games: Vec<_> = Reader::new(pgn.as_bytes()).games().map(|g| g.unwrap()).collect();
/// let mut cache = EvalCache::in_memory();
/// assert_eq!(from_cache(&games[0], &cache, Rules::Lichess), None);
/// let mut pool = Pool::start(&EngineSpec::Tabla, 1).unwrap();
/// let reviews = Reviewer::new(&mut pool, Budget::Depth(5), Rules::Lichess, &mut cache)
///     .review(&games, &mut |_| {})
///     .unwrap();
/// assert_eq!(from_cache(&games[0], &cache, Rules::Lichess), Some(reviews[0].clone()));
/// ```
pub fn from_cache(game: &Game, cache: &EvalCache, rules: Rules) -> Option<Review> {
    let failed = |error: &ReviewError| {
        let name = |tag| game.tag(tag).map(str::to_owned);
        Some(Review::failed(name("White"), name("Black"), error))
    };
    let mut line = match Mainline::from_game(game) {
        Ok(line) => line,
        Err(error) => return failed(&error),
    };
    let Some(start) = game.start.as_ref() else {
        return failed(&ReviewError::NoStartPosition);
    };
    let positions = std::iter::once(start).chain(game.mainline().map(|n| &n.position));
    for (info, position) in line.positions.iter_mut().zip(positions) {
        *info = cache.get(position)?;
    }
    Some(judge(&line, rules))
}
