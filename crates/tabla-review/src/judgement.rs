//! Judging a move from the evaluations before and after it: lichess's inaccuracy, mistake and
//! blunder (lila's `Advice`), and the variant lichess's open-database files carry.

use crate::eval::ceiled_cp;
use crate::{Eval, winning_chances};
use serde::{Deserialize, Serialize};
use tabla::Color;

/// lichess's three marks of a move, worst last.
///
/// ```
/// use tabla_review::Judgement;
/// assert_eq!(Judgement::Mistake.nag(), 2);
/// assert_eq!(Judgement::from_nag(6), Some(Judgement::Inaccuracy));
/// assert_eq!(Judgement::Blunder.glyph(), "??");
/// assert!(Judgement::Blunder > Judgement::Inaccuracy);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Judgement {
    /// `?!`, NAG 6.
    Inaccuracy,
    /// `?`, NAG 2.
    Mistake,
    /// `??`, NAG 4.
    Blunder,
}

impl Judgement {
    /// All three, mildest first.
    pub const ALL: [Judgement; 3] = [
        Judgement::Inaccuracy,
        Judgement::Mistake,
        Judgement::Blunder,
    ];

    /// The NAG of the mark: `$6` (dubious move), `$2` (mistake), `$4` (blunder).
    pub const fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// The mark of a NAG, when it is one of the three.
    pub const fn from_nag(nag: u8) -> Option<Judgement> {
        match nag {
            6 => Some(Judgement::Inaccuracy),
            2 => Some(Judgement::Mistake),
            4 => Some(Judgement::Blunder),
            _ => None,
        }
    }

    /// The suffix glyph: `?!`, `?`, `??`.
    pub const fn glyph(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// The name: `Inaccuracy`, `Mistake`, `Blunder` (also its JSON form).
    pub const fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }
}

/// Which of lichess's rules judge a move.
///
/// Both mark a move only when the mover lost at least 0.1 of winning chances, or a mate
/// (below); they differ in how severely they mark it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rules {
    /// lichess's analysis (lila `Advice`): the mover's loss of winning chances
    /// ([`winning_chances`], raw centipawns) of 0.3 or more is a blunder, 0.2 a mistake, 0.1 an
    /// inaccuracy.
    #[default]
    Lichess,
    /// The marks of lichess's open-database files (the exporter lichess-org/database). lichess
    /// keeps the engine's line only for the moves its analysis marks, and the exporter marks
    /// only those, grading them by its own older rule: the mover's loss in centipawns, each
    /// evaluation first held within ±1000, of 300 or more a blunder, 100 a mistake, 50 an
    /// inaccuracy. The mate rules are the same.
    LichessDatabase,
}

impl Rules {
    /// Both, the default first.
    pub const ALL: [Rules; 2] = [Rules::Lichess, Rules::LichessDatabase];

    /// The name the command line, Python, the database's folders and the `rules` column use.
    ///
    /// ```
    /// use tabla_review::Rules;
    /// assert_eq!(Rules::LichessDatabase.name(), "lichess-database");
    /// for rules in Rules::ALL {
    ///     assert_eq!(rules.name().parse::<Rules>(), Ok(rules));
    /// }
    /// assert_eq!("lichess_database".parse::<Rules>(), Ok(Rules::LichessDatabase));
    /// assert!("chess.com".parse::<Rules>().is_err());
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Rules::Lichess => "lichess",
            Rules::LichessDatabase => "lichess-database",
        }
    }
}

/// A name that is none of [`Rules`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?}: expected \"lichess\" (the site's marks) or \"lichess-database\" (the marks of \
     lichess's open-database files)"
)]
pub struct UnknownRules(pub String);

/// [`Rules::name`]'s names; `lichess_database` too (Python's spelling).
impl std::str::FromStr for Rules {
    type Err = UnknownRules;

    fn from_str(name: &str) -> Result<Rules, UnknownRules> {
        match name {
            "lichess" => Ok(Rules::Lichess),
            "lichess-database" | "lichess_database" => Ok(Rules::LichessDatabase),
            _ => Err(UnknownRules(name.to_owned())),
        }
    }
}

/// What a judged move gave away: lichess's words for it differ.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// Advantage (winning chances, or centipawns under [`Rules::LichessDatabase`]).
    Advantage,
    /// A forced mate against the mover appeared: "Checkmate is now unavoidable".
    MateCreated,
    /// The mover's forced mate is gone: "Lost forced checkmate sequence".
    MateLost,
}

/// A judged move: the mark and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Verdict {
    /// The mark.
    pub judgement: Judgement,
    /// What the move gave away.
    pub reason: Reason,
}

impl Verdict {
    /// lichess's words for the verdict, without the final stop: the judgement's name for a
    /// loss of advantage, else "Checkmate is now unavoidable" or "Lost forced checkmate
    /// sequence".
    pub const fn words(self) -> &'static str {
        match self.reason {
            Reason::Advantage => self.judgement.name(),
            Reason::MateCreated => "Checkmate is now unavoidable",
            Reason::MateLost => "Lost forced checkmate sequence",
        }
    }
}

/// The verdict on a move by `mover` from `before` to `after` (both White's point of view), or
/// `None` when the move is not marked.
///
/// From centipawns to centipawns, see [`Rules`]. With mates, from the mover's side: when a mate
/// against the mover appears (from centipawns), an inaccuracy if the centipawns before were
/// below -999, a mistake below -700, else a blunder; when the mover's mate is lost (to
/// centipawns, or to a mate against, counted as 0 centipawns), an inaccuracy if the centipawns
/// after are above 999, a mistake above 700, else a blunder. A mate kept (however much longer),
/// or a mate against that goes on or goes away, is not marked.
///
/// lichess judges a move only when the engine preferred another: the caller checks that
/// ([`crate::judge`] does).
///
/// ```
/// use tabla::Color;
/// use tabla_review::{Eval, Judgement, Reason, Rules, judge_move};
/// // Black's 5... d6 in a lichess game: from +0.18 to +1.99.
/// let v = judge_move(Eval::Cp(18), Eval::Cp(199), Color::Black, Rules::Lichess).unwrap();
/// assert_eq!((v.judgement, v.reason), (Judgement::Blunder, Reason::Advantage));
/// // The database file marks it `d6?`: 181 centipawns.
/// let db = judge_move(Eval::Cp(18), Eval::Cp(199), Color::Black, Rules::LichessDatabase);
/// assert_eq!(db.map(|v| v.judgement), Some(Judgement::Mistake));
/// // A mate for White appears after Black's move from +10.50: mild, Black was lost anyway.
/// let v = judge_move(Eval::Cp(1050), Eval::Mate(2), Color::Black, Rules::Lichess).unwrap();
/// assert_eq!((v.judgement, v.words()), (Judgement::Inaccuracy, "Checkmate is now unavoidable"));
/// ```
pub fn judge_move(before: Eval, after: Eval, mover: Color, rules: Rules) -> Option<Verdict> {
    let verdict = lichess_verdict(before, after, mover)?;
    match (rules, before, after) {
        (Rules::LichessDatabase, Eval::Cp(_), Eval::Cp(_)) => {
            // The mover's loss, White's loss turned round for Black.
            let loss = mover.fold(1, -1) * (ceiled_cp(before) - ceiled_cp(after));
            let judgement = grade(
                f64::from(loss),
                [
                    (300.0, Judgement::Blunder),
                    (100.0, Judgement::Mistake),
                    (50.0, Judgement::Inaccuracy),
                ],
            )?;
            Some(Verdict {
                judgement,
                ..verdict
            })
        }
        _ => Some(verdict),
    }
}

/// lichess's analysis rules.
fn lichess_verdict(before: Eval, after: Eval, mover: Color) -> Option<Verdict> {
    if let (Eval::Cp(b), Eval::Cp(a)) = (before, after) {
        // As lila computes it: White's change of winning chances, turned round for White.
        let change = winning_chances(a) - winning_chances(b);
        let loss = mover.fold(-change, change);
        let judgement = grade(
            loss,
            [
                (0.3, Judgement::Blunder),
                (0.2, Judgement::Mistake),
                (0.1, Judgement::Inaccuracy),
            ],
        )?;
        return Some(Verdict {
            judgement,
            reason: Reason::Advantage,
        });
    }
    let (before, after) = (before.for_side(mover), after.for_side(mover));
    let (reason, cp) = match (before, after) {
        (Eval::Cp(b), Eval::Mate(a)) if a < 0 => (Reason::MateCreated, -b),
        (Eval::Mate(b), Eval::Cp(a)) if b > 0 => (Reason::MateLost, a),
        (Eval::Mate(b), Eval::Mate(a)) if b > 0 && a < 0 => (Reason::MateLost, 0),
        _ => return None,
    };
    // How far the side was from winning (or losing) anyway, in centipawns for the mover.
    let judgement = if cp > 999 {
        Judgement::Inaccuracy
    } else if cp > 700 {
        Judgement::Mistake
    } else {
        Judgement::Blunder
    };
    Some(Verdict { judgement, reason })
}

/// The first mark whose threshold `loss` reaches.
fn grade(loss: f64, thresholds: [(f64, Judgement); 3]) -> Option<Judgement> {
    thresholds
        .into_iter()
        .find(|&(limit, _)| loss >= limit)
        .map(|(_, judgement)| judgement)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};
    use Judgement::{Blunder, Inaccuracy, Mistake};

    fn mark(before: Eval, after: Eval, mover: Color) -> Option<Judgement> {
        judge_move(before, after, mover, Rules::Lichess).map(|v| v.judgement)
    }

    #[test]
    fn thresholds_of_winning_chances() {
        // w(0) = 0; w(-55) = -0.1010, w(-54) = -0.0992 (by hand: tanh(0.00184104 cp)).
        assert_eq!(mark(Eval::Cp(0), Eval::Cp(-55), White), Some(Inaccuracy));
        assert_eq!(mark(Eval::Cp(0), Eval::Cp(-54), White), None);
        // The same loss for Black is a gain for White.
        assert_eq!(mark(Eval::Cp(0), Eval::Cp(55), Black), Some(Inaccuracy));
        assert_eq!(mark(Eval::Cp(0), Eval::Cp(-500), Black), None);
        // w(-112) = -0.2034, w(-172) = -0.3067.
        assert_eq!(mark(Eval::Cp(0), Eval::Cp(-112), White), Some(Mistake));
        assert_eq!(mark(Eval::Cp(0), Eval::Cp(-172), White), Some(Blunder));
        // No ceiling: far ahead, hundreds of centipawns change little.
        assert_eq!(mark(Eval::Cp(1500), Eval::Cp(900), White), None);
    }

    #[test]
    fn mates() {
        // Mate against the mover appears.
        assert_eq!(
            mark(Eval::Cp(-1000), Eval::Mate(-5), White),
            Some(Inaccuracy)
        );
        assert_eq!(mark(Eval::Cp(-999), Eval::Mate(-5), White), Some(Mistake));
        assert_eq!(mark(Eval::Cp(-700), Eval::Mate(-5), White), Some(Blunder));
        assert_eq!(mark(Eval::Cp(800), Eval::Mate(4), Black), Some(Mistake));
        // The mover's mate is lost.
        assert_eq!(mark(Eval::Mate(3), Eval::Cp(1000), White), Some(Inaccuracy));
        assert_eq!(mark(Eval::Mate(3), Eval::Cp(701), White), Some(Mistake));
        assert_eq!(
            mark(Eval::Mate(-7), Eval::Cp(-1479), Black),
            Some(Inaccuracy)
        );
        assert_eq!(mark(Eval::Mate(2), Eval::Mate(-1), White), Some(Blunder));
        // Kept, lengthened, or a mate against that goes on: not marked.
        assert_eq!(mark(Eval::Mate(3), Eval::Mate(7), White), None);
        assert_eq!(mark(Eval::Mate(-3), Eval::Mate(-1), White), None);
        assert_eq!(mark(Eval::Mate(-3), Eval::Cp(-200), White), None);
        assert_eq!(mark(Eval::Cp(300), Eval::Mate(2), White), None);
        let v = judge_move(Eval::Mate(1), Eval::Cp(0), White, Rules::Lichess);
        assert_eq!(v.map(|v| v.words()), Some("Lost forced checkmate sequence"));
    }

    #[test]
    fn database_rules_grade_by_centipawns() {
        let db = |b, a, m| judge_move(b, a, m, Rules::LichessDatabase).map(|v| v.judgement);
        // Marked by winning chances (0.2047), graded by centipawns (308).
        assert_eq!(db(Eval::Cp(450), Eval::Cp(758), Black), Some(Blunder));
        // 50 centipawns but 0.09 of winning chances: not marked.
        assert_eq!(db(Eval::Cp(0), Eval::Cp(-54), White), None);
        // Held within ±1000 first: -1300 to -705 is 295 for Black, not 595 (winning chances
        // 0.1221: marked).
        assert_eq!(db(Eval::Cp(-1300), Eval::Cp(-705), Black), Some(Mistake));
        // lichess's `26... Rgxd8?` (lichess-evals.pgn): 299 centipawns, 0.1002 of winning chances.
        assert_eq!(
            db(Eval::Cp(-973), Eval::Cp(-674), Black).map(|j| j.nag()),
            Some(2)
        );
        assert_eq!(db(Eval::Mate(3), Eval::Cp(701), White), Some(Mistake));
    }
}
