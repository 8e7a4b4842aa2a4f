//! tabla's one score type: an evaluation from White's point of view, as PGN's `[%eval]`, engine
//! reviews, the evaluation cache and every answer of the web API give it.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use tabla::Color;

/// An evaluation of a position from White's point of view: centipawns, or full moves to mate
/// (negative when Black mates), as lichess's `[%eval 0.17]` and `[%eval #-3]`.
///
/// Its JSON form is `{"cp": 17}` or `{"mate": -3}` (in `tabla pgn json`, reviews, the web API).
/// Its text is the command's argument as lichess writes it: pawns with the decimals needed and
/// at least one (`0.17`, `0.1`, `1.0`, `0.0`, `-0.05`), or `#` and the moves to mate, negative
/// when Black mates (`#-3`). Reading also takes `+3`, `.5`, `#+4` and rounds a third decimal.
///
/// ```
/// use tabla::Color;
/// use tabla_pgn::Eval;
/// assert_eq!(Eval::Cp(10).to_string(), "0.1");
/// assert_eq!(Eval::Cp(-5).to_string(), "-0.05");
/// assert_eq!(Eval::Cp(300).to_string(), "3.0");
/// assert_eq!("#-3".parse::<Eval>(), Ok(Eval::Mate(-3)));
/// assert_eq!("0.17".parse::<Eval>(), Ok(Eval::Cp(17)));
/// assert!("0.1x".parse::<Eval>().is_err());
/// // An engine's "mate 2" with Black to move: Black mates.
/// assert_eq!(Eval::Mate(2).for_side(Color::Black), Eval::Mate(-2));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Eval {
    /// Centipawns, positive when White is better: `[%eval 0.17]` is 17.
    Cp(i32),
    /// Full moves to mate: positive when White mates, negative when Black does (`[%eval #-3]`).
    Mate(i32),
}

impl Eval {
    /// The evaluation seen from `side`: centipawns or moves to mate positive when `side` is
    /// better. White's view from `side`'s is the same function (the sign changes or it does not),
    /// so an engine's score for the side to move `turn` is White's evaluation
    /// `score.for_side(turn)`; a mate in 0 stays one.
    pub fn for_side(self, side: Color) -> Eval {
        let sign = side.fold(1, -1);
        match self {
            Eval::Cp(cp) => Eval::Cp(cp.saturating_mul(sign)),
            Eval::Mate(n) => Eval::Mate(n.saturating_mul(sign)),
        }
    }
}

impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Eval::Cp(cp) => {
                let sign = if cp < 0 { "-" } else { "" };
                let (pawns, cents) = (cp.unsigned_abs() / 100, cp.unsigned_abs() % 100);
                // As lichess writes `cp / 100` as a float: no trailing zero but the first.
                if cents % 10 == 0 {
                    write!(f, "{sign}{pawns}.{}", cents / 10)
                } else {
                    write!(f, "{sign}{pawns}.{cents:02}")
                }
            }
            Eval::Mate(n) => write!(f, "#{n}"),
        }
    }
}

/// A text that is not an evaluation (see [`Eval`] for the forms read).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not an evaluation: {text:?}; write pawns (0.17, -1.5) or moves to mate (#3, #-2)")]
pub struct ParseEvalError {
    /// The text read.
    pub text: String,
}

impl FromStr for Eval {
    type Err = ParseEvalError;

    fn from_str(text: &str) -> Result<Eval, ParseEvalError> {
        parse_eval_value(text.trim()).ok_or_else(|| ParseEvalError {
            text: text.to_owned(),
        })
    }
}

/// `0.17`, `-1.5`, `+3`, `#-3`, `#4`.
pub(crate) fn parse_eval_value(value: &str) -> Option<Eval> {
    if let Some(mate) = value.strip_prefix('#') {
        let n: i32 = mate.strip_prefix('+').unwrap_or(mate).parse().ok()?;
        return Some(Eval::Mate(n));
    }
    let unsigned = value.strip_prefix(['+', '-']).unwrap_or(value);
    let negative = value.starts_with('-');
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let digits_ok = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !digits_ok(whole) || !digits_ok(fraction) {
        return None;
    }
    let whole: i64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    // Centipawns, rounding the third decimal half away from zero.
    let mut frac = fraction.bytes().chain(std::iter::repeat(b'0'));
    let mut cents = 0i64;
    for _ in 0..2 {
        cents = cents * 10 + i64::from(frac.next().unwrap_or(b'0') - b'0');
    }
    if frac.next().is_some_and(|d| d >= b'5') {
        cents += 1;
    }
    let cp = whole.checked_mul(100)?.checked_add(cents)?;
    let cp = i32::try_from(if negative { -cp } else { cp }).ok()?;
    Some(Eval::Cp(cp))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(serde_json::from_str::<Eval>(r#"{"centipawns":2}"#).is_err());
    }

    #[test]
    fn the_side_to_move_s_view_and_white_s() {
        assert_eq!(Eval::Cp(37).for_side(Color::White), Eval::Cp(37));
        assert_eq!(Eval::Cp(37).for_side(Color::Black), Eval::Cp(-37));
        assert_eq!(Eval::Mate(-1).for_side(Color::Black), Eval::Mate(1));
        assert_eq!(Eval::Mate(3).for_side(Color::White), Eval::Mate(3));
        assert_eq!(Eval::Mate(0).for_side(Color::Black), Eval::Mate(0));
        assert_eq!(
            Eval::Cp(i32::MIN).for_side(Color::Black),
            Eval::Cp(i32::MAX)
        );
        for e in [Eval::Cp(-55), Eval::Mate(4)] {
            assert_eq!(e.for_side(Color::Black).for_side(Color::Black), e);
        }
    }
}
