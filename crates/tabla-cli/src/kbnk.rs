//! `tabla kbnk`: the ending KBNvK of `tabla tb`, under the name of the first table tabla had.
//!
//! Each subcommand is the `tabla tb` one for KBNvK (same arguments, same output), with KBNvK
//! solved in memory (about a quarter of a second) when its table is not in the directory, as
//! `/api/kbnk` answers it; `export-two-byte` writes the 16 MiB two-byte-slot format.

use crate::tb;
use anyhow::Context;
use clap::Subcommand;
use std::io::Write;
use std::path::{Path, PathBuf};
use tabla_endgame::{Men, Solved, Tablebase, two_byte};

/// The `tabla kbnk` subcommands.
#[derive(Subcommand, Debug)]
pub enum KbnkCommand {
    /// Build the KBNvK table file (and KBvK and KNvK) and print its counts: `tabla tb build
    /// KBNvK`, then `tabla tb stats KBNvK`.
    Build {
        /// The tables' directory (default: $TABLA_ENDGAME_DIR/tb, else $XDG_DATA_HOME/tabla/tb,
        /// else ~/.local/share/tabla/tb, else `tb`).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Distance to mate of a KBNvK position, the best move and the value after every legal move:
    /// `tabla tb probe`, KBNvK solved in memory when the directory has no table for it.
    Probe {
        /// The tables' directory (see `build --help`).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Print the answer as JSON (the object `/api/tb` answers).
        #[arg(long)]
        json: bool,
        /// Read one FEN per line from FILE (`-` for stdin); print `<FEN as given>;<dtm>;<plies>`
        /// per line, or `<FEN>;error: <reason>` (as `tabla tb probe --batch`).
        #[arg(long, value_name = "FILE|-", conflicts_with_all = ["fen", "json"])]
        batch: Option<String>,
        /// The position (quoted FEN, or separate words).
        #[arg(value_name = "FEN", required_unless_present = "batch", num_args = 1..)]
        fen: Vec<String>,
    },
    /// The whole optimal line to mate, in SAN (`tabla tb line`).
    Line {
        /// The tables' directory (see `build --help`).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// The position (quoted FEN, or separate words).
        #[arg(value_name = "FEN", required = true, num_args = 1..)]
        fen: Vec<String>,
    },
    /// Write KBNvK in the 16 MiB two-byte-slot format (White to move, light-squared bishop).
    ///
    /// Moves to mate and best move in 2 bytes for each of 64*32*64*64 placements, the layout of an
    /// earlier KBNK solution base, for tools that read it. The table is solved in memory.
    ExportTwoByte {
        /// Where to write it.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
}

fn kbnvk() -> anyhow::Result<Men> {
    Ok("KBNvK".parse()?)
}

/// The tables of `dir`, KBNvK solved in memory when its table is not there.
fn open(dir: Option<&Path>) -> anyhow::Result<Tablebase> {
    tb::with_solved_ending(tb::open(dir)?, kbnvk()?)
}

/// Runs a `tabla kbnk` subcommand.
pub fn run(command: KbnkCommand, out: &mut impl Write) -> anyhow::Result<()> {
    match command {
        KbnkCommand::Build { dir } => {
            tb::build_tables(dir.clone(), &[kbnvk()?], None, out)?;
            tb::stats(&tb::open(dir.as_deref())?, kbnvk()?, out)
        }
        KbnkCommand::Probe {
            dir,
            json,
            batch,
            fen,
        } => tb::probe(open(dir.as_deref())?, json, batch, &fen, out),
        KbnkCommand::Line { dir, fen } => tb::line(open(dir.as_deref())?, &fen, out),
        KbnkCommand::ExportTwoByte { out: path } => {
            let men = kbnvk()?;
            let mut solved = Solved::new();
            solved.solve(men)?;
            let solution = solved.get(men).context("KBNvK is solved")?;
            let bytes = two_byte::export(solution)?;
            std::fs::write(&path, &bytes)
                .with_context(|| format!("cannot write {}", path.display()))?;
            writeln!(
                out,
                "wrote {} ({})",
                path.display(),
                tabla::plural(bytes.len(), "byte")
            )?;
            Ok(())
        }
    }
}
