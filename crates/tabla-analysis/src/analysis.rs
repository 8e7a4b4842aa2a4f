//! What an analysis reports: one [`Line`] per principal variation, gathered into an
//! [`Analysis`].

use std::time::Duration;
use tabla::{Color, Move, Position};
use tabla_engine::{Score, ScoreBound};
use tabla_pgn::Eval;

/// One principal variation as an engine reported it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Its rank among the lines: 1 is the best (UCI's `multipv`).
    pub multipv: usize,
    /// The score from the side to move's point of view.
    pub score: Score,
    /// Whether the score is exact or a bound (UCI's `lowerbound`, `upperbound`).
    pub bound: ScoreBound,
    /// The nominal depth in plies.
    pub depth: u32,
    /// The deepest ply reached, when the engine says.
    pub seldepth: Option<u32>,
    /// Nodes searched so far (by the whole search, not this line), when the engine says.
    pub nodes: Option<u64>,
    /// Nodes per second, when the engine says.
    pub nps: Option<u64>,
    /// Time searched so far, when the engine says.
    pub time: Option<Duration>,
    /// The moves, each checked legal in turn from the analysed position; empty when the
    /// engine gave none.
    pub pv: Vec<Move>,
}

impl Line {
    /// The line's score as tabla's one score type, White's point of view, when `turn` is the
    /// side to move in the position analysed ([`Eval::for_side`]; a mate in 0 stays one).
    ///
    /// ```
    /// use tabla::{Color, Position};
    /// use tabla_analysis::{Analyser, Budget, Request, StopSignal, TablaAnalyser};
    /// use tabla_pgn::Eval;
    /// let pos = Position::from_fen("r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1").unwrap();
    /// let analysis = TablaAnalyser::new()
    ///     .analyse(&Request::new(pos, Budget::Depth(4)), &StopSignal::new(), &mut |_| {})
    ///     .unwrap();
    /// // Black, to move, mates in one (Ra1#): the engine's "mate 1" is a mate for Black.
    /// let best = analysis.best().unwrap();
    /// assert_eq!(best.score, tabla_engine::Score::Mate(1));
    /// assert_eq!(best.eval(Color::Black), Eval::Mate(-1));
    /// ```
    pub fn eval(&self, turn: Color) -> Eval {
        match self.score {
            Score::Cp(cp) => Eval::Cp(cp),
            Score::Mate(n) => Eval::Mate(n),
        }
        .for_side(turn)
    }
}

/// The outcome of one search: the lines, best first, and the engine's chosen move.
///
/// ```
/// use tabla::Position;
/// use tabla_engine::Score;
/// use tabla_analysis::{Analyser, Budget, Request, StopSignal, TablaAnalyser};
/// let mut tabla = TablaAnalyser::new();
/// let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
/// let analysis = tabla
///     .analyse(&Request::new(pos, Budget::Depth(4)), &StopSignal::new(), &mut |_| {})
///     .unwrap();
/// assert_eq!(analysis.best().map(|line| line.score), Some(Score::Mate(1)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// One line per principal variation, best (`multipv` 1) first, each the engine's last report
    /// with an exact score (or its last bound, when it gave no exact score); fewer than asked for when
    /// the position has fewer legal moves, and none when a search was stopped before it
    /// reported anything.
    pub lines: Vec<Line>,
    /// The move the engine chose (UCI's `bestmove`); `None` when there is no legal move.
    pub best_move: Option<Move>,
    /// Nodes searched in all, as the engine last reported them (its last report may be a bound
    /// that [`Analysis::lines`] passes over); `None` when it did not say.
    pub nodes: Option<u64>,
    /// `true` when the search was stopped before its budget ran out (so its depth may be less
    /// than the budget would have given).
    pub stopped: bool,
}

impl Analysis {
    /// The best line, if any.
    pub fn best(&self) -> Option<&Line> {
        self.lines.first()
    }

    /// The answer for a position without a legal move, which needs no engine: mated (`mate 0`)
    /// or stalemate (`cp 0`), depth 0, no moves.
    pub(crate) fn without_moves(position: &Position) -> Option<Analysis> {
        if position.count_legal_moves() > 0 {
            return None;
        }
        let score = if position.is_check() {
            Score::Mate(0)
        } else {
            Score::Cp(0)
        };
        let line = Line {
            multipv: 1,
            score,
            bound: ScoreBound::Exact,
            depth: 0,
            seldepth: None,
            nodes: None,
            nps: None,
            time: None,
            pv: Vec::new(),
        };
        Some(Analysis {
            lines: vec![line],
            best_move: None,
            nodes: None,
            stopped: false,
        })
    }
}

/// The lines of a search as an engine reports them: the latest report of each rank, the last
/// full set of lines of one depth, and the largest node count reported.
///
/// An engine may report an iteration's lines one at a time, so between two iterations the
/// latest reports mix depths: the new rank 1 may start with the move of the last iteration's
/// rank 2, and shown by rank the two would repeat a move and hide another. [`LatestLines::shown`]
/// therefore gives the deepest lines first, by rank, then the lines of the last full set whose
/// first move no line before them starts with: as many lines as ranks were reported, never a
/// first move twice.
///
/// ```
/// use tabla::Position;
/// use tabla_engine::{Score, ScoreBound};
/// use tabla_analysis::{LatestLines, Line};
/// let start = Position::startpos();
/// let line = |multipv, depth, uci: &str| Line {
///     multipv,
///     score: Score::Cp(20),
///     bound: ScoreBound::Exact,
///     depth,
///     seldepth: None,
///     nodes: None,
///     nps: None,
///     time: None,
///     pv: vec![start.parse_uci(uci).unwrap()],
/// };
/// let mut lines = LatestLines::default();
/// lines.record(line(1, 10, "e2e4"), 3);
/// lines.record(line(2, 10, "d2d4"), 3);
/// lines.record(line(3, 10, "g1f3"), 3);
/// // Depth 11 has so far said that d4 is best.
/// lines.record(line(1, 11, "d2d4"), 3);
/// let shown: Vec<(usize, String)> =
///     lines.shown().iter().map(|l| (l.multipv, start.uci(l.pv[0]))).collect();
/// assert_eq!(shown, [(1, "d2d4".into()), (2, "e2e4".into()), (3, "g1f3".into())]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct LatestLines {
    latest: Vec<Option<Line>>,
    settled: Vec<Line>,
    nodes: Option<u64>,
}

impl LatestLines {
    /// Keeps `line` as the latest of its rank, unless it is only a bound and an exact score is
    /// kept: an engine stopped by its budget in the middle of an iteration (Stockfish at a node
    /// limit) reports the unfinished iteration's bound last, a less reliable score than the
    /// last finished one. Ranks past `wanted` are the engine's own business and dropped.
    pub fn record(&mut self, line: Line, wanted: usize) {
        if let Some(nodes) = line.nodes {
            self.count_nodes(nodes);
        }
        let index = line.multipv.saturating_sub(1);
        if index >= wanted {
            return;
        }
        if self.latest.len() <= index {
            self.latest.resize(index + 1, None);
        }
        let kept = &mut self.latest[index];
        let exact_kept = kept.as_ref().is_some_and(|l| l.bound == ScoreBound::Exact);
        if line.bound == ScoreBound::Exact || !exact_kept {
            *kept = Some(line);
        }
        // Every rank reported, all at one depth: a full set.
        let depth = self
            .latest
            .first()
            .and_then(|l| l.as_ref())
            .map(|l| l.depth);
        if self
            .latest
            .iter()
            .all(|l| l.as_ref().map(|l| l.depth) == depth)
        {
            self.settled = self.latest.iter().flatten().cloned().collect();
        }
    }

    /// Notes a node count the engine reported (with a line or without).
    pub fn count_nodes(&mut self, nodes: u64) {
        self.nodes = self.nodes.max(Some(nodes));
    }

    /// The largest node count reported.
    pub fn nodes(&self) -> Option<u64> {
        self.nodes
    }

    /// `true` when no line was reported.
    pub fn is_empty(&self) -> bool {
        self.latest.iter().all(Option::is_none)
    }

    /// The lines to show side by side, best first, ranked from 1: the lines deeper than the
    /// last full set, then that set's lines that start with another move; as many as ranks
    /// were reported. Lines without moves are shown as reported.
    pub fn shown(&self) -> Vec<Line> {
        let settled_depth = self.settled.first().map_or(0, |l| l.depth);
        let deeper = |l: &&Line| l.depth > settled_depth;
        let candidates = (self.latest.iter().flatten().filter(deeper))
            .chain(self.settled.iter().filter(|l| !l.pv.is_empty()))
            .chain(self.latest.iter().flatten().filter(|l| !deeper(l)));
        let wanted = self.latest.len();
        let mut shown: Vec<Line> = Vec::with_capacity(wanted);
        for line in candidates {
            if shown.len() == wanted {
                break;
            }
            let repeats = line
                .pv
                .first()
                .is_some_and(|first| shown.iter().any(|kept| kept.pv.first() == Some(first)));
            if !repeats {
                let mut line = line.clone();
                line.multipv = shown.len() + 1;
                shown.push(line);
            }
        }
        shown
    }

    /// The analysis these lines make ([`LatestLines::shown`]).
    pub(crate) fn finish(self, best_move: Option<Move>, stopped: bool) -> Analysis {
        Analysis {
            lines: self.shown(),
            best_move,
            nodes: self.nodes,
            stopped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(multipv: usize, cp: i32) -> Line {
        bound_line(multipv, cp, ScoreBound::Exact)
    }

    fn bound_line(multipv: usize, cp: i32, bound: ScoreBound) -> Line {
        Line {
            multipv,
            score: Score::Cp(cp),
            bound,
            depth: 1,
            seldepth: None,
            nodes: None,
            nps: None,
            time: None,
            pv: Vec::new(),
        }
    }

    #[test]
    fn the_latest_report_of_each_rank_wins_and_ranks_past_the_request_are_dropped() {
        let mut lines = LatestLines::default();
        assert!(lines.is_empty());
        lines.record(line(2, 5), 2);
        lines.record(line(1, 10), 2);
        lines.record(line(1, 12), 2);
        lines.record(line(3, 0), 2);
        let analysis = lines.finish(None, false);
        let scores: Vec<_> = analysis.lines.iter().map(|l| l.score).collect();
        assert_eq!(scores, [Score::Cp(12), Score::Cp(5)]);
    }

    #[test]
    fn a_bound_replaces_a_bound_but_not_an_exact_score() {
        let mut lines = LatestLines::default();
        lines.record(bound_line(1, 40, ScoreBound::Lower), 1);
        lines.record(bound_line(1, 35, ScoreBound::Upper), 1);
        assert_eq!(
            lines.latest[0].as_ref().map(|l| l.score),
            Some(Score::Cp(35))
        );
        lines.record(line(1, 30), 1);
        lines.record(bound_line(1, 20, ScoreBound::Upper), 1);
        let analysis = lines.finish(None, true);
        assert_eq!(analysis.best().map(|l| l.score), Some(Score::Cp(30)));
    }

    #[test]
    fn positions_without_moves_are_answered_without_an_engine() {
        let mated = Position::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1").expect("valid FEN");
        let analysis = Analysis::without_moves(&mated).expect("no legal move");
        assert_eq!(analysis.best().map(|l| l.score), Some(Score::Mate(0)));
        let stalemate = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").expect("valid FEN");
        let analysis = Analysis::without_moves(&stalemate).expect("no legal move");
        assert_eq!(analysis.best().map(|l| l.score), Some(Score::Cp(0)));
        assert!(Analysis::without_moves(&Position::startpos()).is_none());
    }
}
