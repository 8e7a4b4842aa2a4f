//! The explorer's and the search's filters on games, their parsing and their SQL.
//!
//! Every filter is defined on a game's columns (docs/db.md): `--rating` on the average of both
//! players' Elo rounded down, `--speed` on the `speed` column, `--since` and `--until` on the
//! month the game was played (the `year` and `month` partitions), `--player` on the `White`
//! and `Black` tags exactly.

use crate::DbError;
use std::fmt::Write as _;

/// lichess's rating groups, by their lowest average rating; the explorer's aggregate keeps
/// one bucket per group (and one for games without both Elos).
pub const RATING_GROUPS: [i32; 9] = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500];

pub use tabla_convert::SPEEDS;

/// A month, `YYYY-MM`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct YearMonth {
    /// The year.
    pub year: i32,
    /// The month, 1 to 12.
    pub month: u32,
}

impl YearMonth {
    /// Reads `YYYY-MM`.
    ///
    /// ```
    /// use tabla_db::YearMonth;
    /// assert_eq!(YearMonth::parse("2024-03").unwrap(), YearMonth { year: 2024, month: 3 });
    /// assert!(YearMonth::parse("2024-13").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<YearMonth, DbError> {
        let bad = || DbError::Argument(format!("{text:?}: not a month (YYYY-MM, e.g. 2024-03)"));
        let (y, m) = text.trim().split_once('-').ok_or_else(bad)?;
        if y.len() != 4 || m.len() != 2 {
            return Err(bad());
        }
        let year: i32 = y.parse().map_err(|_| bad())?;
        let month: u32 = m.parse().map_err(|_| bad())?;
        if !(1..=12).contains(&month) {
            return Err(bad());
        }
        Ok(YearMonth { year, month })
    }

    /// `year * 100 + month`, as the queries compare months.
    fn number(&self) -> i64 {
        i64::from(self.year) * 100 + i64::from(self.month)
    }
}

/// A side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

/// Which games count.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filters {
    /// Average Elo of both players, rounded down, from..to inclusive (either end open).
    pub rating: Option<(Option<i32>, Option<i32>)>,
    /// Speeds (any of them); empty for all.
    pub speeds: Vec<String>,
    /// Played in this month or later.
    pub since: Option<YearMonth>,
    /// Played in this month or earlier.
    pub until: Option<YearMonth>,
    /// A player's name, exactly as in the `White` or `Black` tag.
    pub player: Option<String>,
    /// With `player`: only the games where the player had this side.
    pub color: Option<Side>,
}

/// The filters as text, the way a command line, a query string or a Python call gives them
/// (each `None` when not given), for [`Filters::from_text`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct FilterText<'a> {
    /// `MIN-MAX`, `MIN-` or `-MAX` ([`Filters::parse_rating`]).
    pub rating: Option<&'a str>,
    /// Speeds separated by commas ([`Filters::parse_speeds`]).
    pub speed: Option<&'a str>,
    /// `YYYY-MM`.
    pub since: Option<&'a str>,
    /// `YYYY-MM`.
    pub until: Option<&'a str>,
    /// A name exactly as in the tags.
    pub player: Option<&'a str>,
    /// `white` or `black`, with `player`.
    pub color: Option<&'a str>,
}

impl Filters {
    /// The filters of their text, each parsed and then all checked together
    /// ([`Filters::validate`]): the one reading of filters that the command line, the web API
    /// and the Python package share.
    ///
    /// ```
    /// use tabla_db::{FilterText, Filters, Side};
    /// let text = FilterText { rating: Some("2000-"), player: Some("Carlsen, M."), color: Some("black"), ..FilterText::default() };
    /// let filters = Filters::from_text(&text).unwrap();
    /// assert_eq!((filters.rating, filters.color), (Some((Some(2000), None)), Some(Side::Black)));
    /// assert!(Filters::from_text(&FilterText { color: Some("black"), ..FilterText::default() }).is_err());
    /// assert!(Filters::from_text(&FilterText { color: Some("blue"), player: Some("x"), ..FilterText::default() }).is_err());
    /// ```
    pub fn from_text(text: &FilterText<'_>) -> Result<Filters, DbError> {
        let filters = Filters {
            rating: text.rating.map(Filters::parse_rating).transpose()?,
            speeds: text
                .speed
                .map(Filters::parse_speeds)
                .transpose()?
                .unwrap_or_default(),
            since: text.since.map(YearMonth::parse).transpose()?,
            until: text.until.map(YearMonth::parse).transpose()?,
            player: text.player.map(str::to_owned),
            color: match text.color {
                None => None,
                Some("white") => Some(Side::White),
                Some("black") => Some(Side::Black),
                Some(other) => {
                    return Err(DbError::Argument(format!(
                        "--color {other:?}: white or black"
                    )));
                }
            },
        };
        filters.validate()?;
        Ok(filters)
    }

    /// Parses `MIN-MAX`, `MIN-` or `-MAX` for [`Filters::rating`].
    ///
    /// ```
    /// use tabla_db::Filters;
    /// assert_eq!(Filters::parse_rating("2000-2199").unwrap(), (Some(2000), Some(2199)));
    /// assert_eq!(Filters::parse_rating("2500-").unwrap(), (Some(2500), None));
    /// assert!(Filters::parse_rating("2200-2000").is_err());
    /// ```
    pub fn parse_rating(text: &str) -> Result<(Option<i32>, Option<i32>), DbError> {
        let bad = |why: &str| DbError::Argument(format!("--rating {text:?}: {why}"));
        let (lo, hi) = text
            .trim()
            .split_once('-')
            .ok_or_else(|| bad("expected MIN-MAX (e.g. 1600-1999, 2000- or -1500)"))?;
        let num = |s: &str| -> Result<Option<i32>, DbError> {
            let s = s.trim();
            if s.is_empty() {
                return Ok(None);
            }
            s.parse::<i32>()
                .ok()
                .filter(|v| (0..=5000).contains(v))
                .map(Some)
                .ok_or_else(|| bad(&format!("{s:?} is not a rating from 0 to 5000")))
        };
        let (lo, hi) = (num(lo)?, num(hi)?);
        if lo.is_none() && hi.is_none() {
            return Err(bad("give MIN, MAX or both"));
        }
        if let (Some(l), Some(h)) = (lo, hi)
            && l > h
        {
            return Err(bad("MIN is above MAX"));
        }
        Ok((lo, hi))
    }

    /// Parses a comma-separated list of speeds for [`Filters::speeds`].
    pub fn parse_speeds(text: &str) -> Result<Vec<String>, DbError> {
        let mut out = Vec::new();
        for s in text.split(',').map(str::trim) {
            if !SPEEDS.contains(&s) {
                return Err(DbError::Argument(format!(
                    "--speed {s:?}: not a speed (one or more of {}, separated by commas)",
                    SPEEDS.join(", ")
                )));
            }
            if !out.iter().any(|o| o == s) {
                out.push(s.to_owned());
            }
        }
        Ok(out)
    }

    /// Checks the filters together.
    pub fn validate(&self) -> Result<(), DbError> {
        if let (Some(s), Some(u)) = (self.since, self.until)
            && s > u
        {
            return Err(DbError::Argument(format!(
                "--since {}-{:02} is after --until {}-{:02}",
                s.year, s.month, u.year, u.month
            )));
        }
        if self.color.is_some() && self.player.is_none() {
            return Err(DbError::Argument("--color needs --player".to_owned()));
        }
        Ok(())
    }

    /// The conditions on the games (table alias `g`) as SQL, each starting with ` AND `.
    pub(crate) fn games_sql(&self) -> String {
        let mut sql = String::new();
        let sum = "(CAST(g.white_elo AS BIGINT) + CAST(g.black_elo AS BIGINT))";
        if let Some((lo, hi)) = self.rating {
            sql.push_str(" AND g.white_elo IS NOT NULL AND g.black_elo IS NOT NULL");
            // floor(sum / 2) >= lo  <=>  sum >= 2 lo;  floor(sum / 2) <= hi  <=>  sum <= 2 hi + 1
            if let Some(lo) = lo {
                let _ = write!(sql, " AND {sum} >= {}", 2 * i64::from(lo));
            }
            if let Some(hi) = hi {
                let _ = write!(sql, " AND {sum} <= {}", 2 * i64::from(hi) + 1);
            }
        }
        if !self.speeds.is_empty() {
            let _ = write!(sql, " AND g.speed IN ({})", quoted_list(&self.speeds));
        }
        self.months_sql(&mut sql, "g.");
        if let Some(player) = &self.player {
            let name = quote(player);
            match self.color {
                Some(Side::White) => {
                    let _ = write!(sql, " AND g.white = {name}");
                }
                Some(Side::Black) => {
                    let _ = write!(sql, " AND g.black = {name}");
                }
                None => {
                    let _ = write!(sql, " AND (g.white = {name} OR g.black = {name})");
                }
            }
        }
        sql
    }

    /// The conditions on the positions (table alias `p`, whose rows repeat their game's Elo sum,
    /// speed and month) as SQL, each starting with ` AND `; the player filter is a semi-join
    /// on `game_refs` (one sorted file per import; `games` has thousands).
    pub(crate) fn positions_sql(&self) -> String {
        let mut sql = String::new();
        if let Some((lo, hi)) = self.rating {
            sql.push_str(" AND p.elo_sum IS NOT NULL");
            if let Some(lo) = lo {
                let _ = write!(sql, " AND p.elo_sum >= {}", 2 * i64::from(lo));
            }
            if let Some(hi) = hi {
                let _ = write!(sql, " AND p.elo_sum <= {}", 2 * i64::from(hi) + 1);
            }
        }
        if !self.speeds.is_empty() {
            let _ = write!(sql, " AND p.speed IN ({})", quoted_list(&self.speeds));
        }
        self.months_sql(&mut sql, "p.");
        if let Some(player) = &self.player {
            let name = quote(player);
            let condition = match self.color {
                Some(Side::White) => format!("white = {name}"),
                Some(Side::Black) => format!("black = {name}"),
                None => format!("white = {name} OR black = {name}"),
            };
            let _ = write!(
                sql,
                " AND p.game_id IN (SELECT game_id FROM game_refs WHERE {condition})"
            );
        }
        sql
    }

    fn months_sql(&self, sql: &mut String, alias: &str) {
        let month = format!("(CAST({alias}year AS BIGINT) * 100 + {alias}month)");
        if self.since.is_some() || self.until.is_some() {
            let _ = write!(sql, " AND {alias}month IS NOT NULL");
        }
        if let Some(since) = self.since {
            let _ = write!(sql, " AND {month} >= {}", since.number());
        }
        if let Some(until) = self.until {
            let _ = write!(sql, " AND {month} <= {}", until.number());
        }
    }

    /// Whether no filter is given: every game counts.
    pub(crate) fn is_empty(&self) -> bool {
        self.rating.is_none()
            && self.speeds.is_empty()
            && self.since.is_none()
            && self.until.is_none()
            && self.player.is_none()
    }

    /// Whether the filters fall on the explorer's buckets, so that its aggregate answers them:
    /// no player, and a rating range (if any) that cuts no rating group.
    pub(crate) fn on_buckets(&self) -> bool {
        if self.player.is_some() {
            return false;
        }
        self.rating.is_none_or(|(lo, hi)| {
            lo.is_none_or(|l| RATING_GROUPS[1..].contains(&l))
                && hi.is_none_or(|h| RATING_GROUPS[1..].contains(&(h + 1)))
        })
    }

    /// Whether a row of the explorer's aggregate passes, given its bucket: the rating group,
    /// the speed and the month as `YYYYMM`. Exact when [`Filters::on_buckets`] holds.
    pub(crate) fn keeps_bucket(
        &self,
        rating_group: Option<i64>,
        speed: Option<&str>,
        month: Option<i64>,
    ) -> bool {
        // A group passes when it lies inside the range: on bucket bounds, the same as its
        // games' average rating (rounded down) lying inside.
        let rating_ok = self.rating.is_none_or(|(lo, hi)| {
            rating_group.is_some_and(|g| {
                lo.is_none_or(|l| g >= i64::from(l)) && hi.is_none_or(|h| g <= i64::from(h))
            })
        });
        rating_ok && self.keeps_speed_and_month(speed, month)
    }

    /// Whether a position row's game passes the filters other than the player: its Elo sum
    /// (`WhiteElo + BlackElo`), speed and month as `YYYYMM`. The same rule as
    /// [`Filters::positions_sql`].
    pub(crate) fn keeps_game(
        &self,
        elo_sum: Option<i64>,
        speed: Option<&str>,
        month: Option<i64>,
    ) -> bool {
        // floor(sum / 2) >= lo  <=>  sum >= 2 lo;  floor(sum / 2) <= hi  <=>  sum <= 2 hi + 1
        let rating_ok = self.rating.is_none_or(|(lo, hi)| {
            elo_sum.is_some_and(|s| {
                lo.is_none_or(|l| s >= 2 * i64::from(l))
                    && hi.is_none_or(|h| s <= 2 * i64::from(h) + 1)
            })
        });
        rating_ok && self.keeps_speed_and_month(speed, month)
    }

    fn keeps_speed_and_month(&self, speed: Option<&str>, month: Option<i64>) -> bool {
        let speed_ok =
            self.speeds.is_empty() || speed.is_some_and(|s| self.speeds.iter().any(|f| f == s));
        let dated = self.since.is_none() && self.until.is_none()
            || month.is_some_and(|m| {
                self.since.is_none_or(|s| m >= s.number())
                    && self.until.is_none_or(|u| m <= u.number())
            });
        speed_ok && dated
    }
}

/// The month (`YYYYMM`) of a `played_on` date (`YYYYMMDD`, `00` for an unknown month), as the
/// `positions` view's `year` and `month` give it.
pub(crate) fn month_of(played_on: i64) -> Option<i64> {
    let month = (played_on / 100) % 100;
    (month != 0).then(|| (played_on / 10_000) * 100 + month)
}

/// The rating group of a game whose players' Elo add up to `elo_sum`: the highest of
/// [`RATING_GROUPS`] at most their average, rounded down (sql/explorer.sql's `rating_group`).
pub(crate) fn rating_group(elo_sum: i64) -> i64 {
    RATING_GROUPS
        .iter()
        .rev()
        .map(|&g| i64::from(g))
        .find(|&g| elo_sum >= 2 * g)
        .unwrap_or(0)
}

/// A SQL string literal.
pub(crate) fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

fn quoted_list(items: &[String]) -> String {
    items
        .iter()
        .map(|s| quote(s))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rating_alignment_with_the_groups() {
        let f = |lo, hi| Filters {
            rating: Some((lo, hi)),
            ..Filters::default()
        };
        assert!(f(Some(2000), Some(2199)).on_buckets());
        assert!(f(Some(1000), Some(2499)).on_buckets());
        assert!(f(Some(2500), None).on_buckets());
        assert!(f(None, Some(1599)).on_buckets());
        assert!(!f(Some(2000), Some(2200)).on_buckets());
        assert!(!f(Some(1500), Some(2000)).on_buckets());
        let player = Filters {
            player: Some("x".into()),
            ..Filters::default()
        };
        assert!(!player.on_buckets());
    }

    /// The groups of sql/explorer.sql's CASE, at and around each bound (an Elo sum is twice
    /// the average).
    #[test]
    fn rating_groups_by_elo_sum() {
        for (sum, group) in [
            (0, 0),
            (1999, 0),
            (2000, 1000),
            (2399, 1000),
            (2400, 1200),
            (3199, 1400),
            (3200, 1600),
            (4399, 2000),
            (4400, 2200),
            (4999, 2200),
            (5000, 2500),
            (6000, 2500),
        ] {
            assert_eq!(rating_group(sum), group, "{sum}");
        }
    }

    #[test]
    fn bad_values_are_refused_with_the_value() {
        for bad in ["", "-", "abc", "2000", "2200-2000", "-5-10", "100000-"] {
            let e = Filters::parse_rating(bad).expect_err(bad);
            assert!(e.to_string().contains("--rating"), "{e}");
        }
        assert!(Filters::parse_speeds("blitz,turbo").is_err());
        assert_eq!(
            Filters::parse_speeds("blitz, rapid,blitz").expect("speeds"),
            ["blitz", "rapid"]
        );
        for bad in ["2024", "2024-1", "24-01", "2024-00", "2024/01", "x"] {
            assert!(YearMonth::parse(bad).is_err(), "{bad}");
        }
        let f = Filters {
            since: Some(YearMonth::parse("2024-02").expect("month")),
            until: Some(YearMonth::parse("2024-01").expect("month")),
            ..Filters::default()
        };
        assert!(f.validate().is_err());
    }

    #[test]
    fn names_are_quoted_as_sql_literals() {
        assert_eq!(quote("O'Kelly"), "'O''Kelly'");
        let f = Filters {
            player: Some("x' OR '1'='1".into()),
            ..Filters::default()
        };
        assert!(f.games_sql().contains("'x'' OR ''1''=''1'"));
    }
}
