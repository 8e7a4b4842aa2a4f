//! What can go wrong with an engine, and how an error names the engine and quotes what it said.

use std::fmt;
use std::path::Path;
use std::time::Duration;

/// Which engine an error or a result is about: its path (or `in process`) and, once its handshake
/// told it, the name it gives itself (`id name`).
///
/// ```
/// use tabla_analysis::EngineId;
/// let id = EngineId::new("/usr/games/stockfish", Some("Stockfish 15.1".into()));
/// assert_eq!(id.to_string(), "Stockfish 15.1 (/usr/games/stockfish)");
/// assert_eq!(EngineId::new("./engine", None).to_string(), "./engine");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineId {
    /// The program's path as given, or `in process` for tabla's own engine.
    pub path: String,
    /// The engine's `id name`, once known.
    pub name: Option<String>,
}

impl EngineId {
    /// An engine known by `path` and, if it said one, its name.
    pub fn new(path: impl AsRef<Path>, name: Option<String>) -> EngineId {
        EngineId {
            path: path.as_ref().display().to_string(),
            name,
        }
    }
}

impl EngineId {
    /// The engine's name as it gives it (`Stockfish 15.1`), or its path when it gives none: how
    /// an answer names the engine that gave it, and the key of its cached evaluations.
    pub fn label(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.path)
    }
}

impl fmt::Display for EngineId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.name {
            Some(name) => write!(f, "{name} ({})", self.path),
            None => f.write_str(&self.path),
        }
    }
}

/// What an engine said, clipped to a few hundred characters and shown quoted, with control
/// characters escaped, so that an error can cite a misbehaving engine without flooding the
/// terminal with its output.
///
/// ```
/// use tabla_analysis::Said;
/// assert_eq!(Said::line("info depth x").to_string(), r#""info depth x""#);
/// assert_eq!(Said::line("\u{1b}[31m").to_string(), r#""\u{1b}[31m""#);
/// assert_eq!(Said::line("").to_string(), "nothing");
/// let long = "x".repeat(1000);
/// assert!(Said::line(&long).to_string().len() < 300);
/// assert!(Said::last_words(&format!("{long}END")).to_string().ends_with("END\""));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Said {
    text: String,
    /// Characters left out: at the end for [`Said::line`], at the start for
    /// [`Said::last_words`].
    clipped: Clipped,
}

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
enum Clipped {
    #[default]
    Nothing,
    End,
    Start,
}

/// The most characters of an engine's text an error quotes.
const QUOTE_CHARS: usize = 240;

impl Said {
    /// One line the engine printed: its beginning is kept.
    pub fn line(text: &str) -> Said {
        match text.char_indices().nth(QUOTE_CHARS) {
            Some((cut, _)) => Said {
                text: text[..cut].to_owned(),
                clipped: Clipped::End,
            },
            None => Said {
                text: text.to_owned(),
                clipped: Clipped::Nothing,
            },
        }
    }

    /// The last things an engine printed before it failed: the end is kept.
    pub fn last_words(text: &str) -> Said {
        let count = text.chars().count();
        if count <= QUOTE_CHARS {
            return Said::line(text);
        }
        let cut = text
            .char_indices()
            .nth(count - QUOTE_CHARS)
            .map_or(0, |(i, _)| i);
        Said {
            text: text[cut..].to_owned(),
            clipped: Clipped::Start,
        }
    }

    /// The quoted text, without the marks of clipping.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// `true` when the engine said nothing.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }
}

impl fmt::Display for Said {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.text.is_empty() {
            return f.write_str("nothing");
        }
        match self.clipped {
            Clipped::Nothing => write!(f, "{:?}", self.text),
            Clipped::End => write!(f, "{:?}…", self.text),
            Clipped::Start => write!(f, "…{:?}", self.text),
        }
    }
}

/// Why an analysis failed. The variants an engine causes by misbehaving are the *faults*
/// ([`EngineError::is_fault`]): its process has been killed, and the next search starts a new
/// one. The others come from the request or the configuration and would fail again the same way.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The program could not be started.
    #[error(
        "could not start the engine {path}: {source} (check the path and that it is executable)"
    )]
    Spawn {
        /// The program's path.
        path: String,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// The engine's process ended (or closed its output) while it was expected to answer.
    #[error("{engine} exited ({status}) while {doing}; its last words: {said}")]
    Crashed {
        /// The engine.
        engine: EngineId,
        /// How it ended: an exit code or a signal.
        status: String,
        /// What it was asked to do: `starting`, `searching`, ...
        doing: &'static str,
        /// The end of what it printed (standard output, then standard error).
        said: Said,
    },
    /// The engine did not answer in time and was killed.
    #[error("{engine} sent no {awaited} within {} s and was killed; its last words: {said}", waited.as_secs_f64())]
    Timeout {
        /// The engine.
        engine: EngineId,
        /// The answer waited for: `uciok`, `readyok`, `bestmove`.
        awaited: &'static str,
        /// How long tabla waited.
        waited: Duration,
        /// The end of what it printed.
        said: Said,
    },
    /// The engine printed a line that is not UCI, or a UCI line that does not parse.
    #[error("{engine} printed what is not UCI ({problem}): {said}")]
    NotUci {
        /// The engine.
        engine: EngineId,
        /// What is wrong with the line.
        problem: String,
        /// The line.
        said: Said,
    },
    /// A move in the engine's principal variation or `bestmove` is not legal where it stands.
    #[error(transparent)]
    IllegalMove(Box<IllegalMove>),
    /// The engine ended a search it was not asked to stop without reporting any score.
    #[error("{engine} answered {said} without reporting a score")]
    NoScore {
        /// The engine.
        engine: EngineId,
        /// Its `bestmove` line.
        said: Said,
    },
    /// An option given for the engine is not among those it lists.
    #[error("{engine} has no option {name:?}; it lists: {}", .known.join(", "))]
    UnknownOption {
        /// The engine.
        engine: EngineId,
        /// The option asked for.
        name: String,
        /// The options the engine lists.
        known: Vec<String>,
    },
    /// An option's value is not one the engine declares acceptable.
    #[error("{engine}: option {name} cannot be {value:?}: {expected}")]
    BadOptionValue {
        /// The engine.
        engine: EngineId,
        /// The option.
        name: String,
        /// The value asked for.
        value: String,
        /// What the engine accepts.
        expected: String,
    },
    /// The request needs something the engine does not offer (several lines without `MultiPV`,
    /// a Chess960 position without `UCI_Chess960`).
    #[error("{engine} cannot {what}: it has no option {option}")]
    Unsupported {
        /// The engine.
        engine: EngineId,
        /// What was asked.
        what: String,
        /// The UCI option it would need.
        option: &'static str,
    },
    /// The request itself is wrong (no lines asked for, a zero budget).
    #[error("bad analysis request: {problem}")]
    BadRequest {
        /// What is wrong.
        problem: String,
    },
    /// A panic in tabla's code while this engine searched (a bug): the engine was replaced.
    #[error("{engine}: the analysis panicked: {message}")]
    Panicked {
        /// The engine.
        engine: EngineId,
        /// The panic's message.
        message: String,
    },
    /// The pool was cancelled or dropped before the job ran.
    #[error("job {id} was cancelled before it ran")]
    Cancelled {
        /// The job's id.
        id: u64,
    },
}

/// The details of [`EngineError::IllegalMove`].
#[derive(Debug, thiserror::Error)]
#[error("{engine} gave the move {text:?}, illegal in {fen} ({place}): {said}")]
pub struct IllegalMove {
    /// The engine.
    pub engine: EngineId,
    /// The move as the engine wrote it.
    pub text: String,
    /// The position (FEN) in which it is illegal.
    pub fen: String,
    /// Where it stood: `bestmove`, or the move's place in a principal variation.
    pub place: String,
    /// The engine's line.
    pub said: Said,
}

impl EngineError {
    /// `true` for an engine's misbehaviour (crash, hang, output that is not UCI, an illegal
    /// move, a search without a score): its process is gone, and asking again starts a fresh
    /// one, which may well succeed. `false` for errors that would repeat.
    ///
    /// ```
    /// use tabla_analysis::EngineError;
    /// let bad = EngineError::BadRequest { problem: "multipv 0".into() };
    /// assert!(!bad.is_fault());
    /// ```
    pub fn is_fault(&self) -> bool {
        matches!(
            self,
            EngineError::Crashed { .. }
                | EngineError::Timeout { .. }
                | EngineError::NotUci { .. }
                | EngineError::IllegalMove { .. }
                | EngineError::NoScore { .. }
                | EngineError::Panicked { .. }
        )
    }

    /// `true` when the engine hung: it sent nothing it was waiting for within its time limit
    /// ([`EngineError::Timeout`]). A hang is not retried, and it stops a review
    /// ([`crate::Reviewer`]): the engine was given its whole time limit once, and an engine that
    /// hangs once usually hangs again.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tabla_analysis::{EngineError, EngineId, Said};
    /// let hung = EngineError::Timeout {
    ///     engine: EngineId::new("./engine", None),
    ///     awaited: "bestmove",
    ///     waited: Duration::from_secs(3),
    ///     said: Said::default(),
    /// };
    /// assert!(hung.is_hang() && hung.is_fault());
    /// ```
    pub fn is_hang(&self) -> bool {
        matches!(self, EngineError::Timeout { .. })
    }
}
