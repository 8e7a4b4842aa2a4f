//! What the reader hands to a visitor: raw tokens borrowed from its buffer, and small values.

use std::borrow::Cow;
use std::fmt;

/// Where something is in the input: the byte offset, and the line and column (both from 1;
/// the column counts bytes).
///
/// Offsets are absolute in the input; lines count from where the reader started, which is the
/// start of the file unless reading began at an offset (see [`crate::Reader::range`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Location {
    /// Byte offset in the input.
    pub offset: u64,
    /// Line, from 1.
    pub line: u64,
    /// Column in bytes, from 1.
    pub column: u64,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// The start of a game: its number in the input (from 1) and where its first token is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameStart {
    /// The game's number among the games this reader has read, from 1.
    pub number: u64,
    /// Where the game's first token is.
    pub location: Location,
}

/// A visitor's answer to "go on into this part?": `Skip(true)` skips it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Skip(pub bool);

/// A move token as written (SAN, long form, UCI, castling, null move), with its location.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SanToken<'a> {
    /// The bytes of the token, without annotation glyphs (`!`, `?`, which come as NAGs).
    pub text: &'a [u8],
    /// Where the token starts.
    pub location: Location,
}

impl SanToken<'_> {
    /// The token as text (lossy for the non-ASCII bytes a move never contains).
    pub fn as_str(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(self.text)
    }
}

/// A tag value as written between the quotes, escapes (`\"`, `\\`) not yet resolved.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RawTag<'a>(pub &'a [u8]);

impl<'a> RawTag<'a> {
    /// The bytes as written.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The value with escapes resolved, decoded as UTF-8, or as Latin-1 when it is not valid
    /// UTF-8.
    pub fn decode(&self) -> Cow<'a, str> {
        if !self.0.contains(&b'\\') {
            return decode_text(self.0);
        }
        let mut out = Vec::with_capacity(self.0.len());
        let mut bytes = self.0.iter();
        while let Some(&b) = bytes.next() {
            if b == b'\\'
                && let Some(&next) = bytes.as_slice().first()
                && (next == b'"' || next == b'\\')
            {
                out.push(next);
                bytes.next();
            } else {
                out.push(b);
            }
        }
        Cow::Owned(decode_text(&out).into_owned())
    }
}

/// The text of a comment as written: between `{` and `}`, or after `;` to the end of the line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RawComment<'a>(pub &'a [u8]);

impl<'a> RawComment<'a> {
    /// The bytes as written.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The text decoded as UTF-8, or as Latin-1 when it is not valid UTF-8.
    pub fn decode(&self) -> Cow<'a, str> {
        decode_text(self.0)
    }
}

/// Decodes bytes as UTF-8 when they are valid UTF-8, else as Latin-1 (ISO 8859-1), where every
/// byte is the code point of the same value. The choice is made per token, so a file mixing
/// both encodings still reads right token by token.
pub fn decode_text(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| b as char).collect()),
    }
}

/// A Numeric Annotation Glyph, `$0` to `$255`; the suffix glyphs `!`, `?`, `!!`, `??`, `!?`,
/// `?!` read as `$1` to `$6`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(transparent)]
pub struct Nag(pub u8);

impl Nag {
    /// `!`, a good move.
    pub const GOOD_MOVE: Nag = Nag(1);
    /// `?`, a mistake.
    pub const MISTAKE: Nag = Nag(2);
    /// `!!`, a brilliant move.
    pub const BRILLIANT_MOVE: Nag = Nag(3);
    /// `??`, a blunder.
    pub const BLUNDER: Nag = Nag(4);
    /// `!?`, a speculative move.
    pub const SPECULATIVE_MOVE: Nag = Nag(5);
    /// `?!`, a dubious move.
    pub const DUBIOUS_MOVE: Nag = Nag(6);

    /// The NAG of a suffix glyph (`!`, `?`, `!!`, `??`, `!?`, `?!`).
    ///
    /// ```
    /// use tabla_pgn::Nag;
    /// assert_eq!(Nag::from_glyph(b"!?"), Some(Nag(5)));
    /// assert_eq!(Nag::from_glyph(b"?!?"), None);
    /// ```
    pub fn from_glyph(glyph: &[u8]) -> Option<Nag> {
        Some(match glyph {
            b"!" => Nag::GOOD_MOVE,
            b"?" => Nag::MISTAKE,
            b"!!" => Nag::BRILLIANT_MOVE,
            b"??" => Nag::BLUNDER,
            b"!?" => Nag::SPECULATIVE_MOVE,
            b"?!" => Nag::DUBIOUS_MOVE,
            _ => return None,
        })
    }
}

impl fmt::Display for Nag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}

/// A game's result: the termination marker of the movetext, or what a `Result` tag says
/// (see [`crate::game_result`]). The default is [`Outcome::Unknown`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown, in progress or abandoned.
    #[default]
    Unknown,
}

impl Outcome {
    /// The marker as written in PGN.
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unknown => "*",
        }
    }

    /// Parses `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn from_text(text: &str) -> Option<Outcome> {
        Some(match text {
            "1-0" => Outcome::WhiteWins,
            "0-1" => Outcome::BlackWins,
            "1/2-1/2" => Outcome::Draw,
            "*" => Outcome::Unknown,
            _ => return None,
        })
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_escapes_resolve() {
        assert_eq!(RawTag(br#"a \"b\" c\\d"#).decode(), r#"a "b" c\d"#);
        assert_eq!(RawTag(br"trailing\").decode(), r"trailing\");
    }

    #[test]
    fn latin1_decodes_when_not_utf8() {
        // "Dortmund" with an u-umlaut in Latin-1 (0xFC) and in UTF-8.
        assert_eq!(RawComment(b"M\xfcller").decode(), "M\u{fc}ller");
        assert_eq!(RawComment("M\u{fc}ller".as_bytes()).decode(), "M\u{fc}ller");
    }
}
