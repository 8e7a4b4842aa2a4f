//! `tabla perft`: one position (with divide), or a whole suite file.

use crate::{Outcome, position_arg};
use anyhow::Context;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};
use tabla::perft_suite::{self, Case};
use tabla::{Position, Validation};

/// Counts one position and writes `nodes <N>` as the last line (after the `--divide` lines).
/// Perft suites hold unusual setups, so the position is accepted leniently, with a note.
pub fn single(
    out: &mut impl Write,
    text: &str,
    depth: u32,
    divide: bool,
    bulk: bool,
) -> anyhow::Result<()> {
    let mut pos = position_arg::parse(text, Validation::Lenient)?;
    note_if_lenient(&pos, "");
    if divide && depth == 0 {
        anyhow::bail!("--divide needs a depth of 1 or more");
    }
    let start = Instant::now();
    let nodes = if divide {
        let mut rows: Vec<(String, u64)> = pos
            .divide(depth, bulk)
            .into_iter()
            .map(|(mv, n)| (pos.uci(mv), n))
            .collect();
        rows.sort();
        for (uci, n) in &rows {
            writeln!(out, "{uci}: {n}")?;
        }
        rows.iter().map(|(_, n)| n).sum()
    } else {
        count(&mut pos, depth, bulk)
    };
    let elapsed = start.elapsed();
    writeln!(out, "nodes {nodes}")?;
    out.flush()?;
    eprintln!("{}", speed(nodes, elapsed));
    Ok(())
}

/// Runs every position of a suite up to `max_depth`; one line per position, then
/// `passed <N>, failed <M>`.
pub fn suite(
    out: &mut impl Write,
    path: &Path,
    max_depth: Option<u32>,
    bulk: bool,
) -> anyhow::Result<Outcome> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the perft suite {}", path.display()))?;
    let entries = perft_suite::parse(&text);
    if entries.is_empty() {
        anyhow::bail!("{} holds no perft positions", path.display());
    }
    let start = Instant::now();
    let (mut passed, mut failed, mut nodes) = (0, 0, 0);
    for entry in entries {
        let verdict = match entry {
            Ok(case) => check(&case, max_depth, bulk),
            Err(err) => Verdict::Fail(format!("FAIL {err}")),
        };
        match verdict {
            Verdict::Pass { line, nodes: n } => {
                passed += 1;
                nodes += n;
                writeln!(out, "{line}")?;
            }
            Verdict::Fail(line) => {
                failed += 1;
                writeln!(out, "{line}")?;
            }
            Verdict::Skip(line) => writeln!(out, "{line}")?,
        }
    }
    writeln!(out, "passed {passed}, failed {failed}")?;
    out.flush()?;
    eprintln!("{}", speed(nodes, start.elapsed()));
    Ok(if failed == 0 {
        Outcome::Success
    } else {
        Outcome::Failure
    })
}

/// What became of one suite position, with the line to print.
enum Verdict {
    Pass { line: String, nodes: u64 },
    Fail(String),
    Skip(String),
}

fn check(case: &Case, max_depth: Option<u32>, bulk: bool) -> Verdict {
    let mut pos = match Position::from_fen_with(&case.fen, Validation::Lenient) {
        Ok(pos) => pos,
        Err(err) => {
            return Verdict::Fail(format!(
                "FAIL line {}: invalid FEN {:?}: {err}",
                case.line, case.fen
            ));
        }
    };
    note_if_lenient(&pos, &format!("line {}: ", case.line));
    let mut counts: Vec<(u32, u64)> = case
        .counts
        .iter()
        .copied()
        .filter(|&(d, _)| max_depth.is_none_or(|max| d <= max))
        .collect();
    // Shallow first: a wrong count shows up soonest there, and the deep ones need not run.
    counts.sort_unstable();
    let Some(&(deepest, _)) = counts.last() else {
        let max = max_depth.unwrap_or_default();
        return Verdict::Skip(format!(
            "skip {} (no count up to depth {max})",
            case.label()
        ));
    };
    let mut total = 0;
    for &(depth, expected) in &counts {
        let got = count(&mut pos, depth, bulk);
        total += got;
        if got != expected {
            return Verdict::Fail(format!(
                "FAIL {} depth {depth} expected {expected} got {got}",
                case.fen
            ));
        }
    }
    Verdict::Pass {
        line: format!(
            "ok {} depth {deepest} nodes {}",
            case.label(),
            counts.last().map_or(0, |&(_, n)| n)
        ),
        nodes: total,
    }
}

fn count(pos: &mut Position, depth: u32, bulk: bool) -> u64 {
    if bulk {
        pos.perft_bulk(depth)
    } else {
        pos.perft(depth)
    }
}

/// Tells the user (on stderr) that a position is accepted only because perft is lenient.
fn note_if_lenient(pos: &Position, prefix: &str) {
    if let Some(problems) = position_arg::strict_problems(pos) {
        eprintln!("note: {prefix}not reachable in a game, counted anyway: {problems}");
    }
}

/// `time 1.234 s, 5678901 nodes/s`.
fn speed(nodes: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        format!("{:.0}", nodes as f64 / secs)
    } else {
        "-".to_owned()
    };
    format!("time {secs:.3} s, {rate} nodes/s")
}
