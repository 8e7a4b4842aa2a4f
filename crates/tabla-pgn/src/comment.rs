//! Comments with their embedded commands parsed: `[%clk]`, `[%emt]`, `[%eval]`, `[%csl]`,
//! `[%cal]` (the conventions of ChessBase, lichess and most GUIs); the free text is kept.

use crate::Eval;
use crate::eval::parse_eval_value;
use serde::Serialize;
use std::fmt::{self, Write as _};
use std::time::Duration;
use tabla::Square;

/// A coloured square (`[%csl Gd4]`) or arrow (`[%cal Ge2e4]`) drawn on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// The colour letter as written: `R`, `G`, `Y`, `B` by convention.
    pub color: char,
    /// The square, or the arrow's tail.
    pub from: Square,
    /// The arrow's head; `None` for a square.
    pub to: Option<Square>,
}

impl Serialize for Shape {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut text = String::with_capacity(5);
        text.push(self.color);
        text.push_str(&self.from.to_string());
        if let Some(to) = self.to {
            text.push_str(&to.to_string());
        }
        s.serialize_str(&text)
    }
}

/// A comment: free text and the commands found in it.
///
/// ```
/// use tabla_pgn::{Comment, Eval};
/// use std::time::Duration;
/// let c = Comment::parse("Good move [%eval #-3] [%clk 0:05:01]  ");
/// assert_eq!(c.text, "Good move");
/// assert_eq!(c.eval, Some(Eval::Mate(-3)));
/// assert_eq!(c.clock, Some(Duration::from_secs(301)));
/// assert_eq!(c.to_string(), "[%eval #-3] [%clk 0:05:01] Good move");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Comment {
    /// The text without the parsed commands, line ends read as spaces, trimmed. Commands that
    /// are not recognised, or not well formed, stay here as written.
    pub text: String,
    /// `[%clk h:mm:ss]`: the clock after the move.
    pub clock: Option<Duration>,
    /// `[%emt h:mm:ss]`: the time the move took.
    pub emt: Option<Duration>,
    /// `[%eval ...]`: the evaluation, and the search depth when given (`[%eval 0.17,20]`).
    pub eval: Option<Eval>,
    /// The depth given with the evaluation.
    pub eval_depth: Option<u32>,
    /// `[%csl ...]` squares and `[%cal ...]` arrows, in the order written.
    pub shapes: Vec<Shape>,
}

impl Comment {
    /// Parses a comment's text.
    pub fn parse(raw: &str) -> Comment {
        let mut comment = Comment::default();
        // Grows only for text besides the commands (none in most engine and clock comments).
        let mut text = String::new();
        let mut rest = raw.trim_start();
        while let Some(start) = command_start(rest) {
            text.push_str(&rest[..start]);
            let after = &rest[start..];
            let Some(close) = after.as_bytes().iter().position(|&b| b == b']') else {
                text.push_str(after);
                rest = "";
                break;
            };
            if comment.apply(&after[2..close]) {
                // Drop the white space after a command so the text closes up around it.
                rest = after[close + 1..].trim_start();
            } else {
                text.push_str(&after[..close + 1]);
                rest = &after[close + 1..];
            }
        }
        text.push_str(rest);
        comment.text = normalize_space(text);
        comment
    }

    /// Records a command (`name args`); `false` when it is unknown or malformed.
    fn apply(&mut self, command: &str) -> bool {
        let (name, args) = command
            .split_once(char::is_whitespace)
            .unwrap_or((command, ""));
        let args = args.trim();
        match name {
            "clk" if self.clock.is_none() => parse_duration(args).map(|d| self.clock = Some(d)),
            "emt" if self.emt.is_none() => parse_duration(args).map(|d| self.emt = Some(d)),
            "eval" if self.eval.is_none() => parse_eval(args).map(|(e, depth)| {
                self.eval = Some(e);
                self.eval_depth = depth;
            }),
            "csl" | "cal" => parse_shapes(args, name == "cal").map(|s| self.shapes.extend(s)),
            _ => None,
        }
        .is_some()
    }

    /// `true` when the comment holds nothing.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
            && self.clock.is_none()
            && self.emt.is_none()
            && self.eval.is_none()
            && self.shapes.is_empty()
    }
}

/// Commands first (`[%eval]`, `[%clk]`, `[%emt]`, `[%csl]`, `[%cal]`), then the text.
impl fmt::Display for Comment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        if let Some(eval) = self.eval {
            let mut s = format!("[%eval {eval}");
            if let Some(depth) = self.eval_depth {
                let _ = write!(s, ",{depth}");
            }
            s.push(']');
            parts.push(s);
        }
        if let Some(clock) = self.clock {
            parts.push(format!("[%clk {}]", format_duration(clock)));
        }
        if let Some(emt) = self.emt {
            parts.push(format!("[%emt {}]", format_duration(emt)));
        }
        for (name, arrows) in [("csl", false), ("cal", true)] {
            let shapes: Vec<String> = self
                .shapes
                .iter()
                .filter(|s| s.to.is_some() == arrows)
                .map(|s| match s.to {
                    Some(to) => format!("{}{}{}", s.color, s.from, to),
                    None => format!("{}{}", s.color, s.from),
                })
                .collect();
            if !shapes.is_empty() {
                parts.push(format!("[%{name} {}]", shapes.join(",")));
            }
        }
        if !self.text.is_empty() {
            parts.push(self.text.clone());
        }
        f.write_str(&parts.join(" "))
    }
}

/// Line ends become spaces, the ends are trimmed.
fn normalize_space(text: String) -> String {
    let trimmed = text.trim();
    if trimmed.bytes().any(|b| b == b'\n' || b == b'\r') {
        return trimmed.replace("\r\n", " ").replace(['\n', '\r'], " ");
    }
    if trimmed.len() == text.len() {
        return text;
    }
    trimmed.to_owned()
}

/// Where the first command (`[%`) of `text` starts.
fn command_start(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(i) = bytes[from..].iter().position(|&b| b == b'[') {
        let at = from + i;
        if bytes.get(at + 1) == Some(&b'%') {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// `h:mm:ss`, `h:mm:ss.f`, `mm:ss`, `ss`: at most three fields of digits, a fraction of a
/// second only on the last. Read byte by byte: a lichess file has one on every move.
fn parse_duration(text: &str) -> Option<Duration> {
    let bytes = text.as_bytes();
    let (mut total, mut field, mut digits, mut fields) = (0u64, 0u64, 0usize, 1usize);
    let mut fraction: &[u8] = &[];
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'0'..=b'9' => {
                field = field.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
                digits += 1;
            }
            b':' if digits > 0 && fields < 3 => {
                total = total.checked_mul(60)?.checked_add(field)?;
                (field, digits, fields) = (0, 0, fields + 1);
            }
            b'.' => {
                fraction = &bytes[i + 1..];
                break;
            }
            _ => return None,
        }
    }
    if digits == 0 || !fraction.iter().all(u8::is_ascii_digit) {
        return None;
    }
    total = total.checked_mul(60)?.checked_add(field)?;
    let millis: u64 = fraction
        .iter()
        .copied()
        .chain(std::iter::repeat(b'0'))
        .take(3)
        .fold(0, |n, d| n * 10 + u64::from(d - b'0'));
    Some(Duration::from_secs(total) + Duration::from_millis(millis))
}

/// `text` split at the first `byte` (an ASCII byte, so both sides are text).
fn split_at_byte(text: &str, byte: u8) -> Option<(&str, &str)> {
    let i = text.as_bytes().iter().position(|&b| b == byte)?;
    Some((&text[..i], &text[i + 1..]))
}

/// `h:mm:ss`, with `.f` to the tenth, hundredth or thousandth when there is a fraction.
fn format_duration(d: Duration) -> String {
    let secs = d.as_secs();
    let mut s = format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    let millis = d.subsec_millis();
    if millis > 0 {
        let digits = format!("{millis:03}");
        s.push('.');
        s.push_str(digits.trim_end_matches('0'));
    }
    s
}

/// `0.17`, `-1.5`, `+3`, `#-3`, `#4`, each optionally followed by `,depth`.
fn parse_eval(text: &str) -> Option<(Eval, Option<u32>)> {
    let (value, depth) = match split_at_byte(text, b',') {
        Some((v, d)) => (v.trim(), Some(d.trim().parse().ok()?)),
        None => (text, None),
    };
    Some((parse_eval_value(value)?, depth))
}

/// `Gd4,Ra1` (squares) or `Ge2e4,Rd1d8` (arrows).
fn parse_shapes(text: &str, arrows: bool) -> Option<Vec<Shape>> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|item| {
            let b = item.as_bytes();
            let color = *b.first()?;
            if !color.is_ascii_uppercase() {
                return None;
            }
            let expected = if arrows { 5 } else { 3 };
            if b.len() != expected {
                return None;
            }
            let from = Square::from_ascii(&b[1..3])?;
            let to = if arrows {
                Some(Square::from_ascii(&b[3..5])?)
            } else {
                None
            };
            Some(Shape {
                color: color as char,
                from,
                to,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_around_commands() {
        let c = Comment::parse("  Good [x] move [%clk 0:01:00]\n  [%bad] end [%eval");
        assert_eq!(c.clock, Some(Duration::from_secs(60)));
        assert_eq!(c.text, "Good [x] move [%bad] end [%eval");
        assert_eq!(Comment::parse(" [%clk 0:00:09] ").text, "");
        assert_eq!(Comment::parse("plain").text, "plain");
    }

    #[test]
    fn lichess_comment() {
        let c = Comment::parse(" [%eval 0.17] [%clk 0:05:00] ");
        assert_eq!(c.eval, Some(Eval::Cp(17)));
        assert_eq!(c.clock, Some(Duration::from_secs(300)));
        assert!(c.text.is_empty());
        assert_eq!(c.to_string(), "[%eval 0.17] [%clk 0:05:00]");
    }

    #[test]
    fn evals() {
        assert_eq!(parse_eval("-1.5"), Some((Eval::Cp(-150), None)));
        assert_eq!(parse_eval("-0.05"), Some((Eval::Cp(-5), None)));
        assert_eq!(parse_eval("+3"), Some((Eval::Cp(300), None)));
        assert_eq!(parse_eval("0.175"), Some((Eval::Cp(18), None)));
        assert_eq!(parse_eval("0.17,20"), Some((Eval::Cp(17), Some(20))));
        assert_eq!(parse_eval("#-3"), Some((Eval::Mate(-3), None)));
        assert_eq!(parse_eval("#+4"), Some((Eval::Mate(4), None)));
        assert_eq!(parse_eval("abc"), None);
        assert_eq!(parse_eval("."), None);
        let c = Comment::parse("[%eval -0.05]");
        assert_eq!(c.to_string(), "[%eval -0.05]");
        // lichess's form: no trailing zero but the one after the point.
        for (text, back) in [
            ("0.10", "0.1"),
            ("-1.00", "-1.0"),
            ("0", "0.0"),
            ("12.51", "12.51"),
        ] {
            assert_eq!(
                Comment::parse(&format!("[%eval {text}]")).to_string(),
                format!("[%eval {back}]")
            );
        }
        assert_eq!(
            Comment::parse("[%eval #-3,20]").to_string(),
            "[%eval #-3,20]"
        );
    }

    #[test]
    fn clocks() {
        assert_eq!(parse_duration("1:02:03"), Some(Duration::from_secs(3723)));
        assert_eq!(
            parse_duration("0:00:05.3"),
            Some(Duration::from_millis(5300))
        );
        assert_eq!(parse_duration("5:00"), Some(Duration::from_secs(300)));
        assert_eq!(parse_duration("x:00"), None);
        assert_eq!(parse_duration("42"), Some(Duration::from_secs(42)));
        assert_eq!(parse_duration("7."), Some(Duration::from_secs(7)));
        assert_eq!(
            parse_duration("1:00:00.125"),
            Some(Duration::from_millis(3_600_125))
        );
        // At most hours, minutes and seconds; a fraction only on the seconds; no empty field.
        assert_eq!(parse_duration("1:0:00:00"), None);
        assert_eq!(parse_duration("1.5:30"), None);
        assert_eq!(parse_duration("1::30"), None);
        assert_eq!(parse_duration(""), None);
        assert_eq!(parse_duration(".5"), None);
        assert_eq!(parse_duration("0:00:01.x"), None);
        assert_eq!(format_duration(Duration::from_millis(5300)), "0:00:05.3");
        assert_eq!(format_duration(Duration::from_secs(3723)), "1:02:03");
    }

    #[test]
    fn shapes_and_unknown_commands() {
        let c = Comment::parse("[%csl Ga8,Gh1][%cal Be1e2,Ga2a8] [%foo bar] text\nmore");
        assert_eq!(c.shapes.len(), 4);
        assert_eq!(c.shapes[2].to, Some(Square::E2));
        assert_eq!(c.text, "[%foo bar] text more");
        assert_eq!(
            c.to_string(),
            "[%csl Ga8,Gh1] [%cal Be1e2,Ga2a8] [%foo bar] text more"
        );
        // Malformed commands stay in the text.
        let bad = Comment::parse("[%clk soon] [%csl Zz9]");
        assert_eq!(bad.text, "[%clk soon] [%csl Zz9]");
        assert!(bad.clock.is_none() && bad.shapes.is_empty());
    }
}
