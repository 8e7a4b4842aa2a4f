//! The server's engines: started from its [`EngineSpec`] (tabla's own, or the UCI engine of
//! `tabla serve --engine`), lent to one search at a time, at most a limit at once, and kept
//! running between searches so that the next one answers at once (and tabla's engine keeps its
//! hash table). Live analysis (`GET /api/analyse`) has [`MAX_ANALYSES`] of them and answers 429
//! past the limit; suggestions (`GET /api/suggest`) have one, and a request waits for it behind
//! at most a few others ([`LiveEngines::reserve_waiting`]).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use tabla_analysis::{Analyser, EngineError, EngineId, EngineSpec, TablaAnalyser};
use tabla_engine::EndgameOracle;
use tokio::sync::Notify;

/// Live analyses running at once; one more is answered 429. Each searches on one thread (or
/// one engine process), so two keep a two-core machine busy and its other routes answering.
pub const MAX_ANALYSES: usize = 2;

/// The engines lent to searches.
pub struct LiveEngines {
    spec: EngineSpec,
    oracle: Option<Arc<dyn EndgameOracle>>,
    id: EngineId,
    limit: usize,
    state: Mutex<Lent>,
    /// Requests waiting in [`LiveEngines::reserve_waiting`].
    waiting: AtomicUsize,
    /// Told whenever a place is freed.
    freed: Notify,
}

/// [`LiveEngines::reserve_waiting`] found too many requests waiting already.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Busy;

/// Engines waiting for an analysis, and how many analyses run.
#[derive(Default)]
struct Lent {
    idle: Vec<Box<dyn Analyser>>,
    running: usize,
}

impl LiveEngines {
    /// Starts `limit` engines of `spec` (so that a wrong path or option fails here, at the
    /// server's start, and no analysis waits for a program to load) and keeps them for the
    /// analyses. tabla's own engine gets `oracle`, the exact endings the server knows.
    pub fn start(
        spec: EngineSpec,
        oracle: Option<Arc<dyn EndgameOracle>>,
        limit: usize,
    ) -> Result<LiveEngines, Box<EngineError>> {
        let mut engines = LiveEngines {
            spec,
            oracle,
            id: EngineId::new("", None),
            limit,
            state: Mutex::new(Lent::default()),
            waiting: AtomicUsize::new(0),
            freed: Notify::new(),
        };
        let first = engines.new_engine()?;
        engines.id = first.id().clone();
        let mut idle = vec![first];
        while idle.len() < limit {
            idle.push(engines.new_engine()?);
        }
        engines.lock().idle = idle;
        Ok(engines)
    }

    /// tabla's engine without endgame tables, at most `limit` searches at once: what
    /// [`crate::AppState::new`] starts (it cannot fail: nothing is launched).
    pub fn tabla(limit: usize) -> LiveEngines {
        let analyser = TablaAnalyser::new();
        LiveEngines {
            spec: EngineSpec::Tabla,
            oracle: None,
            id: analyser.id().clone(),
            limit,
            state: Mutex::new(Lent {
                idle: vec![Box::new(analyser)],
                running: 0,
            }),
            waiting: AtomicUsize::new(0),
            freed: Notify::new(),
        }
    }

    /// The engine's name and path (`Stockfish 15.1 (/usr/games/stockfish)`).
    pub fn id(&self) -> &EngineId {
        &self.id
    }

    /// What the engines are started from.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// The endings tabla's own engine plays exactly, if the server gave any.
    pub fn oracle(&self) -> Option<&Arc<dyn EndgameOracle>> {
        self.oracle.as_ref()
    }

    /// Analyses running now (counted until their search has really ended).
    pub fn running(&self) -> usize {
        self.lock().running
    }

    /// The most analyses at once.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// A place for one more analysis, or `None` when [`LiveEngines::limit`] run already.
    pub fn reserve(self: &Arc<Self>) -> Option<Reservation> {
        let mut lent = self.lock();
        if lent.running >= self.limit {
            return None;
        }
        lent.running += 1;
        Some(Reservation {
            engines: Arc::clone(self),
            analyser: None,
        })
    }

    /// A place for one more search, waiting for one to be freed while [`LiveEngines::limit`]
    /// run; [`Busy`] at once when `max_waiting` requests wait already.
    pub async fn reserve_waiting(
        self: &Arc<Self>,
        max_waiting: usize,
    ) -> Result<Reservation, Busy> {
        let ahead = self.waiting.fetch_add(1, Ordering::SeqCst);
        let _leave = Leave(&self.waiting);
        if ahead >= max_waiting {
            return Err(Busy);
        }
        loop {
            let freed = self.freed.notified();
            tokio::pin!(freed);
            // Listening before looking, so that a place freed in between is not missed.
            freed.as_mut().enable();
            if let Some(reservation) = self.reserve() {
                return Ok(reservation);
            }
            freed.await;
        }
    }

    /// Requests waiting in [`LiveEngines::reserve_waiting`] now.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::SeqCst)
    }

    /// A new engine of the server's kind (for a UCI program: launched and handshaken).
    fn new_engine(&self) -> Result<Box<dyn Analyser>, Box<EngineError>> {
        self.spec
            .start_with(1, self.oracle.clone())
            .map_err(Box::new)
    }

    fn lock(&self) -> MutexGuard<'_, Lent> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One analysis's place among the running ones, and its engine once taken. Dropping it gives
/// the engine back (unless [`Reservation::discard`] said it is broken) and frees the place.
pub struct Reservation {
    engines: Arc<LiveEngines>,
    analyser: Option<Box<dyn Analyser>>,
}

impl Reservation {
    /// The engine the server runs.
    pub fn spec(&self) -> &EngineSpec {
        self.engines.spec()
    }

    /// The engine: a waiting one, or a new one (which may take a moment for a UCI program).
    pub fn engine(&mut self) -> Result<&mut dyn Analyser, Box<EngineError>> {
        if self.analyser.is_none() {
            let waiting = self.engines.lock().idle.pop();
            self.analyser = Some(match waiting {
                Some(engine) => engine,
                None => self.engines.new_engine()?,
            });
        }
        match self.analyser.as_deref_mut() {
            Some(engine) => Ok(engine),
            None => unreachable!("set above"),
        }
    }

    /// An error of this engine as the API says it ([`crate::engine_text`]: the program by its
    /// file name, not the server's path).
    pub fn error_text(&self, error: &EngineError) -> String {
        let program = match self.spec() {
            EngineSpec::Uci(uci) => uci.path.display().to_string(),
            EngineSpec::Tabla => String::new(),
        };
        crate::api_error::engine_text(&program, &error.to_string())
    }

    /// Forgets the engine (it failed: its process is gone), so that it is not lent again.
    pub fn discard(&mut self) {
        self.analyser = None;
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        {
            let mut lent = self.engines.lock();
            if let Some(engine) = self.analyser.take() {
                lent.idle.push(engine);
            }
            lent.running -= 1;
        }
        self.engines.freed.notify_waiters();
    }
}

/// Counts a request out of the waiting line when it ends, however it ends (served, refused, or
/// dropped because its client went away).
struct Leave<'a>(&'a AtomicUsize);

impl Drop for Leave<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_the_limit_run_and_a_place_is_freed_on_drop() {
        let engines = Arc::new(LiveEngines::tabla(MAX_ANALYSES));
        let first = engines.reserve().expect("a place");
        let mut second = engines.reserve().expect("a second place");
        assert_eq!(engines.running(), MAX_ANALYSES);
        assert!(engines.reserve().is_none(), "past the limit");
        second.engine().expect("the waiting engine");
        drop(second);
        assert_eq!(engines.running(), 1);
        assert_eq!(engines.lock().idle.len(), 1, "the engine came back");
        let mut third = engines.reserve().expect("a place again");
        third.engine().expect("an engine");
        third.discard();
        drop(third);
        drop(first);
        assert_eq!(engines.running(), 0);
        assert!(
            engines.lock().idle.is_empty(),
            "a discarded engine is not lent again"
        );
    }

    #[tokio::test]
    async fn a_waiting_request_gets_the_place_freed_and_one_too_many_is_busy() {
        let engines = Arc::new(LiveEngines::tabla(1));
        let first = engines.reserve().expect("the place");
        let waiter = {
            let engines = Arc::clone(&engines);
            tokio::spawn(async move { engines.reserve_waiting(1).await.map(|_| ()) })
        };
        while engines.waiting() == 0 {
            tokio::task::yield_now().await;
        }
        assert_eq!(engines.reserve_waiting(1).await.err(), Some(Busy));
        drop(first);
        assert_eq!(waiter.await.expect("the task"), Ok(()));
        assert_eq!((engines.running(), engines.waiting()), (0, 0));
    }
}
