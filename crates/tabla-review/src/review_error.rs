//! Why a game could not be reviewed.

/// Why a game could not be reviewed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    /// The game has no start position (its `FEN` tag could not be set up).
    #[error("the game has no start position to replay its moves from; check its FEN tag")]
    NoStartPosition,
    /// A PGN error stopped the game's mainline (the reader's report).
    #[error("the game could not be read to its end: {0}")]
    Unreadable(String),
    /// A position after a move has no evaluation.
    #[error(
        "no evaluation after {label} (ply {ply}): every move but a mating one needs one \
         ([%eval] after the move, or an engine's)"
    )]
    MissingEval {
        /// The move as people name it (`12... Nf6`).
        label: String,
        /// Its ply.
        ply: u32,
    },
    /// The positions do not match the moves.
    #[error(
        "{} for {}: a review needs the position before each move and the final one",
        tabla::plural(.positions, "position"),
        tabla::plural(.moves, "move")
    )]
    PositionCount {
        /// Moves given.
        moves: usize,
        /// Positions given.
        positions: usize,
    },
    /// The engine failed on a position of the game (twice, as a pool retries once; or once
    /// when it hung).
    #[error("the engine failed on the position {at}: {message}")]
    Engine {
        /// Which position: `before 12... Nf6`, or `after the last move`.
        at: String,
        /// What went wrong, naming the engine.
        message: String,
    },
    /// A position of the game was not evaluated: the review stopped before its search (the
    /// engine hung on another position, or the review was cancelled).
    #[error("the position {at} was not evaluated: {reason}")]
    NotEvaluated {
        /// Which position: `before 12... Nf6`, or `after the last move`.
        at: String,
        /// Why.
        reason: String,
    },
}
