//! The engine shared by the requests of `GET /api/suggest`: anything that suggests a move
//! ([`Suggester`]), tabla's engine as one ([`EngineSuggester`]), and the slot that lets one
//! search run at a time ([`EngineSlot`]).

use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tabla::{Move, Position};
use tabla_engine::{Control, EndgameOracle, Engine, Limits, Score};
use tokio::sync::Semaphore;

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suggestion {
    /// The move to play.
    pub best: Move,
    /// The score from the side to move's point of view.
    pub score: Score,
    /// The depth reached.
    pub depth: u32,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// Positions searched.
    pub nodes: u64,
}

/// Something that suggests moves: the engine, or anything else that can stand in for it.
pub trait Suggester: Send + Sync {
    /// Searches `pos` (which has a legal move) for at most `movetime`.
    fn suggest(&self, pos: &Position, movetime: Duration) -> Option<Suggestion>;
}

/// tabla's engine behind a lock: one search at a time, its hash table kept between requests.
pub struct EngineSuggester {
    engine: Mutex<Engine>,
}

impl EngineSuggester {
    /// An engine with its default hash size, and exact endgame knowledge when given.
    pub fn new(oracle: Option<Arc<dyn EndgameOracle>>) -> EngineSuggester {
        let mut engine = Engine::new();
        engine.set_oracle(oracle);
        EngineSuggester {
            engine: Mutex::new(engine),
        }
    }
}

impl Suggester for EngineSuggester {
    fn suggest(&self, pos: &Position, movetime: Duration) -> Option<Suggestion> {
        let mut engine = self.engine.lock().unwrap_or_else(|e| e.into_inner());
        let result = engine.search(
            pos,
            &Limits::move_time(movetime),
            &Control::default(),
            &mut |_| {},
        );
        let best = result.best?;
        let pv = if result.pv.first() == Some(&best) {
            result.pv
        } else {
            vec![best]
        };
        Some(Suggestion {
            best,
            score: result.score,
            depth: result.depth,
            pv,
            nodes: result.nodes,
        })
    }
}

/// The engine shared by the requests, and how many are waiting for it.
#[derive(Clone)]
pub struct EngineSlot {
    /// The engine, or what stands in for it.
    pub(crate) suggester: Arc<dyn Suggester>,
    /// One search at a time.
    pub(crate) permit: Arc<Semaphore>,
    /// Requests waiting for the permit or searching (`GET /api/suggest` refuses requests past
    /// its limit with 429).
    pub(crate) waiting: Arc<AtomicUsize>,
}

impl EngineSlot {
    /// A slot over a suggester; one search runs at a time.
    pub fn new(suggester: Arc<dyn Suggester>) -> EngineSlot {
        EngineSlot {
            suggester,
            permit: Arc::new(Semaphore::new(1)),
            waiting: Arc::new(AtomicUsize::new(0)),
        }
    }
}
