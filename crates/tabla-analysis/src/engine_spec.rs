//! Which engine analyses: tabla's own or a UCI program ([`EngineSpec`]).

use super::analyser::Analyser;
use super::error::EngineError;
use super::in_process::TablaAnalyser;
use super::uci_engine::UciEngine;
use super::uci_spec::UciSpec;
use std::sync::Arc;
use tabla_engine::{EndgameOracle, Engine};

/// Which engine analyses: tabla's own, in process, or a UCI program. A [`crate::Pool`] starts
/// one per worker.
///
/// ```
/// use tabla_analysis::EngineSpec;
/// let tabla = EngineSpec::Tabla.start().unwrap();
/// assert_eq!(tabla.id().path, "in process");
/// ```
#[derive(Clone, Debug)]
pub enum EngineSpec {
    /// tabla's engine ([`TablaAnalyser`]).
    Tabla,
    /// A UCI program ([`UciEngine`]).
    Uci(UciSpec),
}

impl EngineSpec {
    /// Starts the engine (for a UCI program: launch, handshake, options).
    pub fn start(&self) -> Result<Box<dyn Analyser>, EngineError> {
        match self {
            EngineSpec::Tabla => Ok(Box::new(TablaAnalyser::new())),
            EngineSpec::Uci(spec) => Ok(Box::new(UciEngine::start(spec.clone())?)),
        }
    }

    /// Starts the engine searching with `threads` threads (a UCI engine gets them as its
    /// `Threads` option when more than one), tabla's own with `tables`, the exact endings it
    /// may play from (a UCI engine has its own).
    ///
    /// ```
    /// use tabla_analysis::EngineSpec;
    /// let tabla = EngineSpec::Tabla.start_with(2, None).unwrap();
    /// assert_eq!(tabla.id().path, "in process");
    /// ```
    pub fn start_with(
        &self,
        threads: usize,
        tables: Option<Arc<dyn EndgameOracle>>,
    ) -> Result<Box<dyn Analyser>, EngineError> {
        match self {
            EngineSpec::Tabla => {
                let mut engine = Engine::new();
                engine.set_threads(threads);
                engine.set_oracle(tables);
                Ok(Box::new(TablaAnalyser::with_engine(engine)))
            }
            EngineSpec::Uci(spec) if threads > 1 => {
                let spec = spec.clone().option("Threads", threads.to_string());
                Ok(Box::new(UciEngine::start(spec)?))
            }
            EngineSpec::Uci(_) => self.start(),
        }
    }
}
