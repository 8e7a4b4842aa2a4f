//! How likely a side is to win, read from an evaluation: lichess's winning chances and win
//! percentage (lila's `WinPercent`, fitted to its players' results, lila pull request 11148).

use crate::Eval;
use crate::eval::ceiled_cp;

/// The slope of lichess's logistic curve, per centipawn.
const SLOPE: f64 = 0.003_682_08;

/// Winning chances from centipawns, from -1 (lost) to 1 (won):
/// `2 / (1 + exp(-0.00368208 cp)) - 1`. The judgements compare these on raw centipawns.
///
/// ```
/// use tabla_review::winning_chances;
/// assert_eq!(winning_chances(0), 0.0);
/// assert!((winning_chances(100) - 0.18205).abs() < 1e-5);
/// assert!((winning_chances(-100) + winning_chances(100)).abs() < 1e-12);
/// ```
pub fn winning_chances(cp: i32) -> f64 {
    (2.0 / (1.0 + (-SLOPE * f64::from(cp)).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// White's win percentage, 0 to 100: `50 + 50 w(cp)` with the centipawns held within ±1000 and a
/// mate counted as ±1000 (lichess's ceiling).
///
/// ```
/// use tabla_review::{Eval, win_percent};
/// assert_eq!(win_percent(Eval::Cp(0)), 50.0);
/// assert_eq!(win_percent(Eval::Mate(3)), win_percent(Eval::Cp(1000)));
/// assert!((win_percent(Eval::Cp(1000)) - 97.5447).abs() < 1e-4);
/// ```
pub fn win_percent(eval: Eval) -> f64 {
    50.0 + 50.0 * winning_chances(ceiled_cp(eval))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_checked_values() {
        // exp(-0.368208) = 0.691973: 2 / 1.691973 - 1 = 0.182052.
        assert!((winning_chances(100) - 0.182_052).abs() < 1e-6);
        // exp(-3.68208) = 0.0251706: 2 / 1.0251706 - 1 = 0.950895; win% 97.54474 and 2.45526.
        assert!((winning_chances(1000) - 0.950_895).abs() < 1e-6);
        assert!((win_percent(Eval::Cp(1000)) - 97.544_74).abs() < 1e-5);
        assert!((win_percent(Eval::Cp(-1000)) - 2.455_26).abs() < 1e-5);
        assert_eq!(win_percent(Eval::Cp(5000)), win_percent(Eval::Cp(1000)));
        // Raw centipawns for judgements, no ceiling: 2000 cp is nearer to 1 than 1000 cp.
        assert!(winning_chances(2000) > winning_chances(1000));
        assert!(winning_chances(i32::MAX) <= 1.0 && winning_chances(i32::MIN) >= -1.0);
    }
}
