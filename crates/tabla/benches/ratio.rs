//! The two headline figures of the performance goal: the tabla/shakmaty perft speed ratio for
//! the start position at depth 6 without bulk counting, and for Kiwipete at depth 5 with it.
//!
//! `cargo bench -p tabla --bench ratio -- --runs 5` (or `scripts/bench/bench_ratio.sh`). The two
//! libraries run alternately in one process, `--runs` times each (at least 3); every run's node
//! count is checked against the published figure. The ratio is shakmaty's median time over
//! tabla's, so above 1 means tabla is faster.

#[allow(dead_code)]
mod common;

use common::{PerftCase, perft_case, shakmaty_perft_full, shakmaty_position, tabla_position};
use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Seconds taken by `count`, after checking that it counted `expected` leaves.
fn timed(expected: u64, what: &str, count: impl FnOnce() -> u64) -> Duration {
    let start = Instant::now();
    let nodes = black_box(count());
    let elapsed = start.elapsed();
    assert_eq!(nodes, expected, "{what}: wrong node count");
    elapsed
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    let mid = times.len() / 2;
    if times.len() % 2 == 1 {
        times[mid]
    } else {
        (times[mid - 1] + times[mid]) / 2
    }
}

fn format_times(times: &[Duration]) -> String {
    let parts: Vec<String> = times
        .iter()
        .map(|t| format!("{:.3}", t.as_secs_f64()))
        .collect();
    parts.join(" ")
}

/// Runs one case `runs` times per library, alternating, and prints the medians and the ratio.
fn compare(case: &PerftCase, bulk: bool, runs: usize) {
    let label = format!(
        "{} d{} {}",
        case.name,
        case.depth,
        if bulk { "bulk" } else { "no bulk" }
    );
    let mut tabla_pos = tabla_position(case.fen);
    let shakmaty_pos = shakmaty_position(case.fen);
    let mut tabla_times = Vec::with_capacity(runs);
    let mut shakmaty_times = Vec::with_capacity(runs);
    for run in 0..runs {
        // Alternating which library goes first spreads drifts in machine load evenly.
        for first_tabla in [run % 2 == 0, run % 2 != 0] {
            if first_tabla {
                tabla_times.push(timed(case.nodes, "tabla", || {
                    let pos = black_box(&mut tabla_pos);
                    if bulk {
                        pos.perft_bulk(case.depth)
                    } else {
                        pos.perft(case.depth)
                    }
                }));
            } else {
                shakmaty_times.push(timed(case.nodes, "shakmaty", || {
                    let pos = black_box(&shakmaty_pos);
                    if bulk {
                        shakmaty::perft(pos, case.depth)
                    } else {
                        shakmaty_perft_full(pos, case.depth)
                    }
                }));
            }
        }
    }
    println!("{label}: {} nodes", case.nodes);
    println!("  tabla    runs (s): {}", format_times(&tabla_times));
    println!("  shakmaty runs (s): {}", format_times(&shakmaty_times));
    let t = median(&mut tabla_times).as_secs_f64();
    let s = median(&mut shakmaty_times).as_secs_f64();
    let mnps = |secs: f64| case.nodes as f64 / secs / 1e6;
    println!("  tabla    median {t:.3} s ({:.1} Mnps)", mnps(t));
    println!("  shakmaty median {s:.3} s ({:.1} Mnps)", mnps(s));
    println!("  ratio shakmaty/tabla = {:.3} ({label})", s / t);
}

fn main() -> ExitCode {
    let mut runs = 5;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            // cargo bench passes --bench to every bench binary.
            "--bench" => {}
            "--runs" => match args.next().and_then(|n| n.parse::<usize>().ok()) {
                Some(n) if n >= 3 => runs = n,
                _ => {
                    eprintln!("--runs needs a whole number of at least 3");
                    return ExitCode::from(2);
                }
            },
            other => {
                eprintln!("unknown argument {other:?}; usage: ratio [--runs N]");
                return ExitCode::from(2);
            }
        }
    }
    compare(perft_case("startpos", 6), false, runs);
    compare(perft_case("kiwipete", 5), true, runs);
    ExitCode::SUCCESS
}
