//! `tabla kbnk`: build, probe and export the KBNK solution base, and the text it prints.

use crate::dtm_text::{describe, parse, write_line, write_moves};
use anyhow::Context;
use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tabla_endgame::{
    Material, Opened, Progress, Stats, Table, build_and_write, default_path, open_or_build,
};

/// The `tabla kbnk` subcommands.
#[derive(Subcommand, Debug)]
pub enum KbnkCommand {
    /// Generate the KBNK table by retrograde analysis, write it and print its counts.
    Build {
        /// Where to write the table (default: the standard location, see `probe --help`).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Distance to mate and best move of a KBNK position, and the value after every legal move.
    ///
    /// Without --file the table is read from $TABLA_ENDGAME_DIR, $XDG_DATA_HOME/tabla or
    /// ~/.local/share/tabla (kbnk.tbl), and built there first if it is missing.
    Probe {
        /// The table file.
        #[arg(long, value_name = "FILE")]
        file: Option<PathBuf>,
        /// Read one FEN per line from FILE (`-` for stdin); print `<FEN as given>;<dtm>` per line.
        #[arg(long, value_name = "FILE|-", conflicts_with = "fen")]
        batch: Option<String>,
        /// The position (quoted FEN, or separate words).
        #[arg(value_name = "FEN", required_unless_present = "batch", num_args = 1..)]
        fen: Vec<String>,
    },
    /// The whole optimal line to mate, in SAN.
    Line {
        /// The table file.
        #[arg(long, value_name = "FILE")]
        file: Option<PathBuf>,
        /// The position (quoted FEN, or separate words).
        #[arg(value_name = "FEN", required = true, num_args = 1..)]
        fen: Vec<String>,
    },
    /// Write the table in the 16 MiB two-byte-slot format (White to move, light-squared bishop).
    ///
    /// Moves to mate and best move in 2 bytes for each of 64*32*64*64 placements, the layout of an
    /// earlier KBNK solution base, for tools that read it.
    // The former name stays a hidden alias, so that existing scripts keep working.
    #[command(alias = "export-seed")]
    ExportTwoByte {
        /// Where to write it.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// The table file.
        #[arg(long, value_name = "FILE")]
        file: Option<PathBuf>,
    },
}

/// Runs a `tabla kbnk` subcommand.
pub fn run(command: KbnkCommand, out: &mut impl Write) -> anyhow::Result<()> {
    match command {
        KbnkCommand::Build { out: path } => {
            let path = path.unwrap_or_else(|| default_path(Material::KBNK));
            let bar = spinner();
            let start = Instant::now();
            let table = build_and_write(&path, Material::KBNK, &mut |p| report(&bar, p))?;
            bar.finish_and_clear();
            let elapsed = start.elapsed();
            write!(out, "{}", stats_table(&Stats::of(&table)))?;
            let size = std::fs::metadata(&path)
                .with_context(|| format!("reading the size of {}", path.display()))?
                .len();
            writeln!(
                out,
                "wrote {} ({size} bytes); generated and written in {:.2?}",
                path.display(),
                elapsed
            )?;
        }
        KbnkCommand::Probe {
            file,
            batch: Some(source),
            ..
        } => {
            let table = open(file.as_deref())?;
            for line in crate::batch::lines(crate::batch::input(&source)?) {
                match line.context("reading the batch input")? {
                    Ok(line) => writeln!(out, "{}", batch_line(&table, &line))?,
                    Err(text) => writeln!(out, "{}", crate::batch::not_utf8(&text))?,
                }
            }
        }
        KbnkCommand::Probe { file, fen, .. } => {
            let table = open(file.as_deref())?;
            let pos = parse(&fen)?;
            let probe = table.probe(&pos)?;
            let state = if probe.stalemate { ", stalemate" } else { "" };
            writeln!(out, "fen   {}", pos.to_fen())?;
            writeln!(out, "dtm   {}{}{state}", probe.dtm, describe(probe.dtm))?;
            match probe.best {
                Some(mv) => writeln!(out, "best  {} ({})", pos.san(mv), pos.uci(mv))?,
                None => writeln!(out, "best  none")?,
            }
            write_moves(out, &pos, &probe.moves)?;
        }
        KbnkCommand::Line { file, fen } => {
            let table = open(file.as_deref())?;
            let pos = parse(&fen)?;
            let moves = table.line(&pos)?;
            write_line(out, &pos, &moves)?;
        }
        KbnkCommand::ExportTwoByte { out: path, file } => {
            let bytes = open(file.as_deref())?.export_two_byte()?;
            std::fs::write(&path, &bytes)
                .with_context(|| format!("cannot write {}", path.display()))?;
            writeln!(out, "wrote {} ({} bytes)", path.display(), bytes.len())?;
        }
    }
    Ok(())
}

/// The counts of a table, one row per side to move, as `tabla kbnk build` prints them.
fn stats_table(stats: &Stats) -> String {
    let mut text = format!(
        "{:<14}{:>12}{:>12}{:>12}{:>12}{:>12}{:>12}  longest mate\n",
        "to move", "legal", "checkmates", "stalemates", "wins", "losses", "draws"
    );
    for (name, s, verb) in [
        ("White", &stats.white, "mates"),
        ("Black", &stats.black, "mated"),
    ] {
        let longest = match s.longest() {
            Some((n, count)) => format!("{verb} in {n} ({count} positions)"),
            None => "none".to_owned(),
        };
        text += &format!(
            "{name:<14}{:>12}{:>12}{:>12}{:>12}{:>12}{:>12}  {longest}\n",
            s.legal, s.checkmates, s.stalemates, s.wins, s.losses, s.draws
        );
    }
    text
}

/// The table at `file` or at the default location, built there first when missing (saying so).
fn open(file: Option<&Path>) -> anyhow::Result<Table> {
    let path = file.map_or_else(|| default_path(Material::KBNK), Path::to_path_buf);
    let bar = spinner();
    let (table, how) = open_or_build(&path, Material::KBNK, &mut |p| report(&bar, p))?;
    bar.finish_and_clear();
    if how == Opened::Built {
        eprintln!(
            "no KBNK table at {}: generated it and wrote it there",
            path.display()
        );
    }
    Ok(table)
}

/// A spinner on stderr (hidden when stderr is not a terminal).
fn spinner() -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} {msg}") {
        bar.set_style(style);
    }
    bar
}

fn report(bar: &ProgressBar, p: &Progress) {
    bar.set_message(format!(
        "generating KBNK: ply {}, {} positions resolved",
        p.ply, p.resolved
    ));
    bar.tick();
}

/// One output line of `tabla kbnk probe --batch`: the input line exactly as given, a `;`, and the
/// DTM in the signed convention, or `error: <reason>` when the line is not a legal position of the
/// table's material (a line of the input always gives a line of output).
/// (`tests/kbnk_command.rs` checks it through the binary.)
fn batch_line(table: &Table, line: &str) -> String {
    match table.dtm_fen(line.trim_end_matches(['\r', '\n'])) {
        Ok(dtm) => format!("{line};{}", dtm.signed()),
        Err(e) => format!("{line};error: {e}"),
    }
}
