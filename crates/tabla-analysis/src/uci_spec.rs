//! A UCI program to start ([`UciSpec`]): its path, arguments, options (`Name=Value`) and the
//! [`Timeouts`] after which it counts as hung.

use super::request::Budget;
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

/// How long tabla waits for a UCI engine before it counts as hung and is killed.
///
/// A search's limit follows from its budget ([`Timeouts::search_limit`]): the move time plus a
/// margin, a node count at a deliberately slow speed, a fixed bound for a depth (which has no
/// natural one), and none for an infinite search, which ends when stopped.
///
/// ```
/// use std::time::Duration;
/// use tabla_analysis::{Budget, Timeouts};
/// let t = Timeouts::default();
/// assert_eq!(
///     t.search_limit(Budget::MoveTime(Duration::from_millis(500))),
///     Some(Duration::from_millis(500) + t.movetime_margin)
/// );
/// assert_eq!(t.search_limit(Budget::Infinite), None);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// For `uciok` after `uci` and for every `readyok` after `isready` (default 10 s).
    pub handshake: Duration,
    /// Added to a `movetime` budget (default 5 s), and the least a node budget gets.
    pub movetime_margin: Duration,
    /// The speed assumed of the slowest engine on the slowest machine, to bound a node budget
    /// (default 20,000 nodes a second: a million nodes may take 55 s).
    pub min_nps: u64,
    /// The bound of a depth budget (default 5 minutes).
    pub depth: Duration,
    /// For `bestmove` after `stop` (default 5 s).
    pub stop_grace: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            handshake: Duration::from_secs(10),
            movetime_margin: Duration::from_secs(5),
            min_nps: 20_000,
            depth: Duration::from_secs(300),
            stop_grace: Duration::from_secs(5),
        }
    }
}

impl Timeouts {
    /// How long a search of `budget` may take before the engine counts as hung; `None` for an
    /// infinite search.
    pub fn search_limit(&self, budget: Budget) -> Option<Duration> {
        match budget {
            Budget::MoveTime(t) => Some(t.saturating_add(self.movetime_margin)),
            Budget::Nodes(n) => {
                let seconds = n as f64 / self.min_nps.max(1) as f64;
                let slow = Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX);
                Some(slow.saturating_add(self.movetime_margin))
            }
            Budget::Depth(_) => Some(self.depth),
            Budget::Infinite => None,
        }
    }
}

/// A UCI engine to start: the program, its arguments, options to set (`Name=Value`) and the
/// timeouts it gets.
///
/// ```
/// use tabla_analysis::UciSpec;
/// let spec = UciSpec::new("/usr/games/stockfish").option("Hash", "64").option_text("Threads=1");
/// let spec = spec.unwrap();
/// assert_eq!(spec.options, [("Hash".to_owned(), "64".to_owned()), ("Threads".into(), "1".into())]);
/// assert!(UciSpec::new("x").option_text("Hash").is_err());
/// ```
#[derive(Clone, Debug)]
pub struct UciSpec {
    /// The program.
    pub path: PathBuf,
    /// Its command-line arguments.
    pub args: Vec<OsString>,
    /// Options set after the handshake, in order. Every one must be among those the engine
    /// lists. Unless one of them is `Threads`, tabla sets `Threads=1` (when the engine has it).
    pub options: Vec<(String, String)>,
    /// When the engine counts as hung.
    pub timeouts: Timeouts,
}

/// An option written other than `Name=Value`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not an engine option: expected Name=Value, such as Hash=64")]
pub struct OptionSyntaxError {
    /// The text.
    pub text: String,
}

impl UciSpec {
    /// The program at `path`, without arguments or options, with default timeouts.
    pub fn new(path: impl Into<PathBuf>) -> UciSpec {
        UciSpec {
            path: path.into(),
            args: Vec::new(),
            options: Vec::new(),
            timeouts: Timeouts::default(),
        }
    }

    /// Adds a command-line argument.
    pub fn arg(mut self, arg: impl Into<OsString>) -> UciSpec {
        self.args.push(arg.into());
        self
    }

    /// Adds an option to set.
    pub fn option(mut self, name: impl Into<String>, value: impl Into<String>) -> UciSpec {
        self.options.push((name.into(), value.into()));
        self
    }

    /// Adds an option written `Name=Value` (as a command line gives it): see
    /// [`UciSpec::option_pair`].
    pub fn option_text(self, text: &str) -> Result<UciSpec, OptionSyntaxError> {
        let (name, value) = UciSpec::option_pair(text)?;
        Ok(self.option(name, value))
    }

    /// An option written `Name=Value` as its name and value: the name may hold spaces
    /// (`Clear Hash=`), the value is everything after the first `=`, both trimmed.
    ///
    /// ```
    /// use tabla_analysis::UciSpec;
    /// assert_eq!(UciSpec::option_pair("Skill Level = 5").unwrap(), ("Skill Level".into(), "5".into()));
    /// assert!(UciSpec::option_pair("=5").is_err());
    /// ```
    pub fn option_pair(text: &str) -> Result<(String, String), OptionSyntaxError> {
        match text.split_once('=') {
            Some((name, value)) => UciSpec::option_parts(name, value),
            None => Err(OptionSyntaxError {
                text: text.to_owned(),
            }),
        }
    }

    /// An option given as its name and value apart (Python's `{"Hash": 64}`), held to the
    /// rule of [`UciSpec::option_pair`]: a name not empty and without `=`, both trimmed.
    ///
    /// ```
    /// use tabla_analysis::UciSpec;
    /// assert_eq!(UciSpec::option_parts(" Hash ", "64").unwrap(), ("Hash".into(), "64".into()));
    /// assert!(UciSpec::option_parts("Hash=64", "32").is_err());
    /// assert!(UciSpec::option_parts(" ", "32").is_err());
    /// ```
    pub fn option_parts(name: &str, value: &str) -> Result<(String, String), OptionSyntaxError> {
        let name = name.trim();
        if name.is_empty() || name.contains('=') {
            return Err(OptionSyntaxError {
                text: format!("{name}={value}"),
            });
        }
        Ok((name.to_owned(), value.trim().to_owned()))
    }

    /// Sets the timeouts.
    pub fn timeouts(mut self, timeouts: Timeouts) -> UciSpec {
        self.timeouts = timeouts;
        self
    }
}
