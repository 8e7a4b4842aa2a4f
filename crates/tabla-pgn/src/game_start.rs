//! Where a game starts: the one rule shared by the reader, the byte-range splitter
//! ([`crate::find_game_start`]) and `tabla-convert`'s frame boundaries, and the tag-pair grammar
//! it rests on.
//!
//! **A game starts at a line that holds well-formed tag pairs `[Name "value"]` and nothing else
//! (see [`parse_tag`]) when the nearest earlier line that is not transparent is not a tag
//! line**: the first tag of a tag section. A tag line starts with `[` or holds `[` and a letter
//! anywhere; a transparent line is blank, a `%` or `;` line, or one `{...}` comment alone on its
//! line. Offset 0 is always a game start.
//!
//! The reader keeps to it everywhere:
//! - in movetext, `[` and a letter starts the next game (anywhere on a line: a superset of the
//!   rule's starts, which splitting never needs to find);
//! - a `{` comment runs to its `}` across lines whatever they hold, except that a line where a
//!   game starts by this rule ends a comment left open, so that a damaged file cannot swallow the
//!   games after it. Lines inside real comments such as `[C54]`, `[clk 1:05:23 ]`,
//!   `['just for fun']` or `[Event "x"] and more words` are not tag pairs alone, so they never
//!   cut a comment;
//! - in a tag section, `%` and `;` lines and a comment alone on its line are passed over; a
//!   comment over several lines, or followed by something else on its line, ends the section.
//!
//! Cutting a file at these starts therefore gives the same games as reading it whole.

use crate::scan;
use memchr::memchr;

/// How a line counts when looking back for the line before a tag section.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum LineKind {
    /// Blank, starting with `%` or `;`, or one `{...}` comment alone, with no tag in it:
    /// looked through.
    Transparent,
    /// Starts with `[`, or holds `[` followed by a letter somewhere.
    Tag,
    /// Anything else (movetext, comment text, a comment opened and not closed on the line).
    Other,
}

/// The kind of one line (without its line end, or with it: both give the same).
pub(crate) fn classify(line: &[u8]) -> LineKind {
    if has_tag_opening(line) {
        return LineKind::Tag;
    }
    let Some(first) = line.iter().position(|b| !b.is_ascii_whitespace()) else {
        return LineKind::Transparent;
    };
    match line[first] {
        // A malformed tag still belongs to the tag section it is in.
        b'[' => LineKind::Tag,
        b'%' | b';' => LineKind::Transparent,
        b'{' if is_comment_alone(&line[first..]) => LineKind::Transparent,
        _ => LineKind::Other,
    }
}

/// `true` when `line` (from its `{`) is one comment closed on it with nothing but blanks after.
fn is_comment_alone(line: &[u8]) -> bool {
    memchr(b'}', line).is_some_and(|close| line[close + 1..].iter().all(u8::is_ascii_whitespace))
}

/// `true` when `bytes` hold `[` followed by a letter.
pub(crate) fn has_tag_opening(bytes: &[u8]) -> bool {
    memchr::memchr_iter(b'[', bytes).any(|i| bytes.get(i + 1).is_some_and(u8::is_ascii_alphabetic))
}

/// `true` when a game starts at `line` (its first line end may follow, and more after it), the
/// nearest earlier non-transparent line being of kind `previous`.
pub(crate) fn is_game_start(line: &[u8], previous: LineKind) -> bool {
    previous != LineKind::Tag && is_tag_pairs_line(line)
}

/// `true` when the first line of `line` is one or more well-formed tag pairs, each opening with
/// `[` and a letter, with only blanks between and after them.
pub(crate) fn is_tag_pairs_line(line: &[u8]) -> bool {
    let line = &line[..memchr(b'\n', line).unwrap_or(line.len())];
    let mut rest = line;
    loop {
        if !matches!(rest, [b'[', c, ..] if c.is_ascii_alphabetic()) {
            return false;
        }
        let Ok(tag) = parse_tag(rest) else {
            return false;
        };
        rest = rest[tag.len..].trim_ascii_start();
        if rest.is_empty() {
            return true;
        }
    }
}

/// Byte ranges of a parsed tag pair within its line, and how many bytes it took.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct TagPair {
    pub name: (usize, usize),
    pub value: (usize, usize),
    pub len: usize,
    /// The value held quotes that were not escaped: it was read up to the last quote before
    /// the `]` closing the tag.
    pub repaired: bool,
}

/// Parses `[Name "value"]` at the start of `bytes`, whose first line (up to the first `\n`, or
/// all of them) is the tag's line. `\"` and `\\` are escapes. A quote inside the value that is
/// not escaped (`[White ""Socrates""]`) does not end it: the value runs to the first quote
/// followed (after blanks) by `]`, and the pair is marked `repaired`; so two tags on one line
/// stay two tags. On error, returns how many bytes to skip: through the next `]` of the line, or
/// the whole line.
///
/// ```text
/// [Event "Hastings"]            value Hastings
/// [Annotator "Lopez "Battle""]  value Lopez "Battle", repaired
/// [A "x"] [B "y"]               value x, 7 bytes (then [B "y"])
/// ```
pub(crate) fn parse_tag(bytes: &[u8]) -> Result<TagPair, usize> {
    let line_len = || memchr(b'\n', bytes).unwrap_or(bytes.len());
    let skip = || {
        let line = &bytes[..line_len()];
        memchr(b']', line).map_or(line.len(), |i| i + 1)
    };
    let at = |i: usize| bytes.get(i).copied();
    let blank = |c: u8| c == b' ' || c == b'\t';
    let mut i = 1;
    while at(i).is_some_and(blank) {
        i += 1;
    }
    let name_start = i;
    while at(i).is_some_and(|c| !matches!(c, b' ' | b'\t' | b'"' | b']' | b'\r' | b'\n')) {
        i += 1;
    }
    let name = (name_start, i);
    while at(i).is_some_and(blank) {
        i += 1;
    }
    if name.0 == name.1 || at(i) != Some(b'"') {
        return Err(skip());
    }
    i += 1;
    let value_start = i;
    let mut repaired = false;
    let (value_end, close) = loop {
        let Some(j) = scan::find3(b'"', b'\\', b'\n', &bytes[i..]) else {
            return Err(line_len());
        };
        i += j;
        match bytes[i] {
            b'"' => {
                let mut k = i + 1;
                while at(k).is_some_and(blank) {
                    k += 1;
                }
                if at(k) == Some(b']') {
                    break (i, k);
                }
                // A quote that does not close the tag: part of the value.
                repaired = true;
                i += 1;
            }
            // An escape takes the next byte, unless the line ends there.
            b'\\' if !matches!(at(i + 1), None | Some(b'\n')) => i += 2,
            _ => return Err(line_len()),
        }
    };
    Ok(TagPair {
        name,
        value: (value_start, value_end),
        len: close + 1,
        repaired,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(line: &str) -> Option<(&str, bool)> {
        let tag = parse_tag(line.as_bytes()).ok()?;
        Some((&line[tag.value.0..tag.value.1], tag.repaired))
    }

    #[test]
    fn tag_values_strict_and_repaired() {
        assert_eq!(value("[Event \"Hastings\"]"), Some(("Hastings", false)));
        assert_eq!(
            value("[Event \"a \\\"b\\\"\"]"),
            Some(("a \\\"b\\\"", false))
        );
        assert_eq!(
            value("[White \"\"Socrates Expert\"\"]"),
            Some(("\"Socrates Expert\"", true))
        );
        assert_eq!(
            value("[Annotator \"Lopez \"Battle Royale\"\"]"),
            Some(("Lopez \"Battle Royale\"", true))
        );
        assert_eq!(value("[A \"x\"] [B \"y\"]"), Some(("x", false)));
        assert_eq!(
            value("[A \"x \"y\" z\" ] [B \"w\"]"),
            Some(("x \"y\" z", true))
        );
        // No quote followed by `]` on the line: not a tag pair.
        assert_eq!(value("[A \"x\" y\n\"]"), None);
        assert_eq!(value("[C54]"), None);
        assert_eq!(value("[clk 1:05:23 ]"), None);
    }

    #[test]
    fn lines_inside_real_comments_are_not_game_starts() {
        for line in [
            "[C54]",
            "[clk 1:05:23 ] comment}",
            "['just for fun']",
            "[%clk 0:01:00]",
        ] {
            assert!(!is_game_start(line.as_bytes(), LineKind::Other), "{line}");
        }
        assert!(is_game_start(b"[Event \"x\"]\n", LineKind::Other));
        assert!(is_game_start(
            b"[Event \"x\"] [Site \"y\"] \r\n1. e4",
            LineKind::Other
        ));
        assert!(!is_game_start(b"[Event \"x\"] and more\n", LineKind::Other));
        assert!(!is_game_start(b"[Event \"x\"] 1. e4\n", LineKind::Other));
        assert!(!is_game_start(b"[Site \"x\"]\n", LineKind::Tag));
        assert_eq!(classify(b"{ a comment"), LineKind::Other);
        assert_eq!(classify(b" { a comment }\r\n"), LineKind::Transparent);
        assert_eq!(classify(b"{a} {b}"), LineKind::Other);
        assert_eq!(classify(b"{a} 1. e4"), LineKind::Other);
        assert_eq!(classify(b"  ; note"), LineKind::Transparent);
        assert_eq!(classify(b"1. e4 [C54]"), LineKind::Tag);
    }
}
