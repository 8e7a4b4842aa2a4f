//! The explorer's and the search's filters on games, their parsing and their SQL.
//!
//! Every filter is defined on a game's columns (docs/db.md): `--rating` on the average of both
//! players' Elo rounded down, `--speed` on the `speed` column, `--since` and `--until` on the
//! months the game could have been played in (the `year` and `month` partitions: [`months_of`]),
//! `--player` on the `White` and `Black` tags exactly, `--player-match` on a part of them in
//! any case (`karpov` finds `Karpov, Anatoly` and `Karpov, An`: [`Filters::player_match`]), and
//! the games page's text search on the players, the event and the site ([`Filters::text`]).
//!
//! A date filter keeps a game when every month it could have been played in lies in the range:
//! a game of a known month when that month does, a game of a known year alone (`1964.??.??`)
//! when its whole year does (`--since 1960-01 --until 1999-12` keeps it, `--since 1964-06`
//! does not), a game without a year never.

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
    /// Played in this month or later (a game of a known year alone: in January of it or
    /// later, its whole year inside).
    pub since: Option<YearMonth>,
    /// Played in this month or earlier (a game of a known year alone: in December of it or
    /// earlier).
    pub until: Option<YearMonth>,
    /// A player's name, exactly as in the `White` or `Black` tag.
    pub player: Option<String>,
    /// A part of a player's name, in any case: the games whose `White` or `Black` tag contains
    /// it (`karpov` finds `Karpov, Anatoly`); not with `player`.
    pub player_match: Option<String>,
    /// With `player` or `player_match`: only the games where the player had this side.
    pub color: Option<Side>,
    /// The games page's text search: the games whose players, event or site contain it, in
    /// any case.
    pub text: Option<String>,
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
    /// A part of a name, any case.
    pub player_match: Option<&'a str>,
    /// `white` or `black`, with `player` or `player_match`.
    pub color: Option<&'a str>,
    /// The games page's text search (players, event, site; any case).
    pub text: Option<&'a str>,
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
            player_match: given(text.player_match),
            text: given(text.text),
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
        if self.color.is_some() && self.player.is_none() && self.player_match.is_none() {
            return Err(DbError::Argument(
                "--color needs --player or --player-match".to_owned(),
            ));
        }
        if self.player.is_some() && self.player_match.is_some() {
            return Err(DbError::Argument(
                "--player and --player-match: give one (--player is the exact name, \
                 --player-match a part of it in any case)"
                    .to_owned(),
            ));
        }
        Ok(())
    }

    /// Whether a filter reads the games' tags (a player, a part of a name, the text search),
    /// which the explorer's aggregate and its lists do not hold.
    pub(crate) fn on_tags(&self) -> bool {
        self.player.is_some() || self.player_match.is_some() || self.text.is_some()
    }

    /// The conditions on the tags of `game_refs` or `games` (columns prefixed by `alias`),
    /// each starting with ` AND `.
    fn tags_sql(&self, alias: &str) -> String {
        let mut sql = String::new();
        let sides: &[&str] = match self.color {
            Some(Side::White) => &["white"],
            Some(Side::Black) => &["black"],
            None => &["white", "black"],
        };
        let name = |column: &str| match (&self.player, &self.player_match) {
            (Some(exact), _) => Some(format!("{alias}{column} = {}", quote(exact))),
            (None, Some(part)) => Some(contains_sql(&format!("{alias}{column}"), part)),
            (None, None) => None,
        };
        let names: Vec<String> = sides.iter().filter_map(|c| name(c)).collect();
        if !names.is_empty() {
            let _ = write!(sql, " AND ({})", names.join(" OR "));
        }
        if let Some(text) = &self.text {
            let any: Vec<String> = ["white", "black", "event", "site"]
                .iter()
                .map(|c| contains_sql(&format!("{alias}{c}"), text))
                .collect();
            let _ = write!(sql, " AND ({})", any.join(" OR "));
        }
        sql
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
        sql.push_str(&self.tags_sql("g."));
        sql
    }

    /// The conditions on the positions (table alias `p`, whose rows repeat their game's Elo sum,
    /// speed and month) as SQL, each starting with ` AND `; the filters on tags are a
    /// semi-join on `game_refs` (one sorted file per import; `games` has thousands).
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
        if self.on_tags() {
            let _ = write!(
                sql,
                " AND p.game_id IN (SELECT game_id FROM game_refs WHERE TRUE{})",
                self.tags_sql("")
            );
        }
        sql
    }

    /// The date filters on the `year` and `month` columns: the rule of [`months_of`], every
    /// month the game could have been played in inside the range.
    fn months_sql(&self, sql: &mut String, alias: &str) {
        let month = |unknown: u32| {
            format!("(CAST({alias}year AS BIGINT) * 100 + COALESCE({alias}month, {unknown}))")
        };
        if self.since.is_some() || self.until.is_some() {
            let _ = write!(sql, " AND {alias}year IS NOT NULL");
        }
        if let Some(since) = self.since {
            let _ = write!(sql, " AND {} >= {}", month(1), since.number());
        }
        if let Some(until) = self.until {
            let _ = write!(sql, " AND {} <= {}", month(12), until.number());
        }
    }

    /// Whether no filter is given: every game counts.
    pub(crate) fn is_empty(&self) -> bool {
        self.rating.is_none()
            && self.speeds.is_empty()
            && self.since.is_none()
            && self.until.is_none()
            && !self.on_tags()
    }

    /// Whether the filters fall on the explorer's buckets, so that its aggregate answers them:
    /// no filter on tags, and a rating range (if any) that cuts no rating group.
    pub(crate) fn on_buckets(&self) -> bool {
        if self.on_tags() {
            return false;
        }
        self.rating.is_none_or(|(lo, hi)| {
            lo.is_none_or(|l| RATING_GROUPS[1..].contains(&l))
                && hi.is_none_or(|h| RATING_GROUPS[1..].contains(&(h + 1)))
        })
    }

    /// Whether a row of the explorer's aggregate passes, given its bucket: the rating group,
    /// the speed and the months it could have been played in ([`months_of`]). Exact when
    /// [`Filters::on_buckets`] holds.
    pub(crate) fn keeps_bucket(
        &self,
        rating_group: Option<i64>,
        speed: Option<&str>,
        months: Option<(i64, i64)>,
    ) -> bool {
        // A group passes when it lies inside the range: on bucket bounds, the same as its
        // games' average rating (rounded down) lying inside.
        let rating_ok = self.rating.is_none_or(|(lo, hi)| {
            rating_group.is_some_and(|g| {
                lo.is_none_or(|l| g >= i64::from(l)) && hi.is_none_or(|h| g <= i64::from(h))
            })
        });
        rating_ok && self.keeps_speed_and_months(speed, months)
    }

    /// Whether a position row's game passes the filters other than the player: its Elo sum
    /// (`WhiteElo + BlackElo`), speed and the months it could have been played in
    /// ([`played_months`]). The same rule as [`Filters::positions_sql`].
    pub(crate) fn keeps_game(
        &self,
        elo_sum: Option<i64>,
        speed: Option<&str>,
        months: Option<(i64, i64)>,
    ) -> bool {
        // floor(sum / 2) >= lo  <=>  sum >= 2 lo;  floor(sum / 2) <= hi  <=>  sum <= 2 hi + 1
        let rating_ok = self.rating.is_none_or(|(lo, hi)| {
            elo_sum.is_some_and(|s| {
                lo.is_none_or(|l| s >= 2 * i64::from(l))
                    && hi.is_none_or(|h| s <= 2 * i64::from(h) + 1)
            })
        });
        rating_ok && self.keeps_speed_and_months(speed, months)
    }

    fn keeps_speed_and_months(&self, speed: Option<&str>, months: Option<(i64, i64)>) -> bool {
        let speed_ok =
            self.speeds.is_empty() || speed.is_some_and(|s| self.speeds.iter().any(|f| f == s));
        speed_ok && self.keeps_months(months)
    }

    /// Whether a game that could have been played in the months `months` (first and last as
    /// `YYYYMM`, [`months_of`]) passes `since` and `until`: every one of them inside.
    pub(crate) fn keeps_months(&self, months: Option<(i64, i64)>) -> bool {
        self.since.is_none() && self.until.is_none()
            || months.is_some_and(|(first, last)| {
                self.since.is_none_or(|s| first >= s.number())
                    && self.until.is_none_or(|u| last <= u.number())
            })
    }
}

/// The months (`YYYYMM`, the first and the last) a game could have been played in, from its
/// `year` and `month` partitions: its month when known, the twelve of its year when only the
/// year is, none without a year. The date filters keep a game when all of them lie inside.
pub(crate) fn months_of(year: Option<i64>, month: Option<i64>) -> Option<(i64, i64)> {
    let year = year?;
    Some(match month {
        Some(m) => (year * 100 + m, year * 100 + m),
        None => (year * 100 + 1, year * 100 + 12),
    })
}

/// [`months_of`] a `played_on` date (`YYYYMMDD`, `00` for an unknown month or day).
pub(crate) fn played_months(played_on: Option<i64>) -> Option<(i64, i64)> {
    let date = played_on?;
    let month = (date / 100) % 100;
    months_of(Some(date / 10_000), (month != 0).then_some(month))
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

/// A text filter's value: trimmed, `None` when empty.
fn given(text: Option<&str>) -> Option<String> {
    text.map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
}

/// SQL for "`column` contains `part`, in any case": the part lowered as the query engine
/// lowers the column (Unicode), found with `strpos`, so `%` and `_` in it are plain text.
pub(crate) fn contains_sql(column: &str, part: &str) -> String {
    format!("strpos(lower({column}), lower({})) > 0", quote(part))
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

    /// The rule for partial dates: every month the game could have been played in inside.
    #[test]
    // The numbers are dates, grouped as YYYY_MM_DD and YYYY_MM.
    #[allow(clippy::inconsistent_digit_grouping)]
    fn a_year_alone_is_inside_a_range_holding_its_whole_year() {
        let range = |since: Option<&str>, until: Option<&str>| Filters {
            since: since.map(|m| YearMonth::parse(m).expect("month")),
            until: until.map(|m| YearMonth::parse(m).expect("month")),
            ..Filters::default()
        };
        let year_alone = played_months(Some(1964_00_00));
        let june = played_months(Some(1964_06_00));
        assert_eq!(year_alone, Some((1964_01, 1964_12)));
        assert_eq!(june, Some((1964_06, 1964_06)));
        assert_eq!(played_months(None), None);
        for (since, until, year_in, june_in) in [
            (Some("1960-01"), Some("1999-12"), true, true),
            (Some("1964-01"), Some("1964-12"), true, true),
            (Some("1964-06"), None, false, true),
            (None, Some("1964-06"), false, true),
            (Some("1964-07"), None, false, false),
            (Some("1965-01"), None, false, false),
            (None, Some("1963-12"), false, false),
            (None, Some("1964-12"), true, true),
        ] {
            let f = range(since, until);
            assert_eq!(f.keeps_months(year_alone), year_in, "{since:?} {until:?}");
            assert_eq!(f.keeps_months(june), june_in, "{since:?} {until:?}");
            assert!(!f.keeps_months(None), "no year: never inside a range");
        }
        assert!(Filters::default().keeps_months(None));
    }

    #[test]
    fn a_part_of_a_name_is_one_filter_or_the_exact_name_the_other() {
        let text = |player: Option<&str>, part: Option<&str>, color: Option<&str>| {
            Filters::from_text(&FilterText {
                player,
                player_match: part,
                color,
                ..FilterText::default()
            })
        };
        assert!(text(Some("Karpov, An"), Some("karpov"), None).is_err());
        assert!(text(None, Some("karpov"), Some("white")).is_ok());
        assert!(text(None, None, Some("white")).is_err());
        let f = text(None, Some("  "), None).expect("blank");
        assert_eq!(f.player_match, None, "a blank part is no filter");
        let f = text(None, Some("o'k%"), Some("black")).expect("part");
        assert!(!f.on_buckets());
        assert_eq!(
            f.games_sql(),
            " AND (strpos(lower(g.black), lower('o''k%')) > 0)"
        );
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
