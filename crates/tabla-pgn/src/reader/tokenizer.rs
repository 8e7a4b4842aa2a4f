//! The PGN tokenizer: tag pairs, comments, move numbers, moves, NAGs, variations and results,
//! scanned as byte slices of the reader's buffer and handed to the [`Visitor`] without copying
//! (`memchr` for comment and line ends, a lookup table for move tokens).

use super::Reader;
use super::buffer::{Fill, Found};
use crate::game_start::{LineKind, classify, has_tag_opening, is_tag_pairs_line, parse_tag};
use crate::scan;
use crate::{ErrorKind, Location, Nag, Outcome, RawComment, RawTag, SanToken, Visitor};
use memchr::memchr;
use std::io::{self, Read};

/// Bytes kept available before a short token is read, so short tokens never straddle a refill.
pub(super) const LOOKAHEAD: usize = 32;

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

impl<R: Read> Reader<R> {
    pub(super) fn read_tags<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<()> {
        loop {
            self.input.skip_whitespace()?;
            self.input.ensure(LOOKAHEAD)?;
            match self.input.available().first() {
                // Only `[` and a letter opens a tag pair, as only that ends a movetext; a stray
                // `[` is left to the movetext, which reports it.
                Some(b'[')
                    if self
                        .input
                        .available()
                        .get(1)
                        .is_some_and(u8::is_ascii_alphabetic) =>
                {
                    self.read_tag(visitor)?;
                }
                Some(b'%') if self.input.at_line_start() => self.input.skip_line()?,
                // A comment over several lines, or one that begins a line and is followed by
                // more on it, ends the tag section (see `game_start`).
                Some(b'{') => {
                    let line = self.input.line;
                    let begins_line = self.tag_line != line;
                    if self.read_brace_comment(visitor, false)? {
                        return Ok(());
                    }
                    if begins_line {
                        self.input.skip_whitespace()?;
                        if self.input.line == line && self.input.pos < self.input.end {
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
        let location = self.input.location();
        self.tag_line = self.input.line;
        let mut parsed = parse_tag(self.input.available());
        if parsed.is_err() && !self.input.eof && memchr(b'\n', self.input.available()).is_none() {
            if self.input.find_from(0, b'\n')? == Found::Full {
                visitor.syntax_error(
                    ErrorKind::TokenTooLong {
                        limit: self.input.max,
                    },
                    b"[",
                    location,
                );
                self.input.skip_line()?;
                return Ok(());
            }
            parsed = parse_tag(self.input.available());
        }
        let bytes = &self.input.buf[self.input.pos..self.input.end];
        match parsed {
            Ok(tag) => {
                visitor.tag(
                    &bytes[tag.name.0..tag.name.1],
                    RawTag(&bytes[tag.value.0..tag.value.1]),
                );
                if tag.repaired {
                    visitor.syntax_error(ErrorKind::UnescapedQuotes, &bytes[..tag.len], location);
                }
                self.input.pos += tag.len;
            }
            Err(len) => {
                let text = trim_line_end(&bytes[..len.max(1).min(bytes.len())]);
                visitor.syntax_error(ErrorKind::MalformedTag, text, location);
                self.input.pos = (self.input.pos + len.max(1)).min(self.input.end);
            }
        }
        Ok(())
    }

    // ---- Movetext --------------------------------------------------------------------------

    pub(super) fn read_movetext<V: Visitor>(
        &mut self,
        visitor: &mut V,
        skip_all: bool,
    ) -> io::Result<()> {
        let mut depth = 0usize;
        // While set, nothing reaches the visitor; a `)` back below this depth ends the skip.
        let mut skip_from: Option<usize> = skip_all.then_some(0);
        loop {
            self.input.skip_whitespace()?;
            if self.input.end - self.input.pos < LOOKAHEAD {
                self.input.ensure(LOOKAHEAD)?;
            }
            let Some(&b) = self.input.available().first() else {
                break;
            };
            let quiet = skip_from.is_some();
            match b {
                b'{' => {
                    self.read_brace_comment(visitor, quiet)?;
                }
                b';' => self.read_line_comment(visitor, quiet)?,
                b'%' if self.input.at_line_start() => self.input.skip_line()?,
                b'(' => {
                    let location = self.input.location();
                    self.input.pos += 1;
                    depth += 1;
                    if !quiet && visitor.begin_variation(location).0 {
                        skip_from = Some(depth);
                    }
                }
                b')' => {
                    let location = self.input.location();
                    self.input.pos += 1;
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
                b'[' if self
                    .input
                    .available()
                    .get(1)
                    .is_some_and(u8::is_ascii_alphabetic) =>
                {
                    break;
                }
                b'$' => self.read_nag(visitor, quiet)?,
                b'!' | b'?' => self.read_glyph(visitor, quiet)?,
                b'*' => {
                    self.input.pos += 1;
                    if depth == 0 {
                        return self.finish_game(visitor, Outcome::Unknown, quiet);
                    }
                }
                // A move number (`12.`, `12...`, `12`): digits and any dots after them. Results
                // and `0-0` have a `-` or `/` second.
                b'0'..=b'9' if !matches!(self.input.available().get(1), Some(b'-' | b'/')) => {
                    let rest = self.input.available();
                    let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
                    let dots = rest[digits..].iter().take_while(|&&c| c == b'.').count();
                    self.input.pos += digits + dots;
                }
                b'0'..=b'9' => {
                    let rest = self.input.available();
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
                                self.input.location(),
                            );
                        }
                        Some((Outcome::Draw, 3))
                    } else {
                        None
                    };
                    if let Some((outcome, len)) = outcome {
                        self.input.pos += len;
                        if depth == 0 {
                            return self.finish_game(visitor, outcome, quiet);
                        }
                    } else if rest.starts_with(b"0-0") {
                        self.read_move_token(visitor, quiet)?;
                    } else {
                        // A move number: digits and any dots after them.
                        let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
                        let dots = rest[digits..].iter().take_while(|&&c| c == b'.').count();
                        self.input.pos += digits + dots;
                    }
                }
                b'.' => {
                    let dots = self
                        .input
                        .available()
                        .iter()
                        .take_while(|&&c| c == b'.')
                        .count();
                    self.input.pos += dots;
                }
                b'}' | b']' | b'[' | b'"' => {
                    let location = self.input.location();
                    self.input.pos += 1;
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
                visitor.syntax_error(ErrorKind::UnclosedVariation, b"", self.input.location());
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
            self.input.skip_whitespace()?;
            self.input.ensure(1)?;
            match self.input.available().first() {
                Some(b'{') => {
                    self.read_brace_comment(visitor, quiet)?;
                }
                Some(b';') => self.read_line_comment(visitor, quiet)?,
                Some(b'%') if self.input.at_line_start() => self.input.skip_line()?,
                _ => return Ok(()),
            }
        }
    }

    /// Reads a `{}` comment; `true` when it spanned lines.
    #[inline(always)]
    pub(super) fn read_brace_comment<V: Visitor>(
        &mut self,
        visitor: &mut V,
        quiet: bool,
    ) -> io::Result<bool> {
        // The usual comment closes on its own line, within the buffer.
        let rest = &self.input.buf[self.input.pos + 1..self.input.end];
        if let Some(i) = scan::find2(b'}', b'\n', rest)
            && rest[i] == b'}'
        {
            if !quiet {
                visitor.comment(RawComment(&rest[..i]));
            }
            self.input.pos += i + 2;
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
        let location = self.input.location();
        // The comment's first line is a tag line when a tag pair was read on it, or when its text
        // holds `[` and a letter (nothing else before the `{` can: see `game_start`).
        let first_line_tagged = self.tag_line == self.input.line;
        // The kind of the nearest non-transparent line so far, for the game-start rule.
        let mut previous = LineKind::Other;
        // One scan for the closing brace and the line ends before it, which are counted here.
        let mut from = 1;
        let mut newlines = 0;
        let mut last_newline = 0;
        let found = loop {
            match scan::find2(
                b'}',
                b'\n',
                &self.input.buf[self.input.pos + from..self.input.end],
            ) {
                Some(i) if self.input.buf[self.input.pos + from + i] == b'}' => {
                    break CommentEnd::Close(from + i);
                }
                Some(i) => {
                    let at = from + i;
                    let line = &self.input.buf[self.input.pos + from..self.input.pos + at];
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
                    from = self.input.end - self.input.pos;
                    match self.input.fill()? {
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
            CommentEnd::Eof => self.input.end - self.input.pos,
            CommentEnd::Full => {
                if !quiet {
                    let kind = ErrorKind::TokenTooLong {
                        limit: self.input.max,
                    };
                    visitor.syntax_error(kind, b"{", location);
                }
                self.input.discard_through(b'}')?;
                return Ok(true);
            }
        };
        if !quiet {
            visitor.comment(RawComment(
                &self.input.buf[self.input.pos + 1..self.input.pos + end],
            ));
            if matches!(found, CommentEnd::Eof | CommentEnd::Cut(_)) {
                visitor.syntax_error(ErrorKind::UnterminatedComment, b"{", location);
            }
        }
        if newlines > 0 {
            self.input.count_lines(newlines, last_newline);
        }
        self.input.pos = (self.input.pos + end + 1).min(self.input.end);
        Ok(newlines > 0)
    }

    /// `true` when the line after the line end `at` bytes after the read position holds only tag
    /// pairs (the rest of the game-start rule is the caller's).
    fn game_starts_after(&mut self, at: usize) -> io::Result<bool> {
        self.input.ensure(at + 3)?;
        let next = &self.input.buf[self.input.pos + at + 1..self.input.end];
        if !(next.first() == Some(&b'[') && next.get(1).is_some_and(u8::is_ascii_alphabetic)) {
            return Ok(false);
        }
        // The whole line, for the tag pair's closing quote and bracket.
        self.input.find_from(at + 1, b'\n')?;
        Ok(is_tag_pairs_line(
            &self.input.buf[self.input.pos + at + 1..self.input.end],
        ))
    }

    pub(super) fn read_line_comment<V: Visitor>(
        &mut self,
        visitor: &mut V,
        quiet: bool,
    ) -> io::Result<()> {
        let location = self.input.location();
        let len = match self.input.find_from(1, b'\n')? {
            Found::At(i) => i,
            Found::Eof => self.input.end - self.input.pos,
            Found::Full => {
                if !quiet {
                    visitor.syntax_error(
                        ErrorKind::TokenTooLong {
                            limit: self.input.max,
                        },
                        b";",
                        location,
                    );
                }
                return self.input.skip_line();
            }
        };
        if !quiet {
            let text = trim_line_end(&self.input.buf[self.input.pos + 1..self.input.pos + len]);
            visitor.comment(RawComment(text));
        }
        // The line end itself is left to the whitespace skipper, which counts it.
        self.input.pos += len;
        Ok(())
    }

    fn read_nag<V: Visitor>(&mut self, visitor: &mut V, quiet: bool) -> io::Result<()> {
        let location = self.input.location();
        let rest = &self.input.available()[1..];
        let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
        let token = &self.input.buf[self.input.pos..self.input.pos + 1 + digits];
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
        self.input.pos += 1 + digits;
        Ok(())
    }

    fn read_glyph<V: Visitor>(&mut self, visitor: &mut V, quiet: bool) -> io::Result<()> {
        let location = self.input.location();
        let len = self
            .input
            .available()
            .iter()
            .take_while(|&&c| c == b'!' || c == b'?')
            .count();
        let glyph = &self.input.buf[self.input.pos..self.input.pos + len];
        if !quiet {
            match Nag::from_glyph(glyph) {
                Some(nag) => visitor.nag(nag),
                None => visitor.syntax_error(ErrorKind::InvalidNag, glyph, location),
            }
        }
        self.input.pos += len;
        Ok(())
    }

    /// A token up to the next delimiter: a move, a null move, or a textual evaluation sign.
    #[inline(always)]
    fn read_move_token<V: Visitor>(&mut self, visitor: &mut V, quiet: bool) -> io::Result<()> {
        let location = self.input.location();
        // The caller keeps LOOKAHEAD bytes available, so a move token is nearly always whole.
        let scanned = self.input.buf[self.input.pos..self.input.end]
            .iter()
            .position(|&c| DELIMITER[c as usize]);
        let len = match scanned {
            Some(len) => len,
            None => match self.read_long_token(visitor, quiet, location)? {
                Some(len) => len,
                None => return Ok(()),
            },
        };
        let text = &self.input.buf[self.input.pos..self.input.pos + len];
        self.input.pos += len;
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
        let mut len = self.input.end - self.input.pos;
        loop {
            match self.input.fill()? {
                Fill::Read => {}
                Fill::Eof => return Ok(Some(self.input.end - self.input.pos)),
                Fill::Full => {
                    if !quiet {
                        let kind = ErrorKind::TokenTooLong {
                            limit: self.input.max,
                        };
                        visitor.syntax_error(
                            kind,
                            &self.input.buf[self.input.pos..self.input.pos + 16],
                            location,
                        );
                    }
                    self.input.pos = self.input.end;
                    self.skip_move_token_rest()?;
                    return Ok(None);
                }
            }
            if let Some(i) = self.input.available()[len..]
                .iter()
                .position(|&c| DELIMITER[c as usize])
            {
                return Ok(Some(len + i));
            }
            len = self.input.end - self.input.pos;
        }
    }

    /// Drops the rest of an over-long token.
    fn skip_move_token_rest(&mut self) -> io::Result<()> {
        loop {
            if let Some(i) = self
                .input
                .available()
                .iter()
                .position(|&c| DELIMITER[c as usize])
            {
                self.input.pos += i;
                return Ok(());
            }
            self.input.pos = self.input.end;
            if self.input.fill()? != Fill::Read {
                return Ok(());
            }
        }
    }
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
