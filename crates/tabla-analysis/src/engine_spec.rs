//! Which engine analyses: tabla's own or a UCI program ([`EngineSpec`]).

use super::analyser::Analyser;
use super::error::EngineError;
use super::in_process::TablaAnalyser;
use super::uci_engine::UciEngine;
use super::uci_spec::UciSpec;

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
}
