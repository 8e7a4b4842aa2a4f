//! A pool of engines, one worker thread each, fed from one queue: what a whole game's or a whole
//! database's review runs on.

use super::analyser::{Analyser, StopSignal};
use super::analysis::Analysis;
use super::engine_spec::EngineSpec;
use super::error::{EngineError, EngineId};
use super::request::Request;
use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

/// The answer to one job: its id (as [`Pool::submit`] returned it) and its analysis or error.
#[derive(Debug)]
pub struct JobResult {
    /// The job's id.
    pub id: u64,
    /// The analysis, or why there is none.
    pub outcome: Result<Analysis, EngineError>,
    /// The fault of the first attempt, when the job was tried again on a fresh process (the
    /// outcome is the second attempt's): what a review notes as a restart.
    pub retried: Option<EngineError>,
}

/// What [`Pool::recv_within`] received.
#[derive(Debug)]
#[expect(
    clippy::large_enum_variant,
    reason = "returned once per job and matched at once, never stored"
)]
pub enum Received {
    /// A job's result.
    Result(JobResult),
    /// Every submitted job's result has been received.
    AllDone,
    /// No result came within the wait.
    TimedOut,
}

/// N engines analysing positions from one queue, each on a thread of its own (and each with one
/// search thread). Results come back as they finish, with their job's id.
///
/// A job whose engine fails by its fault (crash, output that is not UCI, an illegal move) is
/// tried once more on a fresh process ([`JobResult::retried`] keeps the first fault); if that
/// fails too, the job's result is the error, and the pool goes on with the next job. A hang
/// ([`EngineError::is_hang`]) is not tried again: its process is killed, the job's result is
/// the timeout, and the pool is cancelled ([`Pool::cancel`]: the jobs queued answered
/// [`EngineError::Cancelled`], those running stopped), since an engine that hangs once hangs
/// again. Dropping the pool stops the searches and ends every engine.
///
/// ```
/// use tabla::Position;
/// use tabla_analysis::{Budget, EngineSpec, Pool, Request};
/// let mut pool = Pool::start(&EngineSpec::Tabla, 2).unwrap();
/// let mut pos = Position::startpos();
/// let mut requests = vec![Request::new(pos.clone(), Budget::Depth(5))];
/// for san in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"] {
///     pos.push_san(san).unwrap();
///     requests.push(Request::new(pos.clone(), Budget::Depth(5)));
/// }
/// let analyses = pool.analyse_all(requests);
/// assert_eq!(analyses.len(), 7);
/// // After 3... Nf6??, Qxf7# mates: the last analysis found it.
/// let last = analyses[6].as_ref().unwrap();
/// assert_eq!(last.best().unwrap().score, tabla_engine::Score::Mate(1));
/// ```
pub struct Pool {
    shared: Arc<Shared>,
    inbox: Mutex<Inbox>,
    /// Answers cancelled jobs in the same stream as the workers' results.
    answers: Sender<JobResult>,
    workers: Vec<JoinHandle<()>>,
    next_id: AtomicU64,
    /// Jobs submitted whose result the caller has not received.
    undelivered: AtomicUsize,
    engine: EngineId,
}

struct Shared {
    state: Mutex<State>,
    wakeup: Condvar,
}

struct State {
    queue: VecDeque<(u64, Request)>,
    /// Each worker's running search, to stop it.
    running: Vec<Option<StopSignal>>,
    closed: bool,
}

struct Inbox {
    results: Receiver<JobResult>,
    /// Results taken from the channel by [`Pool::analyse_all`] that belong to other jobs.
    pending: VecDeque<JobResult>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A worker that panicked holding the lock left the queue in a consistent state: every
    // change to it is one call.
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Pool {
    /// The most engines commands and Python start in one pool (`tabla review --engines`,
    /// `tabla.Engine(engines=)`).
    pub const MAX_SIZE: usize = 256;

    /// The default number of engines: one per core.
    pub fn default_size() -> usize {
        std::thread::available_parallelism().map_or(1, usize::from)
    }

    /// Starts `size` engines (at least one), each on a worker thread of its own, and waits
    /// until all have answered their handshake: an engine that cannot start (a wrong path, an
    /// unknown option, no `uciok`) fails here, once, rather than every job later.
    pub fn start(spec: &EngineSpec, size: usize) -> Result<Pool, EngineError> {
        let size = size.max(1);
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                queue: VecDeque::new(),
                running: vec![None; size],
                closed: false,
            }),
            wakeup: Condvar::new(),
        });
        let (answers, results) = mpsc::channel();
        let (started, starts) = mpsc::channel();
        let mut workers = Vec::with_capacity(size);
        let mut failure = None;
        for slot in 0..size {
            let (spec, shared, answers, started) = (
                spec.clone(),
                Arc::clone(&shared),
                answers.clone(),
                started.clone(),
            );
            let worker = std::thread::Builder::new()
                .name(format!("tabla-review-{slot}"))
                .spawn(move || {
                    let analyser = match catch_unwind(|| spec.start()) {
                        Ok(Ok(analyser)) => analyser,
                        Ok(Err(error)) => {
                            let _ = started.send(Err(error));
                            return;
                        }
                        Err(panic) => {
                            let _ = started.send(Err(EngineError::Panicked {
                                engine: EngineId::new("pool worker", None),
                                message: panic_message(panic.as_ref()),
                            }));
                            return;
                        }
                    };
                    let _ = started.send(Ok(analyser.id().clone()));
                    drop(started);
                    work(&spec, slot, &shared, &answers, Some(analyser));
                });
            match worker {
                Ok(worker) => workers.push(worker),
                Err(source) => {
                    failure = Some(EngineError::Spawn {
                        path: "a pool worker thread".to_owned(),
                        source,
                    });
                    break;
                }
            }
        }
        drop(started);
        let mut engine = None;
        for _ in 0..workers.len() {
            match starts.recv() {
                Ok(Ok(id)) => engine = engine.or(Some(id)),
                Ok(Err(error)) => failure = failure.or(Some(error)),
                Err(_) => break,
            }
        }
        let pool = Pool {
            shared,
            inbox: Mutex::new(Inbox {
                results,
                pending: VecDeque::new(),
            }),
            answers,
            workers,
            next_id: AtomicU64::new(0),
            undelivered: AtomicUsize::new(0),
            engine: engine.unwrap_or_else(|| EngineId::new("no engine", None)),
        };
        match failure {
            // Dropping the pool ends the engines that did start.
            Some(error) => Err(error),
            None => Ok(pool),
        }
    }

    /// How many engines work.
    pub fn size(&self) -> usize {
        self.workers.len()
    }

    /// The engine the pool runs (the first worker's, as it named itself).
    pub fn engine(&self) -> &EngineId {
        &self.engine
    }

    /// Queues a job; returns its id (0, 1, 2, … in the order submitted).
    pub fn submit(&self, request: Request) -> u64 {
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        self.undelivered.fetch_add(1, Ordering::SeqCst);
        lock(&self.shared.state).queue.push_back((id, request));
        self.shared.wakeup.notify_one();
        id
    }

    /// The next finished job, waiting for one; `None` when every submitted job's result has
    /// been received. Results come in the order jobs finish: a caller that wants them in order
    /// sorts by id (or uses [`Pool::analyse_all`]).
    ///
    /// ```
    /// use tabla::Position;
    /// use tabla_analysis::{Budget, EngineSpec, Pool, Request};
    /// let pool = Pool::start(&EngineSpec::Tabla, 2).unwrap();
    /// let ids: Vec<u64> = (1..=4)
    ///     .map(|depth| pool.submit(Request::new(Position::startpos(), Budget::Depth(depth))))
    ///     .collect();
    /// let mut done = Vec::new();
    /// while let Some(result) = pool.recv() {
    ///     let analysis = result.outcome.unwrap();
    ///     done.push((result.id, analysis.best().unwrap().depth));
    /// }
    /// done.sort();
    /// assert_eq!(done, [(ids[0], 1), (ids[1], 2), (ids[2], 3), (ids[3], 4)]);
    /// ```
    pub fn recv(&self) -> Option<JobResult> {
        let mut inbox = lock(&self.inbox);
        if self.undelivered.load(Ordering::SeqCst) == 0 {
            return None;
        }
        let result = match inbox.pending.pop_front() {
            Some(result) => result,
            // Every job is answered (a worker catches even a panic), so this wait ends.
            None => inbox.results.recv().ok()?,
        };
        self.undelivered.fetch_sub(1, Ordering::SeqCst);
        Some(result)
    }

    /// [`Pool::recv`], waiting at most `wait` (for ever when `None`): [`Received::Result`],
    /// [`Received::AllDone`] when every submitted job's result has been received, or
    /// [`Received::TimedOut`] when none came in time (a caller with other work, such as writing a
    /// cache, does it and waits again).
    pub fn recv_within(&self, wait: Option<Duration>) -> Received {
        let Some(wait) = wait else {
            return self.recv().map_or(Received::AllDone, Received::Result);
        };
        let mut inbox = lock(&self.inbox);
        if self.undelivered.load(Ordering::SeqCst) == 0 {
            return Received::AllDone;
        }
        let result = match inbox.pending.pop_front() {
            Some(result) => result,
            None => match inbox.results.recv_timeout(wait) {
                Ok(result) => result,
                Err(RecvTimeoutError::Timeout) => return Received::TimedOut,
                // Every job is answered (a worker catches even a panic): never while jobs wait.
                Err(RecvTimeoutError::Disconnected) => return Received::AllDone,
            },
        };
        self.undelivered.fetch_sub(1, Ordering::SeqCst);
        Received::Result(result)
    }

    /// Analyses `requests` and returns their outcomes in the same order. Results of jobs
    /// submitted earlier that arrive meanwhile are kept for [`Pool::recv`].
    pub fn analyse_all(
        &mut self,
        requests: impl IntoIterator<Item = Request>,
    ) -> Vec<Result<Analysis, EngineError>> {
        let ids: Vec<u64> = requests.into_iter().map(|r| self.submit(r)).collect();
        let Some(&first) = ids.first() else {
            return Vec::new();
        };
        let mut outcomes: Vec<Option<Result<Analysis, EngineError>>> =
            ids.iter().map(|_| None).collect();
        let mut missing = ids.len();
        let inbox = self.inbox.get_mut().unwrap_or_else(|e| e.into_inner());
        while missing > 0 {
            let Ok(result) = inbox.results.recv() else {
                break;
            };
            let index = result.id.checked_sub(first).map(|i| i as usize);
            match index.and_then(|i| outcomes.get_mut(i)) {
                Some(slot) => {
                    *slot = Some(result.outcome);
                    missing -= 1;
                    self.undelivered.fetch_sub(1, Ordering::SeqCst);
                }
                None => inbox.pending.push_back(result),
            }
        }
        outcomes
            .into_iter()
            .zip(ids)
            .map(|(outcome, id)| outcome.unwrap_or(Err(EngineError::Cancelled { id })))
            .collect()
    }

    /// Stops the running searches (their results come back, marked stopped) and answers every
    /// queued job with [`EngineError::Cancelled`]. The pool stays usable.
    pub fn cancel(&self) {
        self.canceller().cancel();
    }

    /// A handle that cancels this pool's jobs from another thread ([`Pool::cancel`]) while the
    /// pool itself is lent to a [`crate::Reviewer`]: what a server calls when its client leaves.
    pub fn canceller(&self) -> PoolCanceller {
        PoolCanceller {
            shared: Arc::clone(&self.shared),
            answers: self.answers.clone(),
        }
    }
}

/// Cancels a [`Pool`]'s queued and running jobs from anywhere ([`Pool::canceller`]); cancelling
/// a pool that is gone does nothing.
///
/// ```
/// use tabla::Position;
/// use tabla_analysis::{Budget, EngineSpec, Pool, Request};
/// let pool = Pool::start(&EngineSpec::Tabla, 1).unwrap();
/// let canceller = pool.canceller();
/// // A search without end, and one queued behind it.
/// pool.submit(Request::new(Position::startpos(), Budget::Depth(100)));
/// pool.submit(Request::new(Position::startpos(), Budget::Depth(100)));
/// std::thread::spawn(move || {
///     std::thread::sleep(std::time::Duration::from_millis(50));
///     canceller.cancel();
/// });
/// let first = pool.recv().unwrap().outcome;
/// let second = pool.recv().unwrap().outcome;
/// // Which comes first depends on timing: one was stopped, the other never started.
/// let stopped = [&first, &second].iter().filter(|o| o.as_ref().is_ok_and(|a| a.stopped)).count();
/// let cancelled = [&first, &second].iter().filter(|o| o.is_err()).count();
/// assert_eq!((stopped, cancelled), (1, 1));
/// ```
#[derive(Clone)]
pub struct PoolCanceller {
    shared: Arc<Shared>,
    answers: Sender<JobResult>,
}

impl PoolCanceller {
    /// [`Pool::cancel`].
    pub fn cancel(&self) {
        cancel_all(&mut lock(&self.shared.state), &self.answers);
    }
}

/// Answers every queued job [`EngineError::Cancelled`] and stops the running ones.
fn cancel_all(state: &mut State, answers: &Sender<JobResult>) {
    for (id, _) in state.queue.drain(..) {
        let _ = answers.send(JobResult {
            id,
            outcome: Err(EngineError::Cancelled { id }),
            retried: None,
        });
    }
    for stop in state.running.iter().flatten() {
        stop.stop();
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        {
            let mut state = lock(&self.shared.state);
            state.closed = true;
            state.queue.clear();
            for stop in state.running.iter().flatten() {
                stop.stop();
            }
        }
        self.shared.wakeup.notify_all();
        // Each worker drops its engine as it ends, which ends the engine's process.
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}

/// A worker: takes jobs until the pool closes.
fn work(
    spec: &EngineSpec,
    slot: usize,
    shared: &Shared,
    answers: &Sender<JobResult>,
    mut analyser: Option<Box<dyn Analyser>>,
) {
    loop {
        let (id, request, stop) = {
            let mut state = lock(&shared.state);
            loop {
                if state.closed {
                    return;
                }
                if let Some((id, request)) = state.queue.pop_front() {
                    // Registered under the same lock as the pop, so `cancel` cannot miss it.
                    let stop = StopSignal::new();
                    state.running[slot] = Some(stop.clone());
                    break (id, request, stop);
                }
                state = shared.wakeup.wait(state).unwrap_or_else(|e| e.into_inner());
            }
        };
        let (outcome, retried) = run_job(spec, &mut analyser, &request, &stop);
        lock(&shared.state).running[slot] = None;
        let hung = outcome.as_ref().is_err_and(EngineError::is_hang);
        let result = JobResult {
            id,
            outcome,
            retried,
        };
        if answers.send(result).is_err() {
            return;
        }
        // An engine that hung once hangs again: the other jobs end now (after the hang's own
        // result, so that a client knows why), before this worker starts an engine for the next.
        if hung {
            cancel_all(&mut lock(&shared.state), answers);
        }
    }
}

/// One job on this worker's engine, started first if it is not running: its outcome, and the
/// first attempt's fault when it was retried. A panic (a bug in tabla) becomes the job's error,
/// and the engine is replaced.
fn run_job(
    spec: &EngineSpec,
    analyser: &mut Option<Box<dyn Analyser>>,
    request: &Request,
    stop: &StopSignal,
) -> (Result<Analysis, EngineError>, Option<EngineError>) {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let engine = match analyser {
            Some(engine) => engine,
            None => match spec.start() {
                Ok(engine) => analyser.insert(engine),
                Err(error) => return (Err(error), None),
            },
        };
        engine.analyse_with_retry(request, stop, &mut |_| {})
    }));
    outcome.unwrap_or_else(|panic| {
        let engine = analyser
            .take()
            .map_or_else(|| EngineId::new("pool worker", None), |a| a.id().clone());
        let error = EngineError::Panicked {
            engine,
            message: panic_message(panic.as_ref()),
        };
        (Err(error), None)
    })
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned())
}
