//! A game's result: the one rule that reads a result however it is spelled, and the one rule
//! that decides a game's result from its `Result` tag and its termination marker.
//!
//! The rule: the `Result` tag when it reads as a result other than `*`, else the termination
//! marker, else `*`. The tag wins because it is what the Seven Tag Roster makes every game
//! carry and what other programs (python-chess, lichess, ChessBase) list and count; when the
//! two disagree the game gets a warning ([`ErrorKind::ResultConflict`]).

use crate::{ErrorKind, Outcome};

/// A result read by [`Outcome::read_lenient`]: the outcome, and whether it was written in the
/// export format's standard form (`1-0`, `0-1`, `1/2-1/2`, `*`, nothing around it).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LenientOutcome {
    /// The outcome read.
    pub outcome: Outcome,
    /// `true` when the text was exactly [`Outcome::as_str`].
    pub standard: bool,
}

impl Outcome {
    /// Reads a result in any spelling seen in PGN files, whitespace ignored: the standard
    /// `1-0`, `0-1`, `1/2-1/2`, `*`, and `1:0`, `0:1`, `1/2`, `½-½`, `½`, `0.5-0.5`, `0.5`,
    /// `1/2 - 1/2`, `1/2:1/2`, `=` (dashes may be en or em dashes). `None` for anything else
    /// (`?`, a word, an empty text).
    ///
    /// ```
    /// use tabla_pgn::Outcome;
    /// let draw = Outcome::read_lenient("½-½").unwrap();
    /// assert_eq!((draw.outcome, draw.standard), (Outcome::Draw, false));
    /// assert!(Outcome::read_lenient("1-0").unwrap().standard);
    /// assert_eq!(Outcome::read_lenient(" 0 : 1 ").unwrap().outcome, Outcome::BlackWins);
    /// assert_eq!(Outcome::read_lenient("?"), None);
    /// ```
    pub fn read_lenient(text: &str) -> Option<LenientOutcome> {
        if let Some(outcome) = Outcome::from_text(text) {
            return Some(LenientOutcome {
                outcome,
                standard: true,
            });
        }
        let mut compact = String::with_capacity(text.len());
        for c in text.chars().filter(|c| !c.is_whitespace()) {
            match c {
                '½' => compact.push_str("1/2"),
                ':' | '\u{2013}' | '\u{2014}' | '\u{2212}' => compact.push('-'),
                _ => compact.push(c),
            }
        }
        let compact = compact.replace("0.5", "1/2").replace("0,5", "1/2");
        let outcome = match compact.as_str() {
            "1-0" => Outcome::WhiteWins,
            "0-1" => Outcome::BlackWins,
            "1/2-1/2" | "1/2" | "=" => Outcome::Draw,
            "*" => Outcome::Unknown,
            _ => return None,
        };
        Some(LenientOutcome {
            outcome,
            standard: false,
        })
    }

    /// `true` for a win or a draw (what the opening explorer counts), `false` for `*`.
    pub const fn is_decided(self) -> bool {
        !matches!(self, Outcome::Unknown)
    }
}

/// A game's result as [`game_result`] decides it, with what needs a warning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The result.
    pub outcome: Outcome,
    /// The warnings, in this order: the tag's spelling ([`ErrorKind::NonStandardResult`] or
    /// [`ErrorKind::UnreadableResult`]), then [`ErrorKind::ResultConflict`]. Each is about the
    /// `Result` tag, whose value is the token to report them with.
    pub warnings: Vec<ErrorKind>,
}

/// Decides a game's result from its first `Result` tag (decoded, `None` when there is none)
/// and its termination marker: the tag when it reads ([`Outcome::read_lenient`]) as a result
/// other than `*`, else the marker, else `*`. A tag in a non-standard spelling, a tag that is
/// not a result, and a tag and marker that disagree each add a warning. A missing tag or a
/// missing marker (a game cut short) is no conflict.
///
/// ```
/// use tabla_pgn::{ErrorKind, Outcome, game_result};
/// let r = game_result(Some("1-0"), Some(Outcome::BlackWins));
/// assert_eq!(r.outcome, Outcome::WhiteWins);
/// assert!(matches!(r.warnings[..], [ErrorKind::ResultConflict { .. }]));
/// assert_eq!(game_result(Some("*"), Some(Outcome::Draw)).outcome, Outcome::Draw);
/// assert_eq!(game_result(Some("1/2"), None).outcome, Outcome::Draw);
/// assert_eq!(game_result(None, None).outcome, Outcome::Unknown);
/// ```
pub fn game_result(tag: Option<&str>, marker: Option<Outcome>) -> GameResult {
    let mut warnings = Vec::new();
    let read = tag.map(|text| (text, Outcome::read_lenient(text)));
    let tag_outcome = match read {
        Some((_, Some(read))) => {
            if !read.standard {
                warnings.push(ErrorKind::NonStandardResult { read: read.outcome });
            }
            Some(read.outcome)
        }
        Some((_, None)) => {
            warnings.push(ErrorKind::UnreadableResult);
            None
        }
        None => None,
    };
    let outcome = match (tag_outcome, marker) {
        (Some(t), _) if t.is_decided() => t,
        (_, Some(m)) => m,
        _ => Outcome::Unknown,
    };
    if let (Some(tag), Some(marker)) = (tag_outcome, marker)
        && tag != marker
    {
        warnings.push(ErrorKind::ResultConflict {
            tag,
            marker,
            result: outcome,
        });
    }
    GameResult { outcome, warnings }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_reads_as_its_outcome() {
        let cases = [
            ("1-0", Outcome::WhiteWins, true),
            ("0-1", Outcome::BlackWins, true),
            ("1/2-1/2", Outcome::Draw, true),
            ("*", Outcome::Unknown, true),
            (" 1-0", Outcome::WhiteWins, false),
            ("1:0", Outcome::WhiteWins, false),
            ("0:1", Outcome::BlackWins, false),
            ("1 - 0", Outcome::WhiteWins, false),
            ("1\u{2013}0", Outcome::WhiteWins, false),
            ("1/2", Outcome::Draw, false),
            ("½-½", Outcome::Draw, false),
            ("½", Outcome::Draw, false),
            ("½:½", Outcome::Draw, false),
            ("0.5-0.5", Outcome::Draw, false),
            ("0.5", Outcome::Draw, false),
            ("0,5-0,5", Outcome::Draw, false),
            ("1/2 - 1/2", Outcome::Draw, false),
            ("1/2:1/2", Outcome::Draw, false),
            ("=", Outcome::Draw, false),
            (" * ", Outcome::Unknown, false),
        ];
        for (text, outcome, standard) in cases {
            assert_eq!(
                Outcome::read_lenient(text),
                Some(LenientOutcome { outcome, standard }),
                "{text:?}"
            );
        }
        for text in [
            "", "?", "draw", "0-0", "1-1", "2-0", "1/2-0", "1-0 1-0", "+-",
        ] {
            assert_eq!(Outcome::read_lenient(text), None, "{text:?}");
        }
    }

    #[test]
    fn the_tag_wins_unless_it_says_nothing() {
        use Outcome::*;
        let conflict = |tag, marker, result| ErrorKind::ResultConflict {
            tag,
            marker,
            result,
        };
        // (tag, marker, result, warnings)
        type Case<'a> = (Option<&'a str>, Option<Outcome>, Outcome, Vec<ErrorKind>);
        let cases: [Case; 9] = [
            (Some("1-0"), Some(WhiteWins), WhiteWins, vec![]),
            (
                Some("1-0"),
                Some(BlackWins),
                WhiteWins,
                vec![conflict(WhiteWins, BlackWins, WhiteWins)],
            ),
            (
                Some("1-0"),
                Some(Unknown),
                WhiteWins,
                vec![conflict(WhiteWins, Unknown, WhiteWins)],
            ),
            (Some("1-0"), None, WhiteWins, vec![]),
            (
                Some("*"),
                Some(Draw),
                Draw,
                vec![conflict(Unknown, Draw, Draw)],
            ),
            (None, Some(BlackWins), BlackWins, vec![]),
            (
                Some("?"),
                Some(BlackWins),
                BlackWins,
                vec![ErrorKind::UnreadableResult],
            ),
            (
                Some("1/2"),
                Some(Draw),
                Draw,
                vec![ErrorKind::NonStandardResult { read: Draw }],
            ),
            (None, None, Unknown, vec![]),
        ];
        for (tag, marker, outcome, warnings) in cases {
            assert_eq!(
                game_result(tag, marker),
                GameResult { outcome, warnings },
                "{tag:?} {marker:?}"
            );
        }
    }
}
