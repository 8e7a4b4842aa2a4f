//! A game's speed from its `TimeControl` tag, by lichess's thresholds.

/// The speeds, fastest first, as the `speed` columns hold them.
pub const SPEEDS: [&str; 5] = ["bullet", "blitz", "rapid", "classical", "correspondence"];

/// The `speed` column's value for a `TimeControl` tag: `base+increment` in seconds gives an
/// estimated duration of base + 40 × increment, which is `bullet` below 180 s (ultrabullet
/// included), `blitz` below 480 s, `rapid` below 1500 s and `classical` from there; `-` is
/// `correspondence`. Anything else (no increment, several periods, text) is unknown: `None`.
///
/// ```
/// use tabla_convert::speed;
/// assert_eq!(speed("180+2"), Some("blitz"));
/// assert_eq!(speed("60+0"), Some("bullet"));
/// assert_eq!(speed("-"), Some("correspondence"));
/// assert_eq!(speed("40/7200:3600"), None);
/// ```
pub fn speed(time_control: &str) -> Option<&'static str> {
    let tc = time_control.trim();
    if tc == "-" {
        return Some(SPEEDS[4]);
    }
    let (base, increment) = tc.split_once('+')?;
    let seconds = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u64>().ok())
            .flatten()
    };
    let total = seconds(base)?.saturating_add(seconds(increment)?.saturating_mul(40));
    Some(match total {
        0..180 => SPEEDS[0],
        180..480 => SPEEDS[1],
        480..1500 => SPEEDS[2],
        _ => SPEEDS[3],
    })
}

#[cfg(test)]
mod tests {
    use super::speed;

    #[test]
    fn lichess_thresholds() {
        // lichess: 15+0 ultrabullet and 1+0 bullet are bullet here; 3+0 and 5+3 (5 × 60 + 120)
        // blitz; 8+0 and 10+5 rapid; 25+0 and 30+20 classical.
        for (tc, want) in [
            ("15+0", "bullet"),
            ("60+0", "bullet"),
            ("120+1", "bullet"),
            ("179+0", "bullet"),
            ("180+0", "blitz"),
            ("300+3", "blitz"),
            ("479+0", "blitz"),
            ("480+0", "rapid"),
            ("600+5", "rapid"),
            ("1499+0", "rapid"),
            ("1500+0", "classical"),
            ("1800+20", "classical"),
        ] {
            assert_eq!(speed(tc), Some(want), "{tc}");
        }
    }

    #[test]
    fn unknown_forms() {
        for tc in [
            "",
            "?",
            "300",
            "40/7200:3600",
            "+5",
            "300+",
            "a+b",
            "-1+0",
            "300+2+1",
        ] {
            assert_eq!(speed(tc), None, "{tc:?}");
        }
        assert_eq!(speed(" - "), Some("correspondence"));
        assert_eq!(speed("99999999999999999999+0"), None, "too large to read");
    }
}
