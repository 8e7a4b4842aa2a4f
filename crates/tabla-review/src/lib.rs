//! # tabla-review — the engine's verdict on games
//!
//! A review of a game as lichess gives one: every position of the mainline evaluated by an
//! engine (tabla's own in process, or any UCI engine), each move judged by lichess's published
//! rules (inaccuracy, mistake, blunder), an accuracy per move and per side, and the result as
//! annotated PGN or JSON.

mod engines;

pub use engines::{
    Analyser, Analysis, Budget, BudgetError, EngineError, EngineId, EngineSpec, IllegalMove,
    JobResult, Line, OptionKind, OptionSyntaxError, Pool, Request, Said, StopSignal, TablaAnalyser,
    Timeouts, UciEngine, UciOption, UciSpec,
};
