//! The reader's input: a byte buffer refilled from any `io::Read`, with the read position and
//! the line count.
//!
//! It holds the current token and a little look-ahead, so memory does not depend on the size of
//! the input; it grows only for a token longer than itself (a huge comment), up to its limit
//! ([`MAX_BUFFER`] unless the reader was given another). The tokenizer reads and moves the
//! position directly (`buf[pos..end]`): its hot loops stay index arithmetic on one slice.

use crate::Location;
use memchr::{memchr, memchr_iter, memrchr};
use std::io::{self, Read};

/// The buffer's starting size.
const INITIAL_BUFFER: usize = 64 * 1024;

/// The largest the buffer grows to by default; a longer token is reported and skipped.
pub const MAX_BUFFER: usize = 32 * 1024 * 1024;

/// What a refill achieved.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Fill {
    /// More bytes are available.
    Read,
    /// The input is exhausted.
    Eof,
    /// The buffer is at its limit and holds nothing that could be dropped.
    Full,
}

/// The result of looking for a byte ahead.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Found {
    /// At this many bytes after the read position.
    At(usize),
    /// The input ended first.
    Eof,
    /// The buffer limit was reached first.
    Full,
}

/// The bytes read from `inner` and not yet consumed, and where they are in the input.
#[derive(Debug)]
pub(super) struct Buffer<R> {
    inner: R,
    /// The bytes; `buf[pos..end]` are read but not consumed.
    pub(super) buf: Vec<u8>,
    pub(super) pos: usize,
    pub(super) end: usize,
    /// The input is exhausted.
    pub(super) eof: bool,
    /// Offset in the input of `buf[0]`.
    base: u64,
    /// Current line (from 1) and the offset where it starts.
    pub(super) line: u64,
    line_start: u64,
    /// The most the buffer may grow to.
    pub(super) max: usize,
}

impl<R: Read> Buffer<R> {
    /// An empty buffer over `inner`, whose first byte is at `offset` of the input.
    pub(super) fn new(inner: R, offset: u64) -> Buffer<R> {
        Buffer {
            inner,
            buf: vec![0; INITIAL_BUFFER],
            pos: 0,
            end: 0,
            eof: false,
            base: offset,
            line: 1,
            line_start: offset,
            max: MAX_BUFFER,
        }
    }

    /// Limits the buffer to `bytes` (at least 256); only before anything is read.
    pub(super) fn limit(&mut self, bytes: usize) {
        self.max = bytes.max(256);
        self.buf.truncate(self.max.min(INITIAL_BUFFER));
    }

    /// The buffer's current size in bytes.
    pub(super) fn capacity(&self) -> usize {
        self.buf.len()
    }

    /// The byte source back.
    pub(super) fn into_inner(self) -> R {
        self.inner
    }

    /// The offset in the input of the next byte to read.
    #[inline]
    pub(super) fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// `true` at the first byte of a line (where a `%` escape line can start).
    #[inline]
    pub(super) fn at_line_start(&self) -> bool {
        self.offset() == self.line_start
    }

    /// Counts `lines` line ends among the bytes ahead, the last `last` bytes after the read
    /// position (for a caller that scanned them itself).
    #[inline]
    pub(super) fn count_lines(&mut self, lines: u64, last: usize) {
        self.line += lines;
        self.line_start = self.base + (self.pos + last + 1) as u64;
    }

    /// The bytes read and not consumed.
    #[inline]
    pub(super) fn available(&self) -> &[u8] {
        &self.buf[self.pos..self.end]
    }

    /// Where the read position is.
    #[inline]
    pub(super) fn location(&self) -> Location {
        let offset = self.offset();
        Location {
            offset,
            line: self.line,
            column: offset - self.line_start + 1,
        }
    }

    /// Moves unread bytes to the front and reads more, growing the buffer when it is full.
    pub(super) fn fill(&mut self) -> io::Result<Fill> {
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
            if self.buf.len() >= self.max {
                return Ok(Fill::Full);
            }
            let grown = (self.buf.len() * 2).min(self.max);
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
    pub(super) fn ensure(&mut self, n: usize) -> io::Result<()> {
        while self.end - self.pos < n && !self.eof {
            if self.fill()? == Fill::Full {
                break;
            }
        }
        Ok(())
    }

    /// Looks for `needle` from `from` bytes after the read position, reading more as needed.
    pub(super) fn find_from(&mut self, mut from: usize, needle: u8) -> io::Result<Found> {
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
    pub(super) fn advance_counting(&mut self, n: usize) {
        let skipped = &self.buf[self.pos..self.pos + n];
        if let Some(last) = memrchr(b'\n', skipped) {
            self.line += memchr_iter(b'\n', skipped).count() as u64;
            self.line_start = self.base + (self.pos + last + 1) as u64;
        }
        self.pos += n;
    }

    /// Consumes bytes up to and including `needle` without keeping them; `false` when the input
    /// ended first.
    pub(super) fn discard_through(&mut self, needle: u8) -> io::Result<bool> {
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

    /// Skips spaces, tabs, line ends, vertical tabs and form feeds, counting the lines.
    #[inline]
    pub(super) fn skip_whitespace(&mut self) -> io::Result<()> {
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
    pub(super) fn skip_line(&mut self) -> io::Result<()> {
        self.discard_through(b'\n')?;
        Ok(())
    }
}
