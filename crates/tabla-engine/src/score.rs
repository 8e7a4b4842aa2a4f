//! Search scores: centipawns, and mate distances folded into the same integer range.

use std::fmt;

/// The deepest ply the search reaches (the length of its per-ply arrays).
pub const MAX_PLY: usize = 128;

/// A score in centipawns from the side to move's point of view; mates are near `MATE` (32,000),
/// and [`Score::from_value`] turns them into moves to mate.
pub type Value = i32;

/// The score of delivering mate now; mate in `n` plies scores `MATE - n`.
pub const MATE: Value = 32_000;
/// Larger than any score; the initial window bound.
pub const INFINITE: Value = MATE + 1;
/// Scores at or beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: Value = MATE - MAX_PLY as Value;
/// The score of a draw.
pub const DRAW: Value = 0;

/// The score for the side to move when it mates in `ply` plies.
#[inline]
pub const fn mate_in(ply: usize) -> Value {
    MATE - ply as Value
}

/// The score for the side to move when it is mated in `ply` plies.
#[inline]
pub const fn mated_in(ply: usize) -> Value {
    -MATE + ply as Value
}

/// `true` when `v` announces a forced mate for either side.
#[inline]
pub const fn is_mate(v: Value) -> bool {
    v >= MATE_BOUND || v <= -MATE_BOUND
}

/// A mate score as stored in the transposition table: relative to the stored node rather than the
/// root, so it stays right when the node is reached at another ply.
#[inline]
pub const fn to_table(v: Value, ply: usize) -> Value {
    if v >= MATE_BOUND {
        v + ply as Value
    } else if v <= -MATE_BOUND {
        v - ply as Value
    } else {
        v
    }
}

/// The inverse of [`to_table`].
#[inline]
pub const fn from_table(v: Value, ply: usize) -> Value {
    if v >= MATE_BOUND {
        v - ply as Value
    } else if v <= -MATE_BOUND {
        v + ply as Value
    } else {
        v
    }
}

/// Reported centipawns for 100 of the search's own units, up to [`REPORTED_KNEE`] units.
///
/// A score is reported (UCI's `score cp`, [`Score`]) on Stockfish's scale, the scale of
/// lichess's win-chance formula, by which game reviews are judged (Stockfish does the same with
/// its own search units). That scale is not a multiple of tabla's: Stockfish's centipawns grow
/// about as tabla's up to a few pawns, then much more slowly (tabla's 10 pawns are Stockfish's
/// 6). So the report is a bent line: this slope up to the knee, [`REPORTED_PER_100_BEYOND`]
/// after it. The three constants are those that bring tabla's evaluations at the review's
/// default budget closest, in win%, to lichess's Stockfish evaluations of held-out games
/// (`scripts/bench/score_scale.py` on testdata/review/lichess-evals.pgn, refitted for the
/// two-layer network on 17.4 million positions: 2,061 positions, mean absolute difference of
/// win% 3.00 in search units, 2.09 on this line). Mates are reported as mates.
pub const REPORTED_PER_100: i32 = 144;

/// The knee of the reported scale, in the search's units (255 units are reported as 367
/// centipawns). See [`REPORTED_PER_100`].
pub const REPORTED_KNEE: i32 = 255;

/// Reported centipawns for each 100 of the search's own units beyond [`REPORTED_KNEE`].
pub const REPORTED_PER_100_BEYOND: i32 = 64;

/// A search value in reported centipawns ([`REPORTED_PER_100`]), rounded to the nearest, the
/// same for both signs.
///
/// ```
/// use tabla_engine::reported_cp;
/// assert_eq!(reported_cp(100), 144);
/// assert_eq!(reported_cp(-37), -53);
/// assert_eq!(reported_cp(0), 0);
/// // Beyond the knee (255 units, 367.2 centipawns) each unit counts 0.64.
/// assert_eq!(reported_cp(355), 431);
/// assert_eq!(reported_cp(-1255), -1007);
/// ```
pub const fn reported_cp(v: Value) -> i32 {
    let size = (v as i64).abs();
    let knee = REPORTED_KNEE as i64;
    let hundredths = if size <= knee {
        size * REPORTED_PER_100 as i64
    } else {
        knee * REPORTED_PER_100 as i64 + (size - knee) * REPORTED_PER_100_BEYOND as i64
    };
    let rounded = ((hundredths + 50) / 100) as i32;
    if v < 0 { -rounded } else { rounded }
}

/// A score as UCI reports it: centipawns, or moves to mate (negative when the side to move is
/// mated).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Full moves to mate: `Mate(2)` mates in two, `Mate(-1)` is mated after its next move, and
    /// `Mate(0)` is already mated.
    Mate(i32),
}

impl Score {
    /// The report of a search value: mates in moves, other values in reported centipawns
    /// ([`REPORTED_PER_100`]).
    ///
    /// ```
    /// use tabla_engine::Score;
    /// assert_eq!(Score::from_value(37), Score::Cp(53));
    /// assert_eq!(Score::from_value(-37), Score::Cp(-53));
    /// assert_eq!(Score::from_value(31_999), Score::Mate(1));
    /// ```
    pub fn from_value(v: Value) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(reported_cp(v))
        }
    }
}

impl Score {
    /// The score for people: `+1.25`, `-0.40`, `0.00`, `#3` (mates in 3), `#-2` (is mated in
    /// 2), from the side to move's point of view.
    ///
    /// ```
    /// use tabla_engine::Score;
    /// assert_eq!(Score::Cp(125).human(), "+1.25");
    /// assert_eq!(Score::Cp(-40).human(), "-0.40");
    /// assert_eq!(Score::Cp(0).human(), "0.00");
    /// assert_eq!(Score::Mate(-2).human(), "#-2");
    /// ```
    pub fn human(self) -> String {
        match self {
            Score::Cp(0) => "0.00".to_string(),
            Score::Cp(cp) => {
                let sign = if cp > 0 { '+' } else { '-' };
                format!("{sign}{}.{:02}", cp.abs() / 100, cp.abs() % 100)
            }
            Score::Mate(n) => format!("#{n}"),
        }
    }
}

/// UCI's form: `cp 37`, `mate 2`, `mate -1`.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_convert_to_moves() {
        // Mate in 1 ply = mate in 1 move; in 5 plies = 3 moves; mated in 0 plies = mate 0.
        assert_eq!(Score::from_value(mate_in(1)), Score::Mate(1));
        assert_eq!(Score::from_value(mate_in(5)), Score::Mate(3));
        assert_eq!(Score::from_value(mate_in(3)), Score::Mate(2));
        assert_eq!(Score::from_value(mated_in(2)), Score::Mate(-1));
        assert_eq!(Score::from_value(mated_in(0)), Score::Mate(0));
        assert_eq!(Score::from_value(mated_in(4)), Score::Mate(-2));
        assert_eq!(Score::Mate(-2).to_string(), "mate -2");
    }

    #[test]
    fn table_round_trip_keeps_mate_distance() {
        for ply in [0, 3, 40] {
            for v in [mate_in(7), mated_in(12), 150, -3] {
                assert_eq!(from_table(to_table(v, ply), ply), v);
            }
        }
        // Stored at ply 4 as "mate in 3 from here", read at ply 2: mate in 5 from the root.
        assert_eq!(from_table(to_table(mate_in(7), 4), 2), mate_in(5));
    }

    #[test]
    fn reported_scale_is_odd_monotone_and_continuous() {
        let mut last = reported_cp(-MATE_BOUND + 1);
        for v in -MATE_BOUND + 2..MATE_BOUND {
            let cp = reported_cp(v);
            assert_eq!(reported_cp(-v), -cp, "odd at {v}");
            assert!(cp >= last, "monotone at {v}");
            // No jump: one unit never moves the report by more than the steeper slope.
            assert!(cp - last <= REPORTED_PER_100.max(REPORTED_PER_100_BEYOND) / 100 + 1);
            last = cp;
        }
        assert!(
            reported_cp(MATE_BOUND - 1) < 32_768,
            "fits UCI's centipawns"
        );
    }
}
