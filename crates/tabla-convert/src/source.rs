//! What an input holds and how it can be cut: plain text (byte ranges), a pzstd file (zstd
//! frames each announced by a skippable frame giving its size: cut at frames), or any other
//! zstd stream or the standard input (decoded by one thread).
//!
//! pzstd writes before every zstd frame a 12-byte skippable frame: the magic `0x184D2A50`, the
//! frame size 4, and the compressed size of the zstd frame that follows, all little-endian
//! (zstd's format specification, "Skippable frames"; pzstd's `SkippableFrame.h`).

use crate::{ConvertError, Input};
use std::fs::File;
use std::io::{self, BufRead, Read, Seek, SeekFrom};

/// The magic number of a zstd frame, little-endian.
pub(crate) const ZSTD_MAGIC: u32 = 0xFD2F_B528;
/// pzstd's skippable frame magic (any of `0x184D2A50..=0x184D2A5F` is skippable).
pub(crate) const PZSTD_MAGIC: u32 = 0x184D_2A50;
/// Size of pzstd's skippable frame: magic, frame size, payload.
pub(crate) const HINT_LEN: u64 = 12;

/// `true` for the magic of a skippable frame.
pub(crate) fn is_skippable(magic: u32) -> bool {
    magic & 0xFFFF_FFF0 == 0x184D_2A50
}

/// `true` when the bytes start like zstd data (a zstd frame or a skippable frame).
pub(crate) fn looks_like_zstd(head: &[u8]) -> bool {
    match head.get(..4) {
        Some(b) => {
            let magic = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            magic == ZSTD_MAGIC || is_skippable(magic)
        }
        None => false,
    }
}

/// One zstd frame of a pzstd file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Frame {
    /// The frame's ordinal among all frames of the file, skippable ones included.
    pub ordinal: u64,
    /// Offset of the zstd frame (after its skippable hint) in the file.
    pub offset: u64,
    /// Its compressed size.
    pub size: u64,
}

/// How an input is read.
#[derive(Clone, Debug)]
pub(crate) enum Layout {
    /// A plain text file of this length, cut into byte ranges.
    Plain { len: u64 },
    /// A pzstd file of this length, cut at frames.
    Frames { len: u64, frames: Vec<Frame> },
    /// Decoded by one thread: zstd without size hints, or the standard input.
    Stream,
}

/// Looks at an input to decide how to read it.
pub(crate) fn layout(input: &Input) -> Result<Layout, ConvertError> {
    let Some(path) = input.path() else {
        return Ok(Layout::Stream);
    };
    let open_error = |source| ConvertError::Open {
        input: input.clone(),
        source,
    };
    let mut file = File::open(path).map_err(open_error)?;
    let len = file.metadata().map_err(open_error)?.len();
    let read_error = |source| ConvertError::Read {
        input: input.clone(),
        source,
    };
    let mut head = [0u8; 4];
    let n = read_up_to(&mut file, &mut head).map_err(read_error)?;
    if !looks_like_zstd(&head[..n]) {
        return Ok(Layout::Plain { len });
    }
    match scan_pzstd(&mut file, len).map_err(read_error)? {
        Some(frames) => Ok(Layout::Frames { len, frames }),
        None => Ok(Layout::Stream),
    }
}

/// Reads until `buf` is full or the input ends; how many bytes were read.
pub(crate) fn read_up_to(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match input.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// The zstd frames of a file laid out as pzstd writes it (every zstd frame announced by a
/// size hint, up to the end of the file), or `None` for any other layout.
fn scan_pzstd(file: &mut File, len: u64) -> io::Result<Option<Vec<Frame>>> {
    let mut frames = Vec::new();
    let mut offset = 0u64;
    let mut ordinal = 0u64;
    let mut hint = [0u8; HINT_LEN as usize + 4];
    while offset < len {
        file.seek(SeekFrom::Start(offset))?;
        if read_up_to(file, &mut hint)? < hint.len() {
            return Ok(None);
        }
        let word = |i: usize| u32::from_le_bytes([hint[i], hint[i + 1], hint[i + 2], hint[i + 3]]);
        if word(0) != PZSTD_MAGIC || word(4) != 4 || word(12) != ZSTD_MAGIC {
            return Ok(None);
        }
        let size = u64::from(word(8));
        let start = offset + HINT_LEN;
        if start + size > len {
            return Ok(None);
        }
        frames.push(Frame {
            ordinal: ordinal + 1,
            offset: start,
            size,
        });
        ordinal += 2;
        offset = start + size;
    }
    Ok((!frames.is_empty()).then_some(frames))
}

/// Largest decompressed frame held in memory at once.
pub(crate) const MAX_FRAME: u64 = 1 << 30;

/// Decodes the frames of a pzstd file one at a time.
#[derive(Debug)]
pub(crate) struct FrameFile {
    file: File,
    pub input: Input,
    pub frames: std::sync::Arc<[Frame]>,
    compressed: Vec<u8>,
}

impl FrameFile {
    pub fn open(input: &Input, frames: std::sync::Arc<[Frame]>) -> Result<FrameFile, ConvertError> {
        let Some(path) = input.path() else {
            return Err(ConvertError::StdinTwice);
        };
        let file = File::open(path).map_err(|source| ConvertError::Open {
            input: input.clone(),
            source,
        })?;
        Ok(FrameFile {
            file,
            input: input.clone(),
            frames,
            compressed: Vec::new(),
        })
    }

    /// Decodes frame `k` (an index into `frames`) into `out`, replacing its contents.
    pub fn decode(&mut self, k: usize, out: &mut Vec<u8>) -> Result<(), ConvertError> {
        self.decode_until(k, out, |_| false).map(|_| ())
    }

    /// Decodes frame `k` into `out` (replacing its contents) a step at a time, asking `enough`
    /// after each step whether the text so far suffices; `true` when the whole frame was
    /// decoded. Finding where the first game of a frame starts needs only its first lines.
    pub fn decode_until(
        &mut self,
        k: usize,
        out: &mut Vec<u8>,
        mut enough: impl FnMut(&[u8]) -> bool,
    ) -> Result<bool, ConvertError> {
        let frame = self.frames[k];
        let read_error = |source| ConvertError::Read {
            input: self.input.clone(),
            source,
        };
        self.compressed.resize(frame.size as usize, 0);
        self.file
            .seek(SeekFrom::Start(frame.offset))
            .map_err(read_error)?;
        self.file
            .read_exact(&mut self.compressed)
            .map_err(read_error)?;
        out.clear();
        let zstd_error = |e: io::Error| ConvertError::Zstd {
            input: self.input.clone(),
            reason: format!("frame at byte {}: {e}", frame.offset),
        };
        let mut decoder = zstd::stream::read::Decoder::with_buffer(&self.compressed[..])
            .map_err(zstd_error)?
            .single_frame();
        let mut step: u64 = PREFIX_STEP;
        loop {
            let before = out.len() as u64;
            let limit = (MAX_FRAME + 1).saturating_sub(before).min(step);
            let n = (&mut decoder)
                .take(limit)
                .read_to_end(out)
                .map_err(zstd_error)? as u64;
            if out.len() as u64 > MAX_FRAME {
                return Err(ConvertError::FrameTooLarge {
                    input: self.input.clone(),
                    offset: frame.offset,
                    limit: MAX_FRAME,
                });
            }
            if n < limit {
                break;
            }
            if enough(out) {
                return Ok(false);
            }
            step = step.saturating_mul(2);
        }
        if !decoder.finish().is_empty() {
            return Err(ConvertError::Zstd {
                input: self.input.clone(),
                reason: format!(
                    "the frame at byte {} is shorter than its size hint says",
                    frame.offset
                ),
            });
        }
        Ok(true)
    }
}

/// Decoded bytes of the first step of [`FrameFile::decode_until`]; each next step doubles.
const PREFIX_STEP: u64 = 64 << 10;

/// A buffered reader that can look a few bytes ahead across refills (a `BufReader` cannot).
pub(crate) struct PeekReader<R> {
    inner: R,
    buf: Vec<u8>,
    pos: usize,
    end: usize,
}

impl<R: Read> PeekReader<R> {
    pub fn new(inner: R) -> PeekReader<R> {
        PeekReader {
            inner,
            buf: vec![0; 256 * 1024],
            pos: 0,
            end: 0,
        }
    }

    /// At least `n` buffered bytes (`n` at most the buffer's size), fewer only at the end.
    fn peek(&mut self, n: usize) -> io::Result<&[u8]> {
        if self.end - self.pos < n {
            self.buf.copy_within(self.pos..self.end, 0);
            self.end -= self.pos;
            self.pos = 0;
            while self.end < n {
                match self.inner.read(&mut self.buf[self.end..]) {
                    Ok(0) => break,
                    Ok(k) => self.end += k,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(&self.buf[self.pos..self.end])
    }
}

impl<R: Read> Read for PeekReader<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for PeekReader<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos == self.end {
            self.pos = 0;
            self.end = 0;
            loop {
                match self.inner.read(&mut self.buf) {
                    Ok(k) => {
                        self.end = k;
                        break;
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(&self.buf[self.pos..self.end])
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.end);
    }
}

/// A decoded stream that knows which frame each byte came from: the standard input or a zstd
/// file read by one thread. Plain text is one frame, ordinal 0.
pub(crate) struct FrameStream<R: Read> {
    state: StreamState<R>,
    /// Frame ordinal of the bytes being read now, and the stream offset where that frame's text
    /// starts.
    pub ordinal: u64,
    pub frame_start: u64,
    /// Bytes handed out so far.
    pub offset: u64,
    next_ordinal: u64,
}

enum StreamState<R: Read> {
    Plain(PeekReader<R>),
    /// Between frames.
    Between(PeekReader<R>),
    Frame(zstd::stream::read::Decoder<'static, PeekReader<R>>),
    Done,
}

impl<R: Read> FrameStream<R> {
    /// A stream over `input`: zstd when it starts with a zstd or skippable magic, else plain.
    pub fn new(input: R) -> io::Result<FrameStream<R>> {
        let mut input = PeekReader::new(input);
        let zstd = looks_like_zstd(input.peek(4)?);
        Ok(FrameStream {
            state: if zstd {
                StreamState::Between(input)
            } else {
                StreamState::Plain(input)
            },
            ordinal: 0,
            frame_start: 0,
            offset: 0,
            next_ordinal: 0,
        })
    }

    /// Moves to the next zstd frame, skipping skippable frames; `false` at the end.
    fn next_frame(&mut self, mut input: PeekReader<R>) -> io::Result<bool> {
        loop {
            let head = input.peek(8)?;
            if head.is_empty() {
                return Ok(false);
            }
            if head.len() < 4 {
                return Err(invalid("trailing bytes after the last frame"));
            }
            let magic = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
            let ordinal = self.next_ordinal;
            self.next_ordinal += 1;
            if is_skippable(magic) {
                if head.len() < 8 {
                    return Err(invalid("truncated skippable frame"));
                }
                let size = u64::from(u32::from_le_bytes([head[4], head[5], head[6], head[7]]));
                input.consume(8);
                let skipped = io::copy(&mut (&mut input).take(size), &mut io::sink())?;
                if skipped < size {
                    return Err(invalid("truncated skippable frame"));
                }
                continue;
            }
            if magic != ZSTD_MAGIC {
                return Err(invalid("bytes that are not a zstd frame after a frame"));
            }
            self.ordinal = ordinal;
            self.frame_start = self.offset;
            let decoder = zstd::stream::read::Decoder::with_buffer(input).map_err(zstd_error)?;
            self.state = StreamState::Frame(decoder.single_frame());
            return Ok(true);
        }
    }
}

/// A decoding error, as the kind the converter reports as invalid zstd data.
fn zstd_error(e: io::Error) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e)
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_owned())
}

impl<R: Read> Read for FrameStream<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            match std::mem::replace(&mut self.state, StreamState::Done) {
                StreamState::Plain(mut input) => {
                    let read = input.read(buf);
                    self.state = StreamState::Plain(input);
                    let n = read?;
                    self.offset += n as u64;
                    return Ok(n);
                }
                StreamState::Frame(mut decoder) => match decoder.read(buf).map_err(zstd_error)? {
                    0 => self.state = StreamState::Between(decoder.finish()),
                    n => {
                        self.state = StreamState::Frame(decoder);
                        self.offset += n as u64;
                        return Ok(n);
                    }
                },
                StreamState::Between(input) => {
                    if !self.next_frame(input)? {
                        return Ok(0);
                    }
                }
                StreamState::Done => return Ok(0),
            }
        }
    }
}

/// The PGN text of a stream: decoded when it starts as zstd (one frame or many, pzstd's
/// skippable frames skipped), passed through when it is plain. The one rule of which inputs are
/// compressed, for readers outside the converter (the Python package's `read_games`).
///
/// ```
/// use std::io::Read;
/// use tabla_convert::PgnText;
/// let packed = zstd::encode_all(&b"1. e4 e5 *"[..], 1).unwrap();
/// for input in [&packed[..], &b"1. e4 e5 *"[..]] {
///     let mut text = String::new();
///     PgnText::new(input).unwrap().read_to_string(&mut text).unwrap();
///     assert_eq!(text, "1. e4 e5 *");
/// }
/// ```
pub struct PgnText<R: Read>(FrameStream<R>);

impl<R: Read> PgnText<R> {
    /// The text of `input` (its first four bytes are read to tell zstd from text).
    pub fn new(input: R) -> io::Result<PgnText<R>> {
        FrameStream::new(input).map(PgnText)
    }
}

impl<R: Read> Read for PgnText<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}
