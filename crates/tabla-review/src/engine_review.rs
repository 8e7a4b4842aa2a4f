//! Reviews with an engine: every position of a batch of games evaluated by a [`Pool`], each
//! distinct position once and none an [`EvalCache`] already has, then each game judged
//! ([`judge`]).

use crate::{
    Analysis, BestMove, Budget, CacheError, EngineError, Eval, EvalCache, Mainline, Pool,
    PositionInfo, Request, Review, ReviewError, Rules, judge,
};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use tabla::Position;
use tabla_pgn::Game;

/// What a run of reviews counted: the summary line of `tabla review`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReviewCounts {
    /// Games read.
    pub games: u64,
    /// Positions in the games reviewed (before every move, and the last).
    pub positions: u64,
    /// Positions the engines searched (each distinct position once).
    pub evaluated: u64,
    /// Distinct positions answered from the evaluation cache (evaluated by an earlier batch or
    /// run).
    pub from_cache: u64,
    /// Games that could not be reviewed.
    pub errors: u64,
}

impl ReviewCounts {
    /// These counts and `other`'s added.
    ///
    /// ```
    /// use tabla_review::ReviewCounts;
    /// let a = ReviewCounts { games: 1, positions: 10, evaluated: 4, from_cache: 6, errors: 0 };
    /// let b = ReviewCounts { games: 2, positions: 5, evaluated: 5, from_cache: 0, errors: 1 };
    /// assert_eq!(a.plus(&b).to_string(), "games 3, positions 15, evaluated 9, from cache 6, errors 1");
    /// ```
    pub fn plus(&self, other: &ReviewCounts) -> ReviewCounts {
        ReviewCounts {
            games: self.games + other.games,
            positions: self.positions + other.positions,
            evaluated: self.evaluated + other.evaluated,
            from_cache: self.from_cache + other.from_cache,
            errors: self.errors + other.errors,
        }
    }
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

/// Reviews `games` with the engines of `pool` at `budget`, judging by `rules`, and adds what it
/// did to `counts`: [`Reviewer::review`] with a cache in memory for this call only, and no
/// progress report.
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
    let mut cache = EvalCache::in_memory();
    let mut reviewer = Reviewer::new(pool, *budget, rules, &mut cache);
    // A cache in memory has no file to fail on.
    let reviews = reviewer.review(games, &mut |_| {}).unwrap_or_default();
    *counts = counts.plus(&reviewer.counts);
    reviews
}

/// How often a review writes what its engines evaluated to the cache's files, at most: what an
/// interrupted run can lose.
pub const FLUSH_EVERY: Duration = Duration::from_secs(15);

/// Reviews batches of games with a [`Pool`] of engines and an [`EvalCache`]: each position is
/// evaluated once per cache, across the batches of a run and, with a cache on disk, across
/// runs. What it did accumulates in [`Reviewer::counts`].
///
/// Each position is searched by a fresh search (`ucinewgame` first), so that a fixed node
/// budget gives the same evaluation whichever engine of the pool takes a position, and
/// whichever game it came from.
pub struct Reviewer<'a> {
    pool: &'a mut Pool,
    budget: Budget,
    rules: Rules,
    cache: &'a mut EvalCache,
    flush_every: Duration,
    /// What the reviews so far did.
    pub counts: ReviewCounts,
}

impl<'a> Reviewer<'a> {
    /// A reviewer with `pool`'s engines at `budget`, judging by `rules`, keeping evaluations in
    /// `cache` (made for this engine configuration: [`crate::CacheConfig::of_pool`]).
    pub fn new(
        pool: &'a mut Pool,
        budget: Budget,
        rules: Rules,
        cache: &'a mut EvalCache,
    ) -> Reviewer<'a> {
        Reviewer {
            pool,
            budget,
            rules,
            cache,
            flush_every: FLUSH_EVERY,
            counts: ReviewCounts::default(),
        }
    }

    /// Writes new evaluations to the cache's files at least this often (default
    /// [`FLUSH_EVERY`]); zero writes after every search.
    pub fn flush_every(mut self, every: Duration) -> Reviewer<'a> {
        self.flush_every = every;
        self
    }

    /// Reviews `games`: the positions the cache lacks are searched (each distinct one once),
    /// added to it and written to its files at least every [`Reviewer::flush_every`] and at the end;
    /// `progress` is called after each search. A game that cannot be read to its end, or one of
    /// whose positions the engine fails on twice, gets a [`Review`] with its `error`; the other
    /// games are reviewed. The error is the cache's, when it cannot write its files (the
    /// searches of the batch are finished first, so the pool is ready for more).
    ///
    /// A pool cancelled meanwhile ([`crate::PoolCanceller`]) ends the review as soon as its
    /// running searches stop: the games it did not finish get an `error`, and no stopped search
    /// goes into the cache.
    pub fn review(
        &mut self,
        games: &[Game],
        progress: &mut dyn FnMut(&ReviewCounts),
    ) -> Result<Vec<Review>, CacheError> {
        // Step 1: each game's mainline and positions; the distinct positions of the batch.
        let mut lines: Vec<Result<(Mainline, Vec<usize>), ReviewError>> = Vec::new();
        let mut distinct: Vec<Position> = Vec::new();
        let mut index: HashMap<u128, usize> = HashMap::new();
        for game in games {
            self.counts.games += 1;
            let line = Mainline::from_game(game).and_then(|line| {
                let start = game.start.as_ref().ok_or(ReviewError::NoStartPosition)?;
                let positions = std::iter::once(start).chain(game.mainline().map(|n| &n.position));
                let slots = positions
                    .map(|position| {
                        *index.entry(position.wide_key()).or_insert_with(|| {
                            distinct.push(position.clone());
                            distinct.len() - 1
                        })
                    })
                    .collect::<Vec<_>>();
                Ok((line, slots))
            });
            if let Ok((_, slots)) = &line {
                self.counts.positions += slots.len() as u64;
            }
            lines.push(line);
        }
        // Step 2: what the cache has; the rest searched, each distinct position once.
        let mut infos: Vec<Option<Result<PositionInfo, String>>> = Vec::new();
        let mut jobs: HashMap<u64, usize> = HashMap::new();
        for (slot, position) in distinct.iter().enumerate() {
            match self.cache.get(position) {
                Some(info) => {
                    self.counts.from_cache += 1;
                    infos.push(Some(Ok(info)));
                }
                None => {
                    let request = Request::new(position.clone(), self.budget).with_new_game();
                    jobs.insert(self.pool.submit(request), slot);
                    infos.push(None);
                }
            }
        }
        progress(&self.counts);
        let mut failure = None;
        let mut flushed = Instant::now();
        while let Some(result) = self.pool.recv() {
            let Some(&slot) = jobs.get(&result.id) else {
                continue;
            };
            self.counts.evaluated += 1;
            let info = evaluation(&distinct[slot], &result.outcome);
            if let Ok(info) = &info {
                self.cache.insert(&distinct[slot], info);
            }
            infos[slot] = Some(info);
            if failure.is_none() && flushed.elapsed() >= self.flush_every {
                failure = self.cache.flush().err();
                flushed = Instant::now();
            }
            progress(&self.counts);
        }
        if let Some(error) = failure {
            return Err(error);
        }
        self.cache.flush()?;
        // Step 3: each game's positions filled in and judged.
        let reviews = lines
            .into_iter()
            .zip(games)
            .map(|(line, game)| {
                let review = line.and_then(|(mut line, slots)| {
                    for (i, &slot) in slots.iter().enumerate() {
                        let info = match &infos[slot] {
                            Some(info) => info.clone(),
                            None => Err("the engine gave no answer".to_owned()),
                        };
                        line.positions[i] = info.map_err(|message| ReviewError::Engine {
                            at: if i < line.moves.len() {
                                format!("before {}", line.label(i))
                            } else {
                                "after the last move".to_owned()
                            },
                            message,
                        })?;
                    }
                    Ok(judge(&line, self.rules))
                });
                review.unwrap_or_else(|error| {
                    self.counts.errors += 1;
                    Review::failed(
                        game.tag("White").map(str::to_owned),
                        game.tag("Black").map(str::to_owned),
                        &error,
                    )
                })
            })
            .collect();
        Ok(reviews)
    }
}

/// One position's evaluation, the engine's choice and its line, from its analysis (the error's
/// text when there is none).
fn evaluation(
    position: &Position,
    analysis: &Result<Analysis, EngineError>,
) -> Result<PositionInfo, String> {
    let analysis = analysis.as_ref().map_err(ToString::to_string)?;
    // A search stopped before its budget (the pool cancelled) is shallower than the budget says:
    // kept in the cache under that budget, it would stand for a full search in every later run.
    if analysis.stopped {
        return Err("the search was stopped (the review was cancelled)".to_owned());
    }
    Ok(PositionInfo::from_analysis(position, analysis))
}

impl PositionInfo {
    /// What a review keeps of an engine's analysis of `position`: the evaluation of its first
    /// line (White's point of view), that line in UCI, and its first move as the engine's
    /// choice (the `bestmove` only when the analysis has no line).
    ///
    /// ```
    /// use tabla::Position;
    /// use tabla_review::{Analyser, Budget, Eval, PositionInfo, Request, StopSignal, TablaAnalyser};
    /// let mut engine = TablaAnalyser::new();
    /// let position = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1").unwrap();
    /// let request = Request::new(position.clone(), Budget::Depth(4));
    /// let analysis = engine.analyse(&request, &StopSignal::new(), &mut |_| {}).unwrap();
    /// let info = PositionInfo::from_analysis(&position, &analysis);
    /// assert_eq!(info.eval, Some(Eval::Mate(1)));
    /// assert_eq!(info.best.unwrap().san, "Ra8#");
    /// assert_eq!(info.pv, ["a1a8"]);
    /// ```
    pub fn from_analysis(position: &Position, analysis: &Analysis) -> PositionInfo {
        let mut info = PositionInfo::default();
        if let Some(line) = analysis.best() {
            info.eval = Some(Eval::from_score(line.score, position.turn()));
            info.pv = line.pv.iter().map(|mv| mv.to_string()).collect();
        }
        // The first move of the line whose score is the evaluation: under a node or time budget
        // the engine's `bestmove` can come from an iteration it did not finish, whose score is
        // unknown, and then "X was best" would stand beside a line that starts with another move.
        let best = analysis
            .best()
            .and_then(|l| l.pv.first().copied())
            .or(analysis.best_move);
        info.best = best.map(|mv| BestMove {
            san: position.san(mv),
            uci: position.uci(mv),
        });
        info
    }
}
