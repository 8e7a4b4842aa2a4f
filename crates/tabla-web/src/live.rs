//! The engines of live analysis (`GET /api/analyse`): started from the server's
//! [`EngineSpec`], lent to one analysis at a time, at most [`MAX_ANALYSES`] at once, and kept
//! running between analyses so that the next one answers at once.

use std::sync::{Arc, Mutex, MutexGuard};
use tabla_analysis::{Analyser, EngineError, EngineId, EngineSpec, TablaAnalyser};
use tabla_engine::{EndgameOracle, Engine};

/// Live analyses running at once; one more is answered 429. Each searches on one thread (or
/// one engine process), so two keep a two-core machine busy and its other routes answering.
pub const MAX_ANALYSES: usize = 2;

/// The engines lent to live analyses.
pub struct LiveEngines {
    spec: EngineSpec,
    oracle: Option<Arc<dyn EndgameOracle>>,
    id: EngineId,
    limit: usize,
    state: Mutex<Lent>,
}

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

    /// tabla's engine without endgame tables, at most [`MAX_ANALYSES`] at once: what
    /// [`crate::AppState::new`] starts (it cannot fail: nothing is launched).
    pub fn tabla() -> LiveEngines {
        let analyser = TablaAnalyser::new();
        LiveEngines {
            spec: EngineSpec::Tabla,
            oracle: None,
            id: analyser.id().clone(),
            limit: MAX_ANALYSES,
            state: Mutex::new(Lent {
                idle: vec![Box::new(analyser)],
                running: 0,
            }),
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

    /// A new engine of the server's kind (for a UCI program: launched and handshaken).
    fn new_engine(&self) -> Result<Box<dyn Analyser>, Box<EngineError>> {
        match &self.spec {
            EngineSpec::Tabla => {
                let mut engine = Engine::new();
                engine.set_oracle(self.oracle.clone());
                Ok(Box::new(TablaAnalyser::with_engine(engine)))
            }
            spec => spec.start().map_err(Box::new),
        }
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

    /// Forgets the engine (it failed: its process is gone), so that it is not lent again.
    pub fn discard(&mut self) {
        self.analyser = None;
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let mut lent = self.engines.lock();
        if let Some(engine) = self.analyser.take() {
            lent.idle.push(engine);
        }
        lent.running -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_the_limit_run_and_a_place_is_freed_on_drop() {
        let engines = Arc::new(LiveEngines::tabla());
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
}
