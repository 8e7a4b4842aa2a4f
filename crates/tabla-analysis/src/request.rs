//! What to analyse and for how long: a position, a budget, how many lines.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;
use tabla::Position;
use tabla_engine::Limits;

/// The thinking time of one search for people when none is asked for: `tabla go` and the
/// server's suggestions (`/api/suggest`).
pub const DEFAULT_MOVETIME: Duration = Duration::from_millis(1000);

/// How long one search may run, as UCI's `go` says it.
///
/// The text form is the words after `go`: `nodes 1000000`, `depth 18`, `movetime 500`
/// (milliseconds) or `infinite` (until stopped, for live analysis).
///
/// ```
/// use std::time::Duration;
/// use tabla_analysis::Budget;
/// let budget: Budget = "movetime 250".parse().unwrap();
/// assert_eq!(budget, Budget::MoveTime(Duration::from_millis(250)));
/// assert_eq!(budget.to_string(), "movetime 250");
/// assert_eq!("nodes 10000".parse::<Budget>().unwrap(), Budget::Nodes(10_000));
/// assert!("depth 0".parse::<Budget>().is_err());
/// assert!("nodes many".parse::<Budget>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// About this many nodes (engines check the count now and then, so a little more).
    Nodes(u64),
    /// This many plies of iterative deepening.
    Depth(u32),
    /// This long (UCI counts milliseconds).
    MoveTime(Duration),
    /// Until stopped ([`crate::StopSignal`]).
    Infinite,
}

/// Why a budget's text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BudgetError {
    /// The first word is none of `nodes`, `depth`, `movetime`, `infinite`.
    #[error("{text:?} is not a budget: expected nodes N, depth D, movetime MS or infinite")]
    Unknown {
        /// The text.
        text: String,
    },
    /// The number is missing, not a number, or zero.
    #[error("{kind} needs a whole number from 1 up, not {value:?}")]
    BadNumber {
        /// `nodes`, `depth` or `movetime`.
        kind: &'static str,
        /// What stood there.
        value: String,
    },
    /// A number of [`Budget::one_of`] out of its range: what was given and what is expected.
    #[error("{kind}={value}: give {expected}")]
    OutOfRange {
        /// `nodes`, `depth` or `movetime`.
        kind: &'static str,
        /// What was given.
        value: i64,
        /// The range, in words (`a depth from 1 to 100`).
        expected: String,
    },
    /// More than one of a node count, a depth and a movetime were given.
    #[error("give one of nodes, depth and movetime, not several")]
    Several,
}

impl FromStr for Budget {
    type Err = BudgetError;

    fn from_str(text: &str) -> Result<Budget, BudgetError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let number = |kind: &'static str| -> Result<u64, BudgetError> {
            let bad = || BudgetError::BadNumber {
                kind,
                value: words.get(1).copied().unwrap_or("").to_owned(),
            };
            if words.len() != 2 {
                return Err(bad());
            }
            match words[1].parse::<u64>() {
                Ok(n) if n > 0 => Ok(n),
                _ => Err(bad()),
            }
        };
        match words.first().copied() {
            Some("nodes") => Ok(Budget::Nodes(number("nodes")?)),
            Some("depth") => {
                let depth = number("depth")?;
                u32::try_from(depth)
                    .map(Budget::Depth)
                    .map_err(|_| BudgetError::BadNumber {
                        kind: "depth",
                        value: depth.to_string(),
                    })
            }
            Some("movetime") => Ok(Budget::MoveTime(Duration::from_millis(number("movetime")?))),
            Some("infinite") if words.len() == 1 => Ok(Budget::Infinite),
            _ => Err(BudgetError::Unknown {
                text: text.to_owned(),
            }),
        }
    }
}

/// The words after UCI's `go`.
impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Nodes(n) => write!(f, "nodes {n}"),
            Budget::Depth(d) => write!(f, "depth {d}"),
            Budget::MoveTime(t) => write!(f, "movetime {}", t.as_millis()),
            Budget::Infinite => f.write_str("infinite"),
        }
    }
}

impl Budget {
    /// The deepest search commands and Python ask for ([`Budget::one_of`]).
    pub const MAX_DEPTH: u32 = 100;

    /// The budget of at most one of a node count, a depth (plies) and a movetime
    /// (milliseconds), as `tabla review --nodes/--depth/--movetime` and Python's `nodes=`,
    /// `depth=`, `movetime=` give them, else `default`. Each from 1; a depth at most
    /// [`Budget::MAX_DEPTH`].
    ///
    /// ```
    /// use std::time::Duration;
    /// use tabla_analysis::Budget;
    /// let default = Budget::Nodes(450_000);
    /// assert_eq!(Budget::one_of(None, None, None, default), Ok(default));
    /// assert_eq!(Budget::one_of(None, Some(12), None, default), Ok(Budget::Depth(12)));
    /// assert_eq!(
    ///     Budget::one_of(None, None, Some(300), default),
    ///     Ok(Budget::MoveTime(Duration::from_millis(300)))
    /// );
    /// let too_deep = Budget::one_of(None, Some(101), None, default).unwrap_err();
    /// assert_eq!(too_deep.to_string(), "depth=101: give a depth from 1 to 100");
    /// assert!(Budget::one_of(Some(0), None, None, default).is_err());
    /// assert!(Budget::one_of(Some(1000), Some(3), None, default).is_err());
    /// ```
    pub fn one_of(
        nodes: Option<i64>,
        depth: Option<i64>,
        movetime: Option<i64>,
        default: Budget,
    ) -> Result<Budget, BudgetError> {
        let out_of_range =
            |kind: &'static str, value: i64, expected: String| BudgetError::OutOfRange {
                kind,
                value,
                expected,
            };
        match (nodes, depth, movetime) {
            (None, None, None) => Ok(default),
            (Some(n), None, None) => u64::try_from(n)
                .ok()
                .filter(|&n| n > 0)
                .map(Budget::Nodes)
                .ok_or_else(|| out_of_range("nodes", n, "1 or more nodes".to_owned())),
            (None, Some(d), None) => u32::try_from(d)
                .ok()
                .filter(|d| (1..=Budget::MAX_DEPTH).contains(d))
                .map(Budget::Depth)
                .ok_or_else(|| {
                    let expected = format!("a depth from 1 to {}", Budget::MAX_DEPTH);
                    out_of_range("depth", d, expected)
                }),
            (None, None, Some(ms)) => u64::try_from(ms)
                .ok()
                .filter(|&ms| ms > 0)
                .map(|ms| Budget::MoveTime(Duration::from_millis(ms)))
                .ok_or_else(|| out_of_range("movetime", ms, "1 or more milliseconds".to_owned())),
            _ => Err(BudgetError::Several),
        }
    }

    /// The same bound for tabla's own search.
    ///
    /// ```
    /// use tabla_analysis::Budget;
    /// assert_eq!(Budget::Depth(7).limits().depth, Some(7));
    /// assert!(Budget::Infinite.limits().infinite);
    /// ```
    pub fn limits(&self) -> Limits {
        match *self {
            Budget::Nodes(n) => Limits::nodes(n),
            Budget::Depth(d) => Limits::depth(d),
            Budget::MoveTime(t) => Limits::move_time(t),
            Budget::Infinite => Limits {
                infinite: true,
                ..Limits::default()
            },
        }
    }

    /// What is wrong with a budget built in code rather than parsed: a zero.
    pub(crate) fn problem(&self) -> Option<String> {
        match *self {
            Budget::Nodes(0) | Budget::Depth(0) => Some(format!("a budget of {self}")),
            Budget::MoveTime(t) if t.as_millis() == 0 => Some(format!(
                "a budget of movetime {t:?} (UCI counts whole milliseconds)"
            )),
            _ => None,
        }
    }
}

/// One analysis to run: the position (its moves since the start count: engines see them, for
/// repetitions), the budget, how many principal variations, and whether to forget earlier
/// searches first.
///
/// ```
/// use tabla::Position;
/// use tabla_analysis::{Budget, Request};
/// let request = Request::new(Position::startpos(), Budget::Depth(10)).with_multipv(3);
/// assert_eq!(request.multipv, 3);
/// assert!(!request.new_game);
/// ```
#[derive(Clone, Debug)]
pub struct Request {
    /// The position to analyse, with the moves that led to it.
    pub position: Position,
    /// How long to search.
    pub budget: Budget,
    /// How many best lines to report (UCI's `MultiPV`), from 1.
    pub multipv: usize,
    /// Clear the engine's memory first (UCI's `ucinewgame`): the result then does not depend
    /// on what the engine searched before, which makes a fixed node budget reproducible.
    pub new_game: bool,
}

impl Request {
    /// One line of `position` within `budget`, keeping what the engine learnt before.
    pub fn new(position: Position, budget: Budget) -> Request {
        Request {
            position,
            budget,
            multipv: 1,
            new_game: false,
        }
    }

    /// Asks for `lines` principal variations.
    pub fn with_multipv(mut self, lines: usize) -> Request {
        self.multipv = lines;
        self
    }

    /// Asks the engine to forget earlier searches first.
    pub fn with_new_game(mut self) -> Request {
        self.new_game = true;
        self
    }

    /// What is wrong with the request, if anything.
    pub(crate) fn problem(&self) -> Option<String> {
        if self.multipv == 0 {
            return Some("multipv 0 (ask for one line or more)".to_owned());
        }
        self.budget.problem()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_read_and_write_as_go_arguments() {
        for text in ["nodes 1", "depth 30", "movetime 1500", "infinite"] {
            let budget: Budget = text.parse().expect("a valid budget");
            assert_eq!(budget.to_string(), text);
        }
        let errors = [
            ("", "not a budget"),
            ("nodes", "nodes needs"),
            ("nodes 0", "nodes needs"),
            ("nodes -3", "nodes needs"),
            ("depth 99999999999", "depth needs"),
            ("movetime 5 6", "movetime needs"),
            ("infinite 3", "not a budget"),
            ("sideways 3", "not a budget"),
        ];
        for (text, message) in errors {
            let error = text.parse::<Budget>().expect_err(text).to_string();
            assert!(error.contains(message), "{text:?}: {error}");
        }
    }

    #[test]
    fn zero_budgets_and_no_lines_are_refused() {
        let pos = Position::startpos();
        assert!(
            Request::new(pos.clone(), Budget::Nodes(0))
                .problem()
                .is_some()
        );
        assert!(
            Request::new(pos.clone(), Budget::MoveTime(Duration::from_micros(10)))
                .problem()
                .is_some()
        );
        assert!(
            Request::new(pos.clone(), Budget::Depth(1))
                .with_multipv(0)
                .problem()
                .is_some()
        );
        assert!(Request::new(pos, Budget::Infinite).problem().is_none());
    }
}
