//! The movetext of a game as written: its text after the tag section.

/// The part of a game's text after its tag section, without the blank lines and spaces around
/// it. Tag pairs are `[Name "value"]` (a value may hold `\"`); a line opening with `[` and a
/// letter that is not a well-formed tag pair still belongs to the tag section, as the reader
/// treats it, and so do `%` escape lines.
pub(crate) fn movetext(game: &[u8]) -> &[u8] {
    let mut i = 0;
    loop {
        while i < game.len() && game[i].is_ascii_whitespace() {
            i += 1;
        }
        match game.get(i..i + 2) {
            Some([b'[', c]) if c.is_ascii_alphabetic() => {
                i = match tag_end(&game[i..]) {
                    Some(len) => i + len,
                    None => line_end(game, i),
                };
            }
            Some([b'%', _]) if i == 0 || game[i - 1] == b'\n' => i = line_end(game, i),
            _ => break,
        }
    }
    trim_end(&game[i.min(game.len())..])
}

/// The length of the tag pair at the start of `text`, when it is one on one line.
fn tag_end(text: &[u8]) -> Option<usize> {
    let quote = memchr::memchr(b'"', text)?;
    if memchr::memchr(b'\n', &text[..quote]).is_some() {
        return None;
    }
    let mut i = quote + 1;
    loop {
        match *text.get(i)? {
            b'\\' => i += 2,
            b'"' => break,
            b'\n' => return None,
            _ => i += 1,
        }
    }
    i += 1;
    while text.get(i).is_some_and(|&c| c == b' ' || c == b'\t') {
        i += 1;
    }
    (text.get(i) == Some(&b']')).then_some(i + 1)
}

/// The index just past the line end after `from` (or the end of the text).
fn line_end(text: &[u8], from: usize) -> usize {
    memchr::memchr(b'\n', &text[from..]).map_or(text.len(), |i| from + i + 1)
}

fn trim_end(text: &[u8]) -> &[u8] {
    let end = text
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::movetext;

    #[test]
    fn the_text_after_the_tags() {
        let cases: [(&[u8], &[u8]); 7] = [
            (
                b"[Event \"a\"]\n[Site \"b\"]\n\n1. e4 e5 1-0\n\n",
                b"1. e4 e5 1-0",
            ),
            (b"1. d4 *\n", b"1. d4 *"),
            (
                b"[Event \"a \\\"q\\\" ]\"]\r\n\r\n1. e4 {c} *\r\n",
                b"1. e4 {c} *",
            ),
            (b"[Event \"a\"] 1. e4 *", b"1. e4 *"),
            (b"[Event \"a\"]\n[Bad tag\n% escape\n1. c4 *", b"1. c4 *"),
            (b"[Event \"a\"]\n{before} 1. e4 *", b"{before} 1. e4 *"),
            (b"[Event \"a\"]\n\n", b""),
        ];
        for (game, expected) in cases {
            assert_eq!(
                String::from_utf8_lossy(movetext(game)),
                String::from_utf8_lossy(expected),
                "{:?}",
                String::from_utf8_lossy(game)
            );
        }
    }
}
