//! What the development tools in `examples/` need of the evaluation's insides, and nothing else:
//! `examples/tune.rs` fits the hand-written evaluation's weights, `examples/nnue_train.rs` trains
//! the evaluation network. Not an API for playing chess; it changes whenever the evaluation does.
//!
//! For the weight tuner: [`trace`] takes a hand-written evaluation apart into how often each
//! weight counted ([`EvalTrace`], [`Coefficients`]), [`WEIGHTS`] and [`KING_DANGER`] are the
//! weights in the tree (laid out over [`WEIGHT_COUNT`] and [`KING_DANGER_COUNT`] entries, named by
//! [`weight_name`]), [`PHASE_MAX`] is the game phase with all pieces on, and [`see`] tells quiet
//! positions from loud ones.
//!
//! For the network trainer: [`hand_written`] is the evaluation the network corrects; [`HIDDEN`],
//! [`L2`], [`INPUTS`], [`feature`], [`QA`], [`QB`], [`Q2`], [`Q3`], [`SCALE`], [`ALPHA_ONE`]
//! and [`FILE_SIZE`] are the network's shape, integer scales and file format, and
//! [`Network::from_bytes`] checks a file the trainer wrote.

pub use crate::evaluate::{EvalTrace, hand_written, trace};
pub use crate::nnue::{
    ALPHA_ONE, FILE_SIZE, HIDDEN, INPUTS, L2, Network, Q2, Q3, QA, QB, SCALE, feature,
};
pub use crate::params::{
    COUNT as WEIGHT_COUNT, Coefficients, KING_DANGER_COUNT, name as weight_name,
};
pub use crate::see::see;
pub use crate::tapered::{PHASE_MAX, S};
pub use crate::tuned::{KING_DANGER, WEIGHTS};
