//! The work: every input is cut into tasks (byte ranges of plain files, one task per frame of
//! pzstd files, or one decoding task for any other stream) on one queue, with the chunks that
//! decoding tasks hand out; `threads` workers (`worker.rs`) take from it, each writing its own
//! files.
//!
//! A task that decodes (a pzstd frame, or a whole stream) cuts the text it decodes at game
//! starts into chunks and queues them for the other workers; when the queue is full it parses
//! the chunk itself, so it never waits and memory stays bounded (at most two chunks per worker
//! queued). Idle workers wait for chunks while such a task runs, so the last frame too is
//! shared by every worker.

use crate::output::OutputPlan;
use crate::source::{Frame, Layout};
use crate::{ConvertError, Input, ProgressSink};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// Smallest byte range a plain file is cut into.
const MIN_RANGE: u64 = 64 << 10;

/// An input, looked at.
pub(crate) struct Prepared {
    pub input: Input,
    pub name_hash: u64,
    pub layout: Layout,
    pub frames: Arc<[Frame]>,
}

/// A piece of work.
pub(crate) enum Task {
    /// Games starting in `start..end` of a plain file.
    Plain { input: usize, start: u64, end: u64 },
    /// Games starting in frame `frame` of a pzstd file.
    Frame { input: usize, frame: usize },
    /// Decode a stream and hand out chunks.
    Stream { input: usize },
}

/// Decoded text from one game start to the next (plus [`OVERLAP`]).
pub(crate) struct Chunk {
    pub(crate) input: usize,
    pub(crate) text: Shared,
    /// Where the chunk's own games end (`None`: at its end).
    pub(crate) stop: Option<u64>,
    /// Frame starts in chunk offsets: `(offset, ordinal, in-frame offset)`.
    pub(crate) frames: Vec<(u64, u64, u64)>,
    /// Input bytes (as stored) the chunk stands for in the progress, reported when it is read.
    pub(crate) input_bytes: u64,
}

/// A part of a decoded buffer that several chunks share.
pub(crate) struct Shared {
    pub(crate) buffer: Arc<Vec<u8>>,
    pub(crate) range: std::ops::Range<usize>,
}

impl Shared {
    pub(crate) fn whole(buffer: Vec<u8>) -> Shared {
        let range = 0..buffer.len();
        Shared {
            buffer: Arc::new(buffer),
            range,
        }
    }
}

impl AsRef<[u8]> for Shared {
    fn as_ref(&self) -> &[u8] {
        &self.buffer[self.range.clone()]
    }
}

#[derive(Default)]
struct Queue {
    tasks: VecDeque<Task>,
    chunks: VecDeque<Chunk>,
    producers: usize,
    error: Option<ConvertError>,
}

/// Everything the workers share.
pub(crate) struct Job<'a> {
    pub inputs: Vec<Prepared>,
    pub plan: OutputPlan,
    pub positions_to: Option<u32>,
    pub threads: usize,
    pub game_ids: crate::GameIds,
    /// The next id to give with [`crate::GameIds::Numbered`].
    pub next_id: AtomicU64,
    pub progress: &'a dyn ProgressSink,
    queue: Mutex<Queue>,
    ready: Condvar,
    pub(crate) failed: AtomicBool,
    pub input_bytes: AtomicU64,
}

impl<'a> Job<'a> {
    pub fn new(
        inputs: Vec<Prepared>,
        plan: OutputPlan,
        positions_to: Option<u32>,
        threads: usize,
        game_ids: crate::GameIds,
        progress: &'a dyn ProgressSink,
        slice: Option<crate::Slice>,
    ) -> Job<'a> {
        let mut queue = Queue::default();
        // A slice cuts the inputs as a conversion on `parts` threads would, whatever its own
        // threads, so that every part sees the same tasks.
        let cut_for = slice.map_or(threads, |s| s.parts);
        // Decoding tasks first, so the other workers have chunks early.
        for (i, input) in inputs.iter().enumerate() {
            if matches!(input.layout, Layout::Stream) {
                queue.tasks.push_back(Task::Stream { input: i });
            }
        }
        for (i, input) in inputs.iter().enumerate() {
            match &input.layout {
                Layout::Stream => {}
                Layout::Plain { len } => {
                    let parts = if cut_for == 1 {
                        1
                    } else {
                        (cut_for as u64 * 16).min(len.div_ceil(MIN_RANGE)).max(1)
                    };
                    for p in 0..parts {
                        queue.tasks.push_back(Task::Plain {
                            input: i,
                            start: len * p / parts,
                            end: len * (p + 1) / parts,
                        });
                    }
                }
                Layout::Frames { frames, .. } => {
                    // One task a frame: its worker decodes it once and hands out chunks of it.
                    for k in 0..frames.len() {
                        queue.tasks.push_back(Task::Frame { input: i, frame: k });
                    }
                }
            }
        }
        if let Some(slice) = slice {
            // Every `parts`-th task, from the `part`-th: each task in exactly one part.
            queue.tasks = std::mem::take(&mut queue.tasks)
                .into_iter()
                .enumerate()
                .filter(|(i, _)| i % slice.parts == slice.part)
                .map(|(_, task)| task)
                .collect();
        }
        Job {
            inputs,
            plan,
            positions_to,
            threads,
            game_ids,
            next_id: AtomicU64::new(match game_ids {
                crate::GameIds::Numbered { first } => first,
                crate::GameIds::FromPlace => 0,
            }),
            progress,
            queue: Mutex::new(queue),
            ready: Condvar::new(),
            failed: AtomicBool::new(false),
            input_bytes: AtomicU64::new(0),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        // A worker that panicked while holding the lock left the queue consistent (every
        // change is one push or pop), so its poison is ignored.
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Records the first error and stops every worker.
    pub(crate) fn fail(&self, error: ConvertError) {
        let mut queue = self.lock();
        if queue.error.is_none() {
            queue.error = Some(error);
        }
        self.failed.store(true, Ordering::Relaxed);
        drop(queue);
        self.ready.notify_all();
    }

    /// The first error, once every worker is done.
    pub fn take_error(&self) -> Option<ConvertError> {
        self.lock().error.take()
    }

    pub(crate) fn next(&self) -> Option<Next> {
        let mut queue = self.lock();
        loop {
            if self.failed.load(Ordering::Relaxed) {
                return None;
            }
            if let Some(chunk) = queue.chunks.pop_front() {
                return Some(Next::Chunk(chunk));
            }
            if let Some(task) = queue.tasks.pop_front() {
                if matches!(task, Task::Stream { .. } | Task::Frame { .. }) {
                    queue.producers += 1;
                }
                return Some(Next::Task(task));
            }
            if queue.producers == 0 {
                return None;
            }
            queue = self.ready.wait(queue).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Queues a chunk for another worker, or gives it back when the queue is full.
    pub(crate) fn offer(&self, chunk: Chunk) -> Option<Chunk> {
        let mut queue = self.lock();
        if queue.chunks.len() >= self.threads.saturating_sub(1) * 2 {
            return Some(chunk);
        }
        queue.chunks.push_back(chunk);
        drop(queue);
        self.ready.notify_one();
        None
    }

    pub(crate) fn producer_done(&self) {
        let mut queue = self.lock();
        queue.producers -= 1;
        drop(queue);
        self.ready.notify_all();
    }

    fn report(&self, input_bytes: u64, games: u64) {
        if input_bytes > 0 {
            self.input_bytes.fetch_add(input_bytes, Ordering::Relaxed);
        }
        self.progress.advance(input_bytes, games);
    }
}

/// What a worker takes from the queue.
pub(crate) enum Next {
    /// A task of the job.
    Task(Task),
    /// A chunk another worker decoded.
    Chunk(Chunk),
}

/// Progress reports gathered a little before they go to the sink.
pub(crate) struct Batched<'j, 'a> {
    pub(crate) job: &'j Job<'a>,
    pub(crate) bytes: u64,
    pub(crate) games: u64,
}

impl Batched<'_, '_> {
    pub(crate) fn add(&mut self, bytes: u64, games: u64) {
        self.bytes += bytes;
        self.games += games;
        if self.games >= 256 || self.bytes >= 1 << 20 {
            self.flush();
        }
    }

    pub(crate) fn flush(&mut self) {
        if self.bytes > 0 || self.games > 0 {
            self.job.report(self.bytes, self.games);
            self.bytes = 0;
            self.games = 0;
        }
    }
}

impl Drop for Batched<'_, '_> {
    fn drop(&mut self) {
        self.flush();
    }
}

/// What a panic said, for the error that stops the run.
pub(crate) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_owned())
}
