//! `tabla db`: a game collection as a database (import, info, compact, explore, search, export,
//! sql, review).

use crate::Outcome;
use crate::review::EngineArgs;
use clap::{Args, Subcommand};
use std::io::Write;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Instant;
use tabla::plural;
use tabla_db::{
    Database, FilterText, Filters, Format, ImportOptions, QueryOptions, SearchQuery, Target,
};

/// The `tabla db` subcommands.
#[derive(Subcommand, Debug)]
pub enum DbCommand {
    /// Add PGN or .pgn.zst files to a database (created when missing) as one import.
    Import(ImportArgs),
    /// What a database holds: games, positions, table sizes, max-ply, schema version.
    Info(InfoArgs),
    /// Sum the explorer's aggregates of every import into one table (imports do it by
    /// themselves past 8 of them).
    Compact(CompactArgs),
    /// The opening explorer: moves played from a position, their results, top and recent games.
    Explore(ExploreArgs),
    /// Position search: games that reach a position, a material balance or a pattern, at any ply.
    Search(SearchArgs),
    /// Write the database's games (under the filters, or those that reached a position) as PGN.
    Export(ExportArgs),
    /// The players whose name contains TEXT, in any case, with their games (most first): the
    /// exact names --player takes.
    Players(PlayersArgs),
    /// Run a read-only SQL query over the tables games, positions, explorer and the reviews'.
    Sql(SqlArgs),
    /// Review the games (under the filters) with an engine, or from their [%eval]s, into the
    /// tables evals, review_moves and review_games; games reviewed before are skipped.
    Review(DbReviewArgs),
}

/// The database directory, and what the query engine may use.
#[derive(Args, Debug)]
pub struct DbArgs {
    /// The database directory.
    #[arg(long, value_name = "DIR")]
    db: PathBuf,
    /// Threads (default: every core).
    #[arg(long, value_name = "N")]
    threads: Option<NonZeroUsize>,
    /// Memory for sorts, joins and aggregations before they spill to disk, in MiB (default
    /// 1024; less than 16 counts as 16; at most 2^30, a pebibyte).
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    memory: Option<u64>,
}

impl DbArgs {
    fn query(&self) -> QueryOptions {
        // At most 2^50 bytes (the argument's range): no overflow.
        let memory = self
            .memory
            .map(|mib| usize::try_from(mib << 20).unwrap_or(usize::MAX));
        QueryOptions::new(self.threads.map(NonZeroUsize::get), memory)
    }
}

#[derive(Args, Debug)]
pub struct ImportArgs {
    #[command(flatten)]
    db: DbArgs,
    /// PGN or .pgn.zst files.
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// Positions counted by the explorer: plies 0 to N - 1 of each game. Fixed when the
    /// database is created (default 50).
    #[arg(long, value_name = "N")]
    max_ply: Option<u32>,
}

#[derive(Args, Debug)]
pub struct CompactArgs {
    #[command(flatten)]
    db: DbArgs,
}

#[derive(Args, Debug)]
pub struct PlayersArgs {
    #[command(flatten)]
    db: DbArgs,
    /// A part of the name, in any case (`karpov`); every player when not given.
    #[arg(value_name = "TEXT", default_value = "")]
    text: String,
    /// At most this many names.
    #[arg(long, value_name = "N", default_value_t = 50)]
    limit: usize,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct InfoArgs {
    #[command(flatten)]
    db: DbArgs,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// The explorer's and the search's filters.
#[derive(Args, Debug)]
pub struct FilterArgs {
    /// Average Elo of both players (rounded down), MIN-MAX inclusive; `2000-` or `-1500` for an
    /// open end. Games without both Elos are left out.
    #[arg(long, value_name = "MIN-MAX", allow_hyphen_values = true)]
    rating: Option<String>,
    /// Speeds, from TimeControl by lichess's thresholds: bullet,blitz,rapid,classical,correspondence.
    #[arg(long, value_name = "LIST")]
    speed: Option<String>,
    /// Games played in this month or later (UTCDate, else Date). A game dated by its year alone
    /// (1964.??.??) is in when its whole year is (--since 1964-01 keeps it, --since 1964-06 does
    /// not); games without a known year are left out.
    #[arg(long, value_name = "YYYY-MM")]
    since: Option<String>,
    /// Games played in this month or earlier; a game dated by its year alone is in when its
    /// whole year is (--until 1964-12 keeps a 1964.??.?? game, --until 1964-06 does not).
    #[arg(long, value_name = "YYYY-MM")]
    until: Option<String>,
    /// A player's games: the name exactly as in the White or Black tag (for scripts; see
    /// --player-match and `tabla db players`).
    #[arg(long, value_name = "NAME", conflicts_with = "player_match")]
    player: Option<String>,
    /// The games of every player whose name contains TEXT, in any case (`karpov` finds
    /// "Karpov, Anatoly" and "Karpov, An").
    #[arg(long, value_name = "TEXT")]
    player_match: Option<String>,
    /// With --player or --player-match: only the games where the player had this colour.
    #[arg(long, value_name = "white|black")]
    color: Option<String>,
}

impl FilterArgs {
    fn filters(&self) -> anyhow::Result<Filters> {
        Ok(Filters::from_text(&FilterText {
            rating: self.rating.as_deref(),
            speed: self.speed.as_deref(),
            since: self.since.as_deref(),
            until: self.until.as_deref(),
            player: self.player.as_deref(),
            player_match: self.player_match.as_deref(),
            color: self.color.as_deref(),
            text: None,
        })?)
    }
}

#[derive(Args, Debug)]
pub struct ExploreArgs {
    #[command(flatten)]
    db: DbArgs,
    /// The position as a FEN (`startpos` for the standard start).
    #[arg(long, value_name = "FEN", conflicts_with = "moves")]
    fen: Option<String>,
    /// The position after these moves from the standard start (SAN or UCI, e.g. "e4 e5 Nf3").
    #[arg(long, value_name = "MOVES")]
    moves: Option<String>,
    #[command(flatten)]
    filters: FilterArgs,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct SearchArgs {
    #[command(flatten)]
    db: DbArgs,
    /// This exact position, reached by any move order (`startpos` for the standard start).
    #[arg(long, value_name = "FEN", group = "what")]
    fen: Option<String>,
    /// The position after these moves from the standard start (SAN or UCI).
    #[arg(long, value_name = "MOVES", group = "what")]
    moves: Option<String>,
    /// A material balance: White's pieces, v, Black's, e.g. KRPvKR.
    #[arg(long, value_name = "BALANCE", group = "what")]
    material: Option<String>,
    /// With --material: match the balance with the colours swapped too.
    #[arg(long, requires = "material")]
    either_color: bool,
    /// Pieces on squares, e.g. "wKg1,wRf1,bKg8" (colour w/b, piece KQRBNP, square).
    #[arg(long, value_name = "PATTERN", group = "what")]
    pattern: Option<String>,
    #[command(flatten)]
    filters: FilterArgs,
    /// How many games to list.
    #[arg(long, value_name = "N", default_value_t = tabla_db::DEFAULT_LIMIT)]
    limit: usize,
    /// Skip this many games of the list.
    #[arg(long, value_name = "N", default_value_t = 0)]
    offset: usize,
    /// Print JSON: {"total", "games": [...]}.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    #[command(flatten)]
    db: DbArgs,
    /// Only the games that reached this position (at any ply).
    #[arg(long, value_name = "FEN", conflicts_with = "moves")]
    fen: Option<String>,
    /// Only the games that reached the position after these moves (SAN or UCI).
    #[arg(long, value_name = "MOVES")]
    moves: Option<String>,
    #[command(flatten)]
    filters: FilterArgs,
}

#[derive(Args, Debug)]
pub struct SqlArgs {
    #[command(flatten)]
    db: DbArgs,
    /// The query.
    query: String,
    /// Print a JSON array of row objects.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print CSV.
    #[arg(long)]
    csv: bool,
}

#[derive(Args, Debug)]
pub struct DbReviewArgs {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    filters: FilterArgs,
    #[command(flatten)]
    engine: EngineArgs,
}

/// `4301 games, 4290 counted by the explorer; 11 left out: result unknown (*)`.
fn explorer_counted(info: &tabla_db::Info) -> String {
    let e = &info.explorer;
    let mut line = format!(
        "{}, {} counted by the explorer",
        plural(info.games, "game"),
        e.counted
    );
    if !e.left_out.is_empty() {
        let left: u64 = e.left_out.iter().map(|l| l.games).sum();
        let reasons: Vec<String> = match &e.left_out[..] {
            [only] => vec![only.reason.clone()],
            all => all
                .iter()
                .map(|l| format!("{} {}", l.games, l.reason))
                .collect(),
        };
        line.push_str(&format!("; {left} left out: {}", reasons.join(", ")));
    }
    line
}

/// Runs a `tabla db` subcommand: exit status 1 when `review` could not review a game.
pub fn run(command: DbCommand, out: &mut impl Write) -> anyhow::Result<Outcome> {
    match command {
        DbCommand::Review(args) => review(args, out),
        other => {
            run_other(other, out)?;
            Ok(Outcome::Success)
        }
    }
}

/// `tabla db review`: the summary line `games G, positions P, evaluated E, from cache C, errors
/// X` (of the games this run reviewed) on standard output, what was skipped on standard error.
fn review(args: DbReviewArgs, out: &mut impl Write) -> anyhow::Result<Outcome> {
    let filters = args.filters.filters()?;
    let db = Database::open_with(&args.db.db, &args.db.query())?;
    let rules = args.engine.rules();
    let budget = args.engine.budget()?;
    let mut engine = args.engine.start()?;
    let with = match engine.as_mut() {
        None => tabla_db::ReviewWith::FromEvals,
        Some((pool, spec)) => tabla_db::ReviewWith::Engine {
            pool,
            spec: &*spec,
            budget,
            flush_every: args.engine.flush_every(),
        },
    };
    let bar = crate::review::progress();
    let started = Instant::now();
    let summary = db.review(&filters, with, rules, &mut |counts, total| {
        if bar.length() != Some(total) {
            bar.set_length(total);
        }
        crate::review::show(&bar, counts, started);
    });
    bar.finish_and_clear();
    let summary = summary?;
    crate::review::warn(summary.warnings.clone());
    eprintln!(
        "review {} ({} rules): {} selected, {} reviewed before",
        summary.engine,
        summary.rules,
        plural(summary.selected, "game"),
        summary.already
    );
    for note in &summary.engine_notes {
        eprintln!("warning: engine: {note}");
    }
    if let Some(hung) = &summary.hung {
        eprintln!(
            "error: the engine hung, the review stopped ({hung}): the games reviewed before are stored, the others are left for the next run"
        );
    }
    if summary.counts.errors > 0 {
        eprintln!(
            "{} could not be reviewed: SELECT game_id, error FROM review_games WHERE error IS NOT NULL (a game the engine failed on is not stored: the next run tries it again)",
            plural(summary.counts.errors, "game")
        );
    }
    writeln!(out, "{}", summary.counts)?;
    let faults = summary.counts.engine_faults > 0 || summary.hung.is_some();
    Ok(if summary.counts.errors > 0 || faults {
        Outcome::Failure
    } else {
        Outcome::Success
    })
}

/// Runs the subcommands other than `review`.
fn run_other(command: DbCommand, out: &mut impl Write) -> anyhow::Result<()> {
    match command {
        DbCommand::Review(_) => unreachable!("handled by run"),
        DbCommand::Import(args) => import(args, out),
        DbCommand::Compact(args) => {
            let start = Instant::now();
            let summary = tabla_db::compact(&args.db.db, &args.db.query())?;
            if summary.parts <= 1 {
                writeln!(
                    out,
                    "nothing to compact: the explorer has {}",
                    plural(summary.parts, "part")
                )?;
            } else {
                writeln!(
                    out,
                    "compacted {} ({}, and {} counted where a part lacked them) into one ({}) \
                     in {:.2} s",
                    plural(summary.parts, "part"),
                    plural(summary.rows_before, "row"),
                    plural(summary.completed, "position"),
                    plural(summary.rows, "row"),
                    start.elapsed().as_secs_f64()
                )?;
            }
            Ok(())
        }
        DbCommand::Players(args) => {
            let db = Database::open_with(&args.db.db, &args.db.query())?;
            let players = db.players(&args.text, args.limit)?;
            if args.json {
                writeln!(out, "{}", serde_json::to_string_pretty(&players)?)?;
                return Ok(());
            }
            for p in &players {
                writeln!(out, "{:>7}  {}", p.games, p.name)?;
            }
            Ok(())
        }
        DbCommand::Info(args) => {
            let db = Database::open_with(&args.db.db, &args.db.query())?;
            let info = db.info()?;
            if args.json {
                writeln!(out, "{}", serde_json::to_string_pretty(&info)?)?;
                return Ok(());
            }
            writeln!(out, "database        {}", info.db)?;
            writeln!(out, "schema version  {}", info.schema_version)?;
            writeln!(out, "max-ply         {}", info.max_ply)?;
            writeln!(out, "imports         {}", info.batches)?;
            writeln!(out, "games           {}", info.games)?;
            writeln!(out, "errors          {}", info.errors)?;
            writeln!(out, "warnings        {}", info.warnings)?;
            writeln!(out, "positions       {}", info.positions)?;
            writeln!(out, "explorer        {}", explorer_counted(&info))?;
            writeln!(out, "input bytes     {}", info.input_bytes)?;
            for t in &info.table_bytes {
                writeln!(
                    out,
                    "table {:<9} {} in {}",
                    t.table,
                    plural(t.bytes, "byte"),
                    plural(t.files, "file")
                )?;
            }
            Ok(())
        }
        DbCommand::Explore(args) => {
            let target = Target::from_fen_or_moves(args.fen, args.moves)?;
            let filters = args.filters.filters()?;
            // Check the arguments before opening the database.
            target.position()?;
            let db = Database::open_with(&args.db.db, &args.db.query())?;
            let answer = db.explore(&target, &filters)?;
            if args.json {
                writeln!(out, "{}", serde_json::to_string(&answer)?)?;
                return Ok(());
            }
            writeln!(out, "{}", answer.fen)?;
            writeln!(
                out,
                "{}: white {}, draws {}, black {}",
                plural(answer.games, "game"),
                answer.white,
                answer.draws,
                answer.black
            )?;
            writeln!(
                out,
                "{:<8} {:>8} {:>6} {:>6} {:>6} {:>7}  last",
                "move", "games", "white%", "draw%", "black%", "rating"
            )?;
            for m in &answer.moves {
                let pct = |n: u64| 100.0 * n as f64 / m.games.max(1) as f64;
                writeln!(
                    out,
                    "{:<8} {:>8} {:>6.1} {:>6.1} {:>6.1} {:>7}  {}",
                    m.san,
                    m.games,
                    pct(m.white),
                    pct(m.draws),
                    pct(m.black),
                    m.avg_rating
                        .map_or_else(|| "-".to_owned(), |r| r.to_string()),
                    m.last_played.as_deref().unwrap_or("-")
                )?;
            }
            for (title, games) in [
                ("top games", &answer.top_games),
                ("recent games", &answer.recent_games),
            ] {
                if games.is_empty() {
                    continue;
                }
                writeln!(out, "{title}:")?;
                for g in games {
                    writeln!(out, "  {}", game_line(g))?;
                }
            }
            Ok(())
        }
        DbCommand::Search(args) => search(args, out),
        DbCommand::Export(args) => {
            let target = match (args.fen, args.moves) {
                (Some(fen), _) => Some(Target::Fen(fen)),
                (None, Some(moves)) => Some(Target::Moves(moves)),
                (None, None) => None,
            };
            let filters = args.filters.filters()?;
            if let Some(t) = &target {
                t.position()?;
            }
            let db = Database::open_with(&args.db.db, &args.db.query())?;
            let n = db.export(&filters, target.as_ref(), out)?;
            eprintln!("exported {}", plural(n, "game"));
            Ok(())
        }
        DbCommand::Sql(args) => {
            let db = Database::open_with(&args.db.db, &args.db.query())?;
            let rows = db.sql(&args.query)?;
            let format = if args.json {
                Format::Json
            } else if args.csv {
                Format::Csv
            } else {
                Format::Table
            };
            tabla_db::write_rows(&rows, format, out)?;
            Ok(())
        }
    }
}

fn search(args: SearchArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let query = SearchQuery::one_of(
        args.fen.as_deref(),
        args.moves.as_deref(),
        args.material.as_deref(),
        args.pattern.as_deref(),
        args.either_color,
    )?;
    let filters = args.filters.filters()?;
    let db = Database::open_with(&args.db.db, &args.db.query())?;
    let answer = db.search(&query, &filters, args.limit, args.offset)?;
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&answer)?)?;
        return Ok(());
    }
    writeln!(out, "{}", plural(answer.total, "game"))?;
    for g in &answer.games {
        writeln!(out, "  {}", game_line(g))?;
    }
    Ok(())
}

/// One game of a list, as the text output shows it.
fn game_line(g: &tabla_db::GameRef) -> String {
    let elo = |e: Option<i64>| e.map_or_else(|| "?".to_owned(), |e| e.to_string());
    format!(
        "{} ({}) - {} ({}) {} {} {} [id {}, ply {}]",
        g.white.as_deref().unwrap_or("?"),
        elo(g.white_elo),
        g.black.as_deref().unwrap_or("?"),
        elo(g.black_elo),
        g.result.as_deref().unwrap_or("*"),
        g.date,
        g.event.as_deref().unwrap_or(""),
        g.id,
        g.ply
    )
}

fn import(args: ImportArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let query = args.db.query();
    let threads = query.threads;
    let total = args
        .inputs
        .iter()
        .map(|p| std::fs::metadata(p).ok().map(|m| m.len()))
        .sum::<Option<u64>>();
    let options = ImportOptions {
        db: args.db.db,
        inputs: args.inputs,
        max_ply: args.max_ply,
        query,
    };
    let progress = crate::convert::BarProgress::new(total);
    let start = Instant::now();
    let summary = tabla_db::import(&options, &progress);
    progress.bar.finish_and_clear();
    let summary = summary?;
    let seconds = start.elapsed().as_secs_f64();
    for skipped in &summary.skipped {
        eprintln!("{skipped}");
    }
    if summary.batch == 0 {
        eprintln!(
            "nothing imported: {} holds every input already",
            options.db.display()
        );
        writeln!(out, "games 0, errors 0, warnings 0, positions 0")?;
        return Ok(());
    }
    eprintln!(
        "import {}: {} of input in {seconds:.2} s on {}, {:.1} MB/s; {}",
        summary.batch,
        plural(summary.input_bytes, "byte"),
        plural(threads, "thread"),
        if seconds > 0.0 {
            summary.input_bytes as f64 / seconds / 1e6
        } else {
            0.0
        },
        plural(summary.explorer_rows, "explorer row")
    );
    if !summary.phases.is_empty() {
        let phases: Vec<String> = summary
            .phases
            .iter()
            .map(|(name, took)| format!("{name} {:.2} s", took.as_secs_f64()))
            .collect();
        eprintln!("phases: {}", phases.join(", "));
    }
    if let Some(c) = &summary.compacted {
        eprintln!(
            "compacted the explorer's {} ({}) into one ({})",
            plural(c.parts, "part"),
            plural(c.rows_before, "row"),
            plural(c.rows, "row")
        );
    }
    writeln!(
        out,
        "games {}, errors {}, warnings {}, positions {}",
        summary.games, summary.errors, summary.warnings, summary.positions
    )?;
    Ok(())
}
