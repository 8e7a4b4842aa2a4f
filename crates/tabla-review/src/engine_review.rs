//! Reviews with an engine: every position of a batch of games evaluated by a [`Pool`], each
//! distinct position once and none an [`EvalCache`] already has, then each game judged
//! ([`judge`]).

use crate::{
    BestMove, CacheError, EvalCache, Mainline, PositionInfo, Review, ReviewError, Rules, judge,
};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use tabla::Position;
use tabla_analysis::{Analysis, Budget, EngineError, JobResult, Pool, Received, Request};
use tabla_pgn::Game;

/// What a run of reviews counted: the summary line of `tabla review`; its JSON form (serde) has
/// one field of each name (`{"games": 3, "positions": 120, ...}`), as the server's and Python's
/// answers give them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ReviewCounts {
    /// Games read.
    pub games: u64,
    /// Positions in the games reviewed (before every move, and the last).
    pub positions: u64,
    /// Distinct positions the engines evaluated (each once).
    pub evaluated: u64,
    /// Distinct positions answered from the evaluation cache (evaluated by an earlier batch or
    /// run).
    pub from_cache: u64,
    /// Distinct positions left without an evaluation: the engine failed on them (twice, or
    /// once when it hung), or the review stopped before their search (a hang, a cancel).
    pub not_evaluated: u64,
    /// The engine's faults (a crash, a hang, output that is not UCI, an illegal move): each
    /// killed its process, started again for the next search.
    pub engine_faults: u64,
    /// Games that could not be reviewed.
    pub errors: u64,
}

impl ReviewCounts {
    /// Counts a game reviewed from its `[%eval]` comments ([`crate::from_evals`]): a game, its
    /// positions (before every move, and the last), an error if it could not be reviewed.
    pub fn count_from_evals(&mut self, game: &tabla_pgn::Game, review: &crate::Review) {
        self.games += 1;
        self.positions += (game.mainline().len() + 1) as u64;
        self.errors += u64::from(review.error.is_some());
    }

    /// These counts and `other`'s added.
    ///
    /// ```
    /// use tabla_review::ReviewCounts;
    /// let a = ReviewCounts { games: 1, positions: 10, evaluated: 4, from_cache: 6, ..Default::default() };
    /// let b = ReviewCounts { games: 2, positions: 5, evaluated: 5, errors: 1, ..Default::default() };
    /// assert_eq!(a.plus(&b).to_string(), "games 3, positions 15, evaluated 9, from cache 6, errors 1");
    /// let c = ReviewCounts { not_evaluated: 2, engine_faults: 3, ..b };
    /// assert_eq!(
    ///     c.to_string(),
    ///     "games 2, positions 5, evaluated 5, from cache 0, errors 1, not evaluated 2, engine faults 3"
    /// );
    /// ```
    pub fn plus(&self, other: &ReviewCounts) -> ReviewCounts {
        ReviewCounts {
            games: self.games + other.games,
            positions: self.positions + other.positions,
            evaluated: self.evaluated + other.evaluated,
            from_cache: self.from_cache + other.from_cache,
            not_evaluated: self.not_evaluated + other.not_evaluated,
            engine_faults: self.engine_faults + other.engine_faults,
            errors: self.errors + other.errors,
        }
    }
}

/// `games G, positions P, evaluated E, from cache C, errors X`, then `, not evaluated N, engine
/// faults F` when either is not zero.
impl std::fmt::Display for ReviewCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "games {}, positions {}, evaluated {}, from cache {}, errors {}",
            self.games, self.positions, self.evaluated, self.from_cache, self.errors
        )?;
        if self.not_evaluated > 0 || self.engine_faults > 0 {
            write!(
                f,
                ", not evaluated {}, engine faults {}",
                self.not_evaluated, self.engine_faults
            )?;
        }
        Ok(())
    }
}

/// Reviews `games` with the engines of `pool` at `budget`, judging by `rules`, and adds what it
/// did to `counts`: [`Reviewer::review`] with a cache in memory for this call only, and no
/// progress report.
///
/// ```
/// use tabla_pgn::Reader;
/// use tabla_analysis::{Budget, EngineSpec, Pool};
/// use tabla_review::{Judgement, ReviewCounts, Rules, review_games};
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

/// Games given to [`Reviewer::review`] together by `tabla review`, `tabla db review` and
/// Python: their distinct positions are searched once, and a run can stop between batches.
pub const BATCH_GAMES: usize = 64;

/// How long a review keeps what its engines evaluated before it writes it to the cache's files,
/// at most: what a run killed without warning (`kill -9`, a power cut) can lose, besides the
/// searches under way. It also bounds the files a run writes: one a second at most (and
/// [`crate::EvalCache`] merges a run's own files every [`crate::COMPACT_AT`]).
pub const FLUSH_EVERY: Duration = Duration::from_secs(1);

/// The most engine faults a [`Reviewer`] describes one by one ([`Reviewer::take_notes`]); the
/// counts have them all.
const MAX_NOTES: usize = 20;

/// One game's review as [`Reviewer::review_each`] hands it over.
#[derive(Clone, Debug)]
pub struct ReviewedGame {
    /// The game's index in the batch.
    pub index: usize,
    /// Its review (with its `error` when it could not be reviewed).
    pub review: Review,
    /// `true` when it could not be reviewed because the engine left a position without an
    /// evaluation (a fault twice, a hang, a cancel): another run may well review it, unlike a
    /// game that cannot be read.
    pub engine_failed: bool,
}

/// Reviews batches of games with a [`Pool`] of engines and an [`EvalCache`]: each position is
/// evaluated once per cache, across the batches of a run and, with a cache on disk, across
/// runs. What it did accumulates in [`Reviewer::counts`], the engine's faults in
/// [`Reviewer::take_notes`].
///
/// Each position is searched by a fresh search (`ucinewgame` first), so that a fixed node
/// budget gives the same evaluation whichever engine of the pool takes a position, and
/// whichever game it came from.
///
/// An engine that hangs (no answer within its time limit, [`EngineError::is_hang`]) stops the
/// review: the searches queued are cancelled and those running stopped, the games whose
/// positions were all evaluated are reviewed, the others get an error, and every later batch
/// is answered from the cache alone ([`Reviewer::hung`] says why). A hung engine so holds a
/// review for about one time limit, not two per position.
pub struct Reviewer<'a> {
    pool: &'a mut Pool,
    budget: Budget,
    rules: Rules,
    cache: &'a mut EvalCache,
    flush_every: Duration,
    /// What the reviews so far did.
    pub counts: ReviewCounts,
    notes: Vec<String>,
    unlisted: u64,
    hung: Option<String>,
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
            notes: Vec::new(),
            unlisted: 0,
            hung: None,
        }
    }

    /// Writes new evaluations to the cache's files at least this often (default
    /// [`FLUSH_EVERY`]); zero writes after every search.
    pub fn flush_every(mut self, every: Duration) -> Reviewer<'a> {
        self.flush_every = every;
        self
    }

    /// What the engine did wrong since the last call, one line each (`game 3 (A - B), before
    /// 12. Nf3: … exited (exit code 3) while searching …; started again, it evaluated the
    /// position`), at most a few, then how many more; empty when the engines did no wrong.
    pub fn take_notes(&mut self) -> Vec<String> {
        let mut notes = std::mem::take(&mut self.notes);
        if self.unlisted > 0 {
            notes.push(format!("and {} more notes", self.unlisted));
            self.unlisted = 0;
        }
        notes
    }

    /// Why the review stopped, once the engine hung: what it waited for and where.
    pub fn hung(&self) -> Option<&str> {
        self.hung.as_deref()
    }

    fn note(&mut self, note: String) {
        if self.notes.len() < MAX_NOTES {
            self.notes.push(note);
        } else {
            self.unlisted += 1;
        }
    }

    /// Reviews `games`: [`Reviewer::review_each`], the reviews in the order of the games.
    pub fn review(
        &mut self,
        games: &[Game],
        progress: &mut dyn FnMut(&ReviewCounts),
    ) -> Result<Vec<Review>, CacheError> {
        let mut reviews: Vec<Option<Review>> = vec![None; games.len()];
        self.review_each(games, progress, &mut |done| {
            reviews[done.index] = Some(done.review);
        })?;
        // `review_each` hands over every game when it returns Ok.
        Ok(reviews.into_iter().flatten().collect())
    }

    /// Reviews `games`: the positions the cache lacks are searched (each distinct one once),
    /// added to it and written to its files at least every [`Reviewer::flush_every`] and at the
    /// end; `progress` is called after each search. Each game is handed to `done` in order as
    /// soon as its positions are evaluated *and written*: a game handed over keeps its
    /// evaluations whatever becomes of the run. A game that cannot be read to its end, or one of
    /// whose positions the engine fails on, gets a [`Review`] with its `error`; the other games
    /// are reviewed. The error is the cache's, when it cannot write its files (the searches of
    /// the batch are finished first, so the pool is ready for more; the games not handed over
    /// by then are not).
    ///
    /// A pool cancelled meanwhile ([`tabla_analysis::PoolCanceller`]) ends the review as soon as its
    /// running searches stop: the games it did not finish get an `error`, and no stopped search
    /// goes into the cache.
    pub fn review_each(
        &mut self,
        games: &[Game],
        progress: &mut dyn FnMut(&ReviewCounts),
        done: &mut dyn FnMut(ReviewedGame),
    ) -> Result<(), CacheError> {
        // Step 1: each game's mainline and positions; the distinct positions of the batch, and
        // for each the games that have it (the first one names it in notes).
        let mut lines: Vec<Result<(Mainline, Vec<usize>), ReviewError>> = Vec::new();
        let mut distinct: Vec<Position> = Vec::new();
        let mut holders: Vec<Vec<usize>> = Vec::new();
        let mut index: HashMap<u128, usize> = HashMap::new();
        for (g, game) in games.iter().enumerate() {
            self.counts.games += 1;
            let line = Mainline::from_game(game).and_then(|line| {
                let start = game.start.as_ref().ok_or(ReviewError::NoStartPosition)?;
                let positions = std::iter::once(start).chain(game.mainline().map(|n| &n.position));
                let slots = positions
                    .map(|position| {
                        let slot = *index.entry(position.wide_key()).or_insert_with(|| {
                            distinct.push(position.clone());
                            holders.push(Vec::new());
                            distinct.len() - 1
                        });
                        if holders[slot].last() != Some(&g) {
                            holders[slot].push(g);
                        }
                        slot
                    })
                    .collect::<Vec<_>>();
                Ok((line, slots))
            });
            if let Ok((_, slots)) = &line {
                self.counts.positions += slots.len() as u64;
            }
            lines.push(line);
        }
        // Each game's distinct positions without an answer yet.
        let mut missing: Vec<usize> = vec![0; games.len()];
        for holder in &holders {
            for &g in holder {
                missing[g] += 1;
            }
        }
        // Step 2: what the cache has; the rest searched, each distinct position once (none
        // once the engine has hung).
        let mut infos: Vec<Option<Result<PositionInfo, ReviewError>>> = Vec::new();
        let mut jobs: HashMap<u64, usize> = HashMap::new();
        for (slot, position) in distinct.iter().enumerate() {
            let known = self.cache.get(position);
            if known.is_some() {
                self.counts.from_cache += 1;
            }
            match (known, &self.hung) {
                (Some(info), _) => infos.push(Some(Ok(info))),
                (None, Some(hung)) => {
                    self.counts.not_evaluated += 1;
                    let reason = format!("the engine hung earlier in this run ({hung})");
                    infos.push(Some(Err(not_evaluated(reason))));
                }
                (None, None) => {
                    let request = Request::new(position.clone(), self.budget).with_new_game();
                    jobs.insert(self.pool.submit(request), slot);
                    infos.push(None);
                }
            }
            if infos[slot].is_some() {
                for &g in &holders[slot] {
                    missing[g] -= 1;
                }
            }
        }
        progress(&self.counts);
        let mut failure = None;
        let mut flushed = Instant::now();
        let mut next = 0;
        loop {
            // Step 3, as the answers come: the games whose positions are all answered and
            // written, in order.
            if failure.is_none() && self.cache.unflushed() == 0 {
                while next < games.len() && (lines[next].is_err() || missing[next] == 0) {
                    done(self.judged(next, &games[next], &mut lines[next], &infos));
                    next += 1;
                }
            }
            // A cache in memory is written at no cost: at once.
            let every = match self.cache.dir() {
                Some(_) => self.flush_every,
                None => Duration::ZERO,
            };
            let wait = (failure.is_none() && self.cache.unflushed() > 0)
                .then(|| every.saturating_sub(flushed.elapsed()));
            let result = match self.pool.recv_within(wait) {
                Received::Result(result) => Some(result),
                Received::AllDone => break,
                Received::TimedOut => None,
            };
            if let Some(result) = result
                && let Some(&slot) = jobs.get(&result.id)
            {
                let info = self.answer(&distinct[slot], result, &holders[slot], games, &lines);
                match &info {
                    Ok(info) => {
                        self.counts.evaluated += 1;
                        self.cache.insert(&distinct[slot], info);
                    }
                    Err(_) => self.counts.not_evaluated += 1,
                }
                infos[slot] = Some(info);
                for &g in &holders[slot] {
                    missing[g] -= 1;
                }
                progress(&self.counts);
            }
            if failure.is_none() && self.cache.unflushed() > 0 && flushed.elapsed() >= every {
                failure = self.cache.flush().err();
                flushed = Instant::now();
            }
        }
        if let Some(error) = failure {
            return Err(error);
        }
        self.cache.flush()?;
        while next < games.len() {
            done(self.judged(next, &games[next], &mut lines[next], &infos));
            next += 1;
        }
        Ok(())
    }

    /// What a search's result gives its position, with a note when the engine did wrong; a
    /// hang stops the review.
    fn answer(
        &mut self,
        position: &Position,
        result: JobResult,
        holders: &[usize],
        games: &[Game],
        lines: &[Result<(Mainline, Vec<usize>), ReviewError>],
    ) -> Result<PositionInfo, ReviewError> {
        // The first game that has the position names it.
        let place = || match holders.first() {
            Some(&g) => {
                let game = &games[g];
                let at = match &lines[g] {
                    Ok((line, slots)) => {
                        let key = position.wide_key();
                        let i = game
                            .start
                            .iter()
                            .chain(game.mainline().map(|n| &n.position))
                            .position(|p| p.wide_key() == key)
                            .unwrap_or(slots.len());
                        position_label(line, i)
                    }
                    Err(_) => "a position".to_owned(),
                };
                format!("{}, {at}", game_label(game))
            }
            None => "a position".to_owned(),
        };
        if let Some(first) = &result.retried {
            self.counts.engine_faults += 1;
            let after = match &result.outcome {
                Ok(_) => "started again, it evaluated the position".to_owned(),
                Err(second) => format!("started again, it failed again: {second}"),
            };
            self.note(format!("{}: {first}; {after}", place()));
        }
        let outcome = match result.outcome {
            Ok(analysis) => return evaluation(position, &analysis),
            Err(error) => error,
        };
        if outcome.is_fault() {
            self.counts.engine_faults += 1;
            // The second fault of a retried search is in the note of the first.
            if result.retried.is_none() {
                let stopped = if outcome.is_hang() && self.hung.is_none() {
                    "; the review stopped"
                } else {
                    ""
                };
                self.note(format!("{}: {outcome}{stopped}", place()));
            }
            if outcome.is_hang() && self.hung.is_none() {
                self.hung = Some(format!("{}: {outcome}", place()));
                // The other searches end now: they would wait for the engine in vain, holding
                // the run (and a server's one review) for a time limit each.
                self.pool.cancel();
            }
            return Err(ReviewError::Engine {
                at: String::new(),
                message: outcome.to_string(),
            });
        }
        Err(match (&outcome, &self.hung) {
            (EngineError::Cancelled { .. }, Some(hung)) => {
                not_evaluated(format!("the review stopped when the engine hung ({hung})"))
            }
            (EngineError::Cancelled { .. }, None) => {
                not_evaluated("the review was cancelled".to_owned())
            }
            _ => ReviewError::Engine {
                at: String::new(),
                message: outcome.to_string(),
            },
        })
    }

    /// Game `g`'s review from its positions' answers.
    fn judged(
        &mut self,
        index: usize,
        game: &Game,
        line: &mut Result<(Mainline, Vec<usize>), ReviewError>,
        infos: &[Option<Result<PositionInfo, ReviewError>>],
    ) -> ReviewedGame {
        let line = std::mem::replace(line, Err(ReviewError::NoStartPosition));
        let mut engine_failed = false;
        let review = line.and_then(|(mut line, slots)| {
            for (i, &slot) in slots.iter().enumerate() {
                let info = match &infos[slot] {
                    Some(info) => info.clone(),
                    None => Err(not_evaluated("the engine gave no answer".to_owned())),
                };
                line.positions[i] = info.map_err(|error| {
                    engine_failed = true;
                    let at = position_label(&line, i);
                    match error {
                        ReviewError::Engine { message, .. } => ReviewError::Engine { at, message },
                        ReviewError::NotEvaluated { reason, .. } => {
                            ReviewError::NotEvaluated { at, reason }
                        }
                        other => other,
                    }
                })?;
            }
            Ok(judge(&line, self.rules))
        });
        let review = review.unwrap_or_else(|error| {
            self.counts.errors += 1;
            Review::failed(
                game.tag("White").map(str::to_owned),
                game.tag("Black").map(str::to_owned),
                &error,
            )
        });
        ReviewedGame {
            index,
            review,
            engine_failed,
        }
    }
}

/// A position of `line` as a note or an error names it: `before 12. Nf3`, or `after the last
/// move`.
fn position_label(line: &Mainline, i: usize) -> String {
    if i < line.moves.len() {
        format!("before {}", line.label(i))
    } else {
        "after the last move".to_owned()
    }
}

/// A game as a note names it: `game 3 (Carlsen - Nepomniachtchi)`.
fn game_label(game: &Game) -> String {
    let name = |tag: &str| game.tag(tag).unwrap_or("?").to_owned();
    format!(
        "game {} ({} - {})",
        game.number,
        name("White"),
        name("Black")
    )
}

fn not_evaluated(reason: String) -> ReviewError {
    ReviewError::NotEvaluated {
        at: String::new(),
        reason,
    }
}

/// One position's evaluation, the engine's choice and its line, from its analysis (the error's
/// text when there is none).
fn evaluation(position: &Position, analysis: &Analysis) -> Result<PositionInfo, ReviewError> {
    // A search stopped before its budget (the pool cancelled) is shallower than the budget says:
    // kept in the cache under that budget, it would stand for a full search in every later run.
    if analysis.stopped {
        return Err(not_evaluated(
            "the search was stopped (the review was cancelled or stopped)".to_owned(),
        ));
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
    /// use tabla_analysis::{Analyser, Budget, Request, StopSignal, TablaAnalyser};
    /// use tabla_review::{Eval, PositionInfo};
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
            info.eval = Some(line.eval(position.turn()));
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
