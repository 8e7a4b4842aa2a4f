//! Accuracy and average centipawn loss: lichess's figures of a move and of each side of a game
//! (lila's `AccuracyPercent` and `AccuracyCP`).

use crate::Eval;
use crate::eval::ceiled_cp;
use tabla::Color;

/// A value for each side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BySide<T> {
    /// White's.
    pub white: T,
    /// Black's.
    pub black: T,
}

impl<T> BySide<T> {
    /// The value of `side`.
    pub fn get(&self, side: Color) -> &T {
        side.fold(&self.white, &self.black)
    }

    fn get_mut(&mut self, side: Color) -> &mut T {
        side.fold(&mut self.white, &mut self.black)
    }
}

/// The accuracy of a move, 0 to 100, from the mover's win percentage before and after it: 100
/// when it did not fall, else `103.1668100711649 exp(-0.04354415386753951 d) - 3.166924740191411`
/// for a fall of `d`, plus 1 for the engine's own imprecision, within [0, 100] (lichess's curve,
/// fitted to 100 at no loss and 0 at a loss of 80 points).
///
/// ```
/// use tabla_review::move_accuracy;
/// assert_eq!(move_accuracy(60.0, 61.0), 100.0);
/// assert_eq!(move_accuracy(50.0, 50.0), 100.0);
/// // A fall of 10 points: 103.16681 exp(-0.435442) - 3.166925 + 1 = 64.5798.
/// assert!((move_accuracy(60.0, 50.0) - 64.5798).abs() < 1e-4);
/// assert_eq!(move_accuracy(100.0, 0.0), 0.0);
/// ```
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let raw = 103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * (before - after)).exp()
        - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// Each side's accuracy over a game, lichess's: the mean of two means of the side's move
/// accuracies, one weighted by how volatile the game was around each move, the other harmonic
/// (each accuracy taken as at least 1), so that a few bad moves weigh more than in a plain mean.
///
/// `wins` are White's win percentages of the positions in order, the first before the first
/// move, one after each move; `first_mover` played the first move. A move's weight is the
/// population standard deviation, held within [0.5, 12], of a window of `n = moves / 10` win
/// percentages (at least 2, at most 8): the `n` ending with the one after the move, or the
/// first `n` for the moves before there are that many. A side without moves has none.
///
/// ```
/// use tabla::Color;
/// use tabla_review::game_accuracy;
/// // White loses 10 points, Black's move gains 5 more for Black.
/// let acc = game_accuracy(&[50.0, 40.0, 35.0], Color::White);
/// assert!((acc.white.unwrap() - 64.5798).abs() < 1e-4);
/// assert_eq!(acc.black, Some(100.0));
/// assert_eq!(game_accuracy(&[50.0], Color::White).white, None);
/// ```
pub fn game_accuracy(wins: &[f64], first_mover: Color) -> BySide<Option<f64>> {
    let moves = wins.len().saturating_sub(1);
    if moves == 0 {
        return BySide::default();
    }
    let n = (moves / 10).clamp(2, 8).min(wins.len());
    // lila's windows: the first n values for the first n - 2 moves, then every window of n
    // values in order, one per move.
    let windows = std::iter::repeat_n(&wins[..n], n - 2).chain(wins.windows(n));
    let weights = windows.map(|w| population_sd(w).clamp(0.5, 12.0));
    // (accuracy, weight) of each side's moves.
    let mut sides: BySide<Vec<(f64, f64)>> = BySide::default();
    let mut mover = first_mover;
    for (pair, weight) in wins.windows(2).zip(weights) {
        let (before, after) = match mover {
            Color::White => (pair[0], pair[1]),
            Color::Black => (100.0 - pair[0], 100.0 - pair[1]),
        };
        sides
            .get_mut(mover)
            .push((move_accuracy(before, after), weight));
        mover = !mover;
    }
    BySide {
        white: side_accuracy(&sides.white),
        black: side_accuracy(&sides.black),
    }
}

/// The mean of the weighted and the harmonic mean of a side's (accuracy, weight) pairs.
fn side_accuracy(moves: &[(f64, f64)]) -> Option<f64> {
    if moves.is_empty() {
        return None;
    }
    let total_weight: f64 = moves.iter().map(|&(_, w)| w).sum();
    let weighted = moves.iter().map(|&(a, w)| a * w).sum::<f64>() / total_weight;
    let harmonic = moves.len() as f64 / moves.iter().map(|&(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
    Some((weighted + harmonic) / 2.0)
}

/// The population standard deviation of a non-empty slice.
fn population_sd(values: &[f64]) -> f64 {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// Each side's average centipawn loss (ACPL), lichess's: the mean over the side's moves of what
/// the move lost in centipawns for its side (nothing when it gained), every evaluation first
/// held within ±1000 and a mate counted as ±1000 (lichess's ceiling), rounded half up to a
/// whole number. `evals` are the positions' evaluations in order, the first before the first
/// move; a side without moves has none.
///
/// ```
/// use tabla::Color;
/// use tabla_review::{Eval, average_centipawn_loss};
/// let evals = [Eval::Cp(15), Eval::Cp(-40), Eval::Cp(-35), Eval::Mate(-2)];
/// let acpl = average_centipawn_loss(&evals, Color::White);
/// // White lost 55, then 965 (from -35 to the mate's -1000): 510. Black lost 5.
/// assert_eq!((acpl.white, acpl.black), (Some(510), Some(5)));
/// ```
pub fn average_centipawn_loss(evals: &[Eval], first_mover: Color) -> BySide<Option<u32>> {
    let mut losses: BySide<(u64, u32)> = BySide::default();
    let mut mover = first_mover;
    for pair in evals.windows(2) {
        let change = ceiled_cp(pair[1]) - ceiled_cp(pair[0]);
        let loss = mover.fold(-change, change).max(0);
        let (sum, count) = losses.get_mut(mover);
        *sum += u64::from(loss.unsigned_abs());
        *count += 1;
        mover = !mover;
    }
    let mean = |(sum, count): (u64, u32)| {
        // Half up: (2 sum + count) / (2 count), in integers.
        (count > 0).then(|| ((2 * sum + u64::from(count)) / (2 * u64::from(count))) as u32)
    };
    BySide {
        white: mean(losses.white),
        black: mean(losses.black),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_accuracy_by_hand() {
        // exp(-0.04354415 * 5) = 0.804358: 103.16681 * 0.804358 - 2.166925 = 80.8153.
        assert!((move_accuracy(55.0, 50.0) - 80.8153).abs() < 1e-4);
        // A fall of 80 (the curve's 0, plus 1): 103.16681 * exp(-3.483532) - 2.166925 = 1.0002.
        assert!((move_accuracy(90.0, 10.0) - 1.0002).abs() < 1e-4);
        assert_eq!(move_accuracy(100.0, 5.0), 0.0);
    }

    #[test]
    fn weights_are_the_swing_around_each_move() {
        // 4 moves: windows of 2 values, so a move's weight is half its swing. Each side loses
        // 2 points (weight 1), then 20 (weight 10).
        let acc = game_accuracy(&[50.0, 48.0, 50.0, 30.0, 50.0], Color::White);
        let (small, big) = (move_accuracy(50.0, 48.0), move_accuracy(50.0, 30.0));
        let weighted = (small + 10.0 * big) / 11.0;
        let harmonic = 2.0 / (1.0 / small + 1.0 / big);
        let expected = (weighted + harmonic) / 2.0;
        assert!((acc.white.expect("white moved") - expected).abs() < 1e-9);
        assert!((acc.black.expect("black moved") - expected).abs() < 1e-9);
        // Weights held within [0.5, 12]: half a swing of 0.2 weighs 0.5, half of 50 weighs 12.
        let acc = game_accuracy(&[50.0, 49.8, 50.0, 0.0], Color::White);
        let (tiny, huge) = (move_accuracy(50.0, 49.8), move_accuracy(50.0, 0.0));
        let weighted = (0.5 * tiny + 12.0 * huge) / 12.5;
        let harmonic = 2.0 / (1.0 / tiny + 1.0 / huge.max(1.0));
        assert!((acc.white.expect("white moved") - (weighted + harmonic) / 2.0).abs() < 1e-9);
    }

    #[test]
    fn harmonic_mean_takes_accuracy_as_at_least_one() {
        // White: 100 (weight 0.5, no swing), then 0 (a fall of 100, weight 12). Weighted mean
        // 50 / 12.5 = 4; harmonic 2 / (1/100 + 1/1) = 1.980; accuracy (4 + 1.980) / 2.
        let acc = game_accuracy(&[100.0, 100.0, 100.0, 0.0, 0.0], Color::White);
        let white = acc.white.expect("white moved");
        assert!((white - (4.0 + 2.0 / 1.01) / 2.0).abs() < 1e-9, "{white}");
        assert_eq!(acc.black, Some(100.0));
    }

    #[test]
    fn black_first() {
        let acc = game_accuracy(&[50.0, 60.0], Color::Black);
        assert_eq!(acc.white, None);
        assert!((acc.black.expect("black moved") - move_accuracy(50.0, 40.0)).abs() < 1e-12);
        let acpl = average_centipawn_loss(&[Eval::Cp(0), Eval::Cp(33)], Color::Black);
        assert_eq!((acpl.white, acpl.black), (None, Some(33)));
        // Half up: 1 and 2 average 1.5, rounded to 2.
        let acpl = average_centipawn_loss(
            &[Eval::Cp(0), Eval::Cp(1), Eval::Cp(1), Eval::Cp(3)],
            Color::Black,
        );
        assert_eq!(acpl.black, Some(2));
    }
}
