//! A minimal stand-alone binary for the engine: the UCI loop on standard input and output (no
//! arguments), `bench [DEPTH]`, or `go DEPTH FEN`. It exists so that the engine can be driven as a
//! real process (tests, match scripts) before and besides the `tabla` command line.

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::Arc;
use tabla::Position;
use tabla_engine::{EndgameTables, Engine, Limits, bench, go, uci};

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
        Some("go") => {
            let Some(Ok(depth)) = args.get(1).map(|d| d.parse::<u32>()) else {
                return usage("go takes a depth and a FEN");
            };
            let fen = args[2..].join(" ");
            let pos = match Position::from_fen(&fen) {
                Ok(p) => p,
                Err(e) => return usage(&format!("bad FEN: {e}")),
            };
            let mut engine = Engine::new();
            engine.set_oracle(Some(Arc::new(EndgameTables::standard())));
            go(&pos, &Limits::depth(depth), &mut engine, &mut io::stdout()).map(|_| ())
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
        "tabla-engine: {problem}\nusage: tabla-engine [uci] | bench [DEPTH] | go DEPTH FEN"
    );
    ExitCode::from(2)
}
