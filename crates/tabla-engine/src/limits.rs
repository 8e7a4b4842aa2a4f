//! What bounds a search (UCI `go` parameters) and how the clock becomes a time budget.

use std::fmt;
use std::time::Duration;
use tabla::Color;

/// The bounds of one search, as UCI's `go` gives them. All empty means "until stopped".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// White's and Black's remaining clock time.
    pub time: [Option<Duration>; 2],
    /// White's and Black's increment per move.
    pub increment: [Option<Duration>; 2],
    /// Moves until the next time control.
    pub moves_to_go: Option<u32>,
    /// Search exactly this long.
    pub move_time: Option<Duration>,
    /// Search this many plies deep.
    pub depth: Option<u32>,
    /// Search about this many nodes.
    pub nodes: Option<u64>,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// Search until `stop`, even after reaching another limit.
    pub infinite: bool,
    /// Pondering: search until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Only these root moves (UCI notation), when not empty.
    pub search_moves: Vec<String>,
}

/// Why a `go` command could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoError {
    /// A parameter that takes a number had none.
    MissingValue(String),
    /// A parameter's value is not a number in range.
    BadValue {
        /// The parameter.
        name: String,
        /// The text found.
        value: String,
    },
    /// A word that is no `go` parameter.
    Unknown(String),
}

impl fmt::Display for GoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoError::MissingValue(name) => write!(f, "go: {name} needs a value"),
            GoError::BadValue { name, value } => {
                write!(f, "go: {name} {value:?} is not a valid number")
            }
            GoError::Unknown(word) => write!(f, "go: unknown parameter {word:?}"),
        }
    }
}

impl std::error::Error for GoError {}

impl Limits {
    /// A search to a fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A search of about `nodes` nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// A search of a fixed time.
    pub fn move_time(time: Duration) -> Limits {
        Limits {
            move_time: Some(time),
            ..Limits::default()
        }
    }

    /// Reads the words after `go`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tabla_engine::Limits;
    /// let l = Limits::parse("wtime 1000 btime 900 winc 10 binc 10 movestogo 5").unwrap();
    /// assert_eq!(l.time[1], Some(Duration::from_millis(900)));
    /// assert_eq!(l.moves_to_go, Some(5));
    /// assert!(Limits::parse("depth x").is_err());
    /// assert!(Limits::parse("sideways").is_err());
    /// ```
    pub fn parse(args: &str) -> Result<Limits, GoError> {
        let mut limits = Limits::default();
        let mut words = args.split_whitespace().peekable();
        while let Some(word) = words.next() {
            let mut number = |name: &str| -> Result<u64, GoError> {
                let value = words
                    .next()
                    .ok_or_else(|| GoError::MissingValue(name.to_string()))?;
                // GUIs sometimes send negative clock times when the flag is about to fall.
                if let Some(negative) = value.strip_prefix('-')
                    && negative.parse::<u64>().is_ok()
                    && name.ends_with("time")
                {
                    return Ok(0);
                }
                value.parse::<u64>().map_err(|_| GoError::BadValue {
                    name: name.to_string(),
                    value: value.to_string(),
                })
            };
            match word {
                "wtime" => limits.time[0] = Some(Duration::from_millis(number(word)?)),
                "btime" => limits.time[1] = Some(Duration::from_millis(number(word)?)),
                "winc" => limits.increment[0] = Some(Duration::from_millis(number(word)?)),
                "binc" => limits.increment[1] = Some(Duration::from_millis(number(word)?)),
                "movestogo" => limits.moves_to_go = Some(small(word, number(word)?)?),
                "movetime" => limits.move_time = Some(Duration::from_millis(number(word)?)),
                "depth" => limits.depth = Some(small(word, number(word)?)?),
                "nodes" => limits.nodes = Some(number(word)?),
                "mate" => limits.mate = Some(small(word, number(word)?)?),
                "infinite" => limits.infinite = true,
                "ponder" => limits.ponder = true,
                "searchmoves" => {
                    while let Some(mv) = words.peek() {
                        if tabla::UciMove::parse(mv).is_some() {
                            limits.search_moves.push(mv.to_string());
                            words.next();
                        } else {
                            break;
                        }
                    }
                }
                other => return Err(GoError::Unknown(other.to_string())),
            }
        }
        Ok(limits)
    }

    /// `true` when the clock or the side's time decides when to stop.
    pub fn uses_clock(&self) -> bool {
        self.time[0].is_some() || self.time[1].is_some()
    }
}

fn small(name: &str, n: u64) -> Result<u32, GoError> {
    u32::try_from(n).map_err(|_| GoError::BadValue {
        name: name.to_string(),
        value: n.to_string(),
    })
}

/// When to stop: a soft budget checked between iterations and a hard one checked during search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start another iteration after this much time (scaled by how stable the best move is).
    pub soft: Option<Duration>,
    /// Abort the search at this much time.
    pub hard: Option<Duration>,
}

impl Budget {
    /// The budget for `side` to move under `limits`, keeping `overhead` in reserve for
    /// communication.
    pub fn new(limits: &Limits, side: Color, overhead: Duration) -> Budget {
        if limits.infinite || limits.ponder {
            return Budget {
                soft: None,
                hard: None,
            };
        }
        if let Some(t) = limits.move_time {
            let t = t
                .saturating_sub(overhead.min(t / 4))
                .max(Duration::from_millis(1));
            return Budget {
                soft: Some(t),
                hard: Some(t),
            };
        }
        let Some(left) = limits.time[side.index()] else {
            return Budget {
                soft: None,
                hard: None,
            };
        };
        let inc = limits.increment[side.index()].unwrap_or_default();
        let left = left.saturating_sub(overhead).max(Duration::from_millis(1));
        // Without `movestogo`, plan as if 15 moves remained: the share shrinks with the clock,
        // and the increment keeps a reserve of a few seconds for the endgame.
        let moves = limits.moves_to_go.unwrap_or(15).clamp(1, 40);
        let mut optimum = left / moves + inc * 2 / 3;
        if moves == 1 {
            optimum = left * 3 / 4;
        }
        let optimum = optimum.min(left * 2 / 3);
        let maximum = (optimum * 4).min(left / 2).max(optimum);
        Budget {
            soft: Some(optimum),
            hard: Some(maximum),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_gives_a_soft_and_a_hard_limit() {
        let l = Limits::parse("wtime 10000 btime 10000 winc 100 binc 100").expect("valid");
        let b = Budget::new(&l, Color::White, Duration::from_millis(30));
        let (soft, hard) = (b.soft.expect("soft limit"), b.hard.expect("hard limit"));
        assert!(soft < hard && hard < Duration::from_secs(5));
    }

    #[test]
    fn parse_errors_say_what() {
        assert_eq!(
            Limits::parse("depth"),
            Err(GoError::MissingValue("depth".into()))
        );
        assert_eq!(
            Limits::parse("nodes -5"),
            Err(GoError::BadValue {
                name: "nodes".into(),
                value: "-5".into()
            })
        );
        assert_eq!(
            Limits::parse("wtime -20").expect("test data").time[0],
            Some(Duration::ZERO)
        );
        let l = Limits::parse("searchmoves e2e4 d2d4 depth 3").expect("test data");
        assert_eq!(l.search_moves, ["e2e4", "d2d4"]);
        assert_eq!(l.depth, Some(3));
        assert!(Limits::parse("infinite").expect("test data").infinite);
    }

    #[test]
    fn budgets() {
        let none = Duration::ZERO;
        let b = Budget::new(
            &Limits::move_time(Duration::from_millis(1000)),
            Color::White,
            none,
        );
        assert_eq!(b.hard, Some(Duration::from_millis(1000)));
        let b = Budget::new(&Limits::depth(5), Color::White, none);
        assert_eq!(b.hard, None);
        // Low on time: never plan to use more than two thirds of what is left.
        let l = Limits::parse("wtime 50 btime 50 movestogo 1").expect("test data");
        let b = Budget::new(&l, Color::Black, none);
        assert!(b.hard.expect("test data") <= Duration::from_millis(34));
    }
}
