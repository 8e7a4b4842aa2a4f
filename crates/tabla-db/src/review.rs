//! Engine reviews of the database's games (`tabla db review`): the games the explorer's filters
//! select, rebuilt from the `games` table, reviewed by lichess's rules with an engine (or from
//! their own `[%eval]` comments), and stored as two tables beside the games, with the engine's
//! evaluations kept as a third.
//!
//! ```text
//! DB/evals/<config>/                   the evaluation cache (tabla_review::EvalCache): one folder
//!                                      per engine, options and budget, config.json and Parquet
//! DB/review/<config>/<rules>/moves/    one row per move reviewed (review_moves_schema)
//! DB/review/<config>/<rules>/games/    one row per game reviewed (review_games_schema)
//! ```
//!
//! `<config>` is the evaluation cache's folder name ([`tabla_review::CacheConfig::dir_name`]:
//! the engine's name, the budget and a checksum of the whole configuration), or
//! [`FROM_EVALS`]; `<rules>` is `lichess` or `lichess-database` ([`tabla_review::Rules::name`]). A review run
//! writes files and never changes one; each part is a pair of files of the same name in
//! `moves/` and `games/`, written whole under temporary names and renamed, the `games` file
//! last: a part whose `games` file is missing (an interrupted run) is not read and is removed by
//! the next run. A game is reviewed once per configuration and rules: a run skips the games the
//! configuration's `games` files already hold.

use crate::filters::Filters;
use crate::review_cancel::ReviewCancel;
use crate::review_tables::{
    EVALS_DIR, FROM_EVALS, REVIEW_DIR, parts, register, review_games_schema, review_moves_schema,
};
use crate::values::{int_at, ints};
use crate::{Database, DbError};
use arrow_array::{
    ArrayRef, Float64Array, Int32Array, Int64Array, RecordBatch, StringArray, UInt32Array,
};
use parquet::arrow::ArrowWriter;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;
use std::collections::HashSet;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};
use tabla_analysis::{Budget, EngineSpec, Pool};
use tabla_pgn::{Eval, Game, Reader};
use tabla_review::{
    CacheConfig, EvalCache, Review, ReviewCounts, ReviewError, Reviewer, Rules, from_evals,
};

/// Games whose rows are written as one part, at most.
const PART_GAMES: usize = 4096;
/// How often a run writes the rows of the games it reviewed, at most: what an interrupted run
/// loses (their evaluations stay in the cache, so only the judging is done again).
const PART_EVERY: Duration = Duration::from_secs(60);

/// How the games are reviewed.
pub enum ReviewWith<'a> {
    /// From the `[%eval]` comments the games carry (as lichess exports analysed games): no
    /// engine, nothing added to `evals`; a game with a move lacking one is stored with its error.
    FromEvals,
    /// With the engines of a pool, each position once: evaluations come from, and go to, the
    /// database's evaluation cache (`DB/evals/<config>`).
    Engine {
        /// The engines.
        pool: &'a mut Pool,
        /// What the pool was started from (its options name the configuration).
        spec: &'a EngineSpec,
        /// Each position's budget.
        budget: Budget,
        /// How often new evaluations are written to the cache, at most
        /// ([`tabla_review::FLUSH_EVERY`] by default).
        flush_every: Duration,
    },
}

/// What a review run did. Its JSON form (serde) has the counts' fields beside the others
/// (`{"engine", "rules", "selected", "already", "games", "positions", ..., "warnings",
/// "engine_notes", "hung"}`): Python's `Database.review` answer.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ReviewSummary {
    /// The configuration's name (the `engine` column): [`FROM_EVALS`] or the evaluation
    /// cache's folder name.
    pub engine: String,
    /// The rules' name (the `rules` column).
    pub rules: String,
    /// Games the filters select.
    pub selected: u64,
    /// Of those, games reviewed before with this configuration and rules (skipped).
    pub already: u64,
    /// What this run reviewed: `counts.games` games (with `counts.errors` stored with their
    /// error), their positions, those evaluated and those the cache had.
    #[serde(flatten)]
    pub counts: ReviewCounts,
    /// What opening the evaluation cache skipped (files it could not read).
    pub warnings: Vec<String>,
    /// What the engine did wrong, one line each ([`Reviewer::take_notes`]): a crash and its
    /// restart, a position it failed on twice, a hang.
    pub engine_notes: Vec<String>,
    /// Why the run stopped before its end, when the engine hung ([`Reviewer::hung`]): the games
    /// reviewed until then are stored, the others are left for the next run.
    pub hung: Option<String>,
}

impl Database {
    /// Reviews the games that match `filters` (by lichess's `rules`) and stores the reviews in
    /// the database's `review_moves` and `review_games` tables; with an engine, its evaluations
    /// in `evals`. Games this configuration and rules reviewed before are skipped, so a second
    /// run, or one after an import, reviews only the games not yet reviewed. A game that cannot
    /// be reviewed (unreadable, an engine failure, a missing `[%eval]`) is stored with its
    /// error and counted in `counts.errors`, except a game left without an evaluation by the
    /// engine (a fault twice, a hang): it is counted in `counts.errors` and not stored, so that
    /// the next run tries it again. An engine that hangs stops the run
    /// ([`ReviewSummary::hung`]). `progress` gets the counts so far and the games this run
    /// reviews.
    ///
    /// The tables of this `Database` are registered again afterwards, so that [`Database::sql`]
    /// sees the new rows.
    pub fn review(
        &self,
        filters: &Filters,
        with: ReviewWith<'_>,
        rules: Rules,
        progress: &mut dyn FnMut(&ReviewCounts, u64),
    ) -> Result<ReviewSummary, DbError> {
        self.review_cancellable(filters, with, rules, &ReviewCancel::new(), progress)
    }

    /// [`Database::review`], which `cancel` can stop from another thread: the engines' searches
    /// stop at once, the games of the batches finished before are stored (and their rows
    /// registered), and the run ends with [`DbError::Cancelled`].
    pub fn review_cancellable(
        &self,
        filters: &Filters,
        with: ReviewWith<'_>,
        rules: Rules,
        cancel: &ReviewCancel,
        progress: &mut dyn FnMut(&ReviewCounts, u64),
    ) -> Result<ReviewSummary, DbError> {
        filters.validate()?;
        let (engine_name, mut engine) = match with {
            ReviewWith::FromEvals => (FROM_EVALS.to_owned(), None),
            ReviewWith::Engine {
                pool,
                spec,
                budget,
                flush_every,
            } => {
                cancel.attach(pool.canceller());
                let config = CacheConfig::of_pool(pool, spec, budget);
                let cache = EvalCache::open(&self.dir().join(EVALS_DIR), &config)?;
                (config.dir_name(), Some((pool, budget, flush_every, cache)))
            }
        };
        let mut summary = ReviewSummary {
            engine: engine_name.clone(),
            rules: rules.name().to_owned(),
            ..ReviewSummary::default()
        };
        if let Some((_, _, _, cache)) = engine.as_mut() {
            summary.warnings = cache.take_warnings();
        }
        let folder = Folder::open(self.dir(), &engine_name, rules)?;
        if self.manifest().batches.is_empty() {
            return Ok(summary);
        }
        // The games selected, less those reviewed before.
        let condition = filters.games_sql();
        let mut todo: HashSet<i64> = HashSet::new();
        self.session().for_each_batch(
            &format!("SELECT g.game_id FROM game_refs g WHERE TRUE{condition}"),
            |batch| {
                let ids = ints(batch, "game_id")?;
                for i in 0..batch.num_rows() {
                    if let Some(id) = int_at(&ids, i) {
                        summary.selected += 1;
                        if folder.done.contains(&id) {
                            summary.already += 1;
                        } else {
                            todo.insert(id);
                        }
                    }
                }
                Ok(())
            },
        )?;
        let total = todo.len() as u64;
        progress(&ReviewCounts::default(), total);
        if todo.is_empty() {
            return Ok(summary);
        }
        let mut rows = Rows::new(&engine_name, rules.name());
        let mut pending: Vec<(i64, Game)> = Vec::new();
        let mut counts = ReviewCounts::default();
        let mut written = Instant::now();
        let mut folder = folder;
        let mut reviewer = engine.as_mut().map(|(pool, budget, flush_every, cache)| {
            Reviewer::new(pool, *budget, rules, cache).flush_every(*flush_every)
        });
        let mut engine_notes: Vec<String> = Vec::new();
        let mut hung: Option<String> = None;
        let mut review_pending = |pending: &mut Vec<(i64, Game)>,
                                  rows: &mut Rows,
                                  counts: &mut ReviewCounts|
         -> Result<(), DbError> {
            if cancel.is_cancelled() {
                return Err(DbError::Cancelled);
            }
            let games: Vec<Game> = pending.iter().map(|(_, g)| g.clone()).collect();
            // Each review, and whether the engine left the game without an evaluation.
            let reviews: Vec<(Review, bool)> = match reviewer.as_mut() {
                Some(reviewer) => {
                    let before = *counts;
                    let mut reviews = Vec::with_capacity(games.len());
                    reviewer.review_each(
                        &games,
                        &mut |now| {
                            // A cancel that came between the check above and the searches'
                            // start found nothing to stop: they are stopped here.
                            if cancel.is_cancelled() {
                                cancel.stop_engines();
                            }
                            progress(&before.plus(now), total);
                        },
                        &mut |done| reviews.push((done.review, done.engine_failed)),
                    )?;
                    engine_notes.extend(reviewer.take_notes());
                    if cancel.is_cancelled() {
                        // Its unfinished games carry the cancel as their error: none is stored.
                        return Err(DbError::Cancelled);
                    }
                    *counts = before.plus(&reviewer.counts);
                    reviewer.counts = ReviewCounts::default();
                    if hung.is_none() {
                        hung = reviewer.hung().map(str::to_owned);
                    }
                    reviews
                }
                None => games
                    .iter()
                    .map(|game| {
                        let review = from_evals(game, rules);
                        counts.count_from_evals(game, &review);
                        (review, false)
                    })
                    .collect(),
            };
            for ((id, game), (review, engine_failed)) in pending.iter().zip(&reviews) {
                // Left for the next run, which may well have a working engine.
                if !engine_failed {
                    rows.add(*id, Some(game), review);
                }
            }
            pending.clear();
            progress(counts, total);
            // The engine hung: the games left would be answered from the cache alone.
            if hung.is_some() {
                return Err(DbError::Cancelled);
            }
            Ok(())
        };
        let walked = self
            .session()
            .for_each_batch(&crate::games::pgn_sql(&condition), |batch| {
                for (id, pgn) in crate::games::pgn_of_batch(batch)? {
                    if !todo.remove(&id) {
                        continue;
                    }
                    match game_of(&pgn) {
                        Some(game) => pending.push((id, game)),
                        None => {
                            // Stored with its error, as any game that cannot be reviewed.
                            let error = ReviewError::Unreadable("no game in its text".to_owned());
                            rows.add(id, None, &Review::failed(None, None, &error));
                            counts.games += 1;
                            counts.errors += 1;
                        }
                    }
                    if pending.len() >= tabla_review::BATCH_GAMES {
                        review_pending(&mut pending, &mut rows, &mut counts)?;
                        if rows.games >= PART_GAMES || written.elapsed() >= PART_EVERY {
                            folder.write(&mut rows)?;
                            written = Instant::now();
                        }
                    }
                }
                Ok(())
            })
            .and_then(|()| match pending.is_empty() {
                true => Ok(()),
                false => review_pending(&mut pending, &mut rows, &mut counts),
            });
        summary.engine_notes = engine_notes;
        summary.hung = hung;
        // A hang stops the walk as a cancel does, but the run ends with its summary.
        let stopped = matches!(walked, Err(DbError::Cancelled));
        let cancelled = stopped && summary.hung.is_none();
        if !stopped {
            walked?;
        }
        folder.write(&mut rows)?;
        summary.counts = counts;
        register(self.session(), self.dir())?;
        if cancelled {
            return Err(DbError::Cancelled);
        }
        Ok(summary)
    }
}

/// The game of a PGN text rebuilt from the `games` table (its errors, if any, in the game: a
/// review reports them).
fn game_of(pgn: &str) -> Option<Game> {
    let mut reader = Reader::new(pgn.as_bytes());
    reader.games().next().and_then(Result::ok)
}

/// A configuration's folder of reviews, locked for this run.
struct Folder {
    dir: PathBuf,
    /// The games its `games` files hold.
    done: HashSet<i64>,
    /// This run's name in its files.
    writer: String,
    parts: u64,
    _lock: File,
}

impl Folder {
    /// Creates (when missing) and locks the folder of `engine` and `rules` in the database
    /// `db`, removes what an interrupted run left, and reads the games reviewed.
    fn open(db: &Path, engine: &str, rules: Rules) -> Result<Folder, DbError> {
        let dir = db.join(REVIEW_DIR).join(engine).join(rules.name());
        for sub in ["moves", "games"] {
            fs::create_dir_all(dir.join(sub)).map_err(DbError::io(dir.join(sub)))?;
        }
        let lock_path = dir.join(".lock");
        let lock = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(DbError::io(&lock_path))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => return Err(DbError::ReviewLocked(dir)),
            Err(fs::TryLockError::Error(e)) => return Err(DbError::io(&lock_path)(e)),
        }
        let config = dir.join("config.json");
        if !config.exists() {
            let text = serde_json::json!({"engine": engine, "rules": rules.name()});
            let tmp = dir.join(".config.json.tmp");
            fs::write(&tmp, format!("{text:#}\n")).map_err(DbError::io(&tmp))?;
            fs::rename(&tmp, &config).map_err(DbError::io(&config))?;
        }
        // Under the lock, every temporary file is a dead run's, and so is a part without its
        // `games` file.
        let games = parts(&dir.join("games"))?;
        for sub in ["moves", "games"] {
            let sub = dir.join(sub);
            for entry in fs::read_dir(&sub).map_err(DbError::io(&sub))? {
                let entry = entry.map_err(DbError::io(&sub))?;
                let name = entry.file_name().to_string_lossy().into_owned();
                let orphan = name.starts_with('.') || !games.iter().any(|g| g.ends_with(&name));
                if orphan {
                    fs::remove_file(entry.path()).map_err(DbError::io(entry.path()))?;
                }
            }
        }
        let mut done = HashSet::new();
        for file in &games {
            read_ids(file, &mut done)?;
        }
        let started = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap_or_default();
        Ok(Folder {
            dir,
            done,
            writer: format!("{}-{}", started.as_micros(), std::process::id()),
            parts: 0,
            _lock: lock,
        })
    }

    /// Writes `rows` (when there are any) as a part, `moves` then `games`, and empties them.
    fn write(&mut self, rows: &mut Rows) -> Result<(), DbError> {
        if rows.games == 0 {
            return Ok(());
        }
        self.parts += 1;
        let name = format!("part-{}-{:05}.parquet", self.writer, self.parts);
        let (moves, games) = rows.take()?;
        for (sub, batch) in [("moves", moves), ("games", games)] {
            let dir = self.dir.join(sub);
            write_file(&dir.join(&name), &dir.join(format!(".{name}.tmp")), &batch)?;
            crate::manifest::sync_dir(&dir)?;
        }
        Ok(())
    }
}

/// Adds the game ids of the `games` part `path` to `ids`.
fn read_ids(path: &Path, ids: &mut HashSet<i64>) -> Result<(), DbError> {
    let bad = |e: &dyn std::fmt::Display| DbError::Query(format!("{}: {e}", path.display()));
    let file = File::open(path).map_err(DbError::io(path))?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| bad(&e))?;
    let mask = ProjectionMask::columns(builder.parquet_schema(), ["game_id"]);
    let reader = builder.with_projection(mask).build().map_err(|e| bad(&e))?;
    for batch in reader {
        let batch = batch.map_err(|e| bad(&e))?;
        let column = ints(&batch, "game_id")?;
        ids.extend((0..batch.num_rows()).filter_map(|i| int_at(&column, i)));
    }
    Ok(())
}

/// Writes `batch` to `path` through `tmp` (synced, then renamed).
fn write_file(path: &Path, tmp: &Path, batch: &RecordBatch) -> Result<(), DbError> {
    let bad = |e: &dyn std::fmt::Display| DbError::Query(format!("{}: {e}", tmp.display()));
    let file = File::create(tmp).map_err(DbError::io(tmp))?;
    let props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .build();
    let mut writer =
        ArrowWriter::try_new(file, batch.schema(), Some(props)).map_err(|e| bad(&e))?;
    writer.write(batch).map_err(|e| bad(&e))?;
    let file = writer.into_inner().map_err(|e| bad(&e))?;
    file.sync_all().map_err(DbError::io(tmp))?;
    fs::rename(tmp, path).map_err(DbError::io(path))
}

/// The rows of the games reviewed and not yet written.
#[derive(Default)]
struct Rows {
    engine: String,
    rules: &'static str,
    games: usize,
    moves: MoveRows,
    game_rows: GameRows,
}

#[derive(Default)]
struct MoveRows {
    game_id: Vec<i64>,
    ply: Vec<u32>,
    color: Vec<&'static str>,
    san: Vec<String>,
    uci: Vec<String>,
    key_hi: Vec<i64>,
    key_lo: Vec<i64>,
    cp: Vec<Option<i32>>,
    mate: Vec<Option<i32>>,
    win: Vec<Option<f64>>,
    judgement: Vec<Option<&'static str>>,
    accuracy: Vec<Option<f64>>,
    best: Vec<Option<String>>,
}

#[derive(Default)]
struct GameRows {
    game_id: Vec<i64>,
    accuracy: [Vec<Option<f64>>; 2],
    acpl: [Vec<Option<i32>>; 2],
    marks: [[Vec<i32>; 3]; 2],
    moves: Vec<u32>,
    error: Vec<Option<String>>,
}

impl Rows {
    fn new(engine: &str, rules: &'static str) -> Rows {
        Rows {
            engine: engine.to_owned(),
            rules,
            ..Rows::default()
        }
    }

    /// Adds the review of game `id`.
    fn add(&mut self, id: i64, game: Option<&Game>, review: &Review) {
        self.games += 1;
        let g = &mut self.game_rows;
        g.game_id.push(id);
        for (i, side) in [&review.white, &review.black].into_iter().enumerate() {
            g.accuracy[i].push(side.accuracy);
            g.acpl[i].push(side.acpl.map(|a| i32::try_from(a).unwrap_or(i32::MAX)));
            for (j, n) in [side.inaccuracies, side.mistakes, side.blunders]
                .into_iter()
                .enumerate()
            {
                g.marks[i][j].push(i32::try_from(n).unwrap_or(i32::MAX));
            }
        }
        g.moves.push(review.moves.len() as u32);
        g.error.push(review.error.clone());
        // The position each move was played in: the start, then after each move.
        let Some(game) = game else {
            return;
        };
        let before = game
            .start
            .iter()
            .chain(game.mainline().map(|n| &n.position));
        let m = &mut self.moves;
        for (mv, position) in review.moves.iter().zip(before) {
            let (hi, lo) = tabla::zobrist::key_columns(position.wide_key());
            m.game_id.push(id);
            m.ply.push(mv.ply);
            m.color
                .push(if mv.ply % 2 == 1 { "white" } else { "black" });
            m.san.push(mv.san.clone());
            m.uci.push(mv.uci.clone());
            m.key_hi.push(hi);
            m.key_lo.push(lo);
            m.cp.push(match mv.eval {
                Some(Eval::Cp(cp)) => Some(cp),
                _ => None,
            });
            m.mate.push(match mv.eval {
                Some(Eval::Mate(n)) => Some(n),
                _ => None,
            });
            m.win.push(mv.win);
            m.judgement.push(mv.judgement.map(judgement_name));
            m.accuracy.push(mv.accuracy);
            m.best.push(mv.best.as_ref().map(|b| b.uci.clone()));
        }
    }

    /// The rows as record batches (moves, games), emptied.
    fn take(&mut self) -> Result<(RecordBatch, RecordBatch), DbError> {
        let m = std::mem::take(&mut self.moves);
        let g = std::mem::take(&mut self.game_rows);
        self.games = 0;
        let constant =
            |value: &str, n: usize| -> ArrayRef { Arc::new(StringArray::from(vec![value; n])) };
        let n = m.game_id.len();
        let moves = RecordBatch::try_new(
            review_moves_schema(),
            vec![
                Arc::new(Int64Array::from(m.game_id)),
                constant(&self.engine, n),
                constant(self.rules, n),
                Arc::new(UInt32Array::from(m.ply)),
                Arc::new(StringArray::from(m.color)),
                Arc::new(StringArray::from(m.san)),
                Arc::new(StringArray::from(m.uci)),
                Arc::new(Int64Array::from(m.key_hi)),
                Arc::new(Int64Array::from(m.key_lo)),
                Arc::new(Int32Array::from(m.cp)),
                Arc::new(Int32Array::from(m.mate)),
                Arc::new(Float64Array::from(m.win)),
                Arc::new(StringArray::from(m.judgement)),
                Arc::new(Float64Array::from(m.accuracy)),
                Arc::new(StringArray::from(m.best)),
            ],
        )
        .map_err(|e| DbError::Query(format!("review_moves: {e}")))?;
        let n = g.game_id.len();
        let [[wi, wm, wb], [bi, bm, bb]] = g.marks;
        let [wa, ba] = g.accuracy;
        let [wc, bc] = g.acpl;
        let games = RecordBatch::try_new(
            review_games_schema(),
            vec![
                Arc::new(Int64Array::from(g.game_id)),
                constant(&self.engine, n),
                constant(self.rules, n),
                Arc::new(Float64Array::from(wa)),
                Arc::new(Float64Array::from(ba)),
                Arc::new(Int32Array::from(wc)),
                Arc::new(Int32Array::from(bc)),
                Arc::new(Int32Array::from(wi)),
                Arc::new(Int32Array::from(wm)),
                Arc::new(Int32Array::from(wb)),
                Arc::new(Int32Array::from(bi)),
                Arc::new(Int32Array::from(bm)),
                Arc::new(Int32Array::from(bb)),
                Arc::new(UInt32Array::from(g.moves)),
                Arc::new(StringArray::from(g.error)),
            ],
        )
        .map_err(|e| DbError::Query(format!("review_games: {e}")))?;
        Ok((moves, games))
    }
}

/// A judgement's name in the `judgement` column.
fn judgement_name(judgement: tabla_review::Judgement) -> &'static str {
    use tabla_review::Judgement;
    match judgement {
        Judgement::Inaccuracy => "Inaccuracy",
        Judgement::Mistake => "Mistake",
        Judgement::Blunder => "Blunder",
    }
}
