//! The engine: what persists between searches (hash table, history, options, endgame oracle) and
//! the entry point that runs one search.

use crate::correction::Correction;
use crate::evaluate::Evaluator;
use crate::info::{Info, SearchResult};
use crate::limits::Limits;
use crate::oracle::EndgameOracle;
use crate::ordering::History;
use crate::search::{Control, Reductions, Shared, Worker};
use crate::skill::{CANDIDATES, Skill};
use crate::tt::TranspositionTable;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tabla::Position;

/// The hash table size a new engine gets, in MiB.
pub const DEFAULT_HASH_MIB: usize = 16;
/// The largest hash table the `Hash` option accepts, in MiB.
pub const MAX_HASH_MIB: usize = 65_536;
/// The most principal variations `MultiPV` may ask for.
pub const MAX_MULTIPV: usize = 256;
/// The most search threads the `Threads` option accepts.
pub const MAX_THREADS: usize = 256;
/// Stack for each search thread: every ply keeps its move list on the stack.
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
    threads: usize,
    helpers: Vec<Helper>,
    skill: Skill,
}

/// What a helper thread keeps between searches: its own move-ordering history, correction
/// history and pawn cache. Only the hash table is shared.
#[derive(Default)]
struct Helper {
    history: History,
    correction: Correction,
    evaluator: Evaluator,
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
            threads: 1,
            helpers: Vec::new(),
            skill: Skill::full(),
        }
    }

    /// How many threads search (1..=[`MAX_THREADS`]). With more than one, helper threads search
    /// the same position and share the hash table ("lazy SMP"): the main thread finds more of
    /// its subtrees already searched and reaches deeper in the same time. One thread (the
    /// default) gives reproducible searches; more do not, since the threads race.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, MAX_THREADS);
        self.helpers.truncate(self.threads - 1);
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
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

    /// Plays at `skill` from the next search on: [`Skill::full`] (the default) searches as
    /// asked; a lower level searches less and may choose one of the next best moves (see
    /// [`Skill`]). Its seed makes the choice reproducible.
    pub fn set_skill(&mut self, skill: Skill) {
        self.skill = skill;
    }

    /// The strength setting.
    pub fn skill(&self) -> Skill {
        self.skill
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
        self.helpers.clear();
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
    /// [`SEARCH_STACK_BYTES`]; helper threads, if any, get their own.
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
        // A weakened engine searches less, and several root moves to choose from (reporting only
        // the lines asked for).
        let skill = self.skill;
        let weakened;
        let limits = if skill.is_full() {
            limits
        } else {
            weakened = skill.limits(limits);
            &weakened
        };
        let shown = self.multipv;
        let mut shown_only = |info: &Info| {
            if info.multipv <= shown {
                on_info(info)
            }
        };
        let on_info: &mut (dyn FnMut(&Info) + Send) = &mut shown_only;
        let multipv = if skill.is_full() {
            self.multipv
        } else {
            self.multipv.max(CANDIDATES)
        };
        self.tt.new_search();
        let helper_count = self.threads - 1;
        self.helpers.resize_with(helper_count, Helper::default);
        let counters: Vec<AtomicU64> = (0..self.threads).map(|_| AtomicU64::new(0)).collect();
        // Helpers answer to a flag of their own, raised when the main thread is done.
        let helper_control = Control::default();
        let tt = &self.tt;
        let (reductions, oracle) = (&self.reductions, self.oracle.as_deref());
        let helper_limits = Limits {
            depth: limits.depth,
            search_moves: limits.search_moves.clone(),
            ..Limits::default()
        };
        let main = Shared {
            tt,
            history: &mut self.history,
            correction: &mut self.correction,
            evaluator: &mut self.evaluator,
            reductions,
            oracle,
            multipv,
            overhead: self.overhead,
            skill,
        };
        let result = std::thread::scope(|scope| {
            for (i, helper) in self.helpers.iter_mut().enumerate() {
                let shared = Shared {
                    tt,
                    history: &mut helper.history,
                    correction: &mut helper.correction,
                    evaluator: &mut helper.evaluator,
                    reductions,
                    oracle,
                    multipv: 1,
                    overhead: Duration::ZERO,
                    skill: Skill::full(),
                };
                let (helper_limits, helper_control, counters) =
                    (&helper_limits, &helper_control, &counters);
                // A helper that cannot be started is simply missing: the search stays correct.
                let _ = std::thread::Builder::new()
                    .name(format!("tabla-helper-{}", i + 1))
                    .stack_size(SEARCH_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let mut silent = |_: &Info| {};
                        Worker::new(
                            pos,
                            helper_limits,
                            shared,
                            helper_control,
                            &mut silent,
                            counters,
                            i + 1,
                        )
                        .helper()
                        .run(helper_limits);
                    });
            }
            let result = Worker::new(pos, limits, main, control, on_info, &counters, 0).run(limits);
            helper_control.stop.store(true, Ordering::SeqCst);
            result
        });
        for helper in &mut self.helpers {
            helper.history.age();
        }
        self.history.age();
        result
    }
}
