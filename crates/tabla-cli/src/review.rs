//! `tabla review`: the engine's verdict on every move of PGN games, as lichess reviews a game,
//! written as annotated PGN or JSON.

use crate::Outcome;
use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tabla_analysis::{Budget, EngineSpec, Pool};
use tabla_pgn::{Game, Reader};
use tabla_review::{
    CacheConfig, DEFAULT_NODES, EvalCache, Review, ReviewCounts, Reviewer, Rules,
    annotated_pgn_or_game, from_evals,
};

/// `tabla review` arguments.
#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// PGN files, plain or zstd-compressed (`.pgn.zst`), or `-` for standard input.
    #[arg(value_name = "PGN|-", required = true)]
    inputs: Vec<PathBuf>,
    /// Write the output here rather than to standard output (which then gets the summary).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// One JSON object per game per line (NDJSON) rather than annotated PGN.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    engine: EngineArgs,
    /// The evaluation cache's folder (default: `evals` in tabla's data directory,
    /// $XDG_DATA_HOME/tabla or ~/.local/share/tabla): every position is evaluated once per
    /// engine, options and budget, across runs.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["no_cache", "from_evals"])]
    cache: Option<PathBuf>,
    /// Keep no evaluations between runs (positions repeated within the run are still evaluated
    /// once).
    #[arg(long)]
    no_cache: bool,
}

/// How games are reviewed: the engine, its options, the budget and the rules (`tabla review`
/// and `tabla db review`).
#[derive(Args, Debug)]
pub struct EngineArgs {
    /// No engine: judge the `[%eval ...]` comments the games already carry (as lichess exports
    /// them); a game with a move lacking one is reported, not judged.
    #[arg(long, conflicts_with_all = ["engine", "engine_options", "engines", "nodes", "depth", "movetime"])]
    from_evals: bool,
    /// The engine.
    #[command(flatten)]
    choice: crate::engine_choice::EngineChoiceArgs,
    /// Engines searching at once, one thread each (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=Pool::MAX_SIZE as i64))]
    engines: Option<u32>,
    /// Nodes searched in each position (default 450000).
    #[arg(long, value_name = "N", conflicts_with_all = ["depth", "movetime"], value_parser = clap::value_parser!(i64).range(1..))]
    nodes: Option<i64>,
    /// Plies searched in each position, instead of a node budget (at most 100).
    #[arg(long, value_name = "D", conflicts_with = "movetime",
          value_parser = clap::value_parser!(i64).range(1..=i64::from(Budget::MAX_DEPTH)))]
    depth: Option<i64>,
    /// Milliseconds searched in each position, instead of a node budget.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(i64).range(1..))]
    movetime: Option<i64>,
    /// Whose marks: lichess's site (the default) or lichess's open-database files.
    #[arg(long, value_parser = rules_parser())]
    rules: Option<Rules>,
    /// Seconds between writes of new evaluations to the cache, at most (what an interrupted run
    /// can lose).
    #[arg(long, value_name = "SECS", default_value_t = tabla_review::FLUSH_EVERY.as_secs(), hide = true)]
    flush_secs: u64,
}

impl EngineArgs {
    /// `--rules`.
    pub fn rules(&self) -> Rules {
        self.rules.unwrap_or_default()
    }

    /// Each position's budget: `--nodes`, `--depth` or `--movetime`, else [`DEFAULT_NODES`]
    /// nodes ([`Budget::one_of`], as Python's).
    pub fn budget(&self) -> anyhow::Result<Budget> {
        Ok(Budget::one_of(
            self.nodes,
            self.depth,
            self.movetime,
            Budget::Nodes(DEFAULT_NODES),
        )?)
    }

    /// `--flush-secs`.
    pub fn flush_every(&self) -> Duration {
        Duration::from_secs(self.flush_secs)
    }

    /// The engines started (`None` with `--from-evals`), with what they were started from.
    pub fn start(&self) -> anyhow::Result<Option<(Pool, EngineSpec)>> {
        if self.from_evals {
            return Ok(None);
        }
        let spec = self.choice.choose()?.spec;
        let size = self.engines.map_or_else(Pool::default_size, |n| n as usize);
        let pool = Pool::start(&spec, size)?;
        Ok(Some((pool, spec)))
    }
}

/// `--rules`: one of [`Rules::name`]'s names (listed in `--help`), read by [`Rules`]'s
/// `FromStr`.
fn rules_parser() -> impl clap::builder::TypedValueParser<Value = Rules> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Rules::ALL.map(Rules::name))
        .try_map(|name| name.parse::<Rules>())
}

/// Runs `tabla review`: exit status 1 when a game could not be reviewed (its error is in the
/// output and on standard error; the other games are reviewed) or the engine failed (each fault
/// a warning on standard error, even when the engine worked once started again). An engine that
/// hangs stops the review: the games after it get an error without a search.
pub fn run(args: ReviewArgs, stdout: &mut impl Write) -> anyhow::Result<Outcome> {
    let rules = args.engine.rules();
    let budget = args.engine.budget()?;
    let mut engine = match args.engine.start()? {
        None => None,
        Some((pool, spec)) => {
            let cache = open_cache(&args, CacheConfig::of_pool(&pool, &spec, budget))?;
            Some((pool, cache))
        }
    };
    let mut file_out = match &args.out {
        Some(path) => Some(BufWriter::new(
            File::create(path).with_context(|| format!("creating {}", path.display()))?,
        )),
        None => None,
    };
    let bar = progress();
    let started = Instant::now();
    let mut counts = ReviewCounts::default();
    let mut reviewer = engine.as_mut().map(|(pool, cache)| {
        Reviewer::new(pool, budget, rules, cache).flush_every(args.engine.flush_every())
    });
    for input in &args.inputs {
        let source: Box<dyn Read> = if input.as_os_str() == "-" {
            Box::new(io::stdin().lock())
        } else {
            Box::new(crate::input::open(input, "a PGN file")?)
        };
        // A `.pgn.zst` file (lichess's database dumps) is decoded on the way.
        let text = tabla_convert::PgnText::new(source)
            .with_context(|| format!("reading {}", input.display()))?;
        let mut reader = Reader::new(text);
        let mut games = reader.games();
        loop {
            let batch: Vec<Game> = games
                .by_ref()
                .take(tabla_review::BATCH_GAMES)
                .collect::<io::Result<_>>()
                .with_context(|| format!("reading {}", input.display()))?;
            if batch.is_empty() {
                break;
            }
            let reviews: Vec<Review> = match reviewer.as_mut() {
                // The reviewer counts every game of the run (no other game is counted here).
                Some(reviewer) => {
                    let reviews = reviewer.review(&batch, &mut |now| show(&bar, now, started))?;
                    counts = reviewer.counts;
                    for note in reviewer.take_notes() {
                        bar.suspend(|| eprintln!("warning: engine: {note}"));
                    }
                    reviews
                }
                None => batch
                    .iter()
                    .map(|game| {
                        let review = from_evals(game, rules);
                        counts.count_from_evals(game, &review);
                        review
                    })
                    .collect(),
            };
            let out: &mut dyn Write = match file_out.as_mut() {
                Some(file) => file,
                None => &mut *stdout,
            };
            for (game, review) in batch.iter().zip(&reviews) {
                if let Some(error) = &review.error {
                    bar.suspend(|| {
                        eprintln!(
                            "{}: game {} (line {}): {error}",
                            input.display(),
                            game.number,
                            game.location.line
                        )
                    });
                }
                write_review(out, game, review, args.json)?;
            }
            show(&bar, &counts, started);
        }
    }
    bar.finish_and_clear();
    if let Some(hung) = reviewer.as_ref().and_then(|r| r.hung()) {
        eprintln!(
            "error: the engine hung, the review stopped ({hung}): the games after it were not reviewed"
        );
    }
    if let Some(mut file) = file_out {
        file.flush()?;
        writeln!(stdout, "{counts}")?;
    } else {
        // Standard output holds the games: the summary goes beside them.
        eprintln!("{counts}");
    }
    // An engine that failed, even one that worked when started again, is worth an exit status.
    Ok(if counts.errors > 0 || counts.engine_faults > 0 {
        Outcome::Failure
    } else {
        Outcome::Success
    })
}

/// One game's review: its JSON line, or the game annotated (the game as read when it could not
/// be reviewed).
fn write_review(
    out: &mut dyn Write,
    game: &Game,
    review: &Review,
    json: bool,
) -> anyhow::Result<()> {
    if json {
        let line = serde_json::to_string(review)?;
        // An io::Error as such, so that a closed pipe (`| head`) ends quietly.
        writeln!(out, "{line}")?;
        return Ok(());
    }
    let text = annotated_pgn_or_game(game, review)?;
    out.write_all(text.as_bytes())?;
    if !text.ends_with("\n\n") {
        writeln!(out)?;
    }
    Ok(())
}

/// The evaluation cache of a run: `--cache DIR`, tabla's data directory, or (`--no-cache`, or
/// no data directory) one in memory.
fn open_cache(args: &ReviewArgs, config: CacheConfig) -> anyhow::Result<EvalCache> {
    if args.no_cache {
        return Ok(EvalCache::in_memory());
    }
    let root = match &args.cache {
        Some(dir) => dir.clone(),
        None => match tabla_review::default_cache_dir() {
            Some(dir) => dir,
            None => {
                eprintln!(
                    "warning: no data directory ($XDG_DATA_HOME and $HOME unset): evaluations are not kept after this run (--cache DIR keeps them)"
                );
                return Ok(EvalCache::in_memory());
            }
        },
    };
    // The error names the cache and its path: the hint goes after it.
    let mut cache = EvalCache::open(&root, &config)
        .map_err(|e| anyhow::anyhow!("{e} (--no-cache runs without it)"))?;
    warn(cache.take_warnings());
    Ok(cache)
}

/// What opening an evaluation cache skipped, on standard error.
pub fn warn(warnings: Vec<String>) {
    for warning in warnings {
        eprintln!("warning: {warning}");
    }
}

/// A counter of games on standard error when it is a terminal.
pub fn progress() -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} ({elapsed})") {
        bar.set_style(style);
    }
    bar
}

/// The progress line: games, positions done of those known, searches a second, cache hits.
pub fn show(bar: &ProgressBar, counts: &ReviewCounts, started: Instant) {
    let seconds = started.elapsed().as_secs_f64().max(1e-3);
    bar.set_position(counts.games);
    bar.set_message(format!(
        "{}, {} of {}, {:.0} evaluated/s, {} from cache",
        tabla::plural(counts.games, "game"),
        counts.evaluated + counts.from_cache,
        tabla::plural(counts.positions, "position"),
        counts.evaluated as f64 / seconds,
        counts.from_cache
    ));
}
