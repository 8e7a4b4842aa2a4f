//! The low-level visitor: the reader calls it for every token of a game, borrowing bytes from
//! its buffer, so a visitor that keeps nothing allocates nothing.

use crate::{ErrorKind, GameStart, Location, Nag, Outcome, RawComment, RawTag, SanToken, Skip};

/// Receives the tokens of one game at a time from [`crate::Reader::read_game`].
///
/// Calls come in file order: [`begin_game`](Visitor::begin_game), any [`tag`](Visitor::tag)s,
/// [`end_tags`](Visitor::end_tags), then the movetext events, then
/// [`end_game`](Visitor::end_game), whose value `read_game` returns. Every
/// [`begin_variation`](Visitor::begin_variation) that was not skipped gets its
/// [`end_variation`](Visitor::end_variation), even when the input forgot the `)`.
///
/// Moves are not resolved here: see [`crate::Replayer`] for replay with legality.
///
/// ```
/// use tabla_pgn::{Reader, SanToken, Visitor};
///
/// struct CountMoves(usize);
/// impl Visitor for CountMoves {
///     type Output = usize;
///     fn begin_game(&mut self, _: tabla_pgn::GameStart) { self.0 = 0; }
///     fn san(&mut self, _: SanToken<'_>) { self.0 += 1; }
///     fn end_game(&mut self) -> usize { self.0 }
/// }
///
/// let pgn = b"[Event \"?\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *\n1. d4 *";
/// let mut reader = Reader::new(&pgn[..]);
/// assert_eq!(reader.read_game(&mut CountMoves(0)).unwrap(), Some(5));
/// assert_eq!(reader.read_game(&mut CountMoves(0)).unwrap(), Some(1));
/// assert_eq!(reader.read_game(&mut CountMoves(0)).unwrap(), None);
/// ```
pub trait Visitor {
    /// What [`end_game`](Visitor::end_game) makes of a game.
    type Output;

    /// A game starts.
    fn begin_game(&mut self, _start: GameStart) {}

    /// A tag pair; `name` is as written, `value` still has its escapes (see [`RawTag::decode`]).
    fn tag(&mut self, _name: &[u8], _value: RawTag<'_>) {}

    /// The tag section is over; `Skip(true)` skips the movetext.
    fn end_tags(&mut self) -> Skip {
        Skip(false)
    }

    /// A move token (SAN, long form, UCI or castling), not yet resolved.
    fn san(&mut self, _san: SanToken<'_>) {}

    /// A null move, `--` or `Z0`.
    fn null_move(&mut self, _token: SanToken<'_>) {}

    /// A NAG, or a suffix glyph read as one.
    fn nag(&mut self, _nag: Nag) {}

    /// A comment, `{...}` or `;...` (a `;` comment's text runs to the end of its line).
    fn comment(&mut self, _comment: RawComment<'_>) {}

    /// A `(` at `location` opens a variation; `Skip(true)` skips it up to its `)` (and then no
    /// [`end_variation`](Visitor::end_variation) follows).
    fn begin_variation(&mut self, _location: Location) -> Skip {
        Skip(false)
    }

    /// The variation opened last is closed.
    fn end_variation(&mut self) {}

    /// The termination marker.
    fn outcome(&mut self, _outcome: Outcome) {}

    /// Something in the input is not PGN; the reader recovers and goes on.
    fn syntax_error(&mut self, _kind: ErrorKind, _token: &[u8], _location: Location) {}

    /// The game is over (its termination marker, the next game's tags, or the end of the input).
    fn end_game(&mut self) -> Self::Output;
}
