//! A light replay for checking files and listing positions: the mainline's length, its FENs if
//! asked, the final position and the errors, without building a tree.

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
    /// The errors, in the order met.
    pub errors: Vec<PgnError>,
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
                errors: Vec::new(),
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
        self.summary.errors.clear();
    }

    fn end_tags(&mut self) -> Skip {
        Skip(false)
    }

    fn start_position(&mut self, pos: &Position) {
        if self.with_fens {
            self.summary.fens.push(crate::fen(pos));
        }
        self.summary.final_position = Some(pos.clone_without_history());
    }

    fn before_move(&mut self, _pos: &Position, _mv: Move, _token: crate::SanToken<'_>) {}

    fn after_move(&mut self, pos: &Position) {
        if self.depth == 0 {
            self.summary.plies += 1;
            if self.with_fens {
                self.summary.fens.push(crate::fen(pos));
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
        self.summary.errors.push(error);
    }

    fn end_game(&mut self) -> GameSummary {
        GameSummary {
            fens: std::mem::take(&mut self.summary.fens),
            final_position: self.summary.final_position.take(),
            errors: std::mem::take(&mut self.summary.errors),
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
    /// Errors found.
    pub errors: u64,
}

impl std::fmt::Display for CheckTotals {
    /// `games <G>, moves <M>, errors <E>`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "games {}, moves {}, errors {}",
            self.games, self.moves, self.errors
        )
    }
}

/// Replays every game of `input` with legality, calling `on_game` with each game's summary
/// (mainline FENs included when `with_fens`), and returns the totals. An error returned by
/// `on_game` (say, a closed output) stops the reading and is returned.
///
/// ```
/// use tabla_pgn::check;
/// let pgn = "1. e4 e5 2. Ke3 *\n\n1. d4 d5 *\n";
/// let mut errors = Vec::new();
/// let totals = check(pgn.as_bytes(), false, |g| {
///     errors.extend(g.errors.iter().map(|e| e.to_string()));
///     Ok(())
/// })
/// .unwrap();
/// assert_eq!(totals.to_string(), "games 2, moves 4, errors 1");
/// assert_eq!(errors, ["game 1, 1:13, move 2.: \"Ke3\": illegal move in this position"]);
/// ```
pub fn check<R: Read>(
    input: R,
    with_fens: bool,
    mut on_game: impl FnMut(&GameSummary) -> io::Result<()>,
) -> io::Result<CheckTotals> {
    let mut reader = Reader::new(input);
    let mut visitor = Replayer::new(Summarize::new(with_fens));
    let mut totals = CheckTotals::default();
    while let Some(summary) = reader.read_game(&mut visitor)? {
        totals.games += 1;
        totals.moves += summary.plies as u64;
        totals.errors += summary.errors.len() as u64;
        on_game(&summary)?;
    }
    Ok(totals)
}
