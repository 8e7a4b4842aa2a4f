//! The database benchmarks' measuring tool (scripts/bench/db_bench.sh runs it): explorer latency
//! over random positions of the database, and position search throughput.
//!
//! ```text
//! cargo run --release -p tabla-db --example db_bench -- latency --db DIR [--queries 1000]
//!     [--passes 2] [--rating 1600-1999] [--speed blitz,rapid] [--player NAME] [--seed 1]
//! cargo run --release -p tabla-db --example db_bench -- search --db DIR
//! cargo run --release -p tabla-db --example db_bench -- explore --db DIR --moves "e4 e5"
//!     [--passes 5] [filters]
//! cargo run --release -p tabla-db --example db_bench -- open --db DIR [--passes 20]
//! ```
//!
//! `latency` draws the positions from the database itself: games chosen at random among the
//! first 50,000, a ply chosen at random below the game's length and max-ply, the position
//! rebuilt from the game's moves. It opens the database, then runs every query `--passes` times
//! and prints, per pass, the median, p90, p99 and maximum in milliseconds: the first pass
//! after opening is the cold one (run it after dropping the page cache for a cold disk), the
//! last the warm one.
//!
//! `explore` times one position's answer `--passes` times (the first after opening is cold).
//!
//! `open` times opening the database and, apart, the check of its files that opening makes
//! (`tabla_db::verify_parts`), `--passes` times each, and prints their medians and the check's
//! share of the opening.
//!
//! `search` times an exact-position search, a material search and a pattern search over every
//! game, and prints positions looked at per second for each.

use arrow_array::Array;
use std::path::PathBuf;
use std::time::Instant;
use tabla::Position;
use tabla_db::{Database, Filters, QueryOptions, SearchQuery, Target, YearMonth, parse_pattern};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mode = args
        .next()
        .ok_or("usage: db_bench latency|search --db DIR ...")?;
    let mut db = None;
    let mut queries = 1000usize;
    let mut passes = 2usize;
    let mut seed = 1u64;
    let mut filters = Filters::default();
    let mut moves = String::new();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--db" => db = Some(PathBuf::from(value()?)),
            "--queries" => queries = value()?.parse()?,
            "--passes" => passes = value()?.parse()?,
            "--seed" => seed = value()?.parse()?,
            "--rating" => filters.rating = Some(Filters::parse_rating(&value()?)?),
            "--speed" => filters.speeds = Filters::parse_speeds(&value()?)?,
            "--since" => filters.since = Some(YearMonth::parse(&value()?)?),
            "--player" => filters.player = Some(value()?),
            "--moves" => moves = value()?,
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    let db = db.ok_or("--db DIR is required")?;
    if mode == "open" {
        return open(&db, passes);
    }
    let start = Instant::now();
    let db = Database::open_with(&db, &QueryOptions::default())?;
    eprintln!("opened in {:.1} ms", start.elapsed().as_secs_f64() * 1e3);
    match mode.as_str() {
        "latency" => latency(&db, queries, passes, seed, &filters),
        "search" => search(&db),
        "explore" => explore(&db, &moves, passes, &filters),
        other => Err(format!("unknown mode {other}: latency, search or explore").into()),
    }
}

/// Times `Database::open_with` and `verify_parts` `passes` times each (warm: the first of
/// each is left out) and prints their medians.
fn open(db: &std::path::Path, passes: usize) -> Result<(), Box<dyn std::error::Error>> {
    let median = |times: &mut Vec<f64>| {
        times.sort_by(f64::total_cmp);
        times[times.len() / 2]
    };
    let (mut opening, mut checking) = (Vec::new(), Vec::new());
    let mut files = 0;
    for pass in 0..=passes.max(1) {
        let start = Instant::now();
        drop(Database::open_with(db, &QueryOptions::default())?);
        let opened = start.elapsed().as_secs_f64() * 1e3;
        let start = Instant::now();
        files = tabla_db::verify_parts(db)?;
        let checked = start.elapsed().as_secs_f64() * 1e3;
        if pass > 0 {
            opening.push(opened);
            checking.push(checked);
        }
    }
    let (opened, checked) = (median(&mut opening), median(&mut checking));
    println!(
        "{files} files: open median {opened:.2} ms, of which the check of the files {checked:.2} ms ({:.0}%)",
        100.0 * checked / opened
    );
    Ok(())
}

/// Times the explorer's answer for one position (`--moves`, from the start) `passes` times and
/// prints each time and the median.
fn explore(
    db: &Database,
    moves: &str,
    passes: usize,
    filters: &Filters,
) -> Result<(), Box<dyn std::error::Error>> {
    let target = Target::Moves(moves.to_owned());
    let mut times = Vec::new();
    let mut games = 0;
    for _ in 0..passes.max(1) {
        let start = Instant::now();
        games = db.explore(&target, filters)?.games;
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    let shown: Vec<String> = times.iter().map(|t| format!("{t:.1}")).collect();
    times.sort_by(f64::total_cmp);
    println!(
        "{moves:?}: {games} games; {} ms; median {:.1} ms",
        shown.join(", "),
        times[times.len() / 2]
    );
    Ok(())
}

/// A small seeded generator (xorshift64*), enough to pick positions reproducibly.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }
}

fn latency(
    db: &Database,
    queries: usize,
    passes: usize,
    seed: u64,
    filters: &Filters,
) -> Result<(), Box<dyn std::error::Error>> {
    let max_ply = db.manifest().max_ply as usize;
    let rows = db.sql(
        "SELECT uci FROM games WHERE error IS NULL AND cardinality(uci) > 0 \
         AND abs(game_id) % 7 = 0 LIMIT 50000",
    )?;
    let mut games: Vec<Vec<String>> = Vec::new();
    for batch in &rows {
        let lists = batch
            .column(0)
            .as_any()
            .downcast_ref::<arrow_array::ListArray>()
            .ok_or("uci: not a list")?;
        for i in 0..lists.len() {
            let list = lists.value(i);
            let moves = list
                .as_any()
                .downcast_ref::<arrow_array::StringArray>()
                .ok_or("uci: not text")?;
            games.push(
                (0..moves.len())
                    .map(|j| moves.value(j).to_owned())
                    .collect(),
            );
        }
    }
    if games.is_empty() {
        return Err("no games to draw positions from".into());
    }
    let mut rng = Rng(seed.max(1) ^ 0x9e37_79b9_7f4a_7c15);
    let mut fens = Vec::with_capacity(queries);
    for _ in 0..queries {
        let game = &games[rng.below(games.len())];
        let ply = rng.below(game.len().min(max_ply));
        let mut pos = Position::startpos();
        for mv in &game[..ply] {
            let mv = pos.parse_uci(mv)?;
            pos.play_unchecked(mv);
        }
        fens.push(pos.to_fen());
    }
    for pass in 1..=passes {
        let mut times = Vec::with_capacity(fens.len());
        let mut games_seen = 0u64;
        for fen in &fens {
            let t = Instant::now();
            let answer = db.explore(&Target::Fen(fen.clone()), filters)?;
            times.push(t.elapsed().as_secs_f64() * 1e3);
            games_seen += answer.games;
        }
        times.sort_by(f64::total_cmp);
        let q =
            |p: f64| times[((times.len() as f64 * p).ceil() as usize).clamp(1, times.len()) - 1];
        println!(
            "pass {pass}: {} queries, median {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms \
             (mean games per position {:.1})",
            times.len(),
            q(0.5),
            q(0.9),
            q(0.99),
            times[times.len() - 1],
            games_seen as f64 / times.len() as f64
        );
    }
    Ok(())
}

fn search(db: &Database) -> Result<(), Box<dyn std::error::Error>> {
    let queries = [
        (
            "position after 1. e4 e5 2. Nf3 Nc6 3. Bb5",
            SearchQuery::Position(Target::Moves("e4 e5 Nf3 Nc6 Bb5".into())),
        ),
        (
            "material KRPvKR, either colour",
            SearchQuery::material("KRPvKR", true)?,
        ),
        (
            "pattern wKg1,wRf1,bKg8",
            SearchQuery::Pattern(parse_pattern("wKg1,wRf1,bKg8")?),
        ),
    ];
    for (name, query) in queries {
        let t = Instant::now();
        let (hits, work) = db.search_ids(&query, &Filters::default())?;
        let s = t.elapsed().as_secs_f64();
        println!(
            "{name}: {} games matched; {} games, {} positions in {s:.2} s: {:.2} M positions/s",
            hits.len(),
            work.games,
            work.positions,
            work.positions as f64 / s / 1e6
        );
    }
    Ok(())
}
