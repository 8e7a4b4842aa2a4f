//! `tabla pgn`: check, list the FENs of, convert to JSON and reformat PGN files.

use crate::Outcome;
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, IsTerminal, Read, Write};
use std::path::PathBuf;

/// The `tabla pgn` subcommands.
#[derive(Subcommand, Debug)]
pub enum PgnCommand {
    /// Replay every game and its variations with legality; print each error (a game stopped
    /// early) and each warning (something repaired or a side line cut short) with its location,
    /// then `games <G>, moves <M>, errors <E>, warnings <W>` (exit status 1 when E > 0).
    Check {
        /// The input.
        #[command(flatten)]
        input: PgnFile,
        /// Fail (exit status 1) on warnings too.
        #[arg(long)]
        strict: bool,
    },
    /// The FEN of every mainline position of every game, one per line, games separated by an
    /// empty line (up to where a game stopped on an error).
    Fen(PgnFile),
    /// One JSON object per game (NDJSON): tags, result, start FEN, moves with SAN, long form, UCI,
    /// FEN, comments, NAGs, clock/eval and variations; `error` (null, or why the game stopped
    /// early) and `warnings` (the texts `check` prints).
    Json(PgnFile),
    /// The games again, in the PGN export format, as repaired when read (warnings go to stderr).
    Fmt {
        /// The input.
        #[command(flatten)]
        input: PgnFile,
        /// Write each game's errors and warnings into it as a comment before its moves.
        #[arg(long)]
        note_repairs: bool,
        /// What to change in every game.
        #[command(flatten)]
        edits: FmtEdits,
    },
}

/// The edits `tabla pgn fmt` makes to every game (as pgn-extract's -C, -N, -V and tag options).
#[derive(Args, Debug, Default)]
pub struct FmtEdits {
    /// Leave the comments out (with the clocks, evaluations and arrows they hold).
    #[arg(long)]
    no_comments: bool,
    /// Leave the NAGs out (`$1`, `!`, `?!`...).
    #[arg(long)]
    no_nags: bool,
    /// Leave the variations out: the mainline alone.
    #[arg(long)]
    no_variations: bool,
    /// Set a tag in every game, `Name=Value` (the first of that name changes in place, a new
    /// one goes last); repeat for more.
    #[arg(long, value_name = "NAME=VALUE")]
    set_tag: Vec<String>,
    /// Remove every tag of this name from every game; repeat for more.
    #[arg(long, value_name = "NAME")]
    remove_tag: Vec<String>,
}

impl FmtEdits {
    /// The tags to set, read before the first game so that a mistake stops nothing half-done.
    fn tags(&self) -> anyhow::Result<Vec<(String, String)>> {
        self.set_tag
            .iter()
            .map(|text| {
                let (name, value) = text.split_once('=').ok_or_else(|| {
                    anyhow::anyhow!("--set-tag {text:?}: expected Name=Value, such as Annotator=Me")
                })?;
                tabla_pgn::check_tag(name, value)
                    .map_err(|e| anyhow::anyhow!("--set-tag {text:?}: {e}"))?;
                Ok((name.to_owned(), value.to_owned()))
            })
            .collect()
    }
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
        PgnCommand::Check { input, strict } => {
            let (reader, bar) = open(&input)?;
            let totals = tabla_pgn::check(reader, false, |game| {
                for problem in &game.problems {
                    bar.suspend(|| writeln!(out, "{}", problem.report()))?;
                }
                Ok(())
            })?;
            bar.finish_and_clear();
            writeln!(out, "{totals}")?;
            Ok(if totals.errors > 0 || (strict && totals.warnings > 0) {
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
            if totals.errors > 0 || totals.warnings > 0 {
                eprintln!(
                    "{} stopped early, {} (see `tabla pgn check`)",
                    tabla::plural(totals.errors, "game"),
                    tabla::plural(totals.warnings, "warning")
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
        PgnCommand::Fmt {
            input,
            note_repairs,
            edits,
        } => {
            let tags = edits.tags()?;
            let (reader, bar) = open(&input)?;
            let options = tabla_pgn::WriteOptions {
                comments: !edits.no_comments,
                nags: !edits.no_nags,
                variations: !edits.no_variations,
                ..tabla_pgn::WriteOptions::default()
            };
            for game in tabla_pgn::Reader::new(reader).games() {
                let mut game = game?;
                for problem in &game.problems {
                    bar.suspend(|| eprintln!("{}", problem.report()));
                }
                if note_repairs {
                    game.note_problems();
                }
                for name in &edits.remove_tag {
                    game.remove_tag(name);
                }
                for (name, value) in &tags {
                    // Checked by `tags` above.
                    game.set_tag(name, value)?;
                }
                out.write_all(tabla_pgn::write_game_with(&game, &options).as_bytes())?;
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
    let file = crate::input::open(&input.file, "a PGN file")?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let file = crate::input::Named::new(file, &input.file);
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
