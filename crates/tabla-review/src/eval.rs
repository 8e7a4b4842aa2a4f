//! An evaluation from White's point of view, as lichess's `[%eval]` gives one.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use tabla::Color;
use tabla_engine::Score;
use tabla_pgn::ParseEvalError;

/// An evaluation of a position from White's point of view: centipawns, or full moves to mate
/// (negative when Black mates), as lichess's `[%eval 0.17]` and `[%eval #-3]`.
///
/// Its JSON form is `{"cp": 17}` or `{"mate": -3}`; its text is the `[%eval]` argument as
/// lichess writes it (tabla-pgn's [`tabla_pgn::Eval`] form).
///
/// ```
/// use tabla::Color;
/// use tabla_engine::Score;
/// use tabla_review::Eval;
///
/// assert_eq!(Eval::Cp(17).to_string(), "0.17");
/// assert_eq!(Eval::Cp(10).to_string(), "0.1");
/// assert_eq!("#-3".parse::<Eval>(), Ok(Eval::Mate(-3)));
/// // The engine says "mate 2" with Black to move: Black mates.
/// assert_eq!(Eval::from_score(Score::Mate(2), Color::Black), Eval::Mate(-2));
/// assert_eq!(Eval::from(tabla_pgn::Eval::Centipawns(-55)), Eval::Cp(-55));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Eval {
    /// Centipawns, positive when White is better.
    Cp(i32),
    /// Full moves to mate: positive when White mates, negative when Black does.
    Mate(i32),
}

impl Eval {
    /// lichess's evaluation of a position nobody evaluated before the first move: 15
    /// centipawns (`Eval.initial`), White's usual edge.
    pub const INITIAL: Eval = Eval::Cp(15);

    /// The evaluation of an engine's score, which is from the side to move's point of view.
    /// `Score::Mate(0)` (the side to move is mated) becomes a mate for the other side in 0.
    pub fn from_score(score: Score, turn: Color) -> Eval {
        let sign = turn.fold(1, -1);
        match score {
            Score::Cp(cp) => Eval::Cp(cp.saturating_mul(sign)),
            Score::Mate(0) => Eval::Mate(0),
            Score::Mate(n) => Eval::Mate(n.saturating_mul(sign)),
        }
    }

    /// The evaluation seen from `side`: centipawns or moves to mate positive when `side` is
    /// better.
    pub fn for_side(self, side: Color) -> Eval {
        let sign = side.fold(1, -1);
        match self {
            Eval::Cp(cp) => Eval::Cp(cp.saturating_mul(sign)),
            Eval::Mate(n) => Eval::Mate(n.saturating_mul(sign)),
        }
    }

    /// Centipawns held within ±1000, a mate as ±1000: lichess's ceiling for win percentages
    /// and centipawn losses (a mate in 0 counts as White's).
    pub fn ceiled_cp(self) -> i32 {
        match self {
            Eval::Cp(cp) => cp.clamp(-CEILING, CEILING),
            Eval::Mate(n) if n < 0 => -CEILING,
            Eval::Mate(_) => CEILING,
        }
    }

    /// The evaluation as tabla-pgn's comment command holds it.
    pub fn to_pgn(self) -> tabla_pgn::Eval {
        match self {
            Eval::Cp(cp) => tabla_pgn::Eval::Centipawns(cp),
            Eval::Mate(n) => tabla_pgn::Eval::Mate(n),
        }
    }
}

/// lichess's ceiling of centipawns (`Cp.CEILING`).
pub(crate) const CEILING: i32 = 1000;

impl From<tabla_pgn::Eval> for Eval {
    fn from(eval: tabla_pgn::Eval) -> Eval {
        match eval {
            tabla_pgn::Eval::Centipawns(cp) => Eval::Cp(cp),
            tabla_pgn::Eval::Mate(n) => Eval::Mate(n),
        }
    }
}

/// The `[%eval]` argument as lichess writes it: `0.17`, `0.1`, `-1.0`, `#-3`.
impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_pgn(), f)
    }
}

impl FromStr for Eval {
    type Err = ParseEvalError;

    fn from_str(text: &str) -> Result<Eval, ParseEvalError> {
        text.parse::<tabla_pgn::Eval>().map(Eval::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_turn_to_whites_point_of_view() {
        assert_eq!(Eval::from_score(Score::Cp(37), Color::White), Eval::Cp(37));
        assert_eq!(Eval::from_score(Score::Cp(37), Color::Black), Eval::Cp(-37));
        assert_eq!(
            Eval::from_score(Score::Mate(-1), Color::Black),
            Eval::Mate(1)
        );
        assert_eq!(
            Eval::from_score(Score::Mate(3), Color::White),
            Eval::Mate(3)
        );
        assert_eq!(
            Eval::from_score(Score::Mate(0), Color::Black),
            Eval::Mate(0)
        );
    }

    #[test]
    fn text_as_lichess_writes_it() {
        // Forms taken from lichess's database export (testdata/review/lichess-evals.pgn).
        for (cp, text) in [
            (17, "0.17"),
            (10, "0.1"),
            (0, "0.0"),
            (-100, "-1.0"),
            (800, "8.0"),
            (-5, "-0.05"),
            (1251, "12.51"),
            (-290, "-2.9"),
        ] {
            assert_eq!(Eval::Cp(cp).to_string(), text);
            assert_eq!(text.parse::<Eval>(), Ok(Eval::Cp(cp)));
        }
        assert_eq!(Eval::Mate(-3).to_string(), "#-3");
        assert_eq!(Eval::Mate(13).to_string(), "#13");
        assert!("mate".parse::<Eval>().is_err());
    }

    #[test]
    fn json_form() {
        let json = |e: Eval| serde_json::to_string(&e).expect("json");
        assert_eq!(json(Eval::Cp(17)), r#"{"cp":17}"#);
        assert_eq!(json(Eval::Mate(-3)), r#"{"mate":-3}"#);
        let back: Eval = serde_json::from_str(r#"{"mate":2}"#).expect("read");
        assert_eq!(back, Eval::Mate(2));
    }

    #[test]
    fn ceiling() {
        assert_eq!(Eval::Cp(1479).ceiled_cp(), 1000);
        assert_eq!(Eval::Cp(-1055).ceiled_cp(), -1000);
        assert_eq!(Eval::Cp(-999).ceiled_cp(), -999);
        assert_eq!(Eval::Mate(-7).ceiled_cp(), -1000);
        assert_eq!(Eval::Mate(1).ceiled_cp(), 1000);
    }
}
