//! The streaming reader: a growable byte buffer over any `io::Read` and the PGN tokenizer that
//! drives a [`Visitor`], one game per call.
//!
//! Tokens are scanned as byte slices of the buffer (`memchr` for comment and line ends, a
//! lookup table for move tokens) and handed to the visitor without copying. The buffer holds the
//! current token and a little look-ahead, so memory does not depend on the size of the input;
//! it grows only for a token longer than itself (a huge comment), up to [`MAX_BUFFER`].

use crate::game_start::{LineKind, classify, has_tag_opening, is_tag_pairs_line, parse_tag};
use crate::scan;
use crate::{ErrorKind, GameStart, Location, Nag, Outcome, RawComment, RawTag, SanToken, Visitor};
use memchr::{memchr, memchr_iter, memrchr};
use std::io::{self, Read};

/// The buffer's starting size.
const INITIAL_BUFFER: usize = 64 * 1024;

/// The largest the buffer grows to by default; a longer token is reported and skipped.
pub const MAX_BUFFER: usize = 32 * 1024 * 1024;

/// Bytes kept available before a short token is read, so short tokens never straddle a refill.
const LOOKAHEAD: usize = 32;

/// What a refill achieved.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Fill {
    /// More bytes are available.
    Read,
    /// The input is exhausted.
    Eof,
    /// The buffer is at its limit and holds nothing that could be dropped.
    Full,
}

/// The result of looking for a byte ahead.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Found {
    /// At this many bytes after the read position.
    At(usize),
    /// The input ended first.
    Eof,
    /// The buffer limit was reached first.
    Full,
}

/// How a brace comment ends, in bytes after the read position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum CommentEnd {
    /// At its `}`.
    Close(usize),
    /// At a line end followed by a line where a game starts.
    Cut(usize),
    /// At the end of the input.
    Eof,
    /// At the buffer limit.
    Full,
}

/// Bytes that end a move token.
static DELIMITER: [bool; 256] = {
    let mut table = [false; 256];
    let delimiters = b" \t\r\n\x0b\x0c{}()[];$!?\"";
    let mut i = 0;
    while i < delimiters.len() {
        table[delimiters[i] as usize] = true;
        i += 1;
    }
    table
};

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
    inner: R,
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    eof: bool,
    /// Offset in the input of `buf[0]`.
    base: u64,
    /// Current line (from 1) and the offset where it starts.
    line: u64,
    line_start: u64,
    games: u64,
    /// The line (from 1) of the last tag pair read; 0 before any.
    tag_line: u64,
    /// Stop before a game that starts at or after this offset (a range's end).
    stop_at: Option<u64>,
    /// The most the buffer may grow to.
    max_buffer: usize,
}

impl<R: Read> Reader<R> {
    /// A reader from the start of `inner`. Wrap files in nothing: the reader buffers itself.
    pub fn new(inner: R) -> Reader<R> {
        Reader::starting_at(inner, 0)
    }

    /// A reader whose input starts at `offset` of a larger file (for offsets in locations).
    pub(crate) fn starting_at(inner: R, offset: u64) -> Reader<R> {
        Reader {
            inner,
            buf: vec![0; INITIAL_BUFFER],
            pos: 0,
            end: 0,
            eof: false,
            base: offset,
            line: 1,
            line_start: offset,
            games: 0,
            tag_line: 0,
            stop_at: None,
            max_buffer: MAX_BUFFER,
        }
    }

    /// A reader whose buffer never grows past `bytes` (at least 256): a longer token (comment,
    /// tag line) is reported as [`ErrorKind::TokenTooLong`] and skipped.
    pub fn with_max_buffer(inner: R, bytes: usize) -> Reader<R> {
        let mut reader = Reader::new(inner);
        reader.max_buffer = bytes.max(256);
        reader.buf.truncate(reader.max_buffer.min(INITIAL_BUFFER));
        reader
    }

    /// The buffer's current size in bytes: it stays at its initial 64 KiB unless a token is
    /// longer, whatever the size of the input.
    pub fn buffer_capacity(&self) -> usize {
        self.buf.len()
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
        self.base + self.pos as u64
    }

    /// The byte source back.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// Reads the next game into `visitor`; `None` at the end of the input (or of the range).
    ///
    /// Malformed input is reported to [`Visitor::syntax_error`] and never stops the reader;
    /// only an I/O error does.
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Option<V::Output>> {
        if self.offset() == 0 {
            self.ensure(3)?;
            if self.available().starts_with(b"\xef\xbb\xbf") {
                self.pos += 3;
            }
        }
        // Comments before a game's first tag or move (only possible at the start of the input,
        // since comments after a game belong to it) wait for the game to begin, so that the
        // game starts where its tags do, as the range reader expects.
        let mut leading = Leading::default();
        loop {
            self.skip_whitespace()?;
            self.ensure(LOOKAHEAD)?;
            match self.available().first() {
                Some(b'%') if self.offset() == self.line_start => self.skip_line()?,
                Some(b'{') => {
                    self.read_brace_comment(&mut leading, false)?;
                }
                Some(b';') => self.read_line_comment(&mut leading, false)?,
                _ => break,
            }
        }
        if self.pos >= self.end && leading.comments.is_empty() {
            return Ok(None);
        }
        let location = self.location();
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

    // ---- Buffer ----------------------------------------------------------------------------

    #[inline]
    fn available(&self) -> &[u8] {
        &self.buf[self.pos..self.end]
    }

    #[inline]
    fn location(&self) -> Location {
        let offset = self.offset();
        Location {
            offset,
            line: self.line,
            column: offset - self.line_start + 1,
        }
    }

    /// Moves unread bytes to the front and reads more, growing the buffer when it is full.
    fn fill(&mut self) -> io::Result<Fill> {
        if self.eof {
            return Ok(Fill::Eof);
        }
        if self.pos > 0 {
            self.buf.copy_within(self.pos..self.end, 0);
            self.base += self.pos as u64;
            self.end -= self.pos;
            self.pos = 0;
        }
        if self.end == self.buf.len() {
            if self.buf.len() >= self.max_buffer {
                return Ok(Fill::Full);
            }
            let grown = (self.buf.len() * 2).min(self.max_buffer);
            self.buf.resize(grown, 0);
        }
        loop {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(Fill::Eof);
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(Fill::Read);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Makes at least `n` bytes available unless the input ends first.
    #[inline]
    fn ensure(&mut self, n: usize) -> io::Result<()> {
        while self.end - self.pos < n && !self.eof {
            if self.fill()? == Fill::Full {
                break;
            }
        }
        Ok(())
    }

    /// Looks for `needle` from `from` bytes after the read position, reading more as needed.
    fn find_from(&mut self, mut from: usize, needle: u8) -> io::Result<Found> {
        loop {
            if let Some(i) = memchr(needle, &self.buf[self.pos + from..self.end]) {
                return Ok(Found::At(from + i));
            }
            from = self.end - self.pos;
            match self.fill()? {
                Fill::Read => {}
                Fill::Eof => return Ok(Found::Eof),
                Fill::Full => return Ok(Found::Full),
            }
        }
    }

    /// Consumes `n` available bytes, counting the line ends among them.
    fn advance_counting(&mut self, n: usize) {
        let skipped = &self.buf[self.pos..self.pos + n];
        if let Some(last) = memrchr(b'\n', skipped) {
            self.line += memchr_iter(b'\n', skipped).count() as u64;
            self.line_start = self.base + (self.pos + last + 1) as u64;
        }
        self.pos += n;
    }

    /// Consumes bytes up to and including `needle` without keeping them; `false` when the input
    /// ended first.
    fn discard_through(&mut self, needle: u8) -> io::Result<bool> {
        loop {
            if let Some(i) = memchr(needle, self.available()) {
                self.advance_counting(i + 1);
                return Ok(true);
            }
            self.advance_counting(self.end - self.pos);
            if self.fill()? != Fill::Read {
                return Ok(false);
            }
        }
    }

    #[inline]
    fn skip_whitespace(&mut self) -> io::Result<()> {
        loop {
            // A local index: the loop then runs in registers.
            let mut i = self.pos;
            while let Some(&c) = self.buf[..self.end].get(i) {
                match c {
                    b'\n' => {
                        i += 1;
                        self.line += 1;
                        self.line_start = self.base + i as u64;
                    }
                    b' ' | b'\t' | b'\r' | 0x0b | 0x0c => i += 1,
                    _ => {
                        self.pos = i;
                        return Ok(());
                    }
                }
            }
            self.pos = i;
            if self.fill()? != Fill::Read {
                return Ok(());
            }
        }
    }

    /// Skips to the start of the next line.
    fn skip_line(&mut self) -> io::Result<()> {
        self.discard_through(b'\n')?;
        Ok(())
    }

    // ---- Tags ------------------------------------------------------------------------------

    fn read_tags<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<()> {
        loop {
            self.skip_whitespace()?;
            self.ensure(LOOKAHEAD)?;
            match self.available().first() {
                // Only `[` and a letter opens a tag pair, as only that ends a movetext; a stray
                // `[` is left to the movetext, which reports it.
                Some(b'[') if self.available().get(1).is_some_and(u8::is_ascii_alphabetic) => {
                    self.read_tag(visitor)?;
                }
                Some(b'%') if self.offset() == self.line_start => self.skip_line()?,
                // A comment over several lines, or one that begins a line and is followed by
                // more on it, ends the tag section (see `game_start`).
                Some(b'{') => {
                    let line = self.line;
                    let begins_line = self.tag_line != line;
                    if self.read_brace_comment(visitor, false)? {
                        return Ok(());
                    }
                    if begins_line {
                        self.skip_whitespace()?;
                        if self.line == line && self.pos < self.end {
                            return Ok(());
                        }
                    }
                }
                Some(b';') => self.read_line_comment(visitor, false)?,
                _ => return Ok(()),
            }
        }
    }

    /// Reads `[Name "value"]` at the read position. A tag pair never spans lines: the parse
    /// stops at the line end, and when it fails before reaching it with the buffer exhausted,
    /// the whole line is brought in and parsed again.
    fn read_tag<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<()> {
        let location = self.location();
        self.tag_line = self.line;
        let mut parsed = parse_tag(self.available());
        if parsed.is_err() && !self.eof && memchr(b'\n', self.available()).is_none() {
            if self.find_from(0, b'\n')? == Found::Full {
                visitor.syntax_error(
                    ErrorKind::TokenTooLong {
                        limit: self.max_buffer,
                    },
                    b"[",
                    location,
                );
                self.skip_line()?;
                return Ok(());
            }
            parsed = parse_tag(self.available());
        }
        let bytes = &self.buf[self.pos..self.end];
        match parsed {
            Ok(tag) => {
                visitor.tag(
                    &bytes[tag.name.0..tag.name.1],
                    RawTag(&bytes[tag.value.0..tag.value.1]),
                );
                if tag.repaired {
                    visitor.syntax_error(ErrorKind::UnescapedQuotes, &bytes[..tag.len], location);
                }
                self.pos += tag.len;
            }
            Err(len) => {
                let text = trim_line_end(&bytes[..len.max(1).min(bytes.len())]);
                visitor.syntax_error(ErrorKind::MalformedTag, text, location);
                self.pos = (self.pos + len.max(1)).min(self.end);
            }
        }
        Ok(())
    }

    // ---- Movetext --------------------------------------------------------------------------

    fn read_movetext<V: Visitor>(&mut self, visitor: &mut V, skip_all: bool) -> io::Result<()> {
        let mut depth = 0usize;
        // While set, nothing reaches the visitor; a `)` back below this depth ends the skip.
        let mut skip_from: Option<usize> = skip_all.then_some(0);
        loop {
            self.skip_whitespace()?;
            if self.end - self.pos < LOOKAHEAD {
                self.ensure(LOOKAHEAD)?;
            }
            let Some(&b) = self.available().first() else {
                break;
            };
            let quiet = skip_from.is_some();
            match b {
                b'{' => {
                    self.read_brace_comment(visitor, quiet)?;
                }
                b';' => self.read_line_comment(visitor, quiet)?,
                b'%' if self.offset() == self.line_start => self.skip_line()?,
                b'(' => {
                    let location = self.location();
                    self.pos += 1;
                    depth += 1;
                    if !quiet && visitor.begin_variation(location).0 {
                        skip_from = Some(depth);
                    }
                }
                b')' => {
                    let location = self.location();
                    self.pos += 1;
                    if depth == 0 {
                        if !quiet {
                            visitor.syntax_error(ErrorKind::UnmatchedParenthesis, b")", location);
                        }
                    } else {
                        if skip_from == Some(depth) {
                            skip_from = None;
                        } else if !quiet {
                            visitor.end_variation();
                        }
                        depth -= 1;
                    }
                }
                b'[' if self.available().get(1).is_some_and(u8::is_ascii_alphabetic) => break,
                b'$' => self.read_nag(visitor, quiet)?,
                b'!' | b'?' => self.read_glyph(visitor, quiet)?,
                b'*' => {
                    self.pos += 1;
                    if depth == 0 {
                        return self.finish_game(visitor, Outcome::Unknown, quiet);
                    }
                }
                // A move number (`12.`, `12...`, `12`): digits and any dots after them. Results
                // and `0-0` have a `-` or `/` second.
                b'0'..=b'9' if !matches!(self.available().get(1), Some(b'-' | b'/')) => {
                    let rest = self.available();
                    let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
                    let dots = rest[digits..].iter().take_while(|&&c| c == b'.').count();
                    self.pos += digits + dots;
                }
                b'0'..=b'9' => {
                    let rest = self.available();
                    let outcome = if rest.starts_with(b"1-0") {
                        Some((Outcome::WhiteWins, 3))
                    } else if rest.starts_with(b"0-1") {
                        Some((Outcome::BlackWins, 3))
                    } else if rest.starts_with(b"1/2-1/2") {
                        Some((Outcome::Draw, 7))
                    } else if rest.starts_with(b"1/2")
                        && rest.get(3).is_none_or(|&c| DELIMITER[c as usize])
                    {
                        if !quiet {
                            visitor.syntax_error(
                                ErrorKind::AbbreviatedDraw,
                                b"1/2",
                                self.location(),
                            );
                        }
                        Some((Outcome::Draw, 3))
                    } else {
                        None
                    };
                    if let Some((outcome, len)) = outcome {
                        self.pos += len;
                        if depth == 0 {
                            return self.finish_game(visitor, outcome, quiet);
                        }
                    } else if rest.starts_with(b"0-0") {
                        self.read_move_token(visitor, quiet)?;
                    } else {
                        // A move number: digits and any dots after them.
                        let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
                        let dots = rest[digits..].iter().take_while(|&&c| c == b'.').count();
                        self.pos += digits + dots;
                    }
                }
                b'.' => {
                    let dots = self.available().iter().take_while(|&&c| c == b'.').count();
                    self.pos += dots;
                }
                b'}' | b']' | b'[' | b'"' => {
                    let location = self.location();
                    self.pos += 1;
                    if !quiet {
                        visitor.syntax_error(ErrorKind::UnexpectedCharacter, &[b], location);
                    }
                }
                _ => self.read_move_token(visitor, quiet)?,
            }
        }
        // The game ended without its `)`s: close what the visitor opened.
        if depth > 0 {
            if skip_from != Some(0) {
                visitor.syntax_error(ErrorKind::UnclosedVariation, b"", self.location());
            }
            for d in 1..=depth {
                if skip_from.is_none_or(|s| d < s) {
                    visitor.end_variation();
                }
            }
        }
        Ok(())
    }

    /// After the termination marker: comments up to the next game still belong to this one.
    fn finish_game<V: Visitor>(
        &mut self,
        visitor: &mut V,
        outcome: Outcome,
        quiet: bool,
    ) -> io::Result<()> {
        if !quiet {
            visitor.outcome(outcome);
        }
        loop {
            self.skip_whitespace()?;
            self.ensure(1)?;
            match self.available().first() {
                Some(b'{') => {
                    self.read_brace_comment(visitor, quiet)?;
                }
                Some(b';') => self.read_line_comment(visitor, quiet)?,
                Some(b'%') if self.offset() == self.line_start => self.skip_line()?,
                _ => return Ok(()),
            }
        }
    }

    /// Reads a `{}` comment; `true` when it spanned lines.
    #[inline(always)]
    fn read_brace_comment<V: Visitor>(&mut self, visitor: &mut V, quiet: bool) -> io::Result<bool> {
        // The usual comment closes on its own line, within the buffer.
        let rest = &self.buf[self.pos + 1..self.end];
        if let Some(i) = scan::find2(b'}', b'\n', rest)
            && rest[i] == b'}'
        {
            if !quiet {
                visitor.comment(RawComment(&rest[..i]));
            }
            self.pos += i + 2;
            return Ok(false);
        }
        self.read_long_brace_comment(visitor, quiet)
    }

    /// A comment over several lines, or running past the buffer.
    fn read_long_brace_comment<V: Visitor>(
        &mut self,
        visitor: &mut V,
        quiet: bool,
    ) -> io::Result<bool> {
        let location = self.location();
        // The comment's first line is a tag line when a tag pair was read on it, or when its text
        // holds `[` and a letter (nothing else before the `{` can: see `game_start`).
        let first_line_tagged = self.tag_line == self.line;
        // The kind of the nearest non-transparent line so far, for the game-start rule.
        let mut previous = LineKind::Other;
        // One scan for the closing brace and the line ends before it, which are counted here.
        let mut from = 1;
        let mut newlines = 0;
        let mut last_newline = 0;
        let found = loop {
            match scan::find2(b'}', b'\n', &self.buf[self.pos + from..self.end]) {
                Some(i) if self.buf[self.pos + from + i] == b'}' => {
                    break CommentEnd::Close(from + i);
                }
                Some(i) => {
                    let at = from + i;
                    let line = &self.buf[self.pos + from..self.pos + at];
                    let kind = if newlines == 0 {
                        if first_line_tagged || has_tag_opening(line) {
                            LineKind::Tag
                        } else {
                            LineKind::Other
                        }
                    } else {
                        classify(line)
                    };
                    if kind != LineKind::Transparent {
                        previous = kind;
                    }
                    if previous != LineKind::Tag && self.game_starts_after(at)? {
                        break CommentEnd::Cut(at);
                    }
                    newlines += 1;
                    last_newline = at;
                    from = at + 1;
                }
                None => {
                    from = self.end - self.pos;
                    match self.fill()? {
                        Fill::Read => {}
                        Fill::Eof => break CommentEnd::Eof,
                        Fill::Full => break CommentEnd::Full,
                    }
                }
            }
        };
        let end = match found {
            CommentEnd::Close(close) => close,
            CommentEnd::Cut(at) => {
                newlines += 1;
                last_newline = at;
                at
            }
            CommentEnd::Eof => self.end - self.pos,
            CommentEnd::Full => {
                if !quiet {
                    let kind = ErrorKind::TokenTooLong {
                        limit: self.max_buffer,
                    };
                    visitor.syntax_error(kind, b"{", location);
                }
                self.discard_through(b'}')?;
                return Ok(true);
            }
        };
        if !quiet {
            visitor.comment(RawComment(&self.buf[self.pos + 1..self.pos + end]));
            if matches!(found, CommentEnd::Eof | CommentEnd::Cut(_)) {
                visitor.syntax_error(ErrorKind::UnterminatedComment, b"{", location);
            }
        }
        if newlines > 0 {
            self.line += newlines;
            self.line_start = self.base + (self.pos + last_newline + 1) as u64;
        }
        self.pos = (self.pos + end + 1).min(self.end);
        Ok(newlines > 0)
    }

    /// `true` when the line after the line end `at` bytes after the read position holds only tag
    /// pairs (the rest of the game-start rule is the caller's).
    fn game_starts_after(&mut self, at: usize) -> io::Result<bool> {
        while self.end - self.pos < at + 3 && !self.eof {
            if self.fill()? == Fill::Full {
                break;
            }
        }
        let next = &self.buf[self.pos + at + 1..self.end];
        if !(next.first() == Some(&b'[') && next.get(1).is_some_and(u8::is_ascii_alphabetic)) {
            return Ok(false);
        }
        // The whole line, for the tag pair's closing quote and bracket.
        self.find_from(at + 1, b'\n')?;
        Ok(is_tag_pairs_line(&self.buf[self.pos + at + 1..self.end]))
    }

    fn read_line_comment<V: Visitor>(&mut self, visitor: &mut V, quiet: bool) -> io::Result<()> {
        let location = self.location();
        let len = match self.find_from(1, b'\n')? {
            Found::At(i) => i,
            Found::Eof => self.end - self.pos,
            Found::Full => {
                if !quiet {
                    visitor.syntax_error(
                        ErrorKind::TokenTooLong {
                            limit: self.max_buffer,
                        },
                        b";",
                        location,
                    );
                }
                return self.skip_line();
            }
        };
        if !quiet {
            let text = trim_line_end(&self.buf[self.pos + 1..self.pos + len]);
            visitor.comment(RawComment(text));
        }
        // The line end itself is left to the whitespace skipper, which counts it.
        self.pos += len;
        Ok(())
    }

    fn read_nag<V: Visitor>(&mut self, visitor: &mut V, quiet: bool) -> io::Result<()> {
        let location = self.location();
        let rest = &self.available()[1..];
        let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
        let token = &self.buf[self.pos..self.pos + 1 + digits];
        let value = if (1..=3).contains(&digits) {
            token[1..]
                .iter()
                .fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'))
        } else {
            u32::MAX
        };
        if !quiet {
            match u8::try_from(value) {
                Ok(n) => visitor.nag(Nag(n)),
                Err(_) => visitor.syntax_error(ErrorKind::InvalidNag, token, location),
            }
        }
        self.pos += 1 + digits;
        Ok(())
    }

    fn read_glyph<V: Visitor>(&mut self, visitor: &mut V, quiet: bool) -> io::Result<()> {
        let location = self.location();
        let len = self
            .available()
            .iter()
            .take_while(|&&c| c == b'!' || c == b'?')
            .count();
        let glyph = &self.buf[self.pos..self.pos + len];
        if !quiet {
            match Nag::from_glyph(glyph) {
                Some(nag) => visitor.nag(nag),
                None => visitor.syntax_error(ErrorKind::InvalidNag, glyph, location),
            }
        }
        self.pos += len;
        Ok(())
    }

    /// A token up to the next delimiter: a move, a null move, or a textual evaluation sign.
    #[inline(always)]
    fn read_move_token<V: Visitor>(&mut self, visitor: &mut V, quiet: bool) -> io::Result<()> {
        let location = self.location();
        // The caller keeps LOOKAHEAD bytes available, so a move token is nearly always whole.
        let scanned = self.buf[self.pos..self.end]
            .iter()
            .position(|&c| DELIMITER[c as usize]);
        let len = match scanned {
            Some(len) => len,
            None => match self.read_long_token(visitor, quiet, location)? {
                Some(len) => len,
                None => return Ok(()),
            },
        };
        let text = &self.buf[self.pos..self.pos + len];
        self.pos += len;
        if quiet {
            return Ok(());
        }
        let token = SanToken { text, location };
        match text {
            // The common case first: a move starting with a file or a piece letter.
            [b'a'..=b'h', second, ..] if *second != b'.' => visitor.san(token),
            [b'N' | b'B' | b'R' | b'Q' | b'K' | b'O', ..] => visitor.san(token),
            b"--" | b"Z0" => visitor.null_move(token),
            // `e.p.` after an en-passant capture says nothing the move does not.
            b"e.p." => {}
            _ => match evaluation_nag(text) {
                Some(nag) => visitor.nag(nag),
                None => visitor.san(token),
            },
        }
        Ok(())
    }

    /// A token running past the available bytes: reads on to its end, or reports it as too long
    /// and drops it (`None`).
    #[cold]
    fn read_long_token<V: Visitor>(
        &mut self,
        visitor: &mut V,
        quiet: bool,
        location: Location,
    ) -> io::Result<Option<usize>> {
        let mut len = self.end - self.pos;
        loop {
            match self.fill()? {
                Fill::Read => {}
                Fill::Eof => return Ok(Some(self.end - self.pos)),
                Fill::Full => {
                    if !quiet {
                        let kind = ErrorKind::TokenTooLong {
                            limit: self.max_buffer,
                        };
                        visitor.syntax_error(kind, &self.buf[self.pos..self.pos + 16], location);
                    }
                    self.pos = self.end;
                    self.skip_move_token_rest()?;
                    return Ok(None);
                }
            }
            if let Some(i) = self.available()[len..]
                .iter()
                .position(|&c| DELIMITER[c as usize])
            {
                return Ok(Some(len + i));
            }
            len = self.end - self.pos;
        }
    }

    /// Drops the rest of an over-long token.
    fn skip_move_token_rest(&mut self) -> io::Result<()> {
        loop {
            if let Some(i) = self.available().iter().position(|&c| DELIMITER[c as usize]) {
                self.pos += i;
                return Ok(());
            }
            self.pos = self.end;
            if self.fill()? != Fill::Read {
                return Ok(());
            }
        }
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

/// The NAG of an evaluation sign written as text, as ChessBase and Informant exports do
/// (in UTF-8: `\u{221e}`, `\u{2a72}`, `\u{2a71}`, `\u{b1}`, `\u{2213}`).
fn evaluation_nag(text: &[u8]) -> Option<Nag> {
    Some(Nag(match text {
        b"=" => 10,
        b"\xe2\x88\x9e" => 13,
        b"+=" | b"+/=" | b"\xe2\xa9\xb2" => 14,
        b"=+" | b"=/+" | b"\xe2\xa9\xb1" => 15,
        b"+/-" | b"\xc2\xb1" => 16,
        b"-/+" | b"\xe2\x88\x93" => 17,
        b"+-" => 18,
        b"-+" => 19,
        _ => return None,
    }))
}

/// Strips a trailing `\r`.
fn trim_line_end(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}
