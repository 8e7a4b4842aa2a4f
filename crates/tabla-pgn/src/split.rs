//! Reading a byte range of a file: finding where games start (by the rule of
//! [`crate::game_start`]), so that one file can be cut into ranges and each game read by exactly
//! one of them. The sequential reader begins a game at each of these starts too, so cutting at
//! them gives the same games as reading the whole file. Places that only might be game starts
//! (a tag pair in the middle of a line) are not used: that can make ranges uneven, never wrong.

use crate::Reader;
use crate::game_start::{LineKind, classify, is_game_start};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};

/// The offset of the first game start at or after `from` (a line beginning with a well-formed
/// tag pair whose nearest earlier line that is not blank, `%` or `;` is no tag line, the rule the
/// sequential reader follows too), or `None` when there is none before the end. Offset 0 is
/// always a game start.
///
/// ```
/// use std::io::Cursor;
/// use tabla_pgn::find_game_start;
/// let pgn = b"[Event \"a\"]\n[Site \"b\"]\n\n1. e4 *\n\n[Event \"c\"]\n\n1. d4 *\n";
/// let second = pgn.windows(9).position(|w| w == b"[Event \"c").unwrap() as u64;
/// assert_eq!(find_game_start(&mut Cursor::new(&pgn[..]), 1).unwrap(), Some(second));
/// assert_eq!(find_game_start(&mut Cursor::new(&pgn[..]), second).unwrap(), Some(second));
/// assert_eq!(find_game_start(&mut Cursor::new(&pgn[..]), second + 1).unwrap(), None);
/// ```
pub fn find_game_start<R: Read + Seek>(input: &mut R, from: u64) -> io::Result<Option<u64>> {
    if from == 0 {
        return Ok(Some(0));
    }
    let len = input.seek(SeekFrom::End(0))?;
    if from >= len {
        return Ok(None);
    }
    let line_start = start_of_line(input, from)?;
    let mut previous = previous_line_kind(input, line_start)?;
    input.seek(SeekFrom::Start(line_start))?;
    let mut lines = BufReader::with_capacity(64 * 1024, input);
    let mut line = Vec::new();
    let mut offset = line_start;
    loop {
        line.clear();
        let n = lines.read_until(b'\n', &mut line)?;
        if n == 0 {
            return Ok(None);
        }
        let kind = classify(&line);
        if offset >= from && is_game_start(&line, previous) {
            return Ok(Some(offset));
        }
        if kind != LineKind::Transparent {
            previous = kind;
        }
        offset += n as u64;
    }
}

/// Reads `len` bytes at `at`.
fn read_at<R: Read + Seek>(input: &mut R, at: u64, len: usize) -> io::Result<Vec<u8>> {
    input.seek(SeekFrom::Start(at))?;
    let mut buf = vec![0; len];
    input.read_exact(&mut buf)?;
    Ok(buf)
}

/// The offset where the line holding the byte at `at` starts.
fn start_of_line<R: Read + Seek>(input: &mut R, at: u64) -> io::Result<u64> {
    let mut end = at;
    while end > 0 {
        let begin = end.saturating_sub(64 * 1024);
        let chunk = read_at(input, begin, (end - begin) as usize)?;
        if let Some(i) = memchr::memrchr(b'\n', &chunk) {
            return Ok(begin + i as u64 + 1);
        }
        end = begin;
    }
    Ok(0)
}

/// The kind of the nearest non-transparent line ending before `line_start`.
fn previous_line_kind<R: Read + Seek>(input: &mut R, line_start: u64) -> io::Result<LineKind> {
    let mut window = 64 * 1024u64;
    loop {
        let begin = line_start.saturating_sub(window);
        let chunk = read_at(input, begin, (line_start - begin) as usize)?;
        // Lines complete within the chunk: those after its first line end, or all when the
        // chunk starts the input.
        let complete = if begin == 0 {
            &chunk[..]
        } else {
            match memchr::memchr(b'\n', &chunk) {
                Some(i) => &chunk[i + 1..],
                None => &[][..],
            }
        };
        let body = complete.strip_suffix(b"\n").unwrap_or(complete);
        if !complete.is_empty() {
            for line in body.rsplit(|&b| b == b'\n') {
                let kind = classify(line);
                if kind != LineKind::Transparent {
                    return Ok(kind);
                }
            }
        }
        if begin == 0 {
            return Ok(LineKind::Other);
        }
        window *= 2;
    }
}

impl<R: Read + Seek> Reader<R> {
    /// A reader of the games that start in `start..end` of a seekable input: it begins at the
    /// first game start at or after `start` and stops before the first one at or after `end`,
    /// reading the last game to its end even beyond `end`. Cutting a file at any offsets gives
    /// each game to exactly one range.
    ///
    /// Offsets in locations are those of the file; line numbers count from the range's
    /// first game.
    ///
    /// ```
    /// use std::io::Cursor;
    /// use tabla_pgn::Reader;
    /// let pgn = "[Event \"1\"]\n\n1. e4 *\n\n[Event \"2\"]\n\n1. d4 *\n\n[Event \"3\"]\n\n1. c4 *\n";
    /// let cut = pgn.len() as u64 / 2;
    /// let mut events = Vec::new();
    /// for (start, end) in [(0, cut), (cut, pgn.len() as u64)] {
    ///     let mut reader = Reader::range(Cursor::new(pgn), start, end).unwrap();
    ///     for game in reader.games() {
    ///         events.push(game.unwrap().tag("Event").unwrap().to_owned());
    ///     }
    /// }
    /// assert_eq!(events, ["1", "2", "3"]);
    /// ```
    pub fn range(mut inner: R, start: u64, end: u64) -> io::Result<Reader<R>> {
        let stop = find_game_start(&mut inner, end)?;
        let begin = match find_game_start(&mut inner, start)? {
            Some(begin) if stop.is_none_or(|stop| begin < stop) => begin,
            _ => {
                let len = inner.seek(SeekFrom::End(0))?;
                let mut reader = Reader::starting_at(inner, len);
                reader.set_stop(Some(0));
                return Ok(reader);
            }
        };
        inner.seek(SeekFrom::Start(begin))?;
        let mut reader = Reader::starting_at(inner, begin);
        reader.set_stop(stop);
        Ok(reader)
    }
}
