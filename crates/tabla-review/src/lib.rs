//! # tabla-review — the engine's verdict on games
//!
//! A review of a game as lichess gives one: every position of the mainline evaluated by an
//! engine (tabla's own in process, or any UCI engine), each move judged by lichess's published
//! rules (inaccuracy, mistake, blunder), an accuracy per move and per side, and the result as
//! annotated PGN or JSON.
//!
//! ```
//! use tabla::Color;
//! use tabla_review::{Eval, Judgement, Rules, judge_move, move_accuracy, win_percent};
//!
//! // White's 3. Qh5 from +0.21 to -2.30 ([%eval -2.3]).
//! let (before, after) = (Eval::Cp(21), "-2.3".parse::<Eval>().unwrap());
//! let verdict = judge_move(before, after, Color::White, Rules::Lichess).unwrap();
//! assert_eq!(verdict.judgement, Judgement::Blunder);
//! // White's win% falls from 51.9 to 30.0: an accuracy of 37.5.
//! assert!((move_accuracy(win_percent(before), win_percent(after)) - 37.55).abs() < 0.01);
//! ```
//!
//! ## The pieces
//!
//! - [`Eval`]: an evaluation from White's point of view, `[%eval 0.17]` or `[%eval #-3]`; from
//!   a PGN comment or an engine's [`tabla_engine::Score`].
//! - [`winning_chances`], [`win_percent`]: what an evaluation says of the result.
//! - [`judge_move`]: a move's [`Judgement`] by lichess's [`Rules`], the site's (the default) or
//!   those of lichess's open-database files.
//! - [`move_accuracy`], [`game_accuracy`], [`average_centipawn_loss`]: lichess's figures.

mod accuracy;
mod eval;
mod judgement;
mod win;

pub use accuracy::{BySide, average_centipawn_loss, game_accuracy, move_accuracy};
pub use eval::Eval;
pub use judgement::{Judgement, Reason, Rules, Verdict, judge_move};
pub use win::{win_percent, winning_chances};
