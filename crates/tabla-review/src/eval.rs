//! lichess's two rules about evaluations: the one before the first move, and the ceiling of
//! centipawns. The evaluation itself is tabla's one score type, [`tabla_pgn::Eval`] (White's
//! point of view), which this crate re-exports as `tabla_review::Eval`.

use tabla_pgn::Eval;

/// lichess's evaluation of a position nobody evaluated before the first move: 15 centipawns
/// (`Eval.initial`), White's usual edge.
///
/// ```
/// use tabla_review::{Eval, INITIAL_EVAL};
/// assert_eq!(INITIAL_EVAL, Eval::Cp(15));
/// ```
pub const INITIAL_EVAL: Eval = Eval::Cp(15);

/// lichess's ceiling of centipawns (`Cp.CEILING`).
pub(crate) const CEILING: i32 = 1000;

/// Centipawns held within ±1000, a mate as ±1000: lichess's ceiling for win percentages and
/// centipawn losses (a mate in 0 counts as White's).
pub(crate) fn ceiled_cp(eval: Eval) -> i32 {
    match eval {
        Eval::Cp(cp) => cp.clamp(-CEILING, CEILING),
        Eval::Mate(n) if n < 0 => -CEILING,
        Eval::Mate(_) => CEILING,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ceiling() {
        assert_eq!(ceiled_cp(Eval::Cp(1479)), 1000);
        assert_eq!(ceiled_cp(Eval::Cp(-1055)), -1000);
        assert_eq!(ceiled_cp(Eval::Cp(-999)), -999);
        assert_eq!(ceiled_cp(Eval::Mate(-7)), -1000);
        assert_eq!(ceiled_cp(Eval::Mate(1)), 1000);
        assert_eq!(ceiled_cp(Eval::Mate(0)), 1000);
    }
}
