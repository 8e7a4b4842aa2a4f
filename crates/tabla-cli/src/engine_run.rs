//! `tabla uci`, `tabla go` and `tabla bench`: the engine from the command line.

use crate::engine_choice::EngineChoiceArgs;
use clap::{ArgGroup, Args};
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;
use tabla::Validation;
use tabla_analysis::{Budget, EngineSpec, Request};
use tabla_engine::{EndgameOracle, EndgameTables, bench, uci};

/// Arguments of `tabla go`.
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("limit").args(["movetime", "depth", "nodes"])))]
pub struct GoArgs {
    /// The position: a FEN (quoted, or as separate words) or `startpos`.
    #[arg(value_name = "FEN", required = true, num_args = 1..)]
    fen: Vec<String>,
    /// Search this many milliseconds (the default is 1000 when no limit is given).
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Search this many plies deep.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=127))]
    depth: Option<u32>,
    /// Search about this many nodes.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Search threads: more reach deeper in the same time, one gives repeatable results (a UCI
    /// engine gets them as its `Threads` option).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=tabla_engine::MAX_THREADS as u64))]
    threads: u64,
    /// The directory of tabla's endgame tables (`tabla tb build`'s; by default the same default
    /// directory): with tabla's engine, positions of up to five men whose table is there are
    /// played exactly, honouring the fifty-move rule.
    #[arg(long, value_name = "DIR")]
    tb_dir: Option<std::path::PathBuf>,
    /// The engine.
    #[command(flatten)]
    engine: EngineChoiceArgs,
}

/// Arguments of `tabla bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Search every benchmark position this many plies deep.
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
}

/// `tabla uci`: the UCI loop on standard input and output.
pub fn uci() -> anyhow::Result<()> {
    uci::run_stdio()?;
    Ok(())
}

/// `tabla go`: search a position with the chosen engine (tabla's own unless one is configured)
/// and print the progress, the score and the principal variation in SAN, then `bestmove <SAN>
/// <UCI>`.
pub fn go(args: GoArgs, out: &mut (impl Write + Send)) -> anyhow::Result<()> {
    let pos = crate::position_arg::parse(&args.fen.join(" "), Validation::Strict)?;
    let budget = match (args.movetime, args.depth, args.nodes) {
        (_, Some(depth), _) => Budget::Depth(depth),
        (_, _, Some(nodes)) => Budget::Nodes(nodes),
        (Some(movetime), _, _) => Budget::MoveTime(Duration::from_millis(movetime)),
        (None, _, _) => Budget::MoveTime(tabla_analysis::DEFAULT_MOVETIME),
    };
    let spec = args.engine.choose()?.spec;
    let tables: Option<Arc<dyn EndgameOracle>> = match (&spec, &args.tb_dir) {
        (EngineSpec::Tabla, dir) => Some(Arc::new(EndgameTables::standard_with_tablebase(
            dir.as_deref(),
        ))),
        (EngineSpec::Uci(_), Some(_)) => {
            anyhow::bail!("--tb-dir: tabla's endgame tables are for tabla's engine, not a UCI one")
        }
        (EngineSpec::Uci(_), None) => None,
    };
    let threads = usize::try_from(args.threads).unwrap_or(tabla_engine::MAX_THREADS);
    let mut engine = spec.start_with(threads, tables)?;
    tabla_analysis::go(engine.as_mut(), &Request::new(pos, budget), out)?;
    Ok(())
}

/// `tabla bench`: fixed positions to a fixed depth; total nodes (a regression signature) and
/// nodes per second.
pub fn bench(args: BenchArgs, out: &mut impl Write) -> anyhow::Result<()> {
    bench::run(args.depth, out)?;
    Ok(())
}
