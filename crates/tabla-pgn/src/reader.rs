//! The streaming reader: one game per call from any `io::Read`, its tokens handed to a
//! [`Visitor`]. Its input is a refilling byte buffer ([`buffer`]), its tokens are scanned by
//! [`tokenizer`]; this module holds the reader's surface and where a game begins and ends.

mod buffer;
mod tokenizer;

pub use buffer::MAX_BUFFER;

use crate::{ErrorKind, GameStart, Location, RawComment, Visitor};
use buffer::Buffer;
use std::io::{self, Read};
use tokenizer::LOOKAHEAD;

/// A PGN reader over any byte source, reading one game per [`Reader::read_game`] call.
///
/// It follows the PGN standard's import rules and common habits: tag pairs with `\"` and `\\`
/// escapes, `{}` comments over several lines, `;` comments, `%` escape lines, move numbers
/// present, missing or repeated, NAGs and suffix glyphs, variations nested to any depth, null
/// moves `--` and `Z0`, a UTF-8 byte-order mark, CRLF line ends, and games without tags. A
/// game ends at its termination marker (comments right after it still belong to it), at the
/// next game's `[`, or at the end of the input.
///
/// ```
/// use tabla_pgn::{Reader, GameTree};
///
/// let pgn = "[White \"Morphy\"]\n\n1. e4 e5 2. Nf3 d6 {Philidor} 1-0\n";
/// let mut reader = Reader::new(pgn.as_bytes());
/// let game = reader.read_game(&mut GameTree::new()).unwrap().unwrap();
/// assert_eq!(game.tag("White"), Some("Morphy"));
/// assert_eq!(game.mainline().count(), 4);
/// assert!(reader.read_game(&mut GameTree::new()).unwrap().is_none());
/// ```
#[derive(Debug)]
pub struct Reader<R> {
    /// The bytes read and the position in them.
    input: Buffer<R>,
    games: u64,
    /// The line (from 1) of the last tag pair read; 0 before any.
    tag_line: u64,
    /// Stop before a game that starts at or after this offset (a range's end).
    stop_at: Option<u64>,
}

impl<R: Read> Reader<R> {
    /// A reader from the start of `inner`. Wrap files in nothing: the reader buffers itself.
    pub fn new(inner: R) -> Reader<R> {
        Reader::starting_at(inner, 0)
    }

    /// A reader whose input starts at `offset` of a larger file (for offsets in locations).
    pub(crate) fn starting_at(inner: R, offset: u64) -> Reader<R> {
        Reader {
            input: Buffer::new(inner, offset),
            games: 0,
            tag_line: 0,
            stop_at: None,
        }
    }

    /// A reader whose buffer never grows past `bytes` (at least 256): a longer token (comment,
    /// tag line) is reported as [`ErrorKind::TokenTooLong`] and skipped.
    pub fn with_max_buffer(inner: R, bytes: usize) -> Reader<R> {
        let mut reader = Reader::new(inner);
        reader.input.limit(bytes);
        reader
    }

    /// The buffer's current size in bytes: it stays at its initial 64 KiB unless a token is
    /// longer, whatever the size of the input.
    pub fn buffer_capacity(&self) -> usize {
        self.input.capacity()
    }

    /// Stops before any game that starts at or after `offset`.
    pub(crate) fn set_stop(&mut self, offset: Option<u64>) {
        self.stop_at = offset;
    }

    /// How many games have been started so far.
    pub fn games_read(&self) -> u64 {
        self.games
    }

    /// The offset in the input of the next byte to read.
    pub fn offset(&self) -> u64 {
        self.input.offset()
    }

    /// The byte source back.
    pub fn into_inner(self) -> R {
        self.input.into_inner()
    }

    /// Reads the next game into `visitor`; `None` at the end of the input (or of the range).
    ///
    /// Malformed input is reported to [`Visitor::syntax_error`] and never stops the reader;
    /// only an I/O error does.
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Option<V::Output>> {
        if self.offset() == 0 {
            self.input.ensure(3)?;
            if self.input.available().starts_with(b"\xef\xbb\xbf") {
                self.input.pos += 3;
            }
        }
        // Comments before a game's first tag or move (only possible at the start of the input,
        // since comments after a game belong to it) wait for the game to begin, so that the
        // game starts where its tags do, as the range reader expects.
        let mut leading = Leading::default();
        loop {
            self.input.skip_whitespace()?;
            self.input.ensure(LOOKAHEAD)?;
            match self.input.available().first() {
                Some(b'%') if self.input.at_line_start() => self.input.skip_line()?,
                Some(b'{') => {
                    self.read_brace_comment(&mut leading, false)?;
                }
                Some(b';') => self.read_line_comment(&mut leading, false)?,
                _ => break,
            }
        }
        if self.input.pos >= self.input.end && leading.comments.is_empty() {
            return Ok(None);
        }
        let location = self.input.location();
        if self.stop_at.is_some_and(|stop| self.offset() >= stop) {
            return Ok(None);
        }
        self.games += 1;
        visitor.begin_game(GameStart {
            number: self.games,
            location,
        });
        for comment in &leading.comments {
            visitor.comment(RawComment(comment));
        }
        for (kind, token, location) in leading.errors {
            visitor.syntax_error(kind, &token, location);
        }
        self.read_tags(visitor)?;
        let skip = visitor.end_tags();
        self.read_movetext(visitor, skip.0)?;
        Ok(Some(visitor.end_game()))
    }

    /// Skips the next game; `false` at the end of the input (or of the range).
    pub fn skip_game(&mut self) -> io::Result<bool> {
        struct SkipAll;
        impl Visitor for SkipAll {
            type Output = ();
            fn end_tags(&mut self) -> crate::Skip {
                crate::Skip(true)
            }
            fn end_game(&mut self) {}
        }
        Ok(self.read_game(&mut SkipAll)?.is_some())
    }
}

/// Comments read before a game begins, kept until it does.
#[derive(Debug, Default)]
struct Leading {
    comments: Vec<Vec<u8>>,
    errors: Vec<(ErrorKind, Vec<u8>, Location)>,
}

impl Visitor for Leading {
    type Output = ();

    fn comment(&mut self, comment: RawComment<'_>) {
        self.comments.push(comment.0.to_vec());
    }

    fn syntax_error(&mut self, kind: ErrorKind, token: &[u8], location: Location) {
        self.errors.push((kind, token.to_vec(), location));
    }

    fn end_game(&mut self) {}
}
