//! Editing a game's tree: moves added (a continuation, or a new variation), deleted, the
//! alternatives at a position reordered (promote, demote, make a line the main one), and the
//! comments and NAGs of a move set. Each operation is a method of [`Game`] addressed by a
//! [`MovePath`]; an illegal move or a path that leads nowhere is an [`EditError`] and changes
//! nothing. What an edit does not touch stays as it was read: comment text and commands, NAG
//! order, tag order, variations elsewhere and how they nest.
//!
//! The alternatives at a position are the moves that may be played there, in order: the line's
//! own move first, then each variation's first move. A variation written inside another one's
//! first move (`1. e4 (1. d4 (1. c4)) e5`) is one more alternative at the same position, as
//! python-chess reads it; reordering the alternatives of a position writes them side by side
//! (`1. e4 (1. d4) (1. c4) e5`), and nowhere else.

use crate::{Comment, Game, Line, MAX_TREE_DEPTH, Nag, Node, Outcome};
use std::fmt;
use std::str::FromStr;
use tabla::{IllegalMoveError, Move, Position, SanError, SanMode};

/// Where a move stands in a game's tree.
///
/// The first number is the move's index in the mainline (from 0); each further pair enters a
/// variation: which variation of the move reached so far (from 0), then the move's index in it.
/// The text form joins the numbers with dots: `4` is the mainline's fifth move, `4.0.1` the
/// second move of the first variation of that move (a line played instead of it).
///
/// ```
/// use tabla_pgn::MovePath;
/// let path: MovePath = "4.0.1".parse().unwrap();
/// assert_eq!(path.parts(), [4, 0, 1]);
/// assert_eq!(path.to_string(), "4.0.1");
/// assert_eq!(path.depth(), 1);
/// assert!("4.0".parse::<MovePath>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MovePath(Vec<usize>);

impl MovePath {
    /// The mainline's move `index` (from 0).
    pub fn mainline(index: usize) -> MovePath {
        MovePath(vec![index])
    }

    /// The numbers: the mainline index, then (variation, index) pairs.
    pub fn parts(&self) -> &[usize] {
        &self.0
    }

    /// How many variations deep the move is (0 in the mainline).
    pub fn depth(&self) -> usize {
        self.0.len() / 2
    }

    /// The move `steps` further along the same line.
    pub fn forward(&self, steps: usize) -> MovePath {
        let mut parts = self.0.clone();
        if let Some(last) = parts.last_mut() {
            *last += steps;
        }
        MovePath(parts)
    }

    /// The first move of variation `variation` of this move.
    pub fn variation(&self, variation: usize) -> MovePath {
        let mut parts = self.0.clone();
        parts.extend([variation, 0]);
        MovePath(parts)
    }

    /// The first move of the line the move is in: the variation's first move (what "promote
    /// this variation" moves), or the mainline's.
    ///
    /// ```
    /// use tabla_pgn::MovePath;
    /// let path: MovePath = "4.0.3".parse().unwrap();
    /// assert_eq!(path.line_start().to_string(), "4.0.0");
    /// assert_eq!(MovePath::mainline(4).line_start(), MovePath::mainline(0));
    /// ```
    pub fn line_start(&self) -> MovePath {
        self.with_index(0)
    }

    /// The index of the move in its line.
    pub fn index(&self) -> usize {
        self.0.last().copied().unwrap_or(0)
    }

    /// The path of the move of the enclosing line that this move's variation hangs from
    /// (`None` in the mainline).
    fn holder(&self) -> Option<MovePath> {
        (self.0.len() >= 3).then(|| MovePath(self.0[..self.0.len() - 2].to_vec()))
    }
}

/// The text form's numbers are not a mainline index and (variation, index) pairs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{text:?} is not a move's path: expected numbers joined by dots, an odd count of them (4, 4.0.1)"
)]
pub struct ParsePathError {
    /// The text.
    pub text: String,
}

impl FromStr for MovePath {
    type Err = ParsePathError;

    fn from_str(text: &str) -> Result<MovePath, ParsePathError> {
        let error = || ParsePathError {
            text: text.to_owned(),
        };
        let parts = text
            .split('.')
            .map(|part| part.parse::<usize>().map_err(|_| error()))
            .collect::<Result<Vec<_>, _>>()?;
        if parts.len() % 2 == 0 {
            return Err(error());
        }
        Ok(MovePath(parts))
    }
}

impl fmt::Display for MovePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, part) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "{part}")?;
        }
        Ok(())
    }
}

/// Why an edit was refused (the game is unchanged).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// No move stands at the path.
    #[error("no move at {0} in this game")]
    NoSuchMove(MovePath),
    /// The game has no start position to play moves from (its `FEN` tag is not playable).
    #[error("the game has no start position to play from")]
    NoStart,
    /// The move is not legal where it was to be played.
    #[error(transparent)]
    Illegal(#[from] IllegalMoveError),
    /// The move's text is not a legal move there.
    #[error("{text:?}: {source}")]
    Notation {
        /// The text.
        text: String,
        /// Why.
        source: SanError,
    },
    /// A new variation would nest deeper than [`MAX_TREE_DEPTH`].
    #[error("a variation nested deeper than {MAX_TREE_DEPTH} levels")]
    TooDeep,
    /// A tag name with a blank, `"`, `[` or `]`, or a value of more than one line.
    #[error(
        "tag {name:?} {value:?}: a name is one word without quotes or brackets, a value one line"
    )]
    BadTag {
        /// The name.
        name: String,
        /// The value.
        value: String,
    },
    /// The start position of a game with moves cannot change (they were played from it).
    #[error("the game has moves: its start position cannot change (delete them first)")]
    HasMoves,
    /// A comment before a move that follows another move directly (no variation between them)
    /// would be read back as that move's comment: set the comment after it instead.
    #[error("a comment before the move at {0} reads as the previous move's: comment that one")]
    NoPlaceBefore(MovePath),
    /// The move has no alternative to swap with on that side (promoting the first, demoting
    /// the last).
    #[error("the move at {0} has no alternative to trade places with there")]
    NoAlternative(MovePath),
}

/// Where the comments of [`Game::set_comment`] go.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CommentPlace {
    /// After the move (`e4 {here}`), where GUIs show a move's comment.
    After,
    /// Before the move (`{here} e4`): the comment that opens a variation or the game, or one
    /// after a move's variations; elsewhere the export format has no place for it
    /// ([`EditError::NoPlaceBefore`]).
    Before,
}

impl Game {
    /// The move at `path`.
    ///
    /// ```
    /// use tabla_pgn::{MovePath, Reader};
    /// let pgn = "1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *";
    /// let game = Reader::new(pgn.as_bytes()).games().next().unwrap().unwrap();
    /// assert_eq!(game.node(&"1.0.1".parse().unwrap()).unwrap().san, "Nf3");
    /// assert!(game.node(&MovePath::mainline(7)).is_none());
    /// ```
    pub fn node(&self, path: &MovePath) -> Option<&Node> {
        let (line, index) = self.line_of(path)?;
        line.nodes.get(index)
    }

    /// The position after the move at `after`, where the next move is played (the start
    /// position for `None`).
    pub fn position_after(&self, after: Option<&MovePath>) -> Option<&Position> {
        match after {
            None => self.start.as_ref(),
            Some(path) => self.node(path).map(|node| &node.position),
        }
    }

    /// Plays `mv` after the move at `after` (`None`: from the start position), as an analysis
    /// board does: when the next move there is `mv`, or an alternative to it is, nothing is
    /// added and its path is returned; when there is no next move the line goes on; otherwise
    /// `mv` starts a new variation, the last alternative. Returns the path of the move.
    ///
    /// ```
    /// use tabla_pgn::{MovePath, Reader, write_game};
    /// let pgn = "1. e4 e5 2. Nf3 *";
    /// let mut game = Reader::new(pgn.as_bytes()).games().next().unwrap().unwrap();
    /// let e4 = MovePath::mainline(0);
    /// // The same move as the game's: nothing new.
    /// assert_eq!(game.add_san(Some(&e4), "e5").unwrap(), MovePath::mainline(1));
    /// // Another move: a variation.
    /// let c5 = game.add_san(Some(&e4), "c5").unwrap();
    /// assert_eq!(c5.to_string(), "1.0.0");
    /// // After the variation's last move: the variation goes on.
    /// assert_eq!(game.add_san(Some(&c5), "Nf3").unwrap().to_string(), "1.0.1");
    /// assert!(write_game(&game).contains("1. e4 e5 ( 1... c5 2. Nf3 ) 2. Nf3 *"));
    /// assert!(game.add_san(Some(&e4), "e4").is_err());
    /// ```
    pub fn add_move(&mut self, after: Option<&MovePath>, mv: Move) -> Result<MovePath, EditError> {
        let node = Node::played(self.position_for(after)?, mv)?;
        let next = match after {
            None => MovePath::mainline(0),
            Some(path) => path.forward(1),
        };
        if let Some(found) = self
            .alternatives(&next)
            .into_iter()
            .find(|p| self.node(p).is_some_and(|n| n.mv == mv))
        {
            return Ok(found);
        }
        let depth = next.depth();
        let (line, index) = self
            .line_of_mut(&next)
            .ok_or_else(|| EditError::NoSuchMove(next.clone()))?;
        if index == line.nodes.len() {
            // What closed the line (after a variation, or in a line without moves) now stands
            // before the new move, where it is read from.
            let mut node = node;
            node.comments_before = std::mem::take(&mut line.comments);
            line.nodes.push(node);
            return Ok(next);
        }
        if depth + 1 > MAX_TREE_DEPTH {
            return Err(EditError::TooDeep);
        }
        let holder = &mut line.nodes[index];
        holder.variations.push(Line {
            nodes: vec![node],
            comments: Vec::new(),
        });
        Ok(next.variation(holder.variations.len() - 1))
    }

    /// [`Game::add_move`] with the move written in SAN, or any notation the core reads
    /// leniently (`Nf3`, `g1f3`, `Ng1-f3`).
    pub fn add_san(&mut self, after: Option<&MovePath>, text: &str) -> Result<MovePath, EditError> {
        let mv = self
            .position_for(after)?
            .parse_san_with(text, SanMode::Lenient)
            .map_err(|source| EditError::Notation {
                text: text.to_owned(),
                source,
            })?;
        self.add_move(after, mv)
    }

    /// The paths of the alternatives at the position of the move at `path`, in order: the
    /// line's move first (empty when no move stands there).
    ///
    /// ```
    /// use tabla_pgn::{MovePath, Reader};
    /// let pgn = "1. e4 (1. d4 (1. c4)) (1. Nf3) e5 *";
    /// let game = Reader::new(pgn.as_bytes()).games().next().unwrap().unwrap();
    /// let sans: Vec<&str> = game
    ///     .alternatives(&MovePath::mainline(0))
    ///     .iter()
    ///     .map(|p| game.node(p).unwrap().san.as_str())
    ///     .collect();
    /// assert_eq!(sans, ["e4", "d4", "c4", "Nf3"]);
    /// ```
    pub fn alternatives(&self, path: &MovePath) -> Vec<MovePath> {
        let anchor = self.anchor(path);
        let Some(first) = self.node(&anchor) else {
            return Vec::new();
        };
        let mut out = vec![anchor.clone()];
        collect_alternatives(first, &anchor, &mut out);
        out
    }

    /// Deletes the move at `path` and every move after it in its line (python-chess's
    /// `remove_variation`, lichess's "delete from here"). The next alternative at that position,
    /// if any, takes its place: in the mainline, the first variation becomes the mainline.
    ///
    /// ```
    /// use tabla_pgn::{MovePath, Reader, write_game};
    /// let pgn = "1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 *";
    /// let mut game = Reader::new(pgn.as_bytes()).games().next().unwrap().unwrap();
    /// game.delete(&MovePath::mainline(1)).unwrap();
    /// assert!(write_game(&game).contains("1. e4 c5 2. Nf3 *"));
    /// game.delete(&MovePath::mainline(0)).unwrap();
    /// assert!(game.moves.nodes.is_empty());
    /// ```
    pub fn delete(&mut self, path: &MovePath) -> Result<(), EditError> {
        let (anchor, slot) = self.slot(path)?;
        self.reorder(&anchor, |alternatives, kept| {
            let removed = alternatives.remove(slot);
            if alternatives.is_empty() {
                // Nothing is played there any more: what stood before the move (a comment after
                // the variations of the move before) stays, at the line's end.
                if let Some(mut first) = removed.nodes.into_iter().next() {
                    kept.append(&mut first.comments_before);
                }
            }
        })
    }

    /// Moves the move at `path` one place earlier among the alternatives at its position
    /// (python-chess's `promote`): the second alternative becomes the line's move.
    ///
    /// ```
    /// use tabla_pgn::{MovePath, Reader, write_game};
    /// let pgn = "1. e4 (1. d4 d5) (1. c4) e5 *";
    /// let mut game = Reader::new(pgn.as_bytes()).games().next().unwrap().unwrap();
    /// let d4: tabla_pgn::MovePath = "0.0.0".parse().unwrap();
    /// game.promote(&d4).unwrap();
    /// assert!(write_game(&game).contains("1. d4 ( 1. e4 e5 ) ( 1. c4 ) 1... d5 *"));
    /// ```
    pub fn promote(&mut self, path: &MovePath) -> Result<(), EditError> {
        let (anchor, slot) = self.slot(path)?;
        if slot == 0 {
            return Err(EditError::NoAlternative(path.clone()));
        }
        self.reorder(&anchor, |alternatives, _| alternatives.swap(slot - 1, slot))
    }

    /// Moves the move at `path` one place later among the alternatives at its position
    /// (python-chess's `demote`).
    pub fn demote(&mut self, path: &MovePath) -> Result<(), EditError> {
        let (anchor, slot) = self.slot(path)?;
        if slot + 1 >= self.alternatives(&anchor).len() {
            return Err(EditError::NoAlternative(path.clone()));
        }
        self.reorder(&anchor, |alternatives, _| alternatives.swap(slot, slot + 1))
    }

    /// Makes the move at `path` the first alternative at its position (python-chess's
    /// `promote_to_main`): the line's move there, with the line's move before it the first of
    /// the others. Returns its new path.
    ///
    /// ```
    /// use tabla_pgn::{MovePath, Reader, write_game};
    /// let pgn = "1. e4 (1. d4) (1. c4 c5) e5 *";
    /// let mut game = Reader::new(pgn.as_bytes()).games().next().unwrap().unwrap();
    /// let c4: MovePath = "0.1.0".parse().unwrap();
    /// assert_eq!(game.promote_to_main(&c4).unwrap(), MovePath::mainline(0));
    /// assert!(write_game(&game).contains("1. c4 ( 1. e4 e5 ) ( 1. d4 ) 1... c5 *"));
    /// ```
    pub fn promote_to_main(&mut self, path: &MovePath) -> Result<MovePath, EditError> {
        let (anchor, slot) = self.slot(path)?;
        if slot > 0 {
            self.reorder(&anchor, |alternatives, _| {
                let line = alternatives.remove(slot);
                alternatives.insert(0, line);
            })?;
        }
        Ok(anchor)
    }

    /// Makes the line of the move at `path` the game's mainline (lichess's "make main line"):
    /// the move and each variation holding it promoted to the first place, up to the mainline.
    /// Returns the move's path in the mainline.
    ///
    /// ```
    /// use tabla_pgn::{MovePath, Reader, write_game};
    /// let pgn = "1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6)) 2. Nf3 *";
    /// let mut game = Reader::new(pgn.as_bytes()).games().next().unwrap().unwrap();
    /// let nc6: MovePath = "1.0.1.0.1".parse().unwrap();
    /// assert_eq!(game.node(&nc6).unwrap().san, "Nc6");
    /// let now = game.make_mainline(&nc6).unwrap();
    /// assert_eq!(now, MovePath::mainline(3));
    /// let sans: Vec<&str> = game.mainline().map(|n| n.san.as_str()).collect();
    /// assert_eq!(sans, ["e4", "c5", "Nc3", "Nc6"]);
    /// ```
    pub fn make_mainline(&mut self, path: &MovePath) -> Result<MovePath, EditError> {
        let mut path = path.clone();
        while path.depth() > 0 {
            let offset = path.index();
            let start = self.promote_to_main(&path.line_start())?;
            path = start.forward(offset);
        }
        Ok(path)
    }

    /// Replaces the comments before or after the move at `path` with one comment (none when
    /// `comment` is empty).
    ///
    /// ```
    /// use tabla_pgn::{CommentPlace, Comment, MovePath, Reader, write_game};
    /// let pgn = "1. e4 {[%clk 0:05:00] old} e5 *";
    /// let mut game = Reader::new(pgn.as_bytes()).games().next().unwrap().unwrap();
    /// let e4 = MovePath::mainline(0);
    /// let mut comment = game.node(&e4).unwrap().comments_after[0].clone();
    /// comment.text = "the best by test".to_owned();
    /// game.set_comment(&e4, CommentPlace::After, comment).unwrap();
    /// let written = write_game(&game);
    /// assert!(written.contains("1. e4 { [%clk 0:05:00] the best by test } 1... e5"), "{written}");
    /// ```
    pub fn set_comment(
        &mut self,
        path: &MovePath,
        place: CommentPlace,
        comment: Comment,
    ) -> Result<(), EditError> {
        let (line, index) = self
            .line_of_mut(path)
            .filter(|(line, index)| *index < line.nodes.len())
            .ok_or_else(|| EditError::NoSuchMove(path.clone()))?;
        let follows_variations = index == 0 || !line.nodes[index - 1].variations.is_empty();
        if place == CommentPlace::Before && !follows_variations && !comment.is_empty() {
            return Err(EditError::NoPlaceBefore(path.clone()));
        }
        let node = &mut line.nodes[index];
        let comments = match place {
            CommentPlace::After => &mut node.comments_after,
            CommentPlace::Before => &mut node.comments_before,
        };
        comments.clear();
        if !comment.is_empty() {
            comments.push(comment);
        }
        Ok(())
    }

    /// Replaces the NAGs after the move at `path` (`$1` `!`, `$6` `?!`, `$14` `+=`, ...).
    pub fn set_nags(&mut self, path: &MovePath, nags: Vec<Nag>) -> Result<(), EditError> {
        self.node_mut(path)?.nags = nags;
        Ok(())
    }

    /// Sets the tag `name` to `value`: the first tag of that name changes in place (the
    /// others of that name go), a new one goes at the end. A name is a word without `"`, `]`
    /// or blanks, a value one line (what a tag pair can hold and read back).
    ///
    /// ```
    /// use tabla_pgn::Reader;
    /// let mut game = Reader::new(&b"[Event \"A\"]\n[Site \"B\"]\n*"[..]).games().next().unwrap().unwrap();
    /// game.set_tag("Event", "Hastings 1895").unwrap();
    /// game.set_tag("Annotator", "Lasker").unwrap();
    /// let names: Vec<&str> = game.tags.iter().map(|(n, _)| n.as_str()).collect();
    /// assert_eq!(names, ["Event", "Site", "Annotator"]);
    /// assert!(game.set_tag("Bad Name", "x").is_err());
    /// assert!(game.set_tag("Event", "two\nlines").is_err());
    /// ```
    pub fn set_tag(&mut self, name: &str, value: &str) -> Result<(), EditError> {
        check_tag(name, value)?;
        let mut seen = false;
        self.tags.retain_mut(|(n, v)| {
            if n != name {
                return true;
            }
            if seen {
                return false;
            }
            seen = true;
            *v = value.to_owned();
            true
        });
        if !seen {
            self.tags.push((name.to_owned(), value.to_owned()));
        }
        Ok(())
    }

    /// Sets the result: the `Result` tag and the termination marker both say `outcome`.
    ///
    /// ```
    /// use tabla_pgn::{Outcome, Reader};
    /// let mut game = Reader::new(&b"[Result \"*\"]\n1. e4 *"[..]).games().next().unwrap().unwrap();
    /// game.set_result(Outcome::Draw);
    /// assert_eq!(game.result(), "1/2-1/2");
    /// assert_eq!(game.tag("Result"), Some("1/2-1/2"));
    /// ```
    pub fn set_result(&mut self, outcome: Outcome) {
        self.set_or_replace("Result", outcome.as_str());
        self.outcome = Some(outcome);
    }

    /// Sets the start position of a game without moves: the `FEN` and `SetUp` tags for any
    /// position but the standard start, none for it. A game with moves is refused (they were
    /// played from the old start).
    ///
    /// ```
    /// use tabla::Position;
    /// use tabla_pgn::{Reader, write_game};
    /// let mut game = Reader::new(&b"[White \"A\"]\n*"[..]).games().next().unwrap().unwrap();
    /// let kqk = Position::from_fen("8/8/8/4k3/8/8/8/KQ6 w - - 0 1").unwrap();
    /// game.set_start(kqk).unwrap();
    /// assert_eq!(game.tag("SetUp"), Some("1"));
    /// let qd3 = game.add_san(None, "Qd3").unwrap();
    /// assert!(write_game(&game).contains("[FEN \"8/8/8/4k3/8/8/8/KQ6 w - - 0 1\"]"));
    /// assert!(game.set_start(Position::startpos()).is_err());
    /// game.delete(&qd3).unwrap();
    /// game.set_start(Position::startpos()).unwrap();
    /// assert_eq!((game.tag("FEN"), game.tag("SetUp")), (None, None));
    /// ```
    pub fn set_start(&mut self, start: Position) -> Result<(), EditError> {
        if !self.moves.nodes.is_empty() {
            return Err(EditError::HasMoves);
        }
        if start == Position::startpos() {
            self.remove_tag("FEN");
            self.remove_tag("SetUp");
        } else {
            self.set_or_replace("SetUp", "1");
            self.set_or_replace("FEN", &start.to_fen());
        }
        self.start = Some(start);
        Ok(())
    }

    /// [`Game::set_tag`] for a name and value known to be good.
    fn set_or_replace(&mut self, name: &str, value: &str) {
        let set = self.set_tag(name, value);
        debug_assert!(set.is_ok(), "{name} {value}");
    }

    /// Removes every tag called `name`; `true` when there was one.
    pub fn remove_tag(&mut self, name: &str) -> bool {
        let before = self.tags.len();
        self.tags.retain(|(n, _)| n != name);
        self.tags.len() < before
    }

    /// [`Game::position_after`], or why there is none.
    fn position_for(&self, after: Option<&MovePath>) -> Result<&Position, EditError> {
        self.position_after(after).ok_or_else(|| match after {
            Some(path) => EditError::NoSuchMove(path.clone()),
            None => EditError::NoStart,
        })
    }

    /// The move at `path`, to change.
    fn node_mut(&mut self, path: &MovePath) -> Result<&mut Node, EditError> {
        self.line_of_mut(path)
            .and_then(|(line, index)| line.nodes.get_mut(index))
            .ok_or_else(|| EditError::NoSuchMove(path.clone()))
    }

    /// The line `path` points into and the index in it (which may be the line's end).
    fn line_of(&self, path: &MovePath) -> Option<(&Line, usize)> {
        let parts = path.parts();
        let mut line = &self.moves;
        let mut index = *parts.first()?;
        for pair in parts[1..].chunks(2) {
            line = line.nodes.get(index)?.variations.get(pair[0])?;
            index = pair[1];
        }
        (index <= line.nodes.len()).then_some((line, index))
    }

    fn line_of_mut(&mut self, path: &MovePath) -> Option<(&mut Line, usize)> {
        let parts = path.parts();
        let mut line = &mut self.moves;
        let mut index = *parts.first()?;
        for pair in parts[1..].chunks(2) {
            line = line.nodes.get_mut(index)?.variations.get_mut(pair[0])?;
            index = pair[1];
        }
        (index <= line.nodes.len()).then_some((line, index))
    }

    /// The path of the line's move at the position of the move at `path`: up through the
    /// variations whose first move it is (alternatives at one position), to the first line in
    /// which it is not the first move (or the mainline).
    fn anchor(&self, path: &MovePath) -> MovePath {
        let mut anchor = path.clone();
        while anchor.index() == 0 {
            match anchor.holder() {
                Some(holder) => anchor = holder,
                None => break,
            }
        }
        anchor
    }

    /// The anchor of the move at `path` and the move's place among the alternatives there.
    fn slot(&self, path: &MovePath) -> Result<(MovePath, usize), EditError> {
        if self.node(path).is_none() {
            return Err(EditError::NoSuchMove(path.clone()));
        }
        let anchor = self.anchor(path);
        let slot = self
            .alternatives(&anchor)
            .iter()
            .position(|p| p == path)
            .ok_or_else(|| EditError::NoSuchMove(path.clone()))?;
        Ok((anchor, slot))
    }

    /// Takes the alternatives at `anchor` apart (each a line from its move to its end, the
    /// line's move first), lets `change` reorder or remove them (and keep comments for the
    /// line's end, when it removes the last), and puts them back side by side. Lines without moves found there (`( {text} )`) stay after the alternatives (or
    /// their comments at the line's end when no move is left there). The lines changed are then
    /// [`settle`]d, so that they read back as they are.
    fn reorder(
        &mut self,
        anchor: &MovePath,
        change: impl FnOnce(&mut Vec<Line>, &mut Vec<Comment>),
    ) -> Result<(), EditError> {
        let (line, index) = self
            .line_of_mut(anchor)
            .filter(|(line, index)| *index < line.nodes.len())
            .ok_or_else(|| EditError::NoSuchMove(anchor.clone()))?;
        let tail = Line {
            nodes: line.nodes.split_off(index),
            comments: std::mem::take(&mut line.comments),
        };
        let mut alternatives = Vec::new();
        let mut empty = Vec::new();
        flatten(tail, &mut alternatives, &mut empty);
        let mut kept = Vec::new();
        change(&mut alternatives, &mut kept);
        let mut alternatives = alternatives.into_iter();
        match alternatives.next() {
            Some(first) => {
                line.nodes.extend(first.nodes);
                line.comments = first.comments;
                let mut rest: Vec<Line> = alternatives.chain(empty).collect();
                rest.iter_mut().for_each(settle);
                if let Some(node) = line.nodes.get_mut(index) {
                    node.variations = rest;
                }
            }
            None => {
                // The removed line's closing comments go with it.
                line.comments = kept;
                for lost in empty {
                    line.comments.extend(lost.comments);
                }
            }
        }
        settle(line);
        Ok(())
    }
}

/// Whether a tag pair can be written and read back as it is ([`Game::set_tag`]'s rule): a name
/// is a word without `"`, `[` or `]`, a value one line.
///
/// ```
/// use tabla_pgn::check_tag;
/// assert!(check_tag("Annotator", "Lasker, Em.").is_ok());
/// assert!(check_tag("", "x").is_err());
/// assert!(check_tag("Event", "a\nb").is_err());
/// ```
pub fn check_tag(name: &str, value: &str) -> Result<(), EditError> {
    let bad_name = name.is_empty()
        || name
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '"' | ']' | '['));
    if bad_name || value.contains(['\n', '\r']) {
        return Err(EditError::BadTag {
            name: name.to_owned(),
            value: value.to_owned(),
        });
    }
    Ok(())
}

/// Puts the comments and NAGs of `line` (not of its variations) where the reader would find
/// them in its export: a comment before a move that follows no variation, and a comment at the
/// end of a line whose last move has none, become comments after the move before; a NAG before
/// a move that is not the line's first, a NAG of the move before. A tree read from text is
/// settled already; an edit that moves lines side by side may leave it unsettled.
fn settle(line: &mut Line) {
    for i in 1..line.nodes.len() {
        let (done, rest) = line.nodes.split_at_mut(i);
        let (previous, node) = (&mut done[i - 1], &mut rest[0]);
        previous.nags.append(&mut node.nags_before);
        if previous.variations.is_empty() {
            previous.comments_after.append(&mut node.comments_before);
        }
    }
    if let Some(last) = line.nodes.last_mut()
        && last.variations.is_empty()
    {
        last.comments_after.append(&mut line.comments);
    }
}

impl MovePath {
    /// The same line, at `index`.
    fn with_index(&self, index: usize) -> MovePath {
        let mut parts = self.0.clone();
        if let Some(last) = parts.last_mut() {
            *last = index;
        }
        MovePath(parts)
    }
}

/// The paths of `first`'s variations' first moves and theirs, depth first: the alternatives to
/// `first` after itself.
fn collect_alternatives(first: &Node, at: &MovePath, out: &mut Vec<MovePath>) {
    for (v, variation) in first.variations.iter().enumerate() {
        if let Some(head) = variation.nodes.first() {
            let path = at.variation(v);
            out.push(path.clone());
            collect_alternatives(head, &path, out);
        }
    }
}

/// `line` and the variations of its first move, recursively, as separate lines (the order of
/// [`collect_alternatives`]); lines without moves go to `empty`.
fn flatten(mut line: Line, out: &mut Vec<Line>, empty: &mut Vec<Line>) {
    let Some(first) = line.nodes.first_mut() else {
        empty.push(line);
        return;
    };
    let variations = std::mem::take(&mut first.variations);
    out.push(line);
    for variation in variations {
        flatten(variation, out, empty);
    }
}
