//! A reviewed game's figures as the game lists show them ([`GameReview`], [`SideMarks`]): the
//! data only; `game_reviews.rs` reads them from `review_games`.

use serde::Serialize;

/// A game's review as a list shows it: each side's accuracy and marks, and the configuration
/// that made it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GameReview {
    /// The configuration (the `engine` column): `from-evals` or the evaluation
    /// cache's folder name.
    pub engine: String,
    /// The rules (the `rules` column): `lichess` or `lichess-database`.
    pub rules: String,
    /// White's game accuracy, 0 to 100 (`None` without a judged move).
    pub white_accuracy: Option<f64>,
    /// Black's game accuracy, 0 to 100.
    pub black_accuracy: Option<f64>,
    /// White's average centipawn loss and marks.
    pub white: SideMarks,
    /// Black's.
    pub black: SideMarks,
}

/// One side's average centipawn loss and marks in a reviewed game.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq, Eq)]
pub struct SideMarks {
    /// Average centipawn loss (`None` without a judged move).
    pub acpl: Option<i64>,
    /// Inaccuracies.
    pub inaccuracies: i64,
    /// Mistakes.
    pub mistakes: i64,
    /// Blunders.
    pub blunders: i64,
}
