//! What a search reports while it runs and when it ends.

use crate::score::{Score, Value};
use std::fmt::Write as _;
use std::time::Duration;
use tabla::Move;

/// How UCI writes a castling move, which tabla stores as "king takes own rook".
///
/// Standard chess GUIs expect the king's move (`e1g1`); in Chess960 that can be ambiguous (a king
/// on b1 castling long with the rook on a1 ends on c1, where it could also simply step), so a GUI
/// that sets `UCI_Chess960` expects king takes rook (`e1h1`) instead, in every position.
///
/// ```
/// use tabla::Position;
/// use tabla_engine::CastlingNotation;
/// let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
/// let short = pos.parse_san("O-O").unwrap();
/// assert_eq!(CastlingNotation::KingMove.uci(short), "e1g1");
/// assert_eq!(CastlingNotation::KingTakesRook.uci(short), "e1h1");
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum CastlingNotation {
    /// The king's move, `e1g1`: standard UCI (`UCI_Chess960` off).
    #[default]
    KingMove,
    /// King takes own rook, `e1h1` (`UCI_Chess960` on).
    KingTakesRook,
}

impl CastlingNotation {
    /// The notation `UCI_Chess960` asks for.
    pub const fn chess960(on: bool) -> CastlingNotation {
        if on {
            CastlingNotation::KingTakesRook
        } else {
            CastlingNotation::KingMove
        }
    }

    /// Appends `mv` in UCI to `out` (`0000` for the null move).
    pub fn write(self, mv: Move, out: &mut String) {
        match self {
            CastlingNotation::KingTakesRook if mv.castling_side().is_some() => {
                let _ = write!(out, "{}{}", mv.from(), mv.to());
            }
            _ => {
                let _ = write!(out, "{mv}");
            }
        }
    }

    /// `mv` in UCI.
    pub fn uci(self, mv: Move) -> String {
        let mut s = String::with_capacity(5);
        self.write(mv, &mut s);
        s
    }
}

/// Whether a reported score is exact or only a bound (after an aspiration window failed).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// The score is exact.
    Exact,
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

/// One progress report: a finished iteration (or one principal variation of it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// The iteration's nominal depth in plies.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Which principal variation (1 = best) this is.
    pub multipv: usize,
    /// The score from the side to move's point of view.
    pub score: Score,
    /// Whether the score is exact.
    pub bound: ScoreBound,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Per mille of the hash table in use.
    pub hashfull: u32,
    /// The principal variation, first move first.
    pub pv: Vec<Move>,
}

impl Info {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        let micros = self.time.as_micros().max(1);
        (self.nodes as u128 * 1_000_000 / micros) as u64
    }

    /// The UCI `info` line (without a newline), with `multipv` only when asked for
    /// (`with_multipv`).
    pub fn uci_line(&self, with_multipv: bool) -> String {
        self.uci_line_with(with_multipv, CastlingNotation::KingMove)
    }

    /// [`Info::uci_line`] with castling in the line written in `notation`.
    pub fn uci_line_with(&self, with_multipv: bool, notation: CastlingNotation) -> String {
        let mut line = format!("info depth {} seldepth {}", self.depth, self.seldepth);
        if with_multipv {
            let _ = write!(line, " multipv {}", self.multipv);
        }
        let _ = write!(line, " score {}", self.score);
        match self.bound {
            ScoreBound::Exact => {}
            ScoreBound::Lower => line.push_str(" lowerbound"),
            ScoreBound::Upper => line.push_str(" upperbound"),
        }
        let _ = write!(
            line,
            " nodes {} nps {} time {} hashfull {}",
            self.nodes,
            self.nps(),
            self.time.as_millis(),
            self.hashfull
        );
        if !self.pv.is_empty() {
            line.push_str(" pv");
            for &mv in &self.pv {
                line.push(' ');
                notation.write(mv, &mut line);
            }
        }
        line
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when the side to move has no legal move.
    pub best: Option<Move>,
    /// The expected reply, when the principal variation has one.
    pub ponder: Option<Move>,
    /// The search value of the best move: centipawns, or a mate distance folded into the same range
    /// (`score` unfolds it).
    pub value: Value,
    /// The value as UCI reports it.
    pub score: Score,
    /// The last completed iteration's depth.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// The principal variation, best move first.
    pub pv: Vec<Move>,
}

impl SearchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let micros = self.time.as_micros().max(1);
        (self.nodes as u128 * 1_000_000 / micros) as u64
    }

    /// The UCI `info` line of the whole search's counts, without score or line: what a search
    /// stopped inside an iteration (by its node budget, its clock or `stop`) reports after the
    /// last finished iteration's line, so that a client sees every node it searched.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tabla_engine::{Score, SearchResult};
    /// let result = SearchResult {
    ///     best: None, ponder: None, value: 0, score: Score::Cp(0), depth: 11, seldepth: 19,
    ///     nodes: 50_012, time: Duration::from_millis(25), pv: Vec::new(),
    /// };
    /// assert_eq!(
    ///     result.totals_line(),
    ///     "info depth 11 seldepth 19 nodes 50012 nps 2000480 time 25"
    /// );
    /// ```
    pub fn totals_line(&self) -> String {
        format!(
            "info depth {} seldepth {} nodes {} nps {} time {}",
            self.depth,
            self.seldepth,
            self.nodes,
            self.nps(),
            self.time.as_millis()
        )
    }

    /// UCI's last line: `bestmove e2e4 ponder e7e5` (`bestmove 0000` with no legal move).
    pub fn bestmove_line(&self) -> String {
        self.bestmove_line_with(CastlingNotation::KingMove)
    }

    /// [`SearchResult::bestmove_line`] with castling written in `notation`.
    pub fn bestmove_line_with(&self, notation: CastlingNotation) -> String {
        match (self.best, self.ponder) {
            (Some(best), Some(ponder)) => format!(
                "bestmove {} ponder {}",
                notation.uci(best),
                notation.uci(ponder)
            ),
            (Some(best), None) => format!("bestmove {}", notation.uci(best)),
            (None, _) => "bestmove 0000".to_string(),
        }
    }
}
