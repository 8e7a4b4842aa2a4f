//! Replay with legality: every move token is resolved in its position by the core's lenient
//! SAN reader ([`Position::parse_san_bytes`]); an illegal, ambiguous or unreadable move ends its
//! line with a [`PgnError`].

use crate::{
    ErrorKind, GameStart, Location, MoveNumber, Nag, Outcome, PgnError, RawComment, RawTag,
    SanToken, Skip, Visitor,
};
use tabla::{Move, Position, SanError, SanMode, Validation};

/// Receives a game with its moves resolved, from a [`Replayer`].
///
/// Moves come as [`before_move`](ReplayVisitor::before_move) (the position before, the move,
/// the token as written) and [`after_move`](ReplayVisitor::after_move) (the position after).
/// A line that meets an error gets no more events until it ends (its `)`, or the game's end for
/// the mainline); the error goes to [`error`](ReplayVisitor::error), and the rest of the game
/// goes on.
///
/// ```
/// use tabla::Position;
/// use tabla_pgn::{Reader, ReplayVisitor, Replayer};
///
/// /// The FEN after each mainline move.
/// #[derive(Default)]
/// struct Fens { depth: usize, fens: Vec<String> }
/// impl ReplayVisitor for Fens {
///     type Output = Vec<String>;
///     fn begin_variation(&mut self) -> tabla_pgn::Skip { tabla_pgn::Skip(true) }
///     fn after_move(&mut self, pos: &Position) { self.fens.push(pos.to_fen()); }
///     fn end_game(&mut self) -> Vec<String> { std::mem::take(&mut self.fens) }
/// }
///
/// let mut reader = Reader::new(&b"1. f3 e5 (1... e6) 2. g4 Qh4# 0-1"[..]);
/// let fens = reader.read_game(&mut Replayer::new(Fens::default())).unwrap().unwrap();
/// assert_eq!(fens.len(), 4);
/// assert_eq!(fens[3], "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
/// ```
pub trait ReplayVisitor {
    /// What [`end_game`](ReplayVisitor::end_game) makes of a game.
    type Output;

    /// A game starts.
    fn begin_game(&mut self, _start: GameStart) {}

    /// A tag pair (see [`Visitor::tag`]).
    fn tag(&mut self, _name: &[u8], _value: RawTag<'_>) {}

    /// The tag section is over; `Skip(true)` skips the movetext (and the start position).
    fn end_tags(&mut self) -> Skip {
        Skip(false)
    }

    /// The position the movetext starts from (the `FEN` tag's, or the standard one). Not called
    /// when the tags give no playable position (an error says why).
    fn start_position(&mut self, _pos: &Position) {}

    /// A move is about to be played in `pos`: `mv` is legal there ([`Move::NULL`] for a null
    /// move) and `token` is how it was written.
    fn before_move(&mut self, _pos: &Position, _mv: Move, _token: SanToken<'_>) {}

    /// The move announced by [`before_move`](ReplayVisitor::before_move) was played: the
    /// position after it.
    fn after_move(&mut self, _pos: &Position) {}

    /// A NAG.
    fn nag(&mut self, _nag: Nag) {}

    /// A comment.
    fn comment(&mut self, _comment: RawComment<'_>) {}

    /// A variation opens, replacing the last move played; `Skip(true)` skips it.
    fn begin_variation(&mut self) -> Skip {
        Skip(false)
    }

    /// The variation opened last is closed; play goes on from where it was before it.
    fn end_variation(&mut self) {}

    /// The termination marker.
    fn outcome(&mut self, _outcome: Outcome) {}

    /// An error in the game (syntax, a move that cannot be played, an unplayable start).
    fn error(&mut self, _error: PgnError) {}

    /// The game's result, decided by [`crate::game_result`] from the first `Result` tag and the
    /// termination marker (its warnings went to [`error`](ReplayVisitor::error) just before);
    /// called once per game, right before [`end_game`](ReplayVisitor::end_game).
    fn result(&mut self, _result: Outcome) {}

    /// The game is over.
    fn end_game(&mut self) -> Self::Output;
}

/// One line being replayed: its position and whether an error ended it.
#[derive(Clone, Debug)]
struct LineState {
    pos: Position,
    moves: usize,
    dead: bool,
}

/// A [`Visitor`] that replays each game with legality and forwards to a [`ReplayVisitor`].
///
/// The `FEN` tag gives the start position (validated leniently: unreachable but playable
/// setups are accepted); a `Variant` tag other than standard chess or Chess960 makes the game's
/// movetext skipped with [`ErrorKind::UnknownVariant`].
#[derive(Clone, Debug)]
pub struct Replayer<V> {
    inner: V,
    game: u64,
    game_location: Location,
    fen: Vec<u8>,
    has_fen: bool,
    variant: Vec<u8>,
    has_variant: bool,
    /// The first `Result` tag's value as written, and the termination marker.
    result_tag: Vec<u8>,
    has_result_tag: bool,
    marker: Option<Outcome>,
    lines: Vec<LineState>,
    /// Positions of lines that ended, kept for their history buffers (see `new_position`).
    spare: Vec<Position>,
    max_depth: usize,
    /// The standard start position, built once (copying it is cheaper than building it).
    startpos: Position,
}

impl<V: ReplayVisitor> Replayer<V> {
    /// Wraps a replay visitor.
    pub fn new(inner: V) -> Replayer<V> {
        Replayer {
            inner,
            game: 0,
            game_location: Location::default(),
            fen: Vec::new(),
            has_fen: false,
            variant: Vec::new(),
            has_variant: false,
            result_tag: Vec::new(),
            has_result_tag: false,
            marker: None,
            lines: Vec::new(),
            spare: Vec::new(),
            max_depth: usize::MAX,
            startpos: Position::startpos(),
        }
    }

    /// Skips variations nested deeper than `depth` (the mainline is depth 0), reporting
    /// [`ErrorKind::VariationTooDeep`]; there is no limit by default.
    pub fn with_max_depth(mut self, depth: usize) -> Replayer<V> {
        self.max_depth = depth;
        self
    }

    /// The wrapped visitor.
    pub fn inner(&self) -> &V {
        &self.inner
    }

    /// The wrapped visitor, mutably.
    pub fn inner_mut(&mut self) -> &mut V {
        &mut self.inner
    }

    /// Unwraps the visitor.
    pub fn into_inner(self) -> V {
        self.inner
    }

    fn report(&mut self, kind: ErrorKind, token: &[u8], location: Location) {
        let move_number = self.lines.last().map(|line| MoveNumber {
            number: line.pos.fullmoves(),
            turn: line.pos.turn(),
        });
        self.inner.error(PgnError {
            game: self.game,
            location,
            move_number,
            depth: self.lines.len().saturating_sub(1),
            token: crate::decode_text(token).into_owned(),
            kind,
        });
    }

    /// Ends the lines still open (from an earlier game), keeping some of their positions.
    fn close_lines(&mut self) {
        while let Some(line) = self.lines.pop() {
            keep_spare(&mut self.spare, line.pos);
        }
    }

    /// The start position the tags ask for, or the error that prevents it.
    fn start_position(&mut self) -> Result<Position, ErrorKind> {
        if self.has_variant && !is_supported_variant(&crate::RawTag(&self.variant).decode()) {
            return Err(ErrorKind::UnknownVariant {
                variant: crate::RawTag(&self.variant).decode().into_owned(),
            });
        }
        if !self.has_fen {
            return Ok(copy_into_spare(&mut self.spare, &self.startpos));
        }
        let fen = crate::RawTag(&self.fen).decode();
        Position::from_fen_with(fen.trim(), Validation::Lenient).map_err(|e| {
            ErrorKind::InvalidFen {
                reason: e.to_string(),
            }
        })
    }
}

/// A copy of `source` made in a position of a line that ended: its history buffer is already as
/// long as games get, so playing moves allocates nothing.
fn copy_into_spare(spare: &mut Vec<Position>, source: &Position) -> Position {
    match spare.pop() {
        Some(mut pos) => {
            pos.clone_from(source);
            pos
        }
        None => source.clone(),
    }
}

/// Keeps a position of a line that ended for [`copy_into_spare`], up to a few (lines nested deeper
/// than that are rare, and their positions go).
fn keep_spare(spare: &mut Vec<Position>, pos: Position) {
    const MAX_SPARE: usize = 16;
    if spare.len() < MAX_SPARE {
        spare.push(pos);
    }
}

/// Standard chess and Chess960 under the names programs give them.
fn is_supported_variant(name: &str) -> bool {
    let name = name.trim().to_ascii_lowercase();
    matches!(
        name.as_str(),
        "" | "standard"
            | "chess"
            | "normal"
            | "from position"
            | "fromposition"
            | "chess960"
            | "chess 960"
            | "fischerandom"
            | "fischer random"
            | "fischerrandom"
            | "960"
    )
}

/// `true` for a token shaped like a move: it names a square (a file letter then a digit, `Nf9`
/// included) or castles (`O-O`, `0-0`). Anything else that is not a move cannot be movetext.
fn looks_like_move(token: &[u8]) -> bool {
    let names_square = token
        .windows(2)
        .any(|w| matches!(w[0], b'a'..=b'h') && w[1].is_ascii_digit());
    names_square || token.starts_with(b"O-O") || token.starts_with(b"0-0")
}

fn san_error_kind(error: SanError) -> ErrorKind {
    match error {
        SanError::Syntax { .. } => ErrorKind::NotAMove,
        SanError::Illegal { .. } | SanError::NotCanonical { .. } => ErrorKind::IllegalMove,
        SanError::Ambiguous { candidates, .. } => ErrorKind::AmbiguousMove { candidates },
    }
}

impl<V: ReplayVisitor> Visitor for Replayer<V> {
    type Output = V::Output;

    fn begin_game(&mut self, start: GameStart) {
        self.game = start.number;
        self.game_location = start.location;
        self.has_fen = false;
        self.has_variant = false;
        self.has_result_tag = false;
        self.marker = None;
        self.close_lines();
        self.inner.begin_game(start);
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) {
        if name == b"FEN" {
            self.fen.clear();
            self.fen.extend_from_slice(value.0);
            self.has_fen = true;
        } else if name == b"Variant" {
            self.variant.clear();
            self.variant.extend_from_slice(value.0);
            self.has_variant = true;
        } else if name == b"Result" && !self.has_result_tag {
            self.result_tag.clear();
            self.result_tag.extend_from_slice(value.0);
            self.has_result_tag = true;
        }
        self.inner.tag(name, value);
    }

    fn end_tags(&mut self) -> Skip {
        if self.inner.end_tags().0 {
            return Skip(true);
        }
        match self.start_position() {
            Ok(pos) => {
                self.inner.start_position(&pos);
                self.lines.push(LineState {
                    pos,
                    moves: 0,
                    dead: false,
                });
                Skip(false)
            }
            Err(kind) => {
                let token = if self.has_variant {
                    self.variant.clone()
                } else {
                    self.fen.clone()
                };
                // The tag is somewhere above; the game's start stands in for its place.
                self.report(kind, &token, self.game_location);
                Skip(true)
            }
        }
    }

    fn san(&mut self, san: SanToken<'_>) {
        let Some(line) = self.lines.last_mut() else {
            return;
        };
        if line.dead {
            return;
        }
        let parsed = line
            .pos
            .parse_san_bytes(san.text, SanMode::Lenient)
            .map_err(san_error_kind);
        match parsed {
            Ok(mv) => {
                self.inner.before_move(&line.pos, mv, san);
                line.pos.play_unchecked(mv);
                line.moves += 1;
                self.inner.after_move(&line.pos);
            }
            // Junk between moves (a word, a stray sign) is skipped; a token shaped like a move
            // that does not resolve stays an error.
            Err(ErrorKind::NotAMove) if !looks_like_move(san.text) => {
                self.report(ErrorKind::NotMovetext, san.text, san.location);
            }
            Err(kind) => {
                self.report(kind, san.text, san.location);
                if let Some(line) = self.lines.last_mut() {
                    line.dead = true;
                }
            }
        }
    }

    fn null_move(&mut self, token: SanToken<'_>) {
        let Some(line) = self.lines.last_mut() else {
            return;
        };
        if line.dead {
            return;
        }
        if line.pos.is_check() {
            self.report(ErrorKind::NullMoveInCheck, token.text, token.location);
            if let Some(line) = self.lines.last_mut() {
                line.dead = true;
            }
            return;
        }
        self.inner.before_move(&line.pos, Move::NULL, token);
        line.pos.play_null();
        line.moves += 1;
        self.inner.after_move(&line.pos);
    }

    fn nag(&mut self, nag: Nag) {
        if self.lines.last().is_some_and(|l| !l.dead) {
            self.inner.nag(nag);
        }
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        // Comments before the movetext (no line yet) belong to the game all the same.
        if self.lines.last().is_none_or(|l| !l.dead) {
            self.inner.comment(comment);
        }
    }

    fn begin_variation(&mut self, location: Location) -> Skip {
        let Some(line) = self.lines.last() else {
            return Skip(true);
        };
        if line.dead {
            return Skip(true);
        }
        if line.moves == 0 {
            self.report(ErrorKind::VariationWithoutMove, b"(", location);
            return Skip(true);
        }
        if self.lines.len() > self.max_depth {
            let limit = self.max_depth;
            self.report(ErrorKind::VariationTooDeep { limit }, b"(", location);
            return Skip(true);
        }
        if self.inner.begin_variation().0 {
            return Skip(true);
        }
        let mut pos = copy_into_spare(&mut self.spare, &line.pos);
        pos.undo();
        self.lines.push(LineState {
            pos,
            moves: 0,
            dead: false,
        });
        Skip(false)
    }

    fn end_variation(&mut self) {
        if self.lines.len() > 1 {
            if let Some(line) = self.lines.pop() {
                keep_spare(&mut self.spare, line.pos);
            }
            self.inner.end_variation();
        }
    }

    fn outcome(&mut self, outcome: Outcome) {
        self.marker = Some(outcome);
        self.inner.outcome(outcome);
    }

    fn syntax_error(&mut self, kind: ErrorKind, token: &[u8], location: Location) {
        self.report(kind, token, location);
    }

    fn end_game(&mut self) -> V::Output {
        let tag = self
            .has_result_tag
            .then(|| crate::RawTag(&self.result_tag).decode());
        let result = crate::game_result(tag.as_deref(), self.marker);
        for kind in result.warnings {
            // About the tag, somewhere above: the game's start stands in for its place.
            self.inner.error(PgnError {
                game: self.game,
                location: self.game_location,
                move_number: None,
                depth: 0,
                token: tag.as_deref().unwrap_or_default().to_owned(),
                kind,
            });
        }
        self.inner.result(result.outcome);
        self.inner.end_game()
    }
}
