//! # tabla-review — the engine's verdict on games
//!
//! A review of a game as lichess gives one: every position of the mainline evaluated by an
//! engine (tabla's own in process, or any UCI engine), each move judged by lichess's published
//! rules (inaccuracy, mistake, blunder), an accuracy per move and per side, and the result as
//! annotated PGN or JSON.
//!
//! ```
//! use tabla_pgn::Reader;
//! use tabla_review::{Judgement, Rules, annotated_pgn, from_evals};
//!
//! // A game as lichess exports it after analysis: White's point of view after every move.
//! let pgn = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 { [%eval 0.18] } 1... e5 { [%eval 0.21] } \
//!            2. Bc4 { [%eval 0.05] } 2... Nf6 { [%eval 0.21] } 3. Qh5 { [%eval -2.3] } *";
//! let game = Reader::new(pgn.as_bytes()).games().next().unwrap().unwrap();
//! let review = from_evals(&game, Rules::Lichess);
//! assert_eq!(review.moves[4].judgement, Some(Judgement::Blunder));
//! // White lost 0, 16 and 251 centipawns.
//! assert_eq!((review.white.blunders, review.white.acpl), (1, Some(89)));
//! assert!(review.white.accuracy.unwrap() < review.black.accuracy.unwrap());
//! let text = annotated_pgn(&game, &review).unwrap().replace('\n', " ");
//! assert!(text.contains("3. Qh5 $4 { (0.21 → -2.30) Blunder. } { [%eval -2.3] }"), "{text}");
//! ```
//!
//! ## The pieces
//!
//! - The engine layer is `tabla-analysis` ([`tabla_analysis::Pool`], [`tabla_analysis::Budget`]):
//!   reviews run on its pool of engines.
//! - [`Eval`]: tabla's one score type (tabla-pgn's), White's point of view, `[%eval 0.17]` or
//!   `[%eval #-3]`; from a PGN comment or an engine's line ([`tabla_analysis::Line::eval`]).
//! - [`winning_chances`], [`win_percent`]: what an evaluation says of the result.
//! - [`judge_move`]: a move's [`Judgement`] by lichess's [`Rules`], the site's (the default) or
//!   those of lichess's open-database files.
//! - [`move_accuracy`], [`game_accuracy`], [`average_centipawn_loss`]: lichess's figures.
//! - [`Reviewer`], [`review_games`]: games reviewed with a [`tabla_analysis::Pool`] of engines, each distinct
//!   position once; with an [`EvalCache`] (Parquet files in tabla's data directory, one folder
//!   per engine, options and budget: [`CacheConfig`]) once across runs.
//! - [`judge`]: a [`Mainline`] with its positions' evaluations (and the engine's choices, when
//!   known) to a [`Review`]; the engine layer, [`from_evals`] (the `[%eval]` comments a game
//!   already has) and [`from_cache`] (a game whose every position a cache holds) all end there.
//! - [`annotate`], [`annotated_pgn`]: the review written into the game as lichess annotates;
//!   each side's figures go in the tags `WhiteAccuracy`, `BlackAccuracy` (one decimal),
//!   `WhiteACPL` and `BlackACPL`.
//!
//! ## What lichess does, and so tabla
//!
//! - The position before the first move counts as 15 centipawns unless evaluated.
//! - A game that ends in mate has nothing to evaluate after the mating move: the move gets no
//!   evaluation, mark or accuracy and is left out of the sides' figures. A final stalemate
//!   counts as 0 centipawns when not evaluated.
//! - A move is not marked when the engine's choice was the move played.
//! - Win percentages and centipawn losses hold centipawns within ±1000 and count a mate as
//!   ±1000; judgements compare raw centipawns.
//!
//! The review's JSON form (serde): `{"white": {"name", "accuracy", "acpl", "inaccuracies",
//! "mistakes", "blunders"}, "black": {...}, "moves": [{"ply", "san", "uci", "eval", "best",
//! "pv", "win", "judgement", "accuracy"}], "error"}`, an evaluation as `{"cp": 17}` or
//! `{"mate": -3}`, a judgement as `"Inaccuracy"`, `"Mistake"` or `"Blunder"`.
//!
//! ## Inside the crate
//!
//! Where things are, for contributors.
//!
//! lichess's review of a game, its rules written once.
//!
//! | module | holds |
//! |---|---|
//! | `eval.rs` | `INITIAL_EVAL`: the evaluation before the first move; the ceiling of centipawns |
//! | `win.rs` | `winning_chances`, `win_percent`: what an evaluation says of the result |
//! | `judgement.rs` | `Judgement`, `Rules`, `Verdict`, `judge_move`: inaccuracy, mistake, blunder by lichess's site rules or its database's |
//! | `accuracy.rs` | `move_accuracy`, `game_accuracy`, `average_centipawn_loss`, `BySide`: move and game accuracy, average centipawn loss |
//! | `mainline.rs` | `Mainline`, `PlayedMove`, `PositionInfo`, `BestMove`, `Ending`: what a review judges, moves and what is known of each position |
//! | `review.rs` | `judge`: the one path to a `Review` (with `SideReview`, `MoveReview`), its JSON form |
//! | `from_evals.rs` | `from_evals`: a review from the `[%eval]` comments a game carries |
//! | `from_cache.rs` | `from_cache`: a review from the evaluations an `EvalCache` already holds |
//! | `engine_review.rs` | `Reviewer`, `review_games`, `ReviewedGame`: games reviewed with a `tabla_analysis::Pool` of engines, each distinct position once and none the cache already has; `ReviewCounts`, what a run counted |
//! | `cache/` | `EvalCache`: the evaluation cache, each position evaluated once per engine configuration across the games of a run and across runs, compacted past `COMPACT_AT` files; `cache/config.rs` `CacheConfig` (engine, options, budget: a folder each), `cache/store.rs` the Parquet files (columns in `evals_schema`), `cache/error.rs` `CacheError` |
//! | `review_error.rs` | `ReviewError`: why a game could not be reviewed |
//! | `annotate.rs` | `annotate`, `annotated_pgn`: the review written into the game through tabla-pgn's writer, as lichess annotates |
//!
//! The crate doc lists what follows lichess.

mod accuracy;
mod annotate;
mod cache;
mod engine_review;
mod eval;
mod from_cache;
mod from_evals;
mod judgement;
mod mainline;
mod review;
mod review_error;
mod win;

pub use accuracy::{BySide, average_centipawn_loss, game_accuracy, move_accuracy};
pub use annotate::{
    AnnotateError, BLACK_ACCURACY_TAG, BLACK_ACPL_TAG, MAX_VARIATION_PLIES, WHITE_ACCURACY_TAG,
    WHITE_ACPL_TAG, annotate, annotated_pgn, annotated_pgn_or_game,
};
pub use cache::{COMPACT_AT, CacheConfig, CacheError, EvalCache, default_cache_dir, evals_schema};
pub use engine_review::{
    BATCH_GAMES, FLUSH_EVERY, ReviewCounts, ReviewedGame, Reviewer, review_games,
};
pub use eval::INITIAL_EVAL;
pub use from_cache::from_cache;
pub use from_evals::from_evals;
pub use judgement::{Judgement, Reason, Rules, UnknownRules, Verdict, judge_move};
pub use mainline::{BestMove, Ending, Mainline, PlayedMove, PositionInfo};
pub use review::{MoveReview, Review, SideReview, judge};
pub use review_error::ReviewError;
/// tabla's one score type (White's point of view), in which reviews are given.
pub use tabla_pgn::Eval;
pub use win::{win_percent, winning_chances};

/// The node budget of a position when none is given, for every front end (`tabla review`,
/// Python's `tabla.review`): about a quarter of a second of tabla's engine, so that an ordinary
/// game is reviewed in about 10 s on two cores. Chosen from the review-quality curve against
/// Stockfish at lichess's budget (docs/performance.md): from 300,000 to 450,000 nodes the
/// accuracies come closer to Stockfish's (accuracy difference 2.04 to 1.92, blunders caught
/// 0.91 to 0.92), and a budget past about 600,000 would take an ordinary game past 15 s.
pub const DEFAULT_NODES: u64 = 450_000;
