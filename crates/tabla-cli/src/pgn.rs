//! `tabla pgn`: check, list the FENs of, convert to JSON and reformat PGN files.

use crate::Outcome;
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::PathBuf;

/// The `tabla pgn` subcommands.
#[derive(Subcommand, Debug)]
pub enum PgnCommand {
    /// Replay every game with legality; print each error with its location, then
    /// `games <G>, moves <M>, errors <E>` (exit status 1 when there are errors).
    Check(PgnFile),
    /// The FEN of every mainline position of every game, one per line, games separated by an
    /// empty line (up to where a game stopped on an error).
    Fen(PgnFile),
    /// One JSON object per game (NDJSON): tags, result, start FEN, moves with SAN, long form, UCI,
    /// FEN, comments, NAGs, clock/eval and variations; `error` when a game stopped early.
    Json(PgnFile),
    /// The games again, in the PGN export format.
    Fmt(PgnFile),
}

/// The input of a `tabla pgn` command.
#[derive(Args, Debug)]
pub struct PgnFile {
    /// The PGN file, or `-` for standard input.
    #[arg(value_name = "FILE|-")]
    file: PathBuf,
}

/// Runs a `tabla pgn` subcommand.
pub fn run(command: PgnCommand, out: &mut impl Write) -> anyhow::Result<Outcome> {
    match command {
        PgnCommand::Check(input) => {
            let (reader, bar) = open(&input)?;
            let totals = tabla_pgn::check(reader, false, |game| {
                for error in &game.errors {
                    bar.suspend(|| writeln!(out, "{error}"))?;
                }
                Ok(())
            })?;
            bar.finish_and_clear();
            writeln!(out, "{totals}")?;
            Ok(if totals.errors > 0 {
                Outcome::Failure
            } else {
                Outcome::Success
            })
        }
        PgnCommand::Fen(input) => {
            let (reader, bar) = open(&input)?;
            let mut first = true;
            let totals = tabla_pgn::check(reader, true, |game| {
                if !first {
                    writeln!(out)?;
                }
                first = false;
                for fen in &game.fens {
                    writeln!(out, "{fen}")?;
                }
                Ok(())
            })?;
            bar.finish_and_clear();
            if totals.errors > 0 {
                eprintln!(
                    "{} error(s): games stopped early (see `tabla pgn check`)",
                    totals.errors
                );
            }
            Ok(Outcome::Success)
        }
        PgnCommand::Json(input) => {
            let (reader, bar) = open(&input)?;
            for game in tabla_pgn::Reader::new(reader).games() {
                writeln!(out, "{}", tabla_pgn::game_json(&game?))?;
            }
            bar.finish_and_clear();
            Ok(Outcome::Success)
        }
        PgnCommand::Fmt(input) => {
            let (reader, bar) = open(&input)?;
            for game in tabla_pgn::Reader::new(reader).games() {
                out.write_all(tabla_pgn::write_game(&game?).as_bytes())?;
            }
            bar.finish_and_clear();
            Ok(Outcome::Success)
        }
    }
}

/// Opens the input, with a progress bar on stderr for a file read interactively.
fn open(input: &PgnFile) -> anyhow::Result<(Box<dyn Read>, ProgressBar)> {
    if input.file.as_os_str() == "-" {
        return Ok((Box::new(io::stdin().lock()), ProgressBar::hidden()));
    }
    let file = File::open(&input.file)
        .map_err(|e| anyhow::anyhow!("cannot open {}: {e}", input.file.display()))?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if !io::stderr().is_terminal() {
        return Ok((Box::new(file), ProgressBar::hidden()));
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{bar:30} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}")
    {
        bar.set_style(style);
    }
    Ok((Box::new(bar.wrap_read(file)), bar))
}
