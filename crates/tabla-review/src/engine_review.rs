//! Reviews with an engine: every position of a batch of games evaluated by a [`Pool`], each
//! distinct position once, then each game judged ([`judge`]).

use crate::{
    Analysis, BestMove, Budget, EngineError, Eval, Mainline, Pool, PositionInfo, Request, Review,
    ReviewError, Rules, judge,
};
use std::collections::HashMap;
use tabla::Position;
use tabla_pgn::Game;

/// What a run of reviews counted: the summary line of `tabla review`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReviewCounts {
    /// Games read.
    pub games: u64,
    /// Positions in the games reviewed (before every move, and the last).
    pub positions: u64,
    /// Positions the engine evaluated (each distinct position of a batch once).
    pub evaluated: u64,
    /// Positions answered from an evaluation cache.
    pub from_cache: u64,
    /// Games that could not be reviewed.
    pub errors: u64,
}

impl std::fmt::Display for ReviewCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "games {}, positions {}, evaluated {}, from cache {}, errors {}",
            self.games, self.positions, self.evaluated, self.from_cache, self.errors
        )
    }
}

/// A position as a key for sharing evaluations: its FEN without the move counters (placement,
/// side to move, castling rights, en passant square), so transpositions share one search.
fn position_key(position: &Position) -> String {
    let fen = position.to_fen();
    fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

/// Reviews `games` with the engines of `pool` at `budget`, judging by `rules`, and adds what it
/// did to `counts`. Each distinct position of the batch is searched once, by a fresh search
/// (`ucinewgame` first), so that a fixed node budget gives the same review whichever engine of
/// the pool takes a position. A game that cannot be read to its end, or one of whose positions
/// the engine fails on twice, gets a [`Review`] with its `error`; the other games are reviewed.
///
/// ```
/// use tabla_pgn::Reader;
/// use tabla_review::{Budget, EngineSpec, Judgement, Pool, ReviewCounts, Rules, review_games};
/// let pgn = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0";
/// let games: Vec<_> = Reader::new(pgn.as_bytes()).games().map(|g| g.unwrap()).collect();
/// let mut pool = Pool::start(&EngineSpec::Tabla, 1).unwrap();
/// let mut counts = ReviewCounts::default();
/// let reviews = review_games(&games, &mut pool, &Budget::Depth(6), Rules::Lichess, &mut counts);
/// // 3... Nf6?? allows mate in one; the engine would have defended f7.
/// assert_eq!(reviews[0].moves[5].judgement, Some(Judgement::Blunder));
/// assert!(reviews[0].moves[5].best.as_ref().is_some_and(|b| b.san != "Nf6"));
/// assert_eq!((counts.games, counts.positions), (1, 8));
/// ```
pub fn review_games(
    games: &[Game],
    pool: &mut Pool,
    budget: &Budget,
    rules: Rules,
    counts: &mut ReviewCounts,
) -> Vec<Review> {
    // Step 1: each game's mainline and positions; the distinct positions of the batch.
    let mut lines: Vec<Result<(Mainline, Vec<usize>), ReviewError>> = Vec::new();
    let mut distinct: Vec<Position> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for game in games {
        counts.games += 1;
        let line = Mainline::from_game(game).and_then(|line| {
            let start = game.start.as_ref().ok_or(ReviewError::NoStartPosition)?;
            let positions = std::iter::once(start).chain(game.mainline().map(|n| &n.position));
            let slots = positions
                .map(|position| {
                    *index.entry(position_key(position)).or_insert_with(|| {
                        distinct.push(position.clone());
                        distinct.len() - 1
                    })
                })
                .collect::<Vec<_>>();
            Ok((line, slots))
        });
        if let Ok((_, slots)) = &line {
            counts.positions += slots.len() as u64;
        }
        lines.push(line);
    }
    // Step 2: every distinct position searched once.
    let requests = distinct
        .iter()
        .map(|position| Request::new(position.clone(), *budget).with_new_game());
    let analyses = pool.analyse_all(requests);
    counts.evaluated += distinct.len() as u64;
    // Step 3: each game's positions filled in and judged.
    lines
        .into_iter()
        .zip(games)
        .map(|(line, game)| {
            let review = line.and_then(|(mut line, slots)| {
                for (i, &slot) in slots.iter().enumerate() {
                    let info = evaluation(&distinct[slot], &analyses[slot]).map_err(|e| {
                        ReviewError::Engine {
                            at: if i < line.moves.len() {
                                format!("before {}", line.label(i))
                            } else {
                                "after the last move".to_owned()
                            },
                            message: e,
                        }
                    })?;
                    line.positions[i] = info;
                }
                Ok(judge(&line, rules))
            });
            review.unwrap_or_else(|error| {
                counts.errors += 1;
                Review::failed(
                    game.tag("White").map(str::to_owned),
                    game.tag("Black").map(str::to_owned),
                    &error,
                )
            })
        })
        .collect()
}

/// One position's evaluation, the engine's choice and its line, from its analysis.
fn evaluation(
    position: &Position,
    analysis: &Result<Analysis, EngineError>,
) -> Result<PositionInfo, String> {
    let analysis = analysis.as_ref().map_err(ToString::to_string)?;
    let mut info = PositionInfo::default();
    if let Some(line) = analysis.best() {
        info.eval = Some(Eval::from_score(line.score, position.turn()));
        info.pv = line.pv.iter().map(|mv| mv.to_string()).collect();
    }
    let best = analysis
        .best_move
        .or_else(|| analysis.best().and_then(|l| l.pv.first().copied()));
    info.best = best.map(|mv| BestMove {
        san: position.san(mv),
        uci: position.uci(mv),
    });
    Ok(info)
}
