//! What the game loop needs to know beyond what the PGN reader tells it: the raw text of each
//! game (for the `movetext` column), which frame each byte came from (for game ids), where the
//! range ends, and how much input has been consumed.
//!
//! The byte sources below feed the reader and fill a shared [`Track`] as they go.

use crate::boundary::{Boundary, Local, local_start};
use crate::source::{FrameFile, FrameStream, HINT_LEN};
use std::cell::RefCell;
use std::io::{self, Read, Seek, SeekFrom};
use std::rc::Rc;

/// Bytes served past a range's end, so the reader sees the next game's first tag and ends the
/// last game of the range exactly where a reader of the whole input would.
pub(crate) const OVERLAP: u64 = 256;

/// The first bytes of a game kept for its `movetext`: a longer game's text is cut there, so a
/// huge "game" (say, a binary file read as PGN) cannot exhaust memory.
pub(crate) const MAX_GAME_TEXT: usize = 8 << 20;

/// Bytes kept at the end of the log while a game is longer than [`MAX_GAME_TEXT`]: more than
/// the reader can have read past the game's end (its buffer's limit).
const TAIL: usize = tabla_pgn::MAX_BUFFER + (8 << 20);

/// Shared between a byte source and the game loop (same thread).
#[derive(Debug, Default)]
pub(crate) struct Track {
    /// Bytes read by the reader from `log_start` on; while `dropped > 0`, the bytes from
    /// `log_start + MAX_GAME_TEXT` on were dropped up to `tail_start`, where the log goes on.
    log: Vec<u8>,
    log_start: u64,
    dropped: u64,
    /// Where the game being read starts at the latest (the last release).
    released: u64,
    /// From reader offset `.0` on, bytes belong to frame `.1` at in-frame offset `.2`.
    frames: Vec<(u64, u64, u64)>,
    /// Reader offset where the range ends, once known: a game starting there is not ours.
    pub stop: Option<u64>,
    /// Input bytes (as stored) consumed so far.
    pub input_consumed: u64,
    /// An error met by the byte source, which the reader only sees as an I/O error.
    pub error: Option<crate::ConvertError>,
    /// While set, reads are not logged (the range reader looking for its first game).
    pub paused: bool,
}

pub(crate) type SharedTrack = Rc<RefCell<Track>>;

impl Track {
    pub fn new() -> SharedTrack {
        Rc::new(RefCell::new(Track::default()))
    }

    /// Bytes `start..end` (reader offsets) as read, and whether they were cut short (a game
    /// longer than [`MAX_GAME_TEXT`]).
    pub fn text(&self, start: u64, end: u64) -> (&[u8], bool) {
        let from = start.saturating_sub(self.log_start);
        let wanted = end.saturating_sub(self.log_start).max(from);
        let mut available = self.log.len() as u64;
        if self.dropped > 0 {
            available = available.min(MAX_GAME_TEXT as u64);
        }
        let to = wanted.min(available).min(from + MAX_GAME_TEXT as u64);
        let from = from.min(to);
        (&self.log[from as usize..to as usize], to < wanted)
    }

    /// Forgets the bytes before `offset`, which the reader will not ask for again.
    pub fn release(&mut self, offset: u64) {
        self.released = offset;
        if self.dropped > 0 {
            let tail_start = self.log_start + MAX_GAME_TEXT as u64 + self.dropped;
            let skip = MAX_GAME_TEXT + offset.saturating_sub(tail_start) as usize;
            self.log.drain(..skip.min(self.log.len()));
            self.log_start = offset;
            self.dropped = 0;
        } else {
            let n = offset.saturating_sub(self.log_start) as usize;
            // Amortised: move the kept bytes only when they are at most half of the log.
            if n > 0 && n >= self.log.len() / 2 {
                let n = n.min(self.log.len());
                self.log.drain(..n);
                self.log_start += n as u64;
            }
        }
        if self.frames.len() > 1 {
            let keep = self.frames.iter().rposition(|f| f.0 <= offset).unwrap_or(0);
            self.frames.drain(..keep);
        }
    }

    /// Frame ordinal and in-frame offset of the byte at reader offset `at`.
    pub fn locate(&self, at: u64) -> (u64, u64) {
        match self.frames.iter().rev().find(|f| f.0 <= at) {
            Some(&(start, ordinal, in_frame)) => (ordinal, in_frame + (at - start)),
            None => (0, at),
        }
    }

    /// Bytes from reader offset `start` on belong to frame `ordinal`, from `in_frame` on.
    pub fn frame_starts(&mut self, start: u64, ordinal: u64, in_frame: u64) {
        self.frames.push((start, ordinal, in_frame));
    }

    fn record(&mut self, bytes: &[u8]) {
        if self.paused {
            return;
        }
        self.log.extend_from_slice(bytes);
        if self.dropped == 0 {
            let unreleased = self.log_start + self.log.len() as u64 - self.released;
            if unreleased as usize <= MAX_GAME_TEXT + TAIL {
                return;
            }
            // A game longer than the limit: keep its start and the latest bytes only.
            let consumed = self.released.saturating_sub(self.log_start) as usize;
            self.log.drain(..consumed.min(self.log.len()));
            self.log_start = self.released;
        } else if self.log.len() <= MAX_GAME_TEXT + 2 * TAIL {
            return;
        }
        let excess = self.log.len() - MAX_GAME_TEXT - TAIL;
        self.log.drain(MAX_GAME_TEXT..MAX_GAME_TEXT + excess);
        self.dropped += excess as u64;
    }

    fn reset(&mut self, offset: u64) {
        self.log.clear();
        self.log_start = offset;
        self.released = offset;
        self.dropped = 0;
    }
}

/// A byte source that logs what it hands out, so the game loop can cut out each game's text.
pub(crate) struct Recording<R> {
    inner: R,
    track: SharedTrack,
}

impl<R> Recording<R> {
    pub fn new(inner: R, track: SharedTrack) -> Recording<R> {
        Recording { inner, track }
    }
}

impl<R: Read> Read for Recording<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.track.borrow_mut().record(&buf[..n]);
        Ok(n)
    }
}

impl<R: Seek> Seek for Recording<R> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let at = self.inner.seek(to)?;
        self.track.borrow_mut().reset(at);
        Ok(at)
    }
}

/// The text of a run of pzstd frames, from one cut to the next (plus [`OVERLAP`]), decoded one
/// frame at a time.
pub(crate) struct FrameText {
    file: FrameFile,
    track: SharedTrack,
    /// The frame being served, its text and the read position in it.
    frame: usize,
    text: Vec<u8>,
    pos: usize,
    /// Reader offset of `text[pos]`.
    served: u64,
    /// Where the range ends, as a frame index and offset (`None`: the end of the input), and
    /// the reader offset past which nothing is served, once that frame is reached.
    stop: Option<(usize, u64)>,
    limit: Option<u64>,
    /// Frames `..owned_end` are this range's for progress.
    owned_end: usize,
}

impl FrameText {
    /// The text from `begin` to `stop` (both [`Boundary::Start`]s or `None` for the end).
    pub fn new(
        mut file: FrameFile,
        track: SharedTrack,
        begin: (usize, u64),
        stop: Option<(usize, u64)>,
        owned_end: usize,
    ) -> Result<FrameText, crate::ConvertError> {
        let mut text = Vec::new();
        file.decode(begin.0, &mut text)?;
        let mut this = FrameText {
            file,
            track,
            frame: begin.0,
            text,
            pos: begin.1 as usize,
            served: 0,
            stop,
            limit: None,
            owned_end,
        };
        this.entered(begin.1);
        Ok(this)
    }

    /// Notes that serving frame `self.frame` starts (at in-frame offset `in_frame`).
    fn entered(&mut self, in_frame: u64) {
        let ordinal = self.file.frames[self.frame].ordinal;
        let mut track = self.track.borrow_mut();
        track.frame_starts(self.served, ordinal, in_frame);
        if let Some((frame, offset)) = self.stop
            && frame == self.frame
        {
            let stop = self.served + offset - in_frame;
            track.stop = Some(stop);
            self.limit = Some(stop + OVERLAP);
        }
    }

    /// Compressed bytes of frame `k` with its size hint.
    fn stored_len(&self, k: usize) -> u64 {
        self.file.frames[k].size + HINT_LEN
    }
}

impl Read for FrameText {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.limit.is_some_and(|limit| self.served >= limit) {
                return Ok(0);
            }
            if self.pos < self.text.len() {
                let mut n = (self.text.len() - self.pos).min(buf.len());
                if let Some(limit) = self.limit {
                    n = n.min((limit - self.served) as usize);
                }
                buf[..n].copy_from_slice(&self.text[self.pos..self.pos + n]);
                self.pos += n;
                self.served += n as u64;
                return Ok(n);
            }
            if self.frame + 1 >= self.file.frames.len() {
                return Ok(0);
            }
            if self.frame < self.owned_end {
                let stored = self.stored_len(self.frame);
                self.track.borrow_mut().input_consumed += stored;
            }
            self.frame += 1;
            if let Err(e) = self.file.decode(self.frame, &mut self.text) {
                let message = e.to_string();
                self.track.borrow_mut().error = Some(e);
                return Err(io::Error::other(message));
            }
            self.pos = 0;
            self.entered(0);
        }
    }
}

/// The cut for frame boundary `k`: where the games of the range starting at frame `k` begin.
///
/// Mostly decided by the first lines of frame `k` alone ([`local_cut`]); else the first
/// decidable [`Boundary`] from `k` on. Every range asks this same question, so neighbours
/// agree.
pub(crate) fn cut(
    file: &mut FrameFile,
    mut k: usize,
) -> Result<Option<(usize, u64)>, crate::ConvertError> {
    if k > 0 && k < file.frames.len() {
        let mut text = Vec::new();
        if let Some(offset) = local_cut(file, k, &mut text, 0)? {
            return Ok(Some((k, offset)));
        }
    }
    loop {
        match crate::boundary::boundary(file, k)? {
            Boundary::Start { frame, offset } => return Ok(Some((frame, offset))),
            Boundary::End => return Ok(None),
            Boundary::Undecided => k += 1,
        }
    }
}

/// Decodes frame `k` into `text` until [`local_start`] decides where its games begin and
/// `extra` bytes past that are decoded (or the frame ends): that start, or `None` when the
/// frame alone cannot tell.
pub(crate) fn local_cut(
    file: &mut FrameFile,
    k: usize,
    text: &mut Vec<u8>,
    extra: u64,
) -> Result<Option<u64>, crate::ConvertError> {
    let mut found = None;
    let complete = file.decode_until(k, text, |prefix| match local_start(k, prefix, false) {
        Local::Start(offset) => {
            found = Some(offset);
            prefix.len() as u64 >= offset + extra
        }
        Local::More => false,
        Local::Unknown => true,
    })?;
    if complete {
        found = match local_start(k, text, true) {
            Local::Start(offset) => Some(offset),
            Local::More | Local::Unknown => None,
        };
    }
    Ok(found)
}

/// A decoded stream feeding the reader directly (when one thread reads the rest of a stream
/// that could not be cut), noting frame changes. `base` is the stream offset of reader
/// offset `first`.
pub(crate) struct TrackedStream<R: Read> {
    pub stream: FrameStream<R>,
    pub track: SharedTrack,
    /// Reader offset minus stream offset.
    pub shift: i64,
    pub ordinal: Option<u64>,
}

impl<R: Read> Read for TrackedStream<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.stream.read(buf)?;
        if n > 0 && self.ordinal != Some(self.stream.ordinal) {
            self.ordinal = Some(self.stream.ordinal);
            let reader_start = self.stream.frame_start.saturating_add_signed(self.shift);
            let in_frame = 0;
            self.track
                .borrow_mut()
                .frame_starts(reader_start, self.stream.ordinal, in_frame);
        }
        Ok(n)
    }
}
