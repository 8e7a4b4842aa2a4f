//! `tabla tb`: build the endgame tables of up to five men, probe positions, play out the line.

use crate::dtm_text::{describe, parse, write_line, write_moves};
use anyhow::Context;
use clap::Subcommand;
use std::io::Write;
use std::path::{Path, PathBuf};
use tabla::{Position, plural, plural_with};
use tabla_endgame::{Built, MAX_MEN, MIN_MEN, Men, Tablebase, build, default_tablebase_dir};

/// The `tabla tb` subcommands.
#[derive(Subcommand, Debug)]
pub enum TbCommand {
    /// Generate the tables of endings (and of every ending they lead to), resumably: a table
    /// already in the directory is not built again. Each table's time goes to DIR/build.log.
    Build {
        /// Every ending of up to N men (3 to 5).
        #[arg(long, value_name = "N", conflicts_with = "endings")]
        men: Option<usize>,
        /// Endings, as `KQvKR` (or `KQKR`).
        #[arg(value_name = "ENDING", required_unless_present = "men")]
        endings: Vec<String>,
        /// The tables' directory (default: $TABLA_ENDGAME_DIR/tb, else $XDG_DATA_HOME/tabla/tb,
        /// else ~/.local/share/tabla/tb, else `tb`).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Threads each table is generated on, one table at a time (default: every core).
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
    },
    /// Distance to mate of a position of up to five men, the value after every legal move and
    /// the best move.
    Probe {
        /// The tables' directory (see `build --help`).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Print the answer as JSON (the object `/api/tb` answers).
        #[arg(long)]
        json: bool,
        /// Read one FEN per line from FILE (`-` for stdin); print `<FEN as given>;<dtm>;<plies>`
        /// per line (signed, for the side to move; `0;0` a draw or checkmated), or
        /// `<FEN>;error: <reason>`.
        #[arg(long, value_name = "FILE|-", conflicts_with_all = ["fen", "json"])]
        batch: Option<String>,
        /// The position (quoted FEN, or separate words).
        #[arg(value_name = "FEN", required_unless_present = "batch", num_args = 1..)]
        fen: Vec<String>,
    },
    /// The counts of an ending's table: positions (up to symmetry), wins, draws and losses for
    /// each side to move, and the longest mate with a position that has it.
    Stats {
        /// The tables' directory (see `build --help`).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// The ending, as `KQvKR` (or `KQKR`).
        #[arg(value_name = "ENDING")]
        ending: String,
    },
    /// The whole optimal line to mate, in SAN.
    Line {
        /// The tables' directory (see `build --help`).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// The position (quoted FEN, or separate words).
        #[arg(value_name = "FEN", required = true, num_args = 1..)]
        fen: Vec<String>,
    },
}

/// Runs a `tabla tb` subcommand.
pub fn run(command: TbCommand, out: &mut impl Write) -> anyhow::Result<()> {
    match command {
        TbCommand::Build {
            men,
            endings,
            dir,
            threads,
        } => {
            let targets: Vec<Men> = match men {
                Some(n) if (MIN_MEN..=MAX_MEN).contains(&n) => Men::all(n),
                Some(n) => anyhow::bail!("--men {n}: the tables hold {MIN_MEN} to {MAX_MEN} men"),
                None => endings
                    .iter()
                    .map(|e| e.parse::<Men>())
                    .collect::<Result<_, _>>()?,
            };
            build_tables(dir, &targets, threads, out)?;
        }
        TbCommand::Probe {
            dir,
            json,
            batch,
            fen,
        } => probe(open(dir.as_deref())?, json, batch, &fen, out)?,
        TbCommand::Stats { dir, ending } => {
            let ending = ending.parse()?;
            stats(
                &with_solved_ending(open(dir.as_deref())?, ending)?,
                ending,
                out,
            )?
        }
        TbCommand::Line { dir, fen } => line(open(dir.as_deref())?, &fen, out)?,
    }
    Ok(())
}

/// `tabla tb build`: the tables of `targets` and of every ending they lead to, in `dir`
/// (default: [`default_tablebase_dir`]), on `threads` threads (default: every core).
pub fn build_tables(
    dir: Option<PathBuf>,
    targets: &[Men],
    threads: Option<usize>,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let dir = dir.unwrap_or_else(default_tablebase_dir);
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let built = build(&dir, targets, threads, &|b: &Built| {
        if b.skipped {
            eprintln!("{} already built", b.men);
        } else {
            eprintln!(
                "{} built in {:.2} s, {}",
                b.men,
                b.seconds,
                plural(b.bytes, "byte")
            );
        }
    })
    .with_context(|| format!("building tables in {}", dir.display()))?;
    let new: Vec<&Built> = built.iter().filter(|b| !b.skipped).collect();
    // Folded from +0.0: an empty f64 sum is -0.0, printed "-0.0".
    let seconds = new.iter().fold(0.0, |sum, b| sum + b.seconds);
    let bytes: u64 = built.iter().map(|b| b.bytes).sum();
    writeln!(
        out,
        "{} in {} ({} built now in {seconds:.1} s of table time); {} in all",
        plural(built.len(), "table"),
        dir.display(),
        new.len(),
        plural(bytes, "byte")
    )?;
    Ok(())
}

/// `tabla tb probe`: one position (as text, or `json`), or every line of a `batch`; an ending
/// of [`tabla_endgame::SOLVED_IN_MEMORY`] without a table in `tb` is solved when a position needs it.
pub fn probe(
    mut tb: Tablebase,
    json: bool,
    batch: Option<String>,
    fen: &[String],
    out: &mut impl Write,
) -> anyhow::Result<()> {
    if let Some(source) = batch {
        for line in crate::batch::lines(crate::batch::input(&source)?) {
            match line.context("reading the batch input")? {
                Ok(line) => {
                    let pos = Position::from_fen(line.trim_end_matches(['\r', '\n']));
                    if let Some(men) = pos.as_ref().ok().and_then(|p| Men::of(p).ok()) {
                        tb = with_solved_ending(tb, men)?;
                    }
                    writeln!(out, "{}", batch_line(&tb, &line, pos))?
                }
                Err(text) => writeln!(out, "{}", crate::batch::not_utf8(&text))?,
            }
        }
        return Ok(());
    }
    let pos = parse(fen)?;
    if let Ok(men) = Men::of(&pos) {
        tb = with_solved_ending(tb, men)?;
    }
    let probe = tb.probe_moves(&pos)?;
    let men = Men::of(&pos)?;
    if json {
        // The object `/api/tb` answers.
        let answer = tabla_endgame::describe_tb(&pos, men, probe);
        writeln!(out, "{}", serde_json::to_string_pretty(&answer)?)?;
        return Ok(());
    }
    let state = if probe.stalemate { ", stalemate" } else { "" };
    writeln!(out, "fen      {}", pos.to_fen())?;
    writeln!(out, "material {men}")?;
    writeln!(out, "dtm      {}{}{state}", probe.dtm, describe(probe.dtm))?;
    match probe.best {
        Some(mv) => writeln!(out, "best     {} ({})", pos.san(mv), pos.uci(mv))?,
        None => writeln!(out, "best     none")?,
    }
    write_moves(out, &pos, &probe.moves_best_first())
}

/// `tabla tb stats`: an ending's counts, a row a side to move.
pub fn stats(tb: &Tablebase, ending: Men, out: &mut impl Write) -> anyhow::Result<()> {
    let stats = tb.stats(ending)?;
    writeln!(out, "{}", stats.men)?;
    writeln!(
        out,
        "{:<10}{:>14}{:>14}{:>14}{:>14}  longest mate",
        "to move", "positions", "wins", "draws", "losses"
    )?;
    for (name, s) in ["White", "Black"].iter().zip(&stats.sides) {
        let longest = match s.longest_mate() {
            Some((dtm, fen)) => {
                let plies = dtm.plies().unwrap_or(0);
                format!(
                    "mates in {} ({}): {fen}",
                    dtm.signed(),
                    plural_with(plies, "ply", "plies")
                )
            }
            None => "none".to_owned(),
        };
        writeln!(
            out,
            "{name:<10}{:>14}{:>14}{:>14}{:>14}  {longest}",
            s.positions, s.wins, s.draws, s.losses
        )?;
    }
    Ok(())
}

/// `tabla tb line`: the optimal line to mate in SAN (an ending of [`tabla_endgame::SOLVED_IN_MEMORY`] without
/// a table in `tb` solved first).
pub fn line(mut tb: Tablebase, fen: &[String], out: &mut impl Write) -> anyhow::Result<()> {
    let pos = parse(fen)?;
    if let Ok(men) = Men::of(&pos) {
        tb = with_solved_ending(tb, men)?;
    }
    let moves = tb.line(&pos)?;
    write_line(out, &pos, &moves)
}

/// The tables of `dir` (default: [`default_tablebase_dir`]).
pub fn open(dir: Option<&Path>) -> anyhow::Result<Tablebase> {
    let dir = dir.map_or_else(default_tablebase_dir, Path::to_path_buf);
    Ok(Tablebase::open(&dir)?)
}

/// `tables`, with `men`'s ending solved in memory when no table of it is open and it is one of
/// [`tabla_endgame::SOLVED_IN_MEMORY`] ([`Tablebase::with_solved_if_missing`]).
pub fn with_solved_ending(tables: Tablebase, men: Men) -> anyhow::Result<Tablebase> {
    Ok(tables.with_solved_if_missing(men)?)
}

/// One output line of `tabla tb probe --batch`: the line as given, then `;<dtm>;<plies>`
/// (signed, from the side to move's view) or `;error: <reason>`; `pos` is the line read as FEN.
fn batch_line(tb: &Tablebase, line: &str, pos: Result<Position, tabla::FenError>) -> String {
    let answer = pos
        .map_err(|e| e.to_string())
        .and_then(|pos| tb.probe(&pos).map_err(|e| e.to_string()));
    match answer {
        Ok(dtm) => format!("{line};{};{}", dtm.signed(), dtm.signed_plies()),
        Err(e) => format!("{line};error: {e}"),
    }
}
