//! The game tree: tags, the start position, and lines of nodes, each node a move with its
//! notations, annotations, variations and the position after it.

use crate::{Comment, Eval, Location, Nag, Outcome, PgnError};
use std::time::Duration;
use tabla::{Move, Position, long_without_suffix};

/// A game read from PGN.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// The game's number among the games read (from 1).
    pub number: u64,
    /// Where the game starts in the input.
    pub location: Location,
    /// The tag pairs in the order written (names and values decoded).
    pub tags: Vec<(String, String)>,
    /// The start position; `None` when the tags give none that can be played (see `problems`).
    pub start: Option<Position>,
    /// The moves played from the start position, with their variations.
    pub moves: Line,
    /// The termination marker of the movetext, when there was one.
    pub outcome: Option<Outcome>,
    /// What went wrong while reading, in the order met: at most one error (the mainline stopped
    /// there, see [`Game::error`]) and any number of warnings (repairs, side lines cut short:
    /// [`Game::warnings`]). No problem ever ends the reading of the games after this one.
    pub problems: Vec<PgnError>,
}

/// A sequence of moves: the mainline, or a variation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Line {
    /// The moves.
    pub nodes: Vec<Node>,
    /// Comments at the end of the line that follow no move directly (after a variation, or in
    /// a line without moves).
    pub comments: Vec<Comment>,
}

/// A move in a line.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The move ([`Move::NULL`] for a null move).
    pub mv: Move,
    /// The move as written in the input.
    pub san_written: String,
    /// The canonical SAN, with `+` or `#` (`--` for a null move).
    pub san: String,
    /// Comments before the move (at the start of a line, or after a variation).
    pub comments_before: Vec<Comment>,
    /// NAGs written before the move (a variation may open with one).
    pub nags_before: Vec<Nag>,
    /// NAGs and suffix glyphs after the move.
    pub nags: Vec<Nag>,
    /// Comments after the move.
    pub comments_after: Vec<Comment>,
    /// Variations: alternatives to this move, each from the position before it.
    pub variations: Vec<Line>,
    /// The position after the move.
    pub position: Position,
}

impl Node {
    /// `mv` played in `before`: a node with the move's SAN (as written too), the position
    /// after it, and no comments, NAGs or variations yet.
    ///
    /// ```
    /// use tabla::Position;
    /// use tabla_pgn::Node;
    /// let start = Position::startpos();
    /// let e4 = start.parse_san("e4").unwrap();
    /// let node = Node::played(&start, e4).unwrap();
    /// assert_eq!((node.san.as_str(), node.uci()), ("e4", "e2e4".to_owned()));
    /// assert!(Node::played(&node.position, e4).is_err());
    /// ```
    pub fn played(before: &Position, mv: Move) -> Result<Node, tabla::IllegalMoveError> {
        let mut position = before.clone_without_history();
        position.play(mv)?;
        let san = before.san(mv);
        Ok(Node {
            mv,
            san_written: san.clone(),
            san,
            comments_before: Vec::new(),
            nags_before: Vec::new(),
            nags: Vec::new(),
            comments_after: Vec::new(),
            variations: Vec::new(),
            position,
        })
    }

    /// The long algebraic form (`Ng1-f3`, `e7-e8=Q+`, `O-O`), or `--` for a null move.
    pub fn long(&self) -> String {
        if self.mv.is_null() {
            return "--".to_owned();
        }
        let mut s = long_without_suffix(self.mv);
        s.push_str(self.position.check_suffix());
        s
    }

    /// The move in UCI (`g1f3`, `e7e8q`), or `0000` for a null move.
    pub fn uci(&self) -> String {
        self.position.uci(self.mv)
    }

    /// The FEN of the position after the move.
    pub fn fen(&self) -> String {
        self.position.to_fen()
    }

    /// The evaluation after the move: the first `[%eval]` of the comments after it (as every
    /// reader of a game takes it: `tabla pgn json`, reviews from `[%eval]`, Python).
    ///
    /// ```
    /// use tabla_pgn::{Eval, Reader};
    /// let pgn = "1. e4 {[%eval 0.17] [%clk 0:05:01]} {a second comment} e5 *";
    /// let game = Reader::new(pgn.as_bytes()).games().next().unwrap().unwrap();
    /// let e4 = &game.moves.nodes[0];
    /// assert_eq!(e4.eval(), Some(Eval::Cp(17)));
    /// assert_eq!(e4.clock().map(|d| d.as_secs()), Some(301));
    /// assert_eq!(e4.comment_texts().collect::<Vec<_>>(), ["a second comment"]);
    /// ```
    pub fn eval(&self) -> Option<Eval> {
        Node::first(&self.comments_after, |c| c.eval)
    }

    /// The clock after the move: the first `[%clk]` of the comments after it.
    pub fn clock(&self) -> Option<Duration> {
        Node::first(&self.comments_after, |c| c.clock)
    }

    /// The time the move took: the first `[%emt]` of the comments after it.
    pub fn emt(&self) -> Option<Duration> {
        Node::first(&self.comments_after, |c| c.emt)
    }

    /// The evaluation before the move, written in a comment before it (the start of a line).
    pub fn eval_before(&self) -> Option<Eval> {
        Node::first(&self.comments_before, |c| c.eval)
    }

    /// The texts of the comments after the move, without those that held only commands.
    pub fn comment_texts(&self) -> impl Iterator<Item = &str> {
        Node::texts(&self.comments_after)
    }

    /// The texts of the comments before the move, without those that held only commands.
    pub fn comment_texts_before(&self) -> impl Iterator<Item = &str> {
        Node::texts(&self.comments_before)
    }

    fn first<T>(comments: &[Comment], get: impl Fn(&Comment) -> Option<T>) -> Option<T> {
        comments.iter().find_map(get)
    }

    fn texts(comments: &[Comment]) -> impl Iterator<Item = &str> {
        comments
            .iter()
            .map(|c| c.text.as_str())
            .filter(|t| !t.is_empty())
    }
}

impl Game {
    /// The tags in the order written, a repeated name once, with its first value (as
    /// [`Game::tag`] reads it).
    ///
    /// ```
    /// use tabla_pgn::Reader;
    /// let pgn = "[White \"A\"]\n[Black \"B\"]\n[White \"C\"]\n\n1. e4 *";
    /// let game = Reader::new(pgn.as_bytes()).games().next().unwrap().unwrap();
    /// let tags: Vec<(&str, &str)> = game.distinct_tags().collect();
    /// assert_eq!(tags, [("White", "A"), ("Black", "B")]);
    /// ```
    pub fn distinct_tags(&self) -> impl Iterator<Item = (&str, &str)> {
        self.tags
            .iter()
            .enumerate()
            .filter_map(|(i, (name, value))| {
                self.tags[..i]
                    .iter()
                    .all(|(n, _)| n != name)
                    .then_some((name.as_str(), value.as_str()))
            })
    }

    /// The value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The mainline's nodes.
    pub fn mainline(&self) -> impl DoubleEndedIterator<Item = &Node> + ExactSizeIterator {
        self.moves.nodes.iter()
    }

    /// The position after the last mainline move (the start position when there is none);
    /// `None` when the game has no start position.
    pub fn final_position(&self) -> Option<&Position> {
        self.moves
            .nodes
            .last()
            .map(|n| &n.position)
            .or(self.start.as_ref())
    }

    /// The error that stopped the game early, if any ([`crate::Severity::Error`]).
    pub fn error(&self) -> Option<&PgnError> {
        self.problems.iter().find(|p| !p.is_warning())
    }

    /// The warnings: what was repaired or cut short while the mainline stayed complete
    /// ([`crate::Severity::Warning`]).
    pub fn warnings(&self) -> impl Iterator<Item = &PgnError> {
        self.problems.iter().filter(|p| p.is_warning())
    }

    /// The result in the export format's form (`1-0`, `0-1`, `1/2-1/2`, `*`), as
    /// [`crate::game_result`] decides it: the `Result` tag in any spelling unless it says `*`,
    /// else the termination marker, else `*`.
    ///
    /// ```
    /// use tabla_pgn::Reader;
    /// let pgn = "[Result \"1/2\"]\n1. e4 e5 *";
    /// let game = Reader::new(pgn.as_bytes()).games().next().unwrap().unwrap();
    /// assert_eq!(game.result(), "1/2-1/2");
    /// ```
    pub fn result(&self) -> &'static str {
        self.result_outcome().as_str()
    }

    /// The result as an [`Outcome`] (see [`Game::result`]).
    pub fn result_outcome(&self) -> Outcome {
        crate::game_result(self.tag("Result"), self.outcome).outcome
    }

    /// Writes the game's problems (errors and repairs, [`PgnError::report`]) into it as one
    /// comment `{tabla: ...}` before its first move (`tabla pgn fmt --note-repairs`), so that
    /// they travel with the game; nothing when it has none.
    ///
    /// ```
    /// use tabla_pgn::{Reader, write_game};
    /// // 2. Ke3 is not legal: the game stops after 1... e5, with an error.
    /// let pgn = "1. e4 e5 2. Ke3 *";
    /// let mut game = Reader::new(pgn.as_bytes()).games().next().unwrap().unwrap();
    /// assert!(game.error().is_some());
    /// game.note_problems();
    /// let written = write_game(&game);
    /// assert!(written.contains("{ tabla: ") && written.contains("Ke3"), "{written}");
    /// assert!(written.contains("1. e4 e5"), "{written}");
    /// ```
    pub fn note_problems(&mut self) {
        if self.problems.is_empty() {
            return;
        }
        let note: Vec<String> = self.problems.iter().map(PgnError::report).collect();
        let comment = Comment::parse(&format!("tabla: {}", note.join("; ")));
        match self.moves.nodes.first_mut() {
            Some(first) => first.comments_before.insert(0, comment),
            None => self.moves.comments.insert(0, comment),
        }
    }
}
