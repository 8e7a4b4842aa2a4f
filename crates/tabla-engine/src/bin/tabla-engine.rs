//! A minimal stand-alone binary for the engine: the UCI loop on standard input and output (no
//! arguments) or `bench [DEPTH]` (`tabla go` is the one-shot search for people). It exists so that the engine can be driven as a
//! real process (tests, match scripts) before and besides the `tabla` command line.

use std::io::{self, Write};
use std::process::ExitCode;
use tabla_engine::{bench, uci};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.first().map(String::as_str) {
        None | Some("uci") => uci::run_stdio(),
        Some("bench") => {
            let depth = match args.get(1).map(|d| d.parse::<u32>()) {
                None => Ok(bench::DEFAULT_DEPTH),
                Some(Ok(d)) if d >= 1 => Ok(d),
                Some(_) => Err(()),
            };
            match depth {
                Ok(d) => bench::run(d, &mut io::stdout().lock()).map(|_| ()),
                Err(()) => return usage("bench takes a depth of at least 1"),
            }
        }
        Some(other) => return usage(&format!("unknown command {other:?}")),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "tabla-engine: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage(problem: &str) -> ExitCode {
    let _ = writeln!(
        io::stderr(),
        "tabla-engine: {problem}\nusage: tabla-engine [uci] | bench [DEPTH]"
    );
    ExitCode::from(2)
}
