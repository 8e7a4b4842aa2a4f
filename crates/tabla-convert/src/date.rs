//! PGN dates (`2024.01.31`, with `??` for what is unknown) as Arrow dates and partitions.

/// A PGN date's known parts.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PgnDate {
    pub year: Option<i32>,
    pub month: Option<u32>,
    /// The day of the month (1 to 31) when year and month are known; not checked against the
    /// month's length.
    pub day: Option<u32>,
    /// Days since 1970-01-01 when the whole date is known and exists.
    pub days: Option<i32>,
}

/// Reads `YYYY.MM.DD` (also with `-` or `/` between the parts); unknown parts are `?`s.
pub(crate) fn parse_date(text: &str) -> PgnDate {
    let mut parts = text.trim().split(['.', '-', '/']);
    let year = parts
        .next()
        .filter(|p| p.len() == 4)
        .and_then(|p| p.parse::<i32>().ok());
    let month = parts
        .next()
        .filter(|p| (1..=2).contains(&p.len()))
        .and_then(|p| p.parse::<u32>().ok())
        .filter(|m| (1..=12).contains(m));
    let day = parts
        .next()
        .filter(|p| (1..=2).contains(&p.len()))
        .and_then(|p| p.parse::<u32>().ok());
    let whole = parts.next().is_none();
    let month = month.filter(|_| year.is_some());
    let day = day.filter(|d| month.is_some() && (1..=31).contains(d));
    let days = match (year, month, day) {
        (Some(y), Some(m), Some(d)) if whole && d >= 1 && d <= days_in_month(y, m) => {
            Some(days_from_civil(y, m, d))
        }
        _ => None,
    };
    PgnDate {
        year,
        month,
        day,
        days,
    }
}

impl PgnDate {
    /// `YYYY-MM-DD` with `??` for an unknown month or day (the `played` column); `None` without
    /// a known year (or with one outside 0 to 9999).
    pub fn played(&self) -> Option<String> {
        let year = self.year.filter(|y| (0..=9999).contains(y))?;
        let two = |part: Option<u32>| part.map_or_else(|| "??".to_owned(), |v| format!("{v:02}"));
        Some(format!("{year:04}-{}-{}", two(self.month), two(self.day)))
    }
}

fn is_leap(y: i32) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i32, m: u32) -> u32 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to a proleptic Gregorian date (the usual era-based count).
fn days_from_civil(y: i32, m: u32, d: u32) -> i32 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = m as i32;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i32 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A moment given in seconds since 1970 as `2026-12-02 06:41 UTC`: how the messages of a
/// conversion or an import say when something was done.
///
/// ```
/// assert_eq!(tabla_convert::utc_minute(1_796_193_660), "2026-12-02 06:41 UTC");
/// assert_eq!(tabla_convert::utc_minute(0), "1970-01-01 00:00 UTC");
/// ```
pub fn utc_minute(seconds: u64) -> String {
    let days = i64::try_from(seconds / 86_400).unwrap_or(i64::MAX);
    let (y, m, d) = civil_from_days(days);
    let minutes = seconds % 86_400 / 60;
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        minutes / 60,
        minutes % 60
    )
}

/// The proleptic Gregorian date `days` after 1970-01-01: the inverse of [`days_from_civil`].
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_from_days_inverts_days_from_civil() {
        for (y, m, d) in [
            (1970, 1, 1),
            (2000, 2, 29),
            (2024, 1, 31),
            (2026, 12, 2),
            (2100, 3, 1),
        ] {
            let days = days_from_civil(y, m, d);
            assert_eq!(civil_from_days(i64::from(days)), (i64::from(y), m, d));
        }
        // `date -u -d @1709251199`: 2024-02-29 23:59:59.
        assert_eq!(utc_minute(1_709_251_199), "2024-02-29 23:59 UTC");
    }

    #[test]
    fn known_days() {
        // Unix day numbers as `date -d 2024-01-31 +%s` / 86400 gives them.
        assert_eq!(parse_date("1970.01.01").days, Some(0));
        assert_eq!(parse_date("2024.01.31").days, Some(19_753));
        assert_eq!(parse_date("2000.02.29").days, Some(11_016));
        assert_eq!(parse_date("1969.12.31").days, Some(-1));
        assert_eq!(parse_date("1851.06.21").days, Some(-43_293));
    }

    #[test]
    fn partial_and_invalid_dates() {
        let d = parse_date("2024.??.??");
        assert_eq!((d.year, d.month, d.days), (Some(2024), None, None));
        let d = parse_date("2023.07.??");
        assert_eq!((d.year, d.month, d.days), (Some(2023), Some(7), None));
        let d = parse_date("2023.02.29");
        assert_eq!((d.year, d.month, d.days), (Some(2023), Some(2), None));
        let d = parse_date("????.??.??");
        assert_eq!((d.year, d.month, d.days), (None, None, None));
        assert_eq!(parse_date("").year, None);
        assert_eq!(parse_date("2024-03-05").days, parse_date("2024.03.05").days);
        assert_eq!(parse_date("2024.13.01").month, None);
    }

    #[test]
    fn played_text_marks_unknown_parts() {
        assert_eq!(
            parse_date("2024.01.31").played().as_deref(),
            Some("2024-01-31")
        );
        assert_eq!(
            parse_date("1858.12.??").played().as_deref(),
            Some("1858-12-??")
        );
        assert_eq!(
            parse_date("1997.??.??").played().as_deref(),
            Some("1997-??-??")
        );
        // A day without a month is not kept; the day is kept when the date does not exist.
        assert_eq!(
            parse_date("1997.??.05").played().as_deref(),
            Some("1997-??-??")
        );
        assert_eq!(
            parse_date("2023.02.30").played().as_deref(),
            Some("2023-02-30")
        );
        assert_eq!(parse_date("????.??.??").played(), None);
    }
}
