//! One search for people rather than GUIs, with any engine (`tabla go`): progress lines with the
//! principal variation in SAN, then the score, the line and `bestmove <SAN> <UCI>`.

use crate::analyser::{Analyser, StopSignal};
use crate::analysis::Line;
use crate::error::EngineError;
use crate::request::Request;
use std::io::{self, Write};
use tabla::Position;
use tabla_engine::ScoreBound;

/// Why [`go`] stopped.
#[derive(Debug, thiserror::Error)]
pub enum GoError {
    /// The engine failed (it names itself and quotes what it said).
    #[error(transparent)]
    Engine(#[from] Box<EngineError>),
    /// The output could not be written.
    #[error(transparent)]
    Output(#[from] io::Error),
}

/// Searches `request` with `engine`, writing `info string engine <its name>`, a progress line
/// per report to `out` (UCI's fields, the line in SAN), then `score <human score>` (White's or Black's: the side to move's view),
/// `pv <SAN line>` and, last, exactly `bestmove <SAN> <UCI>` (`bestmove (none) 0000` when there
/// is no legal move).
///
/// ```
/// use tabla::Position;
/// use tabla_analysis::{Budget, Request, TablaAnalyser, go};
/// let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
/// let mut out = Vec::new();
/// go(&mut TablaAnalyser::new(), &Request::new(pos, Budget::Depth(3)), &mut out).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert_eq!(text.lines().last(), Some("bestmove Ra8# a1a8"));
/// assert!(text.contains("score #1"));
/// ```
pub fn go(
    engine: &mut dyn Analyser,
    request: &Request,
    out: &mut dyn Write,
) -> Result<(), GoError> {
    let position = &request.position;
    writeln!(out, "info string engine {}", engine.id().label())?;
    let mut failure: Option<io::Error> = None;
    let analysis = engine
        .analyse(request, &StopSignal::new(), &mut |line| {
            if failure.is_none()
                && let Err(e) =
                    writeln!(out, "{}", info_line(position, line)).and_then(|_| out.flush())
            {
                failure = Some(e);
            }
        })
        .map_err(Box::new)?;
    if let Some(e) = failure {
        return Err(e.into());
    }
    if let (Some(best), Some(line)) = (analysis.best_move, analysis.best()) {
        writeln!(out, "score {}", line.score.human())?;
        // The line of the last exact score; when the engine then chose another move (its last
        // report a bound), that move alone.
        let pv = if line.pv.first() == Some(&best) {
            &line.pv[..]
        } else {
            std::slice::from_ref(&best)
        };
        writeln!(out, "pv {}", pv_san(position, pv))?;
    }
    match analysis.best_move {
        Some(best) => writeln!(
            out,
            "bestmove {} {}",
            position.san(best),
            position.uci(best)
        )?,
        None => {
            let why = if position.is_check() {
                "checkmate"
            } else {
                "stalemate"
            };
            writeln!(out, "info string no legal move: {why}")?;
            writeln!(out, "bestmove (none) 0000")?;
        }
    }
    out.flush()?;
    Ok(())
}

/// The progress line of one report: UCI's field names, those the engine gave, the line in SAN.
fn info_line(position: &Position, line: &Line) -> String {
    let mut text = format!("info depth {}", line.depth);
    if let Some(seldepth) = line.seldepth {
        text.push_str(&format!(" seldepth {seldepth}"));
    }
    text.push_str(&format!(" multipv {} score {}", line.multipv, line.score));
    match line.bound {
        ScoreBound::Exact => {}
        ScoreBound::Lower => text.push_str(" lowerbound"),
        ScoreBound::Upper => text.push_str(" upperbound"),
    }
    for (name, value) in [
        ("nodes", line.nodes),
        ("nps", line.nps),
        ("time", line.time.map(|t| t.as_millis() as u64)),
    ] {
        if let Some(value) = value {
            text.push_str(&format!(" {name} {value}"));
        }
    }
    text.push_str(" pv ");
    text.push_str(&pv_san(position, &line.pv));
    text
}

/// The principal variation as numbered SAN (its moves were checked legal when it was read).
fn pv_san(position: &Position, pv: &[tabla::Move]) -> String {
    let mut text = String::new();
    // The moves are legal; were one not, the legal part written is what is shown.
    let _ = position.write_variation_san(pv, &mut text);
    text
}
