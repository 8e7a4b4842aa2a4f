//! A light replay for checking files and listing positions: the mainline's length, its FENs if
//! asked, the final position and the problems (errors and warnings), without building a tree.

use crate::{GameStart, Location, PgnError, Reader, ReplayVisitor, Replayer, Skip};
use std::io::{self, Read};
use tabla::{Move, Position};

/// What [`Summarize`] reports about one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    /// The game's number among the games read (from 1).
    pub number: u64,
    /// Where the game starts.
    pub location: Location,
    /// Mainline moves played (up to the first error in the mainline).
    pub plies: usize,
    /// The start position and the position after every mainline move, as FEN, when asked for.
    pub fens: Vec<String>,
    /// The position after the last mainline move; `None` when the game has no start position.
    pub final_position: Option<Position>,
    /// The problems, in the order met: at most one error, any number of warnings (see
    /// [`crate::Game::problems`]).
    pub problems: Vec<PgnError>,
}

impl GameSummary {
    /// The error that stopped the game early, if any.
    pub fn error(&self) -> Option<&PgnError> {
        self.problems.iter().find(|p| !p.is_warning())
    }

    /// The warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &PgnError> {
        self.problems.iter().filter(|p| p.is_warning())
    }
}

/// A [`ReplayVisitor`] giving a [`GameSummary`] per game; variations are replayed for their
/// legality but not counted.
#[derive(Debug)]
pub struct Summarize {
    with_fens: bool,
    depth: usize,
    summary: GameSummary,
}

impl Summarize {
    /// A summariser; `with_fens` keeps the FEN of every mainline position.
    pub fn new(with_fens: bool) -> Summarize {
        Summarize {
            with_fens,
            depth: 0,
            summary: GameSummary {
                number: 0,
                location: Location::default(),
                plies: 0,
                fens: Vec::new(),
                final_position: None,
                problems: Vec::new(),
            },
        }
    }
}

impl ReplayVisitor for Summarize {
    type Output = GameSummary;

    fn begin_game(&mut self, start: GameStart) {
        self.depth = 0;
        self.summary.number = start.number;
        self.summary.location = start.location;
        self.summary.plies = 0;
        self.summary.fens.clear();
        self.summary.final_position = None;
        self.summary.problems.clear();
    }

    fn end_tags(&mut self) -> Skip {
        Skip(false)
    }

    fn start_position(&mut self, pos: &Position) {
        if self.with_fens {
            self.summary.fens.push(pos.to_fen());
        }
        self.summary.final_position = Some(pos.clone_without_history());
    }

    fn before_move(&mut self, _pos: &Position, _mv: Move, _token: crate::SanToken<'_>) {}

    fn after_move(&mut self, pos: &Position) {
        if self.depth == 0 {
            self.summary.plies += 1;
            if self.with_fens {
                self.summary.fens.push(pos.to_fen());
            }
            self.summary.final_position = Some(pos.clone_without_history());
        }
    }

    fn begin_variation(&mut self) -> Skip {
        self.depth += 1;
        Skip(false)
    }

    fn end_variation(&mut self) {
        self.depth -= 1;
    }

    fn error(&mut self, error: PgnError) {
        self.summary.problems.push(error);
    }

    fn end_game(&mut self) -> GameSummary {
        GameSummary {
            fens: std::mem::take(&mut self.summary.fens),
            final_position: self.summary.final_position.take(),
            problems: std::mem::take(&mut self.summary.problems),
            ..self.summary
        }
    }
}

/// Totals over a file, as `tabla pgn check` prints them.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckTotals {
    /// Games read.
    pub games: u64,
    /// Mainline moves replayed.
    pub moves: u64,
    /// Games that stopped early (each has one [`crate::Severity::Error`]).
    pub errors: u64,
    /// Warnings, over all games.
    pub warnings: u64,
}

impl std::fmt::Display for CheckTotals {
    /// `games <G>, moves <M>, errors <E>, warnings <W>`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "games {}, moves {}, errors {}, warnings {}",
            self.games, self.moves, self.errors, self.warnings
        )
    }
}

/// Replays every game of `input` with legality, calling `on_game` with each game's summary
/// (mainline FENs included when `with_fens`), and returns the totals. An error returned by
/// `on_game` (say, a closed output) stops the reading and is returned.
///
/// ```
/// use tabla_pgn::check;
/// let pgn = "1. e4 e5 2. Ke3 *\n\n1. d4 d5 } *\n";
/// let mut problems = Vec::new();
/// let totals = check(pgn.as_bytes(), false, |g| {
///     problems.extend(g.problems.iter().map(|e| e.to_string()));
///     Ok(())
/// })
/// .unwrap();
/// assert_eq!(totals.to_string(), "games 2, moves 4, errors 1, warnings 1");
/// assert_eq!(problems, [
///     "game 1, 1:13, move 2.: \"Ke3\": illegal move in this position",
///     "game 2, 3:10, move 2.: \"}\": unexpected character, skipped",
/// ]);
/// ```
pub fn check<R: Read>(
    input: R,
    with_fens: bool,
    mut on_game: impl FnMut(&GameSummary) -> io::Result<()>,
) -> io::Result<CheckTotals> {
    let mut reader = Reader::new(input);
    let mut visitor =
        Replayer::new(Summarize::new(with_fens)).with_max_depth(crate::MAX_TREE_DEPTH);
    let mut totals = CheckTotals::default();
    while let Some(summary) = reader.read_game(&mut visitor)? {
        totals.games += 1;
        totals.moves += summary.plies as u64;
        let warnings = summary.problems.iter().filter(|p| p.is_warning()).count();
        totals.errors += u64::from(warnings < summary.problems.len());
        totals.warnings += warnings as u64;
        on_game(&summary)?;
    }
    Ok(totals)
}
