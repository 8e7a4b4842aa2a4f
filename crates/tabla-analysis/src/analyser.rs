//! The one interface to every engine: [`Analyser`], and the [`StopSignal`] that ends a search
//! from another thread.

use super::analysis::{Analysis, Line};
use super::error::{EngineError, EngineId};
use super::request::Request;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use tabla_engine::Control;

/// An engine that analyses positions: tabla's own in process ([`crate::TablaAnalyser`]) or a
/// UCI program ([`crate::UciEngine`]). One search at a time; a [`crate::Pool`] runs several.
///
/// ```
/// use tabla::Position;
/// use tabla_analysis::{Analyser, Budget, Request, StopSignal, TablaAnalyser};
/// fn best_score(engine: &mut dyn Analyser, fen: &str) -> String {
///     let request = Request::new(Position::from_fen(fen).unwrap(), Budget::Depth(3));
///     let mut updates = 0;
///     let analysis = engine
///         .analyse(&request, &StopSignal::new(), &mut |_line| updates += 1)
///         .unwrap();
///     assert!(updates >= 3, "one report per iteration at least");
///     analysis.best().unwrap().score.to_string()
/// }
/// // A queen up: a clearly positive score for White, the side to move.
/// let score = best_score(&mut TablaAnalyser::new(), "4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
/// assert!(score.starts_with("cp ") || score.starts_with("mate "));
/// ```
pub trait Analyser: Send {
    /// Which engine this is.
    fn id(&self) -> &EngineId;

    /// Searches `request.position` within its budget and returns each line's last report (see
    /// [`Analysis::lines`]).
    /// `on_line` is called on this thread with every line the engine reports while it searches
    /// (a live view's updates); `stop`, raised from any thread, ends the search early (an
    /// infinite one ends only so), and the lines so far are the answer.
    ///
    /// A position without legal moves is answered without searching (mate 0, or cp 0 for
    /// stalemate). When the engine misbehaves the error is a fault
    /// ([`EngineError::is_fault`]): its process is gone and the next call starts a new one.
    fn analyse(
        &mut self,
        request: &Request,
        stop: &StopSignal,
        on_line: &mut dyn FnMut(&Line),
    ) -> Result<Analysis, EngineError> {
        if let Some(problem) = request.problem() {
            return Err(EngineError::BadRequest { problem });
        }
        if let Some(analysis) = Analysis::without_moves(&request.position) {
            return Ok(analysis);
        }
        self.search(request, stop, on_line)
    }

    /// The engine's own part of [`Analyser::analyse`]: called only with a valid request on a
    /// position that has legal moves.
    fn search(
        &mut self,
        request: &Request,
        stop: &StopSignal,
        on_line: &mut dyn FnMut(&Line),
    ) -> Result<Analysis, EngineError>;

    /// [`Analyser::analyse`], asked once more (of a fresh process) when the first attempt
    /// fails by the engine's fault, was not stopped and was not a hang
    /// ([`EngineError::is_hang`]: a retry would double the wait for an engine that hangs
    /// again). Returns the outcome, and the first attempt's fault when there was a retry.
    fn analyse_with_retry(
        &mut self,
        request: &Request,
        stop: &StopSignal,
        on_line: &mut dyn FnMut(&Line),
    ) -> (Result<Analysis, EngineError>, Option<EngineError>) {
        match self.analyse(request, stop, on_line) {
            Err(error) if error.is_fault() && !error.is_hang() && !stop.is_stopped() => {
                (self.analyse(request, stop, on_line), Some(error))
            }
            outcome => (outcome, None),
        }
    }
}

/// Ends a running search from another thread: clone it, hand the clone to whoever may stop,
/// and pass the original to [`Analyser::analyse`]. A signal stays raised: use a new one for
/// each search.
///
/// ```
/// use std::time::Duration;
/// use tabla::Position;
/// use tabla_analysis::{Analyser, Budget, Request, StopSignal, TablaAnalyser};
/// let stop = StopSignal::new();
/// let stopper = stop.clone();
/// std::thread::spawn(move || {
///     std::thread::sleep(Duration::from_millis(200));
///     stopper.stop();
/// });
/// let request = Request::new(Position::startpos(), Budget::Infinite);
/// let analysis = TablaAnalyser::new().analyse(&request, &stop, &mut |_| {}).unwrap();
/// assert!(analysis.stopped && analysis.best_move.is_some());
/// ```
#[derive(Clone, Debug, Default)]
pub struct StopSignal {
    // tabla's search polls this very flag, so stopping the in-process engine needs no relay.
    control: Arc<Control>,
}

impl StopSignal {
    /// A signal not yet raised.
    pub fn new() -> StopSignal {
        StopSignal::default()
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.control.stop.store(true, Ordering::SeqCst);
    }

    /// `true` once [`StopSignal::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.control.stop.load(Ordering::SeqCst)
    }

    /// The flag tabla's own search watches.
    pub(crate) fn control(&self) -> &Control {
        &self.control
    }
}
