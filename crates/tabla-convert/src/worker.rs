//! One worker: runs the tasks and chunks it takes from the [`Job`]'s queue (a plain file's byte
//! range, a pzstd frame, a whole stream, or a chunk another worker decoded), reading the games
//! with the PGN reader and writing them to its own files.

use crate::GameIds;
use crate::boundary::{Local, local_start};
use crate::game_id::id_from_hash;
use crate::job::{Batched, Chunk, Job, Next, Shared, Task, panic_message};
use crate::movetext::movetext;
use crate::output::{Sink, Written};
use crate::record::Recorder;
use crate::source::{FrameFile, FrameStream, HINT_LEN, Layout};
use crate::track::{
    FrameText, OVERLAP, Recording, SharedTrack, Track, TrackedStream, cut, local_cut,
};
use crate::{ConvertError, Input};
use std::fs::File;
use std::io::{self, Cursor, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use tabla_pgn::{Reader, Replayer};

/// The note in `error` for a game too large to keep whole.
const TOO_LARGE: &str = "game too large: its movetext is cut at 8 MiB (and its moves and \
                         positions at 1 GiB of text)";

/// Smallest chunk a frame's text is cut into.
const MIN_CHUNK: u64 = 4 << 10;
/// Chunks' worth of decoded text a decoding task holds while looking for a game start to cut
/// at (games without tags give none); past it, the task reads the rest of the stream itself.
const MAX_PENDING_CHUNKS: usize = 16;

impl Job<'_> {
    /// One worker: takes tasks until none are left, then completes its files.
    pub fn work(&self, worker: usize) -> Written {
        let mut w = Worker {
            job: self,
            sink: Sink::new(&self.plan, worker),
            replayer: Replayer::new(Recorder::new(
                self.positions_to,
                self.plan.positions == crate::PositionsTable::Full,
            ))
            .with_max_depth(tabla_pgn::MAX_TREE_DEPTH),
        };
        loop {
            let next = self.next();
            // A panic (a bug) stops this run with an error instead of leaving the other
            // workers waiting for a decoding task that will never finish.
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match next {
                None => None,
                Some(Next::Task(task)) => Some(w.run(task)),
                Some(Next::Chunk(chunk)) => Some(w.run_chunk(chunk)),
            }));
            match result {
                Ok(None) => break,
                Ok(Some(Ok(()))) => {}
                Ok(Some(Err(e))) => {
                    self.fail(e);
                    break;
                }
                Err(panic) => {
                    self.fail(ConvertError::Worker(panic_message(panic.as_ref())));
                    break;
                }
            }
        }
        if self.failed.load(Ordering::Relaxed) {
            w.sink.abort();
            return Written::default();
        }
        match w.sink.finish() {
            Ok(written) => written,
            Err(e) => {
                self.fail(e);
                Written::default()
            }
        }
    }
}

/// A worker's state: its own files and its PGN replayer.
pub(crate) struct Worker<'j, 'a> {
    pub(crate) job: &'j Job<'a>,
    pub(crate) sink: Sink<'j>,
    pub(crate) replayer: Replayer<Recorder>,
}

impl<'j, 'a> Worker<'j, 'a> {
    fn input(&self, i: usize) -> &'j Input {
        &self.job.inputs[i].input
    }

    pub(crate) fn run(&mut self, task: Task) -> Result<(), ConvertError> {
        /// Tells the queue a task that hands out chunks is over, even when it panics.
        struct Done<'j, 'a>(&'j Job<'a>);
        impl Drop for Done<'_, '_> {
            fn drop(&mut self) {
                self.0.producer_done();
            }
        }
        match task {
            Task::Plain { input, start, end } => self.run_plain(input, start, end),
            Task::Frame { input, frame } => {
                let _done = Done(self.job);
                self.run_frame(input, frame)
            }
            Task::Stream { input } => {
                let _done = Done(self.job);
                self.run_stream(input)
            }
        }
    }

    fn open(&self, i: usize) -> Result<File, ConvertError> {
        let input = self.input(i);
        match input.path() {
            Some(path) => File::open(path).map_err(|source| ConvertError::Open {
                input: input.clone(),
                source,
            }),
            None => Err(ConvertError::StdinTwice),
        }
    }

    fn run_plain(&mut self, i: usize, start: u64, end: u64) -> Result<(), ConvertError> {
        let file = self.open(i)?;
        let track = Track::new();
        // The search for the range's first game reads on without keeping what it reads.
        track.borrow_mut().paused = true;
        let source = Recording::new(file, track.clone());
        let mut reader =
            Reader::range(source, start, end).map_err(|source| ConvertError::Read {
                input: self.input(i).clone(),
                source,
            })?;
        track.borrow_mut().paused = false;
        track.borrow_mut().frame_starts(0, 0, 0);
        let mut progress = Batched {
            job: self.job,
            bytes: 0,
            games: 0,
        };
        let consumed = |_: &Track, at: u64| at.clamp(start, end) - start;
        let reported = self.read_games(i, &mut reader, &track, &consumed, &mut progress)?;
        progress.add(end - start - reported, 0);
        Ok(())
    }

    /// The games starting in frame `k`: the frame is decoded once, with the first lines of the
    /// next, and cut at game starts into chunks that idle workers take. Games longer than a
    /// frame, and frames whose first lines cannot tell where a game starts, go the slower way
    /// of [`Worker::run_frames`].
    fn run_frame(&mut self, i: usize, k: usize) -> Result<(), ConvertError> {
        let prepared = &self.job.inputs[i];
        let frames = prepared.frames.clone();
        let mut file = FrameFile::open(self.input(i), frames.clone())?;
        let mut text = Vec::new();
        file.decode(k, &mut text)?;
        let Local::Start(begin) = local_start(k, &text, true) else {
            return self.run_frames(i, k, k + 1);
        };
        let own_len = text.len() as u64;
        // Where the next frame's games begin (in `text` once it is appended), and the bytes
        // read past it so the reader ends the last game as a reader of the whole input would.
        let stop = if k + 1 < frames.len() {
            let mut next = Vec::new();
            let Some(offset) = local_cut(&mut file, k + 1, &mut next, OVERLAP)? else {
                return self.run_frames(i, k, k + 1);
            };
            let keep = next.len().min((offset + OVERLAP) as usize);
            text.extend_from_slice(&next[..keep]);
            Some(own_len + offset)
        } else {
            None
        };
        let mut stored = frames[k].size + HINT_LEN;
        if k + 1 == frames.len()
            && let Layout::Frames { len, .. } = prepared.layout
        {
            // Anything after the last frame's end belongs to the last range.
            stored += len.saturating_sub(frames[k].offset + frames[k].size);
        }
        let end = stop.unwrap_or(text.len() as u64);
        let target = if self.job.threads == 1 {
            u64::MAX
        } else {
            let most = self.job.plan.limits.chunk_bytes as u64;
            (own_len / (4 * self.job.threads as u64))
                .min(most)
                .max(MIN_CHUNK)
        };
        // Game starts to cut at, searched in the text from `begin` on: a true game start, so
        // the search sees what a reader of the whole input sees.
        let mut cuts = vec![begin];
        {
            let mut window = Cursor::new(&text[begin as usize..]);
            while let Some(&last) = cuts.last() {
                let from = (last - begin).saturating_add(target);
                if from >= end - begin {
                    break;
                }
                match tabla_pgn::find_game_start(&mut window, from)
                    .map_err(|e| stream_error(self.input(i), e))?
                {
                    Some(c) if begin + c < end => cuts.push(begin + c),
                    _ => break,
                }
            }
        }
        let layout = [
            (0, frames[k].ordinal, 0),
            (own_len, frames.get(k + 1).map_or(0, |f| f.ordinal), 0),
        ];
        let spans = if stop.is_some() {
            &layout[..]
        } else {
            &layout[..1]
        };
        let buffer = Arc::new(text);
        let mut handed = 0u64;
        for (j, &from) in cuts.iter().enumerate() {
            let to = cuts.get(j + 1).copied().unwrap_or(end);
            let last = j + 1 == cuts.len();
            let text_end = if last && stop.is_none() {
                buffer.len() as u64
            } else {
                (to + OVERLAP).min(buffer.len() as u64)
            };
            let input_bytes = if last {
                stored - handed
            } else {
                stored * (to - begin) / (end - begin) - handed
            };
            handed += input_bytes;
            let chunk = Chunk {
                input: i,
                text: Shared {
                    buffer: buffer.clone(),
                    range: from as usize..text_end as usize,
                },
                stop: (!last || stop.is_some()).then_some(to - from),
                frames: chunk_frames(spans, from, text_end - from),
                input_bytes,
            };
            self.hand_out(chunk)?;
        }
        Ok(())
    }

    fn run_frames(&mut self, i: usize, first: usize, end: usize) -> Result<(), ConvertError> {
        let prepared = &self.job.inputs[i];
        let frames = prepared.frames.clone();
        let mut stored: u64 = frames[first..end].iter().map(|f| f.size + HINT_LEN).sum();
        if end == frames.len()
            && let Layout::Frames { len, .. } = prepared.layout
        {
            // Anything after the last frame's end belongs to the last range.
            let last = frames[frames.len() - 1];
            stored += len.saturating_sub(last.offset + last.size);
        }
        let mut progress = Batched {
            job: self.job,
            bytes: 0,
            games: 0,
        };
        let mut file = FrameFile::open(self.input(i), frames.clone())?;
        let begin = cut(&mut file, first)?;
        let stop = if end < frames.len() {
            cut(&mut file, end)?
        } else {
            None
        };
        let Some(begin) = begin.filter(|&b| stop.is_none_or(|s| b < s)) else {
            progress.add(stored, 0);
            return Ok(());
        };
        let track = Track::new();
        let text = FrameText::new(file, track.clone(), begin, stop, end)?;
        let mut reader = Reader::new(Recording::new(text, track.clone()));
        let consumed = |t: &Track, _: u64| t.input_consumed;
        let reported = self.read_games(i, &mut reader, &track, &consumed, &mut progress)?;
        progress.add(stored.saturating_sub(reported), 0);
        Ok(())
    }

    pub(crate) fn run_chunk(&mut self, chunk: Chunk) -> Result<(), ConvertError> {
        let track = Track::new();
        {
            let mut t = track.borrow_mut();
            for &(start, ordinal, in_frame) in &chunk.frames {
                t.frame_starts(start, ordinal, in_frame);
            }
            t.stop = chunk.stop;
        }
        let mut reader = Reader::new(Recording::new(Cursor::new(chunk.text), track.clone()));
        let mut progress = Batched {
            job: self.job,
            bytes: 0,
            games: 0,
        };
        self.read_games(chunk.input, &mut reader, &track, &|_, _| 0, &mut progress)?;
        progress.add(chunk.input_bytes, 0);
        Ok(())
    }

    /// Decodes a stream on this thread, cutting it into chunks at game starts.
    fn run_stream(&mut self, i: usize) -> Result<(), ConvertError> {
        let input = self.input(i).clone();
        let raw: Box<dyn Read> = match &input {
            Input::Stdin => Box::new(io::stdin().lock()),
            Input::Path(_) | Input::Named { .. } => Box::new(self.open(i)?),
        };
        let counted = Arc::new(AtomicU64::new(0));
        let read_error = |source: io::Error| stream_error(&input, source);
        let mut stream = FrameStream::new(Counting {
            inner: raw,
            count: counted.clone(),
        })
        .map_err(read_error)?;
        let mut progress = Batched {
            job: self.job,
            bytes: 0,
            games: 0,
        };
        let mut reported = 0u64;
        let chunk_bytes = self.job.plan.limits.chunk_bytes.max(64 << 10);
        let mut buf: Vec<u8> = Vec::new();
        // Stream offset of buf[0], and frame starts as (stream offset, ordinal, in-frame).
        let mut buf_start = 0u64;
        let mut frames: Vec<(u64, u64, u64)> = Vec::new();
        let mut current: Option<u64> = None;
        let mut want = chunk_bytes;
        let mut eof = false;
        loop {
            while buf.len() < want && !eof {
                let old = buf.len();
                buf.resize(old + (256 << 10), 0);
                let n = stream.read(&mut buf[old..]).map_err(read_error)?;
                buf.truncate(old + n);
                if n == 0 {
                    eof = true;
                } else if current != Some(stream.ordinal) {
                    current = Some(stream.ordinal);
                    frames.push((stream.frame_start, stream.ordinal, 0));
                }
            }
            let count = counted.load(Ordering::Relaxed);
            progress.add(count - reported, 0);
            reported = count;
            if self.job.failed.load(Ordering::Relaxed) {
                return Ok(());
            }
            if eof {
                let chunk = Chunk {
                    input: i,
                    frames: chunk_frames(&frames, buf_start, buf.len() as u64),
                    text: Shared::whole(buf),
                    stop: None,
                    input_bytes: 0,
                };
                return self.hand_out(chunk);
            }
            let from = (buf.len() / 2) as u64;
            let found = tabla_pgn::find_game_start(&mut Cursor::new(&buf[..]), from)
                .map_err(read_error)?
                .filter(|&c| c > 0 && c + OVERLAP <= buf.len() as u64);
            match found {
                Some(c) => {
                    let len = c + OVERLAP;
                    let chunk = Chunk {
                        input: i,
                        text: Shared::whole(buf[..len as usize].to_vec()),
                        stop: Some(c),
                        frames: chunk_frames(&frames, buf_start, len),
                        input_bytes: 0,
                    };
                    buf.drain(..c as usize);
                    buf_start += c;
                    let keep = frames.iter().rposition(|f| f.0 <= buf_start).unwrap_or(0);
                    frames.drain(..keep);
                    want = chunk_bytes;
                    self.hand_out(chunk)?;
                }
                None if buf.len() >= chunk_bytes * MAX_PENDING_CHUNKS => {
                    // No game start to cut at: read the rest here, as one range.
                    let track = Track::new();
                    for (start, ordinal, in_frame) in
                        chunk_frames(&frames, buf_start, buf.len() as u64)
                    {
                        track.borrow_mut().frame_starts(start, ordinal, in_frame);
                    }
                    let rest = TrackedStream {
                        stream,
                        track: track.clone(),
                        shift: -(buf_start as i64),
                        ordinal: current,
                    };
                    let source = Cursor::new(buf).chain(rest);
                    let mut reader = Reader::new(Recording::new(source, track.clone()));
                    let base = reported;
                    let consumed = |_: &Track, _: u64| counted.load(Ordering::Relaxed) - base;
                    let read = self.read_games(i, &mut reader, &track, &consumed, &mut progress)?;
                    let total = counted.load(Ordering::Relaxed);
                    progress.add(total.saturating_sub(base + read), 0);
                    return Ok(());
                }
                None => want = buf.len() * 2,
            }
        }
    }

    /// Queues a chunk, or parses it here when the queue is full.
    fn hand_out(&mut self, chunk: Chunk) -> Result<(), ConvertError> {
        match self.job.offer(chunk) {
            None => Ok(()),
            Some(chunk) => self.run_chunk(chunk),
        }
    }

    /// Reads the games of a range into the sink; returns the input bytes reported.
    fn read_games<R: Read>(
        &mut self,
        i: usize,
        reader: &mut Reader<Recording<R>>,
        track: &SharedTrack,
        consumed: &dyn Fn(&Track, u64) -> u64,
        progress: &mut Batched<'_, '_>,
    ) -> Result<u64, ConvertError> {
        let name_hash = self.job.inputs[i].name_hash;
        let mut reported = 0u64;
        loop {
            if self.job.failed.load(Ordering::Relaxed) {
                return Ok(reported);
            }
            match reader.read_game(&mut self.replayer) {
                Ok(Some(())) => {}
                Ok(None) => return Ok(reported),
                Err(e) => {
                    let error = track.borrow_mut().error.take();
                    return Err(error.unwrap_or_else(|| stream_error(self.input(i), e)));
                }
            }
            let record = self.replayer.inner().record();
            let start = record.start.offset;
            let end = reader.offset();
            let t = track.borrow();
            if t.stop.is_some_and(|stop| start >= stop) {
                return Ok(reported);
            }
            let (raw, text_cut) = t.text(start, end);
            let text = tabla_pgn::decode_text(movetext(raw));
            let error = match (text_cut || record.cut, &record.error) {
                (false, error) => error.as_deref().map(std::borrow::Cow::Borrowed),
                (true, None) => Some(std::borrow::Cow::Borrowed(TOO_LARGE)),
                (true, Some(e)) => Some(std::borrow::Cow::Owned(format!("{e}; {TOO_LARGE}"))),
            };
            let id = match self.job.game_ids {
                GameIds::FromPlace => {
                    let (ordinal, in_frame) = t.locate(start);
                    id_from_hash(name_hash, ordinal, in_frame).ok_or_else(|| {
                        ConvertError::TooLarge {
                            input: self.input(i).clone(),
                        }
                    })?
                }
                GameIds::Numbered { .. } => self.job.next_id.fetch_add(1, Ordering::Relaxed),
            };
            self.sink.add_game(id, record, &text, error.as_deref())?;
            let now = consumed(&t, end);
            drop(t);
            track.borrow_mut().release(end);
            progress.add(now.saturating_sub(reported), 1);
            reported = reported.max(now);
        }
    }
}

/// An I/O error while reading an input: a decoding error when the data is not valid zstd.
fn stream_error(input: &Input, source: io::Error) -> ConvertError {
    if source.kind() == io::ErrorKind::InvalidData {
        ConvertError::Zstd {
            input: input.clone(),
            reason: source.to_string(),
        }
    } else {
        ConvertError::Read {
            input: input.clone(),
            source,
        }
    }
}

/// The frame starts of `start..start + len` of a stream, in offsets from `start`.
fn chunk_frames(frames: &[(u64, u64, u64)], start: u64, len: u64) -> Vec<(u64, u64, u64)> {
    let first = frames.iter().rposition(|f| f.0 <= start).unwrap_or(0);
    frames[first..]
        .iter()
        .filter(|f| f.0 < start + len)
        .map(|&(at, ordinal, in_frame)| {
            if at <= start {
                (0, ordinal, in_frame + (start - at))
            } else {
                (at - start, ordinal, in_frame)
            }
        })
        .collect()
}

/// Counts the bytes read from an input.
struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}
