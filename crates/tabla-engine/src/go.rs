//! A one-shot search for people rather than GUIs: progress lines with the principal variation in
//! SAN, then the score, the line, and `bestmove <SAN> <UCI>`.

use crate::engine::Engine;
use crate::info::{Info, SearchResult};
use crate::limits::Limits;
use crate::score::Score;
use crate::search::Control;
use std::io::{self, Write};
use tabla::Position;

/// A score for people: `+1.25`, `-0.40`, `#3` (mates in 3), `#-2` (is mated in 2).
pub fn human_score(score: Score) -> String {
    match score {
        Score::Cp(0) => "0.00".to_string(),
        Score::Cp(cp) => {
            let sign = if cp > 0 { '+' } else { '-' };
            format!("{sign}{}.{:02}", cp.abs() / 100, cp.abs() % 100)
        }
        Score::Mate(n) => format!("#{n}"),
    }
}

/// The progress line `go` prints for one iteration: UCI's fields, the line in SAN.
pub fn info_line(pos: &Position, info: &Info) -> String {
    format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {} pv {}",
        info.depth,
        info.seldepth,
        info.score,
        info.nodes,
        info.nps(),
        info.time.as_millis(),
        info.hashfull,
        pv_san(pos, &info.pv)
    )
}

/// Searches `pos` within `limits` with `engine`, writing a progress line per iteration to `out`,
/// then `score <human score>`, `pv <SAN line>` and, last, exactly `bestmove <SAN> <UCI>`
/// (`bestmove (none) 0000` when there is no legal move).
///
/// ```
/// use tabla::Position;
/// use tabla_engine::{Engine, Limits, go};
/// let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
/// let mut out = Vec::new();
/// let result = go(&pos, &Limits::depth(3), &mut Engine::new(), &mut out).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert_eq!(text.lines().last(), Some("bestmove Ra8# a1a8"));
/// assert!(text.contains("score #1"));
/// ```
pub fn go(
    pos: &Position,
    limits: &Limits,
    engine: &mut Engine,
    out: &mut (dyn Write + Send),
) -> io::Result<SearchResult> {
    let mut failure: Option<io::Error> = None;
    let result = {
        let mut on_info = |info: &Info| {
            if failure.is_none()
                && let Err(e) = writeln!(out, "{}", info_line(pos, info)).and_then(|_| out.flush())
            {
                failure = Some(e);
            }
        };
        engine.search(pos, limits, &Control::default(), &mut on_info)
    };
    if let Some(e) = failure {
        return Err(e);
    }
    match result.best {
        Some(best) => {
            writeln!(out, "score {}", human_score(result.score))?;
            writeln!(out, "pv {}", pv_san(pos, &result.pv))?;
            writeln!(out, "bestmove {} {}", pos.san(best), pos.uci(best))?;
        }
        None => {
            let why = if pos.is_check() {
                "checkmate"
            } else {
                "stalemate"
            };
            writeln!(out, "info string no legal move: {why}")?;
            writeln!(out, "bestmove (none) 0000")?;
        }
    }
    out.flush()?;
    Ok(result)
}

/// The principal variation as numbered SAN, up to its first move that is not legal where it
/// would be played (a line rebuilt from the hash table may end with one).
fn pv_san(pos: &Position, pv: &[tabla::Move]) -> String {
    let mut line = String::new();
    // On an illegal move the legal part has been written, which is what is shown.
    let _ = pos.write_variation_san(pv, &mut line);
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_for_people() {
        assert_eq!(human_score(Score::Cp(125)), "+1.25");
        assert_eq!(human_score(Score::Cp(-40)), "-0.40");
        assert_eq!(human_score(Score::Cp(0)), "0.00");
        assert_eq!(human_score(Score::Mate(3)), "#3");
        assert_eq!(human_score(Score::Mate(-2)), "#-2");
    }
}
