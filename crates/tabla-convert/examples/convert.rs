//! Converts PGN files to Parquet and prints the throughput: games/s, MB/s of input (as
//! stored: compressed bytes for `.pgn.zst`), elapsed time, and the peak memory of the process.
//!
//! ```text
//! cargo run --release -p tabla-convert --example convert -- [--threads N] [--positions]
//!     [--max-ply N] --out DIR INPUT...
//! ```

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Instant;
use tabla_convert::{Input, NoProgress, Options, PositionsTable, convert, input_len};

fn main() {
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut positions = PositionsTable::None;
    let mut max_ply = None;
    let mut out = None;
    let mut inputs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--threads" => threads = args.next().and_then(|n| n.parse().ok()).unwrap_or(threads),
            "--positions" => positions = PositionsTable::Full,
            "--max-ply" => max_ply = args.next().and_then(|n| n.parse().ok()),
            "--out" => out = args.next().map(PathBuf::from),
            "-" => inputs.push(Input::Stdin),
            path => inputs.push(Input::Path(path.into())),
        }
    }
    let Some(out_dir) = out else {
        eprintln!("usage: convert [--threads N] [--positions] [--max-ply N] --out DIR INPUT...");
        std::process::exit(2);
    };
    let options = Options {
        inputs,
        out_dir,
        positions,
        max_ply,
        threads: NonZeroUsize::new(threads).unwrap_or(NonZeroUsize::MIN),
        game_ids: tabla_convert::GameIds::FromPlace,
    };
    let bytes: u64 = options.inputs.iter().filter_map(input_len).sum();
    let start = Instant::now();
    match convert(&options, &NoProgress) {
        Ok(summary) => {
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{} games ({} with an error), {} positions, {} files",
                summary.games,
                summary.games_with_error,
                summary.positions,
                summary.files.len()
            );
            println!(
                "threads {threads}: {:.3} s, {:.0} games/s, {:.1} MB/s of input ({:.1} MB), peak memory {}",
                secs,
                summary.games as f64 / secs,
                bytes.max(summary.input_bytes) as f64 / 1e6 / secs,
                bytes.max(summary.input_bytes) as f64 / 1e6,
                peak_memory().unwrap_or_else(|| "unknown".to_owned())
            );
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}

/// The process's peak resident memory, as Linux reports it (`VmHWM`).
fn peak_memory() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.trim_start_matches("VmHWM:").trim().to_owned())
}
