//! The benchmark: fixed positions searched to a fixed depth from a fresh engine. The total node
//! count is a signature of the search: any change to search or evaluation changes it, and the
//! same build always prints the same number.

use crate::engine::Engine;
use crate::limits::Limits;
use crate::search::Control;
use std::io::{self, Write};
use std::time::{Duration, Instant};
use tabla::Position;

/// The depth `tabla bench` searches to when not told otherwise.
pub const DEFAULT_DEPTH: u32 = 13;

/// The benchmark positions: openings, middlegames (the Bh6 test position of
/// docs/background.md among them) and endings.
pub const POSITIONS: [&str; 12] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "6k1/p2q1b2/2n2Qp1/1p2p3/4P3/2P1B3/5R1K/8 w - - 1 40",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2QK2R w KQ - 0 10",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2r3k1/pp3ppp/4p3/3n4/3P4/P3BN2/1P3PPP/2R3K1 b - - 0 25",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5pp1/4p2p/8/3R4/6P1/r4P1P/6K1 w - - 0 35",
    "8/8/1p1k4/3p4/3P1K2/1P6/8/8 w - - 0 1",
    "8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1",
];

/// The benchmark's outcome.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Nodes searched over all positions: the signature.
    pub nodes: u64,
    /// Wall-clock time of the searches.
    pub time: Duration,
}

impl BenchReport {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as u128 * 1_000_000 / self.time.as_micros().max(1)) as u64
    }
}

/// Searches every position of [`POSITIONS`] to `depth` with a fresh 16 MiB engine, writing one
/// line per position and then `nodes <total> nps <n> time <ms>` to `out`.
pub fn run(depth: u32, out: &mut dyn Write) -> io::Result<BenchReport> {
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen).map_err(|e| io::Error::other(format!("{fen}: {e}")))?;
        let mut engine = Engine::new();
        let start = Instant::now();
        let result = engine.search(
            &pos,
            &Limits::depth(depth),
            &Control::default(),
            &mut |_| {},
        );
        time += start.elapsed();
        nodes += result.nodes;
        let best = result.best.map_or("(none)".to_string(), |m| pos.san(m));
        writeln!(
            out,
            "position {:2} nodes {:>10} best {:<6} score {}  {}",
            i + 1,
            result.nodes,
            best,
            result.score,
            fen
        )?;
    }
    let report = BenchReport { nodes, time };
    writeln!(
        out,
        "nodes {} nps {} time {}",
        report.nodes,
        report.nps(),
        report.time.as_millis()
    )?;
    Ok(report)
}
