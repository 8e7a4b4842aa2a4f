//! The engine: what persists between searches (hash table, history, options, endgame oracle) and
//! the entry point that runs one search.

use crate::correction::Correction;
use crate::evaluate::Evaluator;
use crate::info::{Info, SearchResult};
use crate::limits::Limits;
use crate::oracle::EndgameOracle;
use crate::ordering::History;
use crate::search::{Control, Reductions, Shared, Worker};
use crate::tt::TranspositionTable;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tabla::Position;

/// The hash table size a new engine gets, in MiB.
pub const DEFAULT_HASH_MIB: usize = 16;
/// The largest hash table the `Hash` option accepts, in MiB.
pub const MAX_HASH_MIB: usize = 65_536;
/// The most principal variations `MultiPV` may ask for.
pub const MAX_MULTIPV: usize = 256;
/// Stack for the search thread: every ply keeps its move list on the stack.
pub const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;

/// A chess engine: call [`Engine::search`] on positions; the hash table and move-ordering
/// history carry over from one search to the next (call [`Engine::new_game`] between games).
///
/// ```
/// use tabla::Position;
/// use tabla_engine::{Control, Engine, Limits};
/// let mut engine = Engine::new();
/// // Mate in one: Qh7#... here Ra8#.
/// let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
/// let result = engine.search(&pos, &Limits::depth(4), &Control::default(), &mut |_| {});
/// assert_eq!(pos.san(result.best.unwrap()), "Ra8#");
/// ```
pub struct Engine {
    tt: TranspositionTable,
    history: History,
    correction: Correction,
    evaluator: Evaluator,
    reductions: Reductions,
    hash_mib: usize,
    multipv: usize,
    overhead: Duration,
    oracle: Option<Arc<dyn EndgameOracle>>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine with a [`DEFAULT_HASH_MIB`] hash table, one principal variation and a 30 ms
    /// move overhead.
    pub fn new() -> Engine {
        Engine {
            tt: TranspositionTable::new(DEFAULT_HASH_MIB),
            history: History::default(),
            correction: Correction::default(),
            evaluator: Evaluator::new(),
            reductions: Reductions::new(),
            hash_mib: DEFAULT_HASH_MIB,
            multipv: 1,
            overhead: Duration::from_millis(30),
            oracle: None,
        }
    }

    /// Resizes the hash table (clearing it), clamped to 1..=[`MAX_HASH_MIB`] MiB.
    pub fn set_hash_mib(&mut self, mib: usize) {
        let mib = mib.clamp(1, MAX_HASH_MIB);
        if mib != self.hash_mib {
            self.hash_mib = mib;
            // Free the old table first so both never live at once.
            self.tt = TranspositionTable::new(1);
            self.tt = TranspositionTable::new(mib);
        }
    }

    /// The hash table size in MiB.
    pub fn hash_mib(&self) -> usize {
        self.hash_mib
    }

    /// How many principal variations to report (1..=[`MAX_MULTIPV`]).
    pub fn set_multipv(&mut self, lines: usize) {
        self.multipv = lines.clamp(1, MAX_MULTIPV);
    }

    /// The number of principal variations reported.
    pub fn multipv(&self) -> usize {
        self.multipv
    }

    /// Time kept in reserve on every move for the GUI and the operating system.
    pub fn set_move_overhead(&mut self, overhead: Duration) {
        self.overhead = overhead;
    }

    /// Plugs in (or removes) exact endgame knowledge.
    pub fn set_oracle(&mut self, oracle: Option<Arc<dyn EndgameOracle>>) {
        self.oracle = oracle;
    }

    /// Forgets everything learnt (hash table, history): the next search starts a new game.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.correction.clear();
    }

    /// Searches `pos` (its move history counts for repetitions) within `limits`, calling
    /// `on_info` after each iteration; `control` may stop it from another thread. Runs on a
    /// thread of its own with a large stack; returns when the search ends.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &Control,
        on_info: &mut (dyn FnMut(&Info) + Send),
    ) -> SearchResult {
        // The borrows go through a slot so that they can be taken back if no thread starts.
        let slot = Mutex::new(Some((self, on_info)));
        let take = || slot.lock().unwrap_or_else(|e| e.into_inner()).take();
        let spawned = std::thread::scope(|scope| {
            let handle = std::thread::Builder::new()
                .name("tabla-search".into())
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, || {
                    take()
                        .map(|(engine, on_info)| engine.search_here(pos, limits, control, on_info))
                });
            match handle {
                Ok(h) => h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
                Err(_) => None,
            }
        });
        match spawned {
            Some(result) => result,
            None => match take() {
                Some((engine, on_info)) => engine.search_here(pos, limits, control, on_info),
                None => unreachable!("the search thread neither ran nor left its arguments"),
            },
        }
    }

    /// [`Engine::search`] on the calling thread, which needs a stack of about
    /// [`SEARCH_STACK_BYTES`].
    pub fn search_here(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &Control,
        on_info: &mut (dyn FnMut(&Info) + Send),
    ) -> SearchResult {
        if limits.ponder {
            control
                .pondering
                .store(true, std::sync::atomic::Ordering::SeqCst);
        }
        let shared = Shared {
            tt: &mut self.tt,
            history: &mut self.history,
            correction: &mut self.correction,
            evaluator: &mut self.evaluator,
            reductions: &self.reductions,
            oracle: self.oracle.as_deref(),
            multipv: self.multipv,
            overhead: self.overhead,
        };
        let result = Worker::new(pos, limits, shared, control, on_info).run(limits);
        self.history.age();
        result
    }
}
