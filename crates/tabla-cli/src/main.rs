//! The `tabla` command-line tool: argument parsing and output formatting over the `tabla` crates.
//!
//! Exit status: 0 when all went well, 1 when a perft count disagreed with the expected one, 2 for
//! bad input or usage (clap uses 2 for usage errors too).
//!
//! ## Inside the crate
//!
//! Where things are, for contributors.
//!
//! `main.rs` (clap definitions, dispatch, exit status: 0 ok, 1 a check failed, 2 bad input),
//! `position_arg.rs` (`startpos` or a FEN from the command line), `input.rs` (opening the files
//! read, errors naming them), `batch.rs` (the lines of `--batch FILE|-`), `fen_report.rs` (`tabla
//! fen`), `perft_run.rs` (`tabla perft`, one position or a suite, read by `tabla::perft_suite`),
//! `pgn.rs` (`tabla pgn`), `convert.rs` (`tabla convert`), `db.rs`
//! (`tabla db`, with the feature `db`), `review.rs` (`tabla review`), `tb.rs` (`tabla tb`) and
//! `kbnk.rs` (`tabla kbnk`), with `dtm_text.rs` (a distance to mate in words, the optimal line),
//! `engine_run.rs` (`tabla go`, `uci`, `bench`), `engine_choice.rs` (`--engine` and
//! `--engine-option` for every command, resolved by tabla-analysis; `tabla engine`); `tabla serve` calls `tabla_web::serve_blocking`.
//! Its tests run the real binary.

mod batch;
mod convert;
#[cfg(feature = "db")]
mod db;
mod dtm_text;
mod engine_choice;
mod engine_run;
mod fen_report;
mod input;
mod kbnk;
mod perft_run;
mod pgn;
mod position_arg;
mod review;
mod tb;

use clap::{Args, Parser, Subcommand};
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// tabla, a chess toolkit: inspect positions, count move trees (perft), solve endings,
/// browse games in the web app.
#[derive(Parser, Debug)]
#[command(name = "tabla", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Validate a position and show it: canonical FEN, diagram, status and legal moves.
    Fen(FenArgs),
    /// Count the leaves of the legal move tree (perft), for one position or a whole suite.
    Perft(PerftArgs),
    /// Read PGN files: check them, list FENs, convert to JSON, reformat.
    #[command(subcommand)]
    Pgn(pgn::PgnCommand),
    /// Convert PGN and `.pgn.zst` files to Parquet tables (games, positions) on every core.
    Convert(convert::ConvertArgs),
    /// A game collection as a database: import, opening explorer, SQL.
    #[cfg(feature = "db")]
    #[command(subcommand)]
    Db(Box<db::DbCommand>),
    /// A game collection as a database (not in this build: it needs the cargo feature `db`).
    #[cfg(not(feature = "db"))]
    #[command(disable_help_flag = true)]
    Db {
        /// Whatever was asked of the database.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// King, bishop and knight against a king: `tabla tb` for KBNvK, and the 16 MiB export.
    #[command(subcommand)]
    Kbnk(kbnk::KbnkCommand),
    /// Endgame tables of up to five men, distance to mate: build, probe, best line.
    #[command(subcommand)]
    Tb(tb::TbCommand),
    /// Review games with an engine as lichess does: every move evaluated, inaccuracies,
    /// mistakes and blunders marked, each side's accuracy; annotated PGN or JSON.
    Review(Box<review::ReviewArgs>),
    /// Run the web app (PGN browser, endgame explorer, analysis, games) and its JSON API.
    Serve(ServeArgs),
    /// Run the engine's UCI loop on standard input and output (for chess GUIs and match runners).
    Uci,
    /// Search a position: progress lines, then `bestmove <SAN> <UCI>`.
    Go(engine_run::GoArgs),
    /// The default engine of every command, the server and Python: show it, set it.
    #[command(subcommand)]
    Engine(engine_choice::EngineCommand),
    /// Search fixed positions to a fixed depth; print total nodes and nodes per second.
    Bench(engine_run::BenchArgs),
}

#[derive(Args, Debug)]
struct ServeArgs {
    /// The address to listen on.
    #[arg(long, default_value = tabla_web::DEFAULT_HOST)]
    host: String,
    /// The port to listen on (0: any free port, printed at start).
    #[arg(long, default_value_t = tabla_web::DEFAULT_PORT)]
    port: u16,
    /// The largest PGN a client may send, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = tabla_web::DEFAULT_BODY_LIMIT)]
    body_limit: usize,
    /// The endgame tables of up to five men (built by `tabla tb build`) that the endgame
    /// explorer and `/api/tb` answer from; read at start, and again when a missing table has been
    /// built since. A missing or empty directory is fine: the explorer then says how to build
    /// each table (KBNvK, KQvK and KRvK, with KBvK and KNvK, are solved in memory at start and
    /// answered without a file). Default: `tabla tb`'s directory ($TABLA_ENDGAME_DIR/tb, else
    /// $XDG_DATA_HOME/tabla/tb, else ~/.local/share/tabla/tb, else `tb`).
    #[arg(long, value_name = "DIR")]
    tb_dir: Option<PathBuf>,
    /// A game database (made by `tabla db import`) for the opening explorer, position search
    /// and the games page.
    #[arg(long, value_name = "DIR")]
    db: Option<PathBuf>,
    /// The engine of live analysis, suggestions and game reviews (the page shows which; clients
    /// never name one).
    #[command(flatten)]
    engine: engine_choice::EngineChoiceArgs,
}

#[derive(Args, Debug)]
struct FenArgs {
    /// The position: a FEN (quoted, or as separate words) or `startpos`.
    #[arg(value_name = "FEN", required = true, num_args = 1..)]
    fen: Vec<String>,
    /// Accept setups that cannot arise in a game but can still be played (impossible checks,
    /// more material than promotions allow).
    #[arg(long)]
    lenient: bool,
}

#[derive(Args, Debug)]
struct PerftArgs {
    /// The position: `startpos` or a FEN (quoted).
    #[arg(
        value_name = "FEN|startpos",
        required_unless_present = "epd",
        conflicts_with = "epd"
    )]
    position: Option<String>,
    /// How many plies deep to count (at most 64).
    #[arg(
        value_name = "DEPTH",
        required_unless_present = "epd",
        conflicts_with = "epd",
        value_parser = clap::value_parser!(u32).range(..=i64::from(tabla::MAX_PERFT_DEPTH))
    )]
    depth: Option<u32>,
    /// Print the count below each legal move (`<uci>: <n>`) before the total.
    #[arg(long, conflicts_with = "epd")]
    divide: bool,
    /// Count the moves at the last ply instead of playing them (faster).
    #[arg(long)]
    bulk: bool,
    /// Run a perft suite file (`FEN ;D1 n ;D2 n ...` lines, or `id`/`epd`/`perft d n` blocks).
    #[arg(long, value_name = "FILE")]
    epd: Option<PathBuf>,
    /// With --epd: check the counts only up to this depth.
    #[arg(
        long = "depth",
        id = "max_depth",
        value_name = "D",
        requires = "epd",
        // clap excuses a missing `requires` when the required arg conflicts with a present one.
        conflicts_with_all = ["position", "depth"],
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    max_depth: Option<u32>,
}

/// How a command that ran to the end turned out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Everything as expected.
    Success,
    /// A check failed (a perft count disagreed, or a suite line was malformed).
    Failure,
}

fn run(cli: Cli, out: &mut (impl Write + Send)) -> anyhow::Result<Outcome> {
    match cli.command {
        Command::Fen(args) => {
            let validation = if args.lenient {
                tabla::Validation::Lenient
            } else {
                tabla::Validation::Strict
            };
            let text = args.fen.join(" ");
            let pos = position_arg::parse(&text, validation)?;
            fen_report::write(out, &pos)?;
            Ok(Outcome::Success)
        }
        Command::Perft(args) => match (args.epd, args.position, args.depth) {
            (Some(path), _, _) => perft_run::suite(out, &path, args.max_depth, args.bulk),
            (None, Some(position), Some(depth)) => {
                perft_run::single(out, &position, depth, args.divide, args.bulk)?;
                Ok(Outcome::Success)
            }
            // clap's `required_unless_present` rules this out.
            _ => anyhow::bail!("perft needs a position and a depth, or --epd FILE"),
        },
        Command::Pgn(command) => pgn::run(command, out),
        Command::Convert(args) => {
            convert::run(args, out)?;
            Ok(Outcome::Success)
        }
        #[cfg(feature = "db")]
        Command::Db(command) => db::run(*command, out),
        #[cfg(not(feature = "db"))]
        Command::Db { .. } => anyhow::bail!("tabla db: {}", tabla_web::WITHOUT_DB),
        Command::Review(args) => review::run(*args, out),
        Command::Kbnk(command) => {
            kbnk::run(command, out)?;
            Ok(Outcome::Success)
        }
        Command::Tb(command) => {
            tb::run(command, out)?;
            Ok(Outcome::Success)
        }
        Command::Uci => {
            engine_run::uci()?;
            Ok(Outcome::Success)
        }
        Command::Go(args) => {
            engine_run::go(args, out)?;
            Ok(Outcome::Success)
        }
        Command::Engine(command) => {
            engine_choice::run(command, out)?;
            Ok(Outcome::Success)
        }
        Command::Bench(args) => {
            engine_run::bench(args, out)?;
            Ok(Outcome::Success)
        }
        Command::Serve(args) => {
            tabla_web::serve_blocking(tabla_web::ServeConfig {
                host: args.host,
                port: args.port,
                body_limit: args.body_limit,
                tb_dir: args.tb_dir,
                db: args.db,
                engine: args.engine.choose()?.spec,
                ..tabla_web::ServeConfig::default()
            })?;
            Ok(Outcome::Success)
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Not a held `StdoutLock`: `tabla go` reports from the search's own thread, which must be
    // able to write too.
    let mut out = io::BufWriter::new(io::stdout());
    let result = run(cli, &mut out).and_then(|outcome| {
        out.flush()?;
        Ok(outcome)
    });
    match result {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::Failure) => ExitCode::from(1),
        // A reader that stops early (`tabla perft ... | head`) is not an error worth a message.
        Err(err)
            if err
                .downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("error: {}", message(&err));
            ExitCode::from(2)
        }
    }
}

/// An error with the causes its message does not already include (tabla's typed errors say
/// their cause in their message; a context added on the way does not).
fn message(err: &anyhow::Error) -> String {
    let mut text = err.to_string();
    for cause in err.chain().skip(1) {
        let cause = cause.to_string();
        if !text.contains(&cause) {
            text.push_str(": ");
            text.push_str(&cause);
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[cfg(feature = "db")]
    #[test]
    fn error_messages_say_each_cause_once() {
        let path = std::path::PathBuf::from("/no/such/dir");
        let io = std::fs::read_dir(&path).expect_err("no such directory");
        let os = io.to_string();
        let err = anyhow::Error::from(tabla_db::DbError::Io {
            path: path.clone(),
            source: io,
        });
        assert_eq!(message(&err), format!("/no/such/dir: {os}"));
        let err = anyhow::Error::from(std::io::Error::other("disk on fire")).context("writing x");
        assert_eq!(message(&err), "writing x: disk on fire");
    }

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn perft_needs_position_and_depth_or_a_suite() {
        assert!(Cli::try_parse_from(["tabla", "perft", "startpos"]).is_err());
        assert!(Cli::try_parse_from(["tabla", "perft", "startpos", "3"]).is_ok());
        // Deeper would overflow the stack (an abort) long before it could finish.
        assert!(Cli::try_parse_from(["tabla", "perft", "startpos", "64"]).is_ok());
        assert!(Cli::try_parse_from(["tabla", "perft", "startpos", "65"]).is_err());
        assert!(Cli::try_parse_from(["tabla", "perft", "startpos", "5000"]).is_err());
        assert!(Cli::try_parse_from(["tabla", "perft", "--epd", "x.epd"]).is_ok());
        assert!(Cli::try_parse_from(["tabla", "perft", "--epd", "x.epd", "--depth", "2"]).is_ok());
        assert!(Cli::try_parse_from(["tabla", "perft", "startpos", "3", "--depth", "2"]).is_err());
        assert!(Cli::try_parse_from(["tabla", "perft", "startpos", "3", "--epd", "x"]).is_err());
        assert!(Cli::try_parse_from(["tabla", "perft", "--epd", "x", "--divide"]).is_err());
    }

    #[cfg(feature = "db")]
    #[test]
    fn db_memory_is_refused_past_what_a_byte_count_holds() {
        let info = |mib: &str| {
            Cli::try_parse_from(["tabla", "db", "info", "--db", "g.db", "--memory", mib])
        };
        assert!(info("1024").is_ok());
        assert!(info("1073741824").is_ok());
        // 2^44 MiB and more wrapped to a small byte count when shifted (`<< 20`).
        assert!(info("17592186044416").is_err());
        assert!(info("0").is_err());
    }
}
